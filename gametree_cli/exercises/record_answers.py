"""What ``check`` compares an exercise's answers with: the search record, read key by key.

Why not the JSON result document: a check asks a few answers of a search
(the value, the pruned set, a handful of nodes), so it reads those from the
record and builds the entries of the nodes it is asked about only, with the
same definition of an entry the JSON writer uses
(:func:`~gametree_cli.views.node_entries.entry_columns`).
"""

from __future__ import annotations

from typing import Any

from ..core.buffers import plain_for
from ..core.lazy import lazy_module
from ..core.numbers import value_to_json
from ..search.record import SearchRecord
from ..views.node_entries import entry_columns, entry_dicts
from ..views.record_view import RecordView
from ..views.result_small import node_entry

np = lazy_module("numpy")

__all__ = ["RecordAnswers"]


class RecordAnswers:
    """The answers of a search under the JSON result's keys, in node ids and moves."""

    def __init__(self, record: SearchRecord) -> None:
        self.record = record
        self.tree = record.tree
        self.algorithm = record.algorithm

    def get(self, key: str) -> Any:
        """The search's answer to ``key`` (``value``, ``best_move``, ``pruned``, ...); None when it has none."""
        record, tree = self.record, self.tree
        if key == "value":  # in the JSON result's form: a payoff vector as a list, 7/3 as "7/3"
            return None if record.value is None else value_to_json(record.value)
        if key == "best_move":
            best = record.best_move()
            return None if best is None else record.move(best)
        if key == "best_moves":
            moves = record.best_moves()
            return None if moves is None else record.moves(moves)
        if key == "principal_variation":
            return record.moves(record.principal_variation())
        if key == "pruned":
            return [tree.node_id(node) for node in record.pruned]
        if key == "visit_order":
            return [tree.node_id(node) for node in record.visit_order()]
        if key == "stats":
            return record.stats.as_dict()
        if key == "depth":
            return record.depth_limit
        if key == "algorithm":
            return record.algorithm
        if key == "players":
            return list(tree.players)
        return None

    def has_best_moves(self) -> bool:
        """Whether the search's own values tell every equally good root move (docs/solving.md)."""
        return self.record.best_moves() is not None

    def nodes(self, node_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The JSON result's entries of just these nodes."""
        numbers = [self.tree.index(node_id) for node_id in node_ids]
        if plain_for(self.tree):  # node by node, without NumPy (views/result_small.py: the same entries)
            return {node_id: node_entry(self.record, node) for node_id, node in zip(node_ids, numbers)}
        chunk = np.array(numbers, dtype=np.int64)
        entries = entry_dicts(entry_columns(RecordView(self.record), chunk)) if len(numbers) else []
        return dict(zip(node_ids, entries))
