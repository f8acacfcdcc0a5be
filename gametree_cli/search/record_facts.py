"""The small facts a search record is made of, and what the depth-first search's flags say.

Why apart from :mod:`gametree_cli.search.record`: the counters, the cut reason and
the per-visit flag bits are plain values every search uses; turning the
depth-first search's compact output (flags, cut positions) into reasons and
pruned subtrees is bulk work a view asks for once, not per node.
"""

from __future__ import annotations

from array import array

from typing import Any, NamedTuple

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.model import MAX, Tree
from ..core.numbers import Value, format_value
from ..core.buffers import as_numpy
from ..core.numeric import int64_view

__all__ = ["Stats", "Cut", "EXACT", "LOWER", "UPPER", "CUT", "HORIZON", "cut_reasons", "cut_form", "skipped_children",
           "one_cut", "ONE_CUT_FROM", "flags_among", "worded_cuts", "pruned_before", "pruned_count"]

#: bound kind of a value (bits of ``flags``): exact, or a bound the search left
#: (LOWER: the true value is at least this; UPPER: at most; both: a bound, side unknown)
EXACT, LOWER, UPPER = 0, 1, 2
#: the pruning condition held at the node / the node was evaluated by ``eval`` at the depth limit
CUT, HORIZON = 4, 8


class Stats(NamedTuple):
    """Counters of a search (contract section 3, ``stats``); a NamedTuple, not a dataclass: ``dataclasses``
    imports ``inspect`` (start-up, docs/performance.md)."""

    nodes_visited: int = 0
    leaves_evaluated: int = 0
    cutoffs: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"nodes_visited": self.nodes_visited, "leaves_evaluated": self.leaves_evaluated, "cutoffs": self.cutoffs}


class Cut(NamedTuple):
    """Why the search stopped looking at a node's remaining children.

    ``value`` compared ``op`` against the bound ``bound_name`` = ``bound``;
    ``returns`` is what the node then returned.
    """

    value: Value
    op: str
    bound_name: str
    bound: Value
    returns: Value
    value_name: str = "v"

    def reason(self) -> str:
        return f"{self.value_name}={format_value(self.value)} {self.op} {self.bound_name}={format_value(self.bound)}"


def cut_reasons(tree: Tree, nodes: np.ndarray, values: list[Value], alphas: list[Value], betas: list[Value],
                strict: bool, hard: bool, practical: bool = False) -> dict[int, Cut]:
    """Each alpha-beta cut's reason, from the node's value and the bounds it returned with.

    Fail-soft: ``v`` met the other side's bound (``v >= beta`` at max) and
    was returned. Fail-hard: the node's own bound met the other one
    (``alpha >= beta`` at max) and the other was returned; in the notes'
    practical form (``hard`` and ``practical``) its own was returned.
    """
    ops = {True: ">" if strict else ">=", False: "<" if strict else "<="}
    kind = tree.kind
    cuts = {}
    for node, value, alpha, beta in zip(nodes.tolist(), values, alphas, betas):
        is_max = kind[node] == MAX
        if hard:
            cut = Cut(alpha, ops[True], "beta", beta, alpha if practical else beta, "alpha") if is_max else \
                Cut(beta, ops[False], "alpha", alpha, beta if practical else alpha, "beta")
        else:
            cut = Cut(value, ops[True], "beta", beta, value) if is_max else Cut(value, ops[False], "alpha", alpha, value)
        cuts[node] = cut
    return cuts


#: a record of at least this many nodes words a cut when asked for it (:func:`one_cut`), not all at once
ONE_CUT_FROM = 1 << 12


def one_cut(record: Any, node: int) -> Cut | None:
    """``record.cut(node)`` of a depth-first search's record, from its flags, wording that cut alone.

    Why: ``record.cuts`` words every cut (20,748 in alpha-beta's 1.4·10^6-node
    tree) and the text view asks for the few hundred it draws. After
    :data:`ONE_CUT_FROM` questions (a view asking for every cut) all are worded at once.
    """
    record._cut_questions = getattr(record, "_cut_questions", 0) + 1
    alpha, beta = record._alpha, record._beta
    if record._cut_questions > ONE_CUT_FROM or alpha is None or beta is None:
        return record.cuts.get(node)  # type: ignore[no-any-return]
    slot = record._slot(node)
    if slot < 0 or not int(record.flags[slot]) & CUT:
        return None
    variant = record.options.get("variant")
    return cut_reasons(record.tree, array("q", [node]), [record.values[node]], [alpha[node]],
                       [beta[node]], bool(record.options.get("strict")), variant in ("hard", "practical"),
                       variant == "practical")[node]


def flags_among(record: Any, nodes: np.ndarray) -> np.ndarray | None:
    """Per node of ``nodes`` (int64) its flag bits (uint8, 0 where never visited), when they are the
    record's word on bounds, cuts and the horizon (a depth-first search's record, which was handed no
    cuts or horizon of its own); else None (then ask the record node by node).

    Why: the text view draws a few hundred nodes of a big tree; one read of their flags answers
    ``bound_kind``, ``cut`` (is there one) and ``at_horizon`` for all (views/drawn_facts.py)."""
    if record.flags is None or record._cuts is not None or record._horizon is not None:
        return None
    slots = record.values.slots(nodes)
    here = np.flatnonzero(slots >= 0)
    bits = np.zeros(len(nodes), dtype=np.uint8)
    bits[here] = as_numpy(record.flags)[slots[here]]
    return bits


