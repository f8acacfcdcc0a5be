"""``gametree compare`` side by side: a table, and its JSON form."""

from __future__ import annotations

from typing import Any, Sequence

from rich.table import Table
from rich.text import Text

from .comparison import Comparison
from ..core.numbers import format_value, value_to_json
from ..core.printable import printable
from ..views.words import words

__all__ = ["comparison_table", "comparison_document", "pruned_cell"]


def pruned_cell(row: Comparison, lang: str = "en") -> str:
    """``2 of 13 nodes (15.4%)`` (``2 de 13 nodos`` in Spanish)."""
    of, nodes = ("de", "nodos") if lang == "es" else ("of", "nodes")
    return f"{row.pruned:,} {of} {row.searchable:,} {nodes} ({float(row.pruned_share) * 100:.1f}%)"


def comparison_table(rows: Sequence[Comparison], title: str | None = None, lang: str = "en") -> Table:
    """One row per algorithm: value, best move, nodes visited, leaves evaluated, cut-offs, share pruned.

    The file's words (title, moves) go in as ``Text``, never as markup: ``[b]`` in a move is a move."""
    w = words(lang)
    table = Table(title=None if title is None else Text(printable(title)), header_style="bold")
    table.add_column(w["algorithm"], style="bold")
    table.add_column(w["value"], justify="right")
    table.add_column(w["best_move"])
    table.add_column(w["nodes_visited"], justify="right")
    table.add_column(w["leaves_evaluated"], justify="right")
    table.add_column(w["cutoffs"], justify="right")
    table.add_column("podados" if lang == "es" else "pruned", justify="right")
    for row in rows:
        record = row.record
        if record is None:
            table.add_row(row.algorithm, Text(printable(str(row.error.message if row.error else "")), style="yellow"),
                          "", "", "", "", "")
            continue
        best = record.best_move()
        stats = record.stats
        table.add_row(
            row.algorithm,
            format_value(record.value),
            Text(printable(record.tree.move(best))) if best is not None else "-",
            f"{stats.nodes_visited:,}",
            f"{stats.leaves_evaluated:,}",
            f"{stats.cutoffs:,}",
            pruned_cell(row, lang),
        )
    return table


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
