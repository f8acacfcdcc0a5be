"""What a view writes before a value that is a bound, and whether a cut pruned anything.

Why apart: the text tree, the pictures and (through the record) the
browser page show the same facts the same way. A node whose search was cut
holds a bound, not its value (AIMA fig. 5.5 writes ``≤ 2``): ``≥`` when the
true value is at least the one shown, ``≤`` when at most. Read from the
record's bound kinds (:meth:`~gametree_cli.search.record.SearchRecord.bound_kind`,
which for a search that builds Python values, Star1 or shallow pruning, takes
a cut node's side from its cut).
"""

from __future__ import annotations

from ..search.record import LOWER, UPPER, SearchRecord

__all__ = ["bound_sign", "AT_LEAST", "AT_MOST"]

AT_LEAST, AT_MOST = "≥", "≤"


def bound_sign(record: SearchRecord, node: int) -> str:
    """``≥`` / ``≤`` when the node's value is a lower / upper bound, ``""`` when it is exact (or unknown)."""
    tree = record.tree
    if tree.count[node] == 0 or record.values[node] is None or record.at_horizon(node):
        return ""
    kind = record.bound_kind(node)
    return AT_LEAST if kind == LOWER else AT_MOST if kind == UPPER else ""