def worded_cuts(record: Any, nodes: np.ndarray, values: list[Value], alphas: list[Value],
                betas: list[Value]) -> dict[int, Cut]:
    """The cuts at ``nodes`` (flagged CUT, int64), worded as ``record.cut`` words them, from their values
    and bounds already read."""
    variant = record.options.get("variant")
    return cut_reasons(record.tree, nodes, values, alphas, betas, bool(record.options.get("strict")),
                       variant in ("hard", "practical"), variant == "practical")


def cut_form(is_max: bool, strict: bool, hard: bool) -> tuple[str, str, str]:
    """How :func:`cut_reasons` words a cut at a max (or min) node: ``(value_name, op, bound_name)``,
    each name ``v``, ``alpha`` or ``beta`` (for views that word many cuts at once)."""
    op = (">" if strict else ">=") if is_max else ("<" if strict else "<=")
    if hard:
        return ("alpha", op, "beta") if is_max else ("beta", op, "alpha")
    return ("v", op, "beta") if is_max else ("v", op, "alpha")


def skipped_children(tree: Tree, cut_at: Any, child_order: Any) -> list[int]:
    """The children each cut skipped (``cut_at``: rows of node, children entered, in an int64 array, or
    a list of pairs for a small tree), cut after cut: that is tree order when children were searched in
    file order; otherwise sorted into it."""
    if child_order is None and isinstance(cut_at, list):  # a small tree's few cuts
        first, count = tree.first, tree.count
        return [child for node, position in cut_at for child in range(first[node] + position, first[node] + count[node])]
    if child_order is None:  # each cut skipped a range of children: all the ranges at once
        nodes, positions = cut_at[:, 0], cut_at[:, 1]
        starts = int64_view(tree.first)[nodes] + positions
        lengths = int64_view(tree.count)[nodes] - positions
        offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        return (np.repeat(starts, lengths) + offsets).tolist()  # type: ignore[no-any-return]
    skipped: list[int] = []
    for node, position in (cut_at if isinstance(cut_at, list) else cut_at.tolist()):
        start = tree.first[node]
        skipped.extend(start + offset for offset in child_order[node][position:])
    rank = {node: position for position, node in enumerate(tree.preorder())}
    skipped.sort(key=rank.__getitem__)
    return skipped


def _cut_rows(record: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """Per cut of a big depth-first record searched in file order, its node and how many children it
    entered (int64); None for any other record (its :attr:`pruned` list is then the answer)."""
    cut_at = record._cut_at
    if record._pruned is not None or cut_at is None or isinstance(cut_at, list) or record._child_order is not None:
        return None
    return cut_at[:, 0], cut_at[:, 1]


def _listed_cuts(record: Any) -> list[tuple[int, int]] | None:
    """The cut rows of a small or plain depth-first record searched in file order, as a list of pairs
    (:func:`_cut_rows`' for a NumPy one); None for any other record."""
    cut_at = record._cut_at
    if record._pruned is None and isinstance(cut_at, list) and record._child_order is None:
        return cut_at
    return None


def pruned_count(record: Any) -> int:
    """``len(record.pruned)``, without listing them when the cuts say how many: each cut skipped
    its node's children past those it entered."""
    listed = _listed_cuts(record)
    if listed is not None:
        count = record.tree.count
        return sum(count[node] - position for node, position in listed)
    rows = _cut_rows(record)
    if rows is None:
        return len(record.pruned)
    nodes, positions = rows
    return int(int64_view(record.tree.count)[nodes].sum()) - int(positions.sum())


def pruned_before(record: Any, end: int) -> set[int]:
    """The roots of pruned subtrees numbered below ``end``: those of the top levels a text view draws
    (breadth-first numbering), of ``record.pruned``.

    Why: alpha-beta prunes 39,188 subtrees of a 1.4-million-node tree, and listing them all and
    hashing the list cost the text view ~4 ms to draw a few hundred nodes (docs/performance.md,
    issue 14.3); the cuts at nodes below ``end`` are few (a child is numbered after its parent, so
    no other cut skipped a child below ``end``), and only their ranges are read."""
    listed = _listed_cuts(record)
    if listed is not None:
        first, count = record.tree.first, record.tree.count
        return {child for node, position in listed if node < end
                for child in range(first[node] + position, min(first[node] + count[node], end))}
    rows = _cut_rows(record)
    if rows is None:
        return {node for node in record.pruned if node < end}
    near = np.flatnonzero(rows[0] < end)
    nodes, positions = rows[0][near], rows[1][near]
    starts = (int64_view(record.tree.first)[nodes] + positions).tolist()
    ends = (int64_view(record.tree.first)[nodes] + int64_view(record.tree.count)[nodes]).tolist()
    return {child for start, stop in zip(starts, ends) for child in range(start, min(stop, end))}
