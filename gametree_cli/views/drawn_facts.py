"""What the labels of a drawn tree say, read from the record for all drawn nodes at once.

Why: the text view of a 1.4-million-node tree draws a few hundred nodes, and
asking the record node by node (its value, bounds, bound sign, cut, whether
the cut skipped anything, its id) cost ~20 µs a label: each question resolves
the node's slot and decoder again, and a cut was worded one at a time. The
drawn nodes are known before any label is made, so each column is read once
for all of them (one ``take`` a column, one read of the flags, the cuts worded together)
and labels are made from plain Python values. A small tree (no NumPy:
tests/test_startup.py) asks the record node by node: the same answers, the
same one reading API (tests/test_drawn_facts.py compares the two).
"""

from __future__ import annotations

from typing import Any

from ..core.buffers import plain_for
from ..core.lazy import lazy_module
from ..core.model import Tree
from ..core.numbers import Value
from ..search.record import SearchRecord
from ..search.record_facts import CUT, HORIZON, LOWER, UPPER, Cut, flags_among, worded_cuts
from .marks import AT_LEAST, AT_MOST, bound_sign

np = lazy_module("numpy")

__all__ = ["DrawnFacts", "drawn_facts", "drawn_ids", "subtree_sizes"]

#: the sign of a bound kind (bits LOWER, UPPER; EXACT and "side unknown" show none)
_SIGNS = {LOWER: AT_LEAST, UPPER: AT_MOST}


class DrawnFacts:
    """Per drawn node, by its position in the list of drawn nodes: what its label shows."""

    __slots__ = ("values", "bounds", "signs", "cuts", "bound_reached", "horizon")

    def __init__(self, size: int) -> None:
        self.values: list[Value | None] = [None] * size
        #: ``record.bounds(node)``
        self.bounds: list[tuple[Value, Value] | None] = [None] * size
        #: :func:`~.marks.bound_sign`
        self.signs: list[str] = [""] * size
        #: ``record.cut(node)``
        self.cuts: list[Cut | None] = [None] * size
        #: ``record.skipped_nothing(node)`` (False where no cut)
        self.bound_reached: list[bool] = [False] * size
        #: ``record.at_horizon(node)``
        self.horizon: list[bool] = [False] * size


def drawn_facts(record: SearchRecord, nodes: list[int]) -> DrawnFacts:
    """The facts of ``nodes`` (distinct), in bulk for a big tree, else (a small or plain one) node by node."""
    if plain_for(record.tree):
        return _one_by_one(record, nodes)
    facts = DrawnFacts(len(nodes))
    wanted = np.array(nodes, dtype=np.int64)
    visited = record.visited_mask(wanted)
    at = np.flatnonzero(visited).tolist()
    for position, value in zip(at, record.values.take(wanted[visited])):
        facts.values[position] = value
    _read_bounds(record, nodes, wanted, facts)
    bits = flags_among(record, wanted)
    count = record.tree.count
    if bits is None:  # searches that build Python values: the record's sets, its one rule for signs
        horizon = record.horizon
        if horizon:
            facts.horizon = [node in horizon for node in nodes]
        for position in at:  # (bound_sign's rule, with the value and horizon read already)
            node = nodes[position]
            if count[node] and not facts.horizon[position]:
                facts.signs[position] = _SIGNS.get(record.bound_kind(node), "")
        cuts = record.cuts
        _read_cuts(record, nodes, {position: cuts[node] for position, node in enumerate(nodes) if node in cuts}, facts)
        return facts
    facts.horizon = ((bits & HORIZON) != 0).tolist()
    kinds = (bits & (LOWER | UPPER)).tolist()
    for position in at:
        if count[nodes[position]] and not facts.horizon[position]:
            facts.signs[position] = _SIGNS.get(kinds[position], "")
    _read_cuts(record, nodes, _flagged_cuts(record, nodes, np.flatnonzero(bits & CUT).tolist(), facts), facts)
    return facts


def _one_by_one(record: SearchRecord, nodes: list[int]) -> DrawnFacts:
    """Each node's facts as the record answers for one node."""
    facts = DrawnFacts(len(nodes))
    for position, node in enumerate(nodes):
        facts.values[position] = record.values[node]
        facts.bounds[position] = record.bounds(node)
        facts.signs[position] = bound_sign(record, node)
        facts.horizon[position] = record.at_horizon(node)
        cut = facts.cuts[position] = record.cut(node)
        facts.bound_reached[position] = cut is not None and record.skipped_nothing(node)
    return facts


