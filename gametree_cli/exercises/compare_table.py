"""``gametree compare`` side by side: a table, and its JSON form."""

from __future__ import annotations

from typing import Any, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from .comparison import Comparison
from ..core.numbers import format_value, value_to_json
from ..core.printable import printable
from ..views.words import words

__all__ = ["ComparisonView", "comparison_table", "comparison_document", "fitted_widths", "pruned_cell"]


def pruned_cell(row: Comparison, lang: str = "en") -> str:
    """``2 of 13 nodes (15.4%)`` (``2 de 13 nodos`` in Spanish)."""
    of, nodes = ("de", "nodos") if lang == "es" else ("of", "nodes")
    return f"{row.pruned:,} {of} {row.searchable:,} {nodes} ({float(row.pruned_share) * 100:.1f}%)"


_WHOLE, _WORDS = "whole", "words"  # a cell never split (names, values, counts) / one that may wrap between words
_COLUMNS = (("algorithm", "left", _WHOLE), ("value", "right", _WHOLE), ("best_move", "left", _WORDS),
            ("nodes_visited", "right", _WHOLE), ("leaves_evaluated", "right", _WHOLE), ("cutoffs", "right", _WHOLE),
            ("pruned", "right", _WORDS))


def _cells(rows: Sequence[Comparison], lang: str) -> list[list[str | Text]]:
    """Each algorithm's seven cells; the file's words (moves, errors) as ``Text``, never as markup."""
    cells: list[list[str | Text]] = []
    for row in rows:
        record = row.record
        if record is None:
            message = Text(printable(str(row.error.message if row.error else "")), style="yellow")
            cells.append([row.algorithm, message, "", "", "", "", ""])
            continue
        best = record.best_move()
        stats = record.stats
        cells.append([row.algorithm, format_value(record.value),
                      Text(printable(record.tree.move(best))) if best is not None else "-",
                      f"{stats.nodes_visited:,}", f"{stats.leaves_evaluated:,}", f"{stats.cutoffs:,}",
                      pruned_cell(row, lang)])
    return cells


def _plain(cell: str | Text) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def _longest_word(text: str) -> int:
    return max((cell_len(word) for word in text.split()), default=0)


def fitted_widths(headers: Sequence[str], cells: Sequence[Sequence[str | Text]], kinds: Sequence[str],
                  available: int) -> list[int] | None:
    """Column widths (without padding) for a boxed table in ``available`` cells, or None if it cannot fit.

    A column is never narrower than its longest header word nor than its widest unsplittable cell
    (a whole name, value or count; the longest word of the others); the room left goes first to the
    columns that need least to show whole, so fewer cells wrap. Rich's own squeezing ignores those
    minimums and crops (``expectim…``), hence fixed widths."""
    columns = list(zip(*cells)) if cells else [() for _ in headers]
    least = [max([_longest_word(header)] + [cell_len(_plain(c)) if kind == _WHOLE
                                             else _longest_word(_plain(c)) for c in column])
             for header, column, kind in zip(headers, columns, kinds)]
    most = [max([cell_len(header)] + [cell_len(_plain(c)) for c in column]) for header, column in zip(headers, columns)]
    spare = available - (3 * len(headers) + 1) - sum(least)  # a space each side and a border between and around
    if spare < 0:
        return None
    widths = list(least)
    for index in sorted(range(len(widths)), key=lambda i: most[i] - least[i]):
        grow = min(spare, most[index] - least[index])
        widths[index] += grow
        spare -= grow
    return widths


class ComparisonView:
    """``compare``'s table where it fits whole; on a narrower console one block per algorithm.

    Names and values are never cropped nor split: a table row that cannot hold them gives way
    to ``name`` followed by its measures, one per line."""

    def __init__(self, rows: Sequence[Comparison], title: str | None = None, lang: str = "en") -> None:
        self.title, self.lang = title, lang
        self.cells = _cells(rows, lang)
        w = words(lang)
        self.headers = [w[key] if key != "pruned" else ("podados" if lang == "es" else "pruned") for key, _, _ in _COLUMNS]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths = fitted_widths(self.headers, self.cells, [kind for _, _, kind in _COLUMNS], options.max_width)
        if widths is not None:
            yield self._table(widths)
            return
        if self.title is not None:
            yield Text(printable(self.title), style="italic", overflow="fold")
        for cells in self.cells:
            yield Text(cells[0], style="bold", overflow="fold")
            grid = Table.grid(padding=(0, 0, 0, 2))
            grid.add_column(style="dim", overflow="fold")
            grid.add_column(overflow="fold")
            for header, cell in zip(self.headers[1:], cells[1:]):
                if _plain(cell):
                    grid.add_row(header, cell)
            yield grid

    def _table(self, widths: Sequence[int]) -> Table:
        table = Table(title=None if self.title is None else Text(printable(self.title)), header_style="bold")
        for header, (key, justify, _), width in zip(self.headers, _COLUMNS, widths):
            table.add_column(header, justify=justify, width=width,  # type: ignore[arg-type]
                             overflow="fold", style="bold" if key == "algorithm" else None)
        for cells in self.cells:
            table.add_row(*cells)
        return table


def comparison_table(rows: Sequence[Comparison], title: str | None = None, lang: str = "en") -> ComparisonView:
    """One row per algorithm: value, best move, nodes visited, leaves evaluated, cut-offs, share pruned.

    The file's words (title, moves) go in as ``Text``, never as markup: ``[b]`` in a move is a move."""
    return ComparisonView(rows, title, lang)


def comparison_document(rows: Sequence[Comparison]) -> dict[str, Any]:
    """``compare --format json``: one entry per algorithm."""
    entries = []
    for row in rows:
        record = row.record
        if record is None:
            entries.append({"algorithm": row.algorithm, "error": row.error.message if row.error else None})
            continue
        best = record.best_move()
        entries.append({
            "algorithm": row.algorithm,
            "value": value_to_json(record.value) if record.value is not None else None,
            "best_move": record.tree.move(best) if best is not None else None,
            "stats": record.stats.as_dict(),
            "pruned": [record.tree.node_id(node) for node in record.pruned],
            "pruned_nodes": row.pruned,
            "searchable_nodes": row.searchable,
            "pruned_share": float(row.pruned_share),
        })
    return {"algorithms": entries}
