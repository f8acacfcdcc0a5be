"""What the labels of a drawn tree say, read from the record for all drawn nodes at once.

Why: the text view of a 1.4-million-node tree draws a few hundred nodes, and
asking the record node by node (its value, bounds, bound sign, cut, whether
the cut skipped anything, its id) cost ~20 µs a label: each question resolves
the node's slot and decoder again, and a cut was worded one at a time. The
drawn nodes are known before any label is made, so each column is read once
for all of them (one ``take``, one :func:`~gametree_cli.search.record_facts.cuts_among`)
and labels are made from plain Python values. A small tree (no NumPy:
tests/test_startup.py) asks the record node by node: the same answers, the
same one reading API (tests/test_drawn_facts.py compares the two).
"""

from __future__ import annotations

from typing import Any

from ..core.buffers import is_small
from ..core.lazy import lazy_module
from ..core.model import Tree
from ..core.numbers import Value
from ..search.record import SearchRecord
from ..search.record_facts import Cut, cuts_among
from .marks import AT_LEAST, AT_MOST, bound_sign

np = lazy_module("numpy")

__all__ = ["DrawnFacts", "drawn_facts", "drawn_ids", "subtree_sizes"]

#: bound_kind bits (search/record_facts.py): LOWER, UPPER
_SIGNS = {1: AT_LEAST, 2: AT_MOST}


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
    """The facts of ``nodes`` (distinct), in bulk for a big tree, else node by node."""
    if is_small(len(record.tree.kind)):
        return _one_by_one(record, nodes)
    facts = DrawnFacts(len(nodes))
    tree, horizon = record.tree, record.horizon
    facts.horizon = [node in horizon for node in nodes] if horizon else facts.horizon
    wanted = np.array(nodes, dtype=np.int64)
    visited = record.visited_mask(wanted)
    at = np.flatnonzero(visited).tolist()
    for position, value in zip(at, record.values.take(wanted[visited])):
        facts.values[position] = value
    _read_bounds(record, nodes, wanted, facts)
    _read_signs(record, nodes, wanted, at, facts)
    _read_cuts(record, nodes, wanted, facts)
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


def _read_signs(record: SearchRecord, nodes: list[int], wanted: Any, at: list[int], facts: DrawnFacts) -> None:
    """:func:`~.marks.bound_sign` of each visited inner node not at the horizon; the flags' bits in bulk."""
    count, horizon = record.tree.count, facts.horizon
    asked = [position for position in at if count[nodes[position]] and not horizon[position]]
    if not asked:
        return
    if record.flags is None:  # searches that build Python values: the record's one rule, node by node
        for position in asked:
            facts.signs[position] = bound_sign(record, nodes[position])
        return
    kinds = record.bound_kinds(wanted[asked]).tolist()
    for position, kind in zip(asked, kinds):
        facts.signs[position] = _SIGNS.get(kind, "")


def _read_cuts(record: SearchRecord, nodes: list[int], wanted: Any, facts: DrawnFacts) -> None:
    """``record.cut`` and ``record.skipped_nothing`` of each node: the cuts worded together, and the
    children of the cut nodes checked in one visited mask."""
    found = cuts_among(record, wanted)
    if found is None:
        cuts = record.cuts
        found = {node: cuts[node] for node in nodes if node in cuts}
    if not found:
        return
    tree = record.tree
    first, count = tree.first, tree.count
    cut_at = [position for position, node in enumerate(nodes) if node in found]
    asked = [position for position in cut_at if not found[nodes[position]].value_name.startswith("probed")]
    ranges = [(first[nodes[position]], count[nodes[position]]) for position in asked]
    children = np.array([child for start, size in ranges for child in range(start, start + size)], dtype=np.int64)
    visited = record.visited_mask(children).tolist()
    for position in cut_at:
        facts.cuts[position] = found[nodes[position]]
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
    if is_small(len(tree.kind)) or not nodes:
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