def _read_bounds(record: SearchRecord, nodes: list[int], wanted: Any, facts: DrawnFacts) -> None:
    """``record.bounds(node)`` of each node: the alpha and beta columns read once."""
    has, alphas, betas = record.bounds_of(wanted)
    if not len(alphas):
        return
    if record.beta is not None and not bool(record.beta.column.has(wanted)[has].all()):
        for position, node in enumerate(nodes):  # an alpha without a beta: as the record says it
            facts.bounds[position] = record.bounds(node)
        return
    for position, alpha, beta in zip(np.flatnonzero(has).tolist(), alphas, betas):
        facts.bounds[position] = (alpha, beta)


def _flagged_cuts(record: SearchRecord, nodes: list[int], flagged: list[int], facts: DrawnFacts) -> dict[int, Cut]:
    """The cuts at the ``flagged`` positions, worded together from the values and bounds read already
    (where one lacks them, as ``record.cut`` says)."""
    found: dict[int, Cut] = {}
    whole = [position for position in flagged if facts.values[position] is not None and facts.bounds[position] is not None]
    for position in set(flagged).difference(whole):
        cut = record.cut(nodes[position])
        if cut is not None:
            found[position] = cut
    bounds = [facts.bounds[position] for position in whole]
    worded = worded_cuts(record, np.array([nodes[position] for position in whole], dtype=np.int64),
                         [facts.values[position] for position in whole],
                         [pair[0] for pair in bounds], [pair[1] for pair in bounds])  # type: ignore[index]
    for position in whole:
        found[position] = worded[nodes[position]]
    return found


def _read_cuts(record: SearchRecord, nodes: list[int], found: dict[int, Cut], facts: DrawnFacts) -> None:
    """``record.cut`` (``found``, by position) and ``record.skipped_nothing`` of each node: the children of
    the cut nodes checked in one visited mask."""
    if not found:
        return
    tree = record.tree
    first, count = tree.first, tree.count
    asked = [position for position in sorted(found) if not found[position].value_name.startswith("probed")]
    ranges = [(first[nodes[position]], count[nodes[position]]) for position in asked]
    children = np.array([child for start, size in ranges for child in range(start, start + size)], dtype=np.int64)
    visited = record.visited_mask(children).tolist()
    for position, cut in found.items():
        facts.cuts[position] = cut
    offset = 0
    for position, (_, size) in zip(asked, ranges):
        facts.bound_reached[position] = all(visited[offset:offset + size])
        offset += size


def drawn_ids(tree: Tree, nodes: list[int], ups: list[int]) -> list[str]:
    """``tree.node_id`` of each node, ``ups[i]`` being the position in ``nodes`` of node ``i``'s parent
    (-1: none drawn). Without ids in the file, a child's id is its parent's and its position (the
    contract's rule; an unnamed root gives no prefix), made from the parent's drawn before it."""
    if tree.explicit_ids:
        return [tree.node_id(node) for node in nodes]
    first = tree.first
    ids: list[str] = []
    for node, up in zip(nodes, ups):
        if up < 0:
            ids.append(tree.node_id(node))
            continue
        parent = nodes[up]
        position = node - first[parent] + 1
        ids.append(f"{ids[up]}.{position}" if parent else str(position))
    return ids


def subtree_sizes(tree: Tree, nodes: list[int]) -> list[int]:
    """``tree.subtree_size(node)`` of each node: its rule (a level of the subtree is one block of
    numbers, the next level's block read from the running sums of the child counts) stepped for all
    nodes at once in a big tree, where the text view asks it of each of a few hundred nodes."""
    if plain_for(tree) or not nodes:
        return [tree.subtree_size(node) for node in nodes]
    sums: Any = tree.running_sums()  # an array or a typed view of NumPy's memory, int32 or int64: no copy
    totals = np.frombuffer(sums, dtype=getattr(sums, "format", None) or sums.typecode)
    low = np.array(nodes, dtype=np.int64)
    high, sizes = low + 1, np.zeros(len(nodes), dtype=np.int64)
    while True:
        widths = high - low
        if not bool((widths > 0).any()):
            return sizes.tolist()  # type: ignore[no-any-return]
        sizes += widths  # (0 for a subtree whose last level was passed: never negative)
        low, high = 1 + totals[low], 1 + totals[high]
