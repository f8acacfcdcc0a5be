"""What a view writes before a value that is a bound, and whether a cut pruned anything.

Why apart: the text tree, the pictures and (through the record) the
browser page show the same facts the same way. A node whose search was cut
holds a bound, not its value (AIMA fig. 5.5 writes ``≤ 2``): ``≥`` when the
true value is at least the one shown, ``≤`` when at most. Read from the
record's bound kinds (:meth:`~gametree_cli.search.record.SearchRecord.bound_kind`);
a search that builds Python values (Star1, shallow pruning) keeps no bound
kinds, so there a cut node's side follows from its cut.
"""

from __future__ import annotations

from ..core.model import MAX, MIN
from ..search.record import LOWER, UPPER, SearchRecord

__all__ = ["bound_sign", "AT_LEAST", "AT_MOST"]

AT_LEAST, AT_MOST = "≥", "≤"


def bound_sign(record: SearchRecord, node: int) -> str:
    """``≥`` / ``≤`` when the node's value is a lower / upper bound, ``""`` when it is exact (or unknown)."""
    tree = record.tree
    if tree.count[node] == 0 or record.values[node] is None or record.at_horizon(node):
        return ""
    if record.flags is not None:
        kind = record.bound_kind(node)
        return AT_LEAST if kind == LOWER else AT_MOST if kind == UPPER else ""
    cut = record.cut(node)
    if cut is None:
        return ""
    if cut.value_name in ("upper", "lower"):  # Star1 at a chance node: the bound that met the window
        return AT_MOST if cut.value_name == "upper" else AT_LEAST
    kind = tree.kind[node]
    return AT_LEAST if kind == MAX else AT_MOST if kind == MIN else ""
