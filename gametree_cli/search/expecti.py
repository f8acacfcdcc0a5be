"""Expectiminimax and expectimax, with opponent models, for two-player trees with chance nodes.

Preconditions: two players (``max``, ``min``, ``chance`` nodes; max-only
trees too); values are from MAX's point of view. A chance node's value is the
probability-weighted sum of its children's values (exact arithmetic, see
:mod:`~gametree_cli.search.expectation`).

Opponent models: a decision node with ``random: r`` (0 <= r <= 1) is a player
who moves at random, uniformly, a share ``r`` of the time and optimally the
rest: its value is ``(1 - r) * optimal + r * mean(children)``; the child it
"chooses" (best child, principal variation) is the optimal one.

One search: the depth-first :func:`~gametree_cli.search.value_search.walk`
under :class:`ExpectiRules`, watched or not. The only other path is the
NumPy level sweep (:mod:`~gametree_cli.search.sweep`), which gives the
same record for large trees whose values it can hold exactly and nobody
watches (it has no steps to report); it declines the rest.

Ties go to the first child in file order.

Reference: Russell & Norvig, *AIMA* 3rd ed., section 5.5 (EXPECTIMINIMAX).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.buffers import is_small
from .events import Observer
from ..core.model import CHANCE, MAX, MIN, Tree
from ..core.numbers import Number, Value
from .pruning_log import PruningLog
from .record import SearchRecord
from .expectation import decide, expected_value
from .value_search import CHILDREN, END, Frame, Rules, walk

if TYPE_CHECKING:
    from .options import Options

__all__ = [
    "expectiminimax",
    "expectimax",
    "ExpectiRules",
    "decide",
    "opponent_models",
    "unfit_chance",
    "run_expectiminimax",
    "run_expectimax",
]


def expectiminimax(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None) -> SearchRecord:
    """Exhaustive expectiminimax: max, min, and expected value at chance nodes."""
    return _expect(tree, depth_limit, observer, averaged_min=False, name="expectiminimax")


def expectimax(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None) -> SearchRecord:
    """Expectimax as course pseudo-code has it: ``min`` nodes are averaged uniformly.

    The opponent is taken to move uniformly at random (a ``min`` node is a
    chance node without ``p``); ``max`` and chance nodes are as in
    expectiminimax, opponent models on ``max`` nodes included. A ``min``
    node's own ``random`` share changes nothing: it is random already.
    """
    return _expect(tree, depth_limit, observer, averaged_min=True, name="expectimax")


def _expect(tree: Tree, depth_limit: int | None, observer: Observer | None, *, averaged_min: bool,
            name: str) -> SearchRecord:
    if observer is None and not is_small(len(tree.kind)):  # (a small tree: the same record without NumPy)
        from .sweep import sweep  # whole levels in NumPy (imported on first use: startup time)

        # None when the tree is small or narrow, or its values have no exact NumPy form
        swept = sweep(tree, depth_limit, name=name, averaged_min=averaged_min)
        if swept is not None:
            return swept
    log = PruningLog.for_tree(tree)
    stats = walk(tree, ExpectiRules(tree, log.best, averaged_min), log, depth_limit, observer)
    return SearchRecord(name, tree, log.values[0], log.values, best=log.best, stats=stats, horizon=log.horizon,
                        depth_limit=depth_limit)


class ExpectiRules(Rules):
    """Expectiminimax at one node: average (chance, or expectimax's ``min``), or decide.

    Event details: a child of an averaging node carries its ``p``; an
    averaging node's return carries ``terms`` (each child's ``(p, value)``),
    an expectimax ``min`` node ``averaged``; an opponent model's return
    carries ``random``, ``optimal`` and ``mean``.
    """

    collects = True

    def __init__(self, tree: Tree, best: dict[int, int], averaged_min: bool) -> None:
        self.kind, self.first, self.count, self.prob = tree.kind, tree.first, tree.count, tree.prob
        self.shares = opponent_models(tree)
        self.best = best
        self.averaged_min = averaged_min

    def open(self, node: int, depth: int, window: Any) -> Frame:
        return [node, depth, 0, 0, []]

    def close(self, frame: Frame) -> tuple[Value, dict[str, Any] | None]:
        node, children = frame[0], frame[CHILDREN]
        kind = self.kind[node]
        if kind == CHANCE:
            terms = list(zip(self.prob[self.first[node] : frame[END]], children))  # type: ignore[index]
            return expected_value(terms), {"terms": terms}
        if kind == MIN and self.averaged_min:
            share = _uniform(len(children))
            terms = [(share, value) for value in children]
            return expected_value(terms), {"terms": terms, "averaged": True}
        position, value, detail = decide(kind == MAX, self.shares.get(node), children)
        self.best[node] = self.first[node] + position
        return value, detail

    def describe(self, node: int, parent: int, window: Any, inner: bool) -> dict[str, Any] | None:
        detail: dict[str, Any] = {}
        kind = self.kind
        if parent >= 0 and (kind[parent] == CHANCE or (self.averaged_min and kind[parent] == MIN)):
            detail["p"] = self.prob[node] if kind[parent] == CHANCE else _uniform(self.count[parent])  # type: ignore[index]
        if self.averaged_min and kind[node] == MIN:
            detail["averaged"] = True
        return detail or None


def _uniform(size: int) -> Number:
    """The probability of each of ``size`` equally likely children (1, not 1/1, for one)."""
    return Fraction(1, size) if size > 1 else 1


def opponent_models(tree: Tree) -> dict[int, Number]:
    """Decision node -> its share of random moves, for nodes with ``random`` > 0."""
    shares: dict[int, Number] = {}
    for node, extra in tree.extra.items():
        share = extra.get("random")
        if share:
            shares[node] = share  # type: ignore[assignment]
    return shares


# -- registry glue -------------------------------------------------------------------


def unfit_chance(tree: Tree, options: Options) -> str | None:
    """Why expectiminimax/expectimax cannot search ``tree``, or None."""
    if tree.is_nplayer:
        return f"it has {len(tree.players)} players; expectiminimax needs two (max, min and chance nodes)"
    return None


def run_expectiminimax(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    return expectiminimax(tree, depth_limit=options.depth, observer=observer)


def run_expectimax(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    return expectimax(tree, depth_limit=options.depth, observer=observer)
