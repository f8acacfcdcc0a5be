"""Minimax and alpha-beta for two-player (and max-only) trees.

Preconditions: every inner node is ``max`` or ``min`` (no chance nodes, two
players); values are from MAX's point of view. Ties go to the first child in
search order (file order unless ``--order``).

Both are one depth-first search (:mod:`.search`): alpha-beta, and minimax
as the same walk without pruning. The only other path is minimax's NumPy
level sweep (:mod:`.sweep`), taken for the values of a big exhaustive
search that nobody observes, where it is several times faster and keeps
8 bytes a node; both fill the same record.

References: Russell & Norvig, *AIMA* 3rd ed., fig. 5.3 (MINIMAX-DECISION) and
fig. 5.7 (ALPHA-BETA-SEARCH, the "fail-soft" form that returns ``v``); Knuth
& Moore, "An analysis of alpha-beta pruning" (1975).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.buffers import new_array, plain_for, slot_table
from ..core.columns import Column
from .events import CALL, CUT, LEAF, RETURN, Event, Observer
from ..core.model import MAX, Tree
from .record import SearchRecord, Stats

__all__ = ["minimax", "alphabeta", "SWEEP_FROM"]

#: minimax takes the NumPy sweep from this many nodes on, when nobody observes it (docs/performance.md: from
#: 2·10^4 nodes on it is 2-5x faster than the compiled walk, 80x the uncompiled one; below a few thousand
#: nodes both take well under a millisecond). The sweep itself declines narrow trees and non-NumPy values.
SWEEP_FROM = 4096


def minimax(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None) -> SearchRecord:
    """Exhaustive minimax: every node within the depth limit gets its exact value.

    The depth-first walk without pruning; for a tree of :data:`SWEEP_FROM`
    nodes or more that nobody observes, the NumPy level sweep when it can
    hold the values (the same record: values, stats, horizon; no bounds).
    """
    if observer is None and len(tree.kind) >= SWEEP_FROM and not tree.plain:
        from .sweep import sweep

        record = sweep(tree, depth_limit)
        if record is not None:
            return record
    return depth_first("minimax", tree, depth_limit, observer, prune=False)


def alphabeta(
    tree: Tree,
    *,
    depth_limit: int | None = None,
    observer: Observer | None = None,
    variant: str = "soft",
    strict: bool = False,
    child_order: Sequence[Sequence[int]] | None = None,
) -> SearchRecord:
    """Alpha-beta search.

    Args:
        depth_limit: stop this many plies below the root and use ``eval``.
        observer: receives every call, leaf, cut and return.
        variant: ``"soft"`` (AIMA, the contract's default: prune on
            ``v >= beta`` / ``v <= alpha`` and return ``v``), ``"hard"``
            (classic fail-hard: keep alpha/beta, return ``beta`` / ``alpha``
            on a cut and the node's own bound otherwise) or ``"practical"``
            (the course notes' form: keep alpha/beta, prune on
            ``beta <= alpha`` and return the node's own bound, cut or not).
        strict: prune only on ``>`` / ``<`` (some courses grade this way).
        child_order: per node, the order to search its children in (default:
            file order); see ``--order``.

    Returns:
        The record; values of visited nodes are what each call returned
        (bounds, not exact values, below a cut-off: see
        :meth:`~gametree_cli.search.record.SearchRecord.bound_kind`).
    """
    return depth_first("alphabeta", tree, depth_limit, observer, prune=True, hard=variant in ("hard", "practical"),
                       strict=strict, child_order=child_order, options={"variant": variant, "strict": strict},
                       practical=variant == "practical")


def depth_first(name: str, tree: Tree, depth_limit: int | None, observer: Observer | None, *, prune: bool,
                hard: bool = False, strict: bool = False, child_order: Any = None,
                options: dict[str, Any] | None = None, practical: bool = False) -> SearchRecord:
    """Run :func:`.search.walk` on ``tree`` and make its record."""
    from . import depth_first as search
    from .keys import comparison_keys

    n = len(tree.kind)
    plain = plain_for(tree)
    key = comparison_keys(tree, depth_limit)
    # array.array for a small tree (no NumPy to load), np.empty for a big one, plain memory for a plain one
    # (core/buffers.py)
    order, value, flags = new_array(n, "q", n, plain), new_array(n, "q", n, plain), new_array(n, "B", n, plain)
    alpha, beta, cut_at = (new_array(size, "q", n, plain) for size in ((n, n, 2 * n) if prune else (1, 1, 1)))
    report = None if observer is None else _Reporter(tree, observer, prune, hard, strict, child_order)
    buffers = tuple(map(memoryview, (order, value, alpha, beta, flags, cut_at)))
    # walk() takes the limit as a C long long: one of n or more plies is no limit (no path has n edges),
    # and says so, where --depth 2**63 overflowed and was reported as a decimal's range
    unlimited = depth_limit is None or depth_limit >= n
    visits, leaves, cutoffs = search.walk(tree.kind, _int64(tree.first), _int64(tree.count), memoryview(key),
                                          -1 if unlimited else depth_limit, prune, hard, strict,
                                          child_order, report, buffers, practical)
    order = order[:visits]
    slot_of = slot_table(order, n, plain)
    values = Column.sources(tree, value[:visits], slot_of)
    bounds = [Column.sources(tree, column[:visits], slot_of) for column in (alpha, beta)] if prune else [None, None]
    cut_rows = cut_at[: 2 * cutoffs]
    cut_rows = list(zip(cut_rows[0::2], cut_rows[1::2])) if plain else cut_rows.reshape(-1, 2)
    return SearchRecord(name, tree, values[0], values, stats=Stats(visits, leaves, cutoffs), alpha=bounds[0],
                        beta=bounds[1], order=order, depth_limit=depth_limit, options=options or {},
                        flags=flags[:visits], cut_at=cut_rows, child_order=child_order)


def _int64(data: Any) -> memoryview:
    """A contiguous int64 buffer of ``data`` (an ``array('q')`` or int64 memoryview as it is; a NumPy array
    converted if need be)."""
    if getattr(data, "typecode", "") == "q" or getattr(data, "format", "") == "q":  # (a plain tree's memoryview)
        return memoryview(data)
    from ..core.numeric import int64_view

    return memoryview(np.ascontiguousarray(int64_view(data)))


class _Reporter:
    """Turns the walk's steps into :class:`~gametree_cli.search.events.Event`\\ s with exact values.

    Minimax's events carry no window (it has none); a cut lists the
    children it skipped, in search order.
    """

    __slots__ = ("emit", "tree", "value_of", "prune", "hard", "ops", "child_order")

    def __init__(self, tree: Tree, observer: Observer, prune: bool, hard: bool, strict: bool, child_order: Any) -> None:
        from ..core.columns import _source_reader

        self.emit, self.tree, self.value_of = observer, tree, _source_reader(tree)
        self.prune, self.hard, self.child_order = prune, hard, child_order
        self.ops = (">", "<") if strict else (">=", "<=")

    def _window(self, alpha: int, beta: int) -> tuple[Any, Any]:
        return (self.value_of(alpha), self.value_of(beta)) if self.prune else (None, None)

    def call(self, node: int, depth: int, alpha: int, beta: int) -> None:
        self.emit(Event(CALL, node, depth, *self._window(alpha, beta)))

    def leaf(self, node: int, depth: int, alpha: int, beta: int) -> None:
        horizon = self.tree.count[node] > 0
        self.emit(Event(LEAF, node, depth, *self._window(alpha, beta), self.value_of(node), {"horizon": horizon}))

    def cut(self, node: int, depth: int, alpha: int, beta: int, trigger: int, returns: int, position: int) -> None:
        tree = self.tree
        is_max = tree.kind[node] == MAX
        start, n_children = tree.first[node], tree.count[node]
        positions = range(n_children) if self.child_order is None else self.child_order[node]
        low, high = self._window(alpha, beta)
        detail = {
            "op": self.ops[0] if is_max else self.ops[1],
            "bound": "beta" if is_max else "alpha",
            "returns": self.value_of(returns),
            "value_name": ("alpha" if is_max else "beta") if self.hard else "v",
            "skipped": [start + offset for offset in positions[position:]],
        }
        self.emit(Event(CUT, node, depth, low, high, self.value_of(trigger), detail))

    def ret(self, node: int, depth: int, alpha: int, beta: int, value: int) -> None:
        self.emit(Event(RETURN, node, depth, *self._window(alpha, beta), self.value_of(value)))
