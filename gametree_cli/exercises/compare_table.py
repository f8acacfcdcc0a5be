"""``gametree compare`` side by side: a table, and its JSON form."""

from __future__ import annotations

from typing import Any, Sequence

from rich.table import Table
from rich.text import Text

from .comparison import Comparison
from ..core.numbers import format_value, value_to_json

__all__ = ["comparison_table", "comparison_document", "pruned_cell"]


def pruned_cell(row: Comparison) -> str:
    """``2 of 13 nodes (15.4%)``."""
    return f"{row.pruned:,} of {row.searchable:,} nodes ({float(row.pruned_share) * 100:.1f}%)"


def comparison_table(rows: Sequence[Comparison], title: str | None = None) -> Table:
    """One row per algorithm: value, best move, nodes visited, leaves evaluated, cut-offs, share pruned."""
    table = Table(title=title, header_style="bold")
    table.add_column("algorithm", style="bold")
    table.add_column("value", justify="right")
    table.add_column("best move")
    table.add_column("nodes visited", justify="right")
    table.add_column("leaves evaluated", justify="right")
    table.add_column("cut-offs", justify="right")
    table.add_column("pruned", justify="right")
    for row in rows:
        record = row.record
        if record is None:
            table.add_row(row.algorithm, Text(str(row.error.message if row.error else ""), style="yellow"), "", "", "", "", "")
            continue
        best = record.best_move()
        stats = record.stats
        table.add_row(
            row.algorithm,
            format_value(record.value),
            record.tree.move(best) if best is not None else "-",
            f"{stats.nodes_visited:,}",
            f"{stats.leaves_evaluated:,}",
            f"{stats.cutoffs:,}",
            pruned_cell(row),
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
