"""The depth-first search over computed values: expectiminimax, Star1, max-n, shallow pruning.

Why one walk: entering a node, evaluating a leaf (or an ``eval`` at the
depth limit), handing a value to the parent, skipping the rest after a
cut-off, counting, recording and reporting events are the same in every
search; only what a node does with its children's values differs. Each
algorithm states that once, as :class:`Rules`, and this walk does the rest,
with or without an observer: the events (CALL, LEAF, CUT, RETURN) are
reports of the same steps, never a second implementation.

Why not alpha-beta's search (:mod:`~gametree_cli.search.depth_first`): that
loop never computes a value, it compares them (a node's value *is* a leaf's,
so it carries the leaf's number); here inner nodes make new values (an
expectation, an opponent model's mix, an expected payoff vector) in exact
Python arithmetic, and Star1's chance-node windows are computed from them.

Preconditions: the tree's breadth-first arrays (:class:`~gametree_cli.core.model.Tree`:
a node's children are ``first[node] .. first[node] + count[node] - 1``).
Iterative (an explicit stack of frames), so depth is bounded by memory, not
by Python's recursion limit.

References: Knuth & Moore, "An analysis of alpha-beta pruning" (1975), for
the shape (a node's value is folded from its children's, left to right,
until a bound says the rest cannot matter).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.bulk import paused_gc
from .events import CALL, CUT, LEAF, RETURN, Event, Observer
from ..core.model import Tree
from ..core.numbers import Value
from ..core.numeric import LazyValues
from .pruning_log import PruningLog
from .record import Cut, Stats

__all__ = ["Rules", "walk", "Frame", "NODE", "DEPTH", "NEXT", "END", "ALPHA", "BETA", "CHILDREN"]

#: frame slots the walk keeps: the node, its depth, the next child to enter and the
#: end of its children (node numbers: the children are ``first[node] .. end - 1``)
NODE, DEPTH, NEXT, END = 0, 1, 2, 3
#: windowed rules keep the node's bounds here (events and the record read them)
ALPHA, BETA = 4, 5
#: collecting rules keep the children's values here, in order
CHILDREN = 4

#: ``[node, depth, next child, end, ...]``, then whatever the rules keep for the node
Frame = list[Any]


class Rules:
    """What one algorithm does at a node; :func:`walk` calls these hooks.

    Attributes:
        collects: the walk appends each child's value to ``frame[CHILDREN]``
            and never calls :meth:`take` (exhaustive searches: nothing to cut).
        passes_windows: each child is searched with :meth:`child_window`'s
            window (else with the root's: nothing to pass down).
        windowed: windows are ``(alpha, beta)`` pairs; events and the record
            carry them (a leaf: the window it got; an inner node: its frame's
            ``ALPHA``/``BETA`` slots when it returns).
        root_window: the window the root is searched with.
    """

    collects: bool = False
    passes_windows: bool = False
    windowed: bool = False
    root_window: Any = None
    #: the walk asks :meth:`recall` before entering each child (Star2: a child searched before);
    #: only for ``passes_windows`` rules
    remembers: bool = False

    def open(self, node: int, depth: int, window: Any) -> Frame:
        """The frame of an inner node about to search its children:
        ``[node, depth, 0, 0, ...]`` (the walk fills ``NEXT`` and ``END``; an
        ``END`` of ``k`` instead of 0 searches only the first ``k`` children)."""
        raise NotImplementedError

    def take(self, frame: Frame, child: int, value: Value) -> Cut | None:
        """Fold a child's value into the frame; a :class:`Cut` stops the node,
        which then returns ``cut.returns``."""
        raise NotImplementedError

    def child_window(self, frame: Frame, child: int) -> Any:
        """The window ``child`` is searched with (``passes_windows`` rules)."""
        raise NotImplementedError

    def close(self, frame: Frame) -> tuple[Value, dict[str, Any] | None]:
        """The node's value once every child is in, and its RETURN event's detail."""
        raise NotImplementedError

    def describe(self, node: int, parent: int, window: Any, inner: bool) -> dict[str, Any] | None:
        """Extra detail of the CALL (``inner``) or LEAF event of ``node`` (with an observer only)."""
        return None

    def recall(self, frame: Frame, child: int, window: Any) -> Value | None:
        """A value for ``child`` without searching it (an earlier search of it settles
        the window), or None to search it (``remembers`` rules only)."""
        return None


def walk(tree: Tree, rules: Rules, log: PruningLog, depth_limit: int | None, observer: Observer | None) -> Stats:
    """Search ``tree`` depth-first by ``rules``, filling ``log``; return the counters.

    ``log.values`` gets every visited node's value (what it returned: a bound
    below a cut-off), ``log.order`` the visit order, ``log.horizon`` the nodes
    evaluated by ``eval``, ``log.cuts``/``log.pruned`` the cut-offs, and for
    windowed rules ``log.alpha``/``log.beta`` each node's window as it returned.

    The cyclic garbage collector is paused meanwhile: the search makes frames,
    lists and tuples by the million but no reference cycles, and the
    collector's rescans of what survives cost a sixth of an exact
    expectiminimax of 1.4 million nodes (0.3 of 1.8 s CPU).
    """
    with paused_gc():
        return _walk(tree, rules, log, depth_limit, observer)


def _walk(tree: Tree, rules: Rules, log: PruningLog, depth_limit: int | None, observer: Observer | None) -> Stats:
    first, count, evals = tree.first, tree.count, tree.evals
    read_leaf = _leaf_reader(tree.value)
    values, low, high, cuts, pruned, horizon = log.values, log.alpha, log.beta, log.cuts, log.pruned, log.horizon
    enter = log.order.append
    windowed, open_frame, close = rules.windowed, rules.open, rules.close
    take = None if rules.collects else rules.take
    child_window = rules.child_window if rules.passes_windows else None
    recall = rules.recall if rules.remembers else None
    emit = observer
    limit = -1 if depth_limit is None else depth_limit
    opened = cutoffs = 0
    stack: list[Frame] = []
    # the search's own frame: its one child is the root, and the walk ends when that returns
    frame = top = [-1, -1, 0, 1, []]
    window, value = rules.root_window, None
    cut: Cut | None = None
    skipped: list[int] = []
    while True:
        if value is not None:  # the value of child frame[NEXT] - 1
            if take is None:
                frame[4].append(value)
            elif frame is not top:
                cut = take(frame, frame[2] - 1, value)
                if cut is not None:  # the node is done: the rest is skipped, it returns the cut's value
                    cutoffs += 1
                    cuts[frame[0]] = cut
                    skipped = list(range(frame[2], frame[3]))
                    pruned.extend(skipped)
                    frame[2] = frame[3]
        child = frame[2]
        if child == frame[3]:  # every child is in, or a cut-off skipped the rest
            if frame is top:
                break
            value, detail = close(frame) if cut is None else (cut.returns, None)
            values[frame[0]] = value
            if windowed:
                low[frame[0]], high[frame[0]] = frame[4], frame[5]
            if emit is not None:
                _report_return(emit, frame, value, detail, windowed, cut, skipped)
            cut = None
            frame = stack.pop()
            continue
        frame[2] = child + 1
        if child_window is not None and frame is not top:
            window = child_window(frame, child)
            if recall is not None:  # remembering rules pass windows (Star2)
                value = recall(frame, child, window)
                if value is not None:  # settled by an earlier search of the child: not entered again
                    if emit is not None:
                        alpha, beta = window if windowed else (None, None)
                        emit(Event(RETURN, child, frame[1] + 1, alpha, beta, value, {"recalled": True}))
                    continue
        enter(child)
        n = count[child]
        if n:
            depth = frame[1] + 1
            if depth != limit:
                if emit is not None:
                    alpha, beta = window if windowed else (None, None)
                    emit(Event(CALL, child, depth, alpha, beta, detail=rules.describe(child, frame[0], window, True)))
                stack.append(frame)
                frame = open_frame(child, depth, window)
                frame[2] = start = first[child]
                frame[3] = start + (frame[3] or n)  # open() may ask for its first children only (Star2's probe)
                opened += 1
                value = None
                continue
            value = evals[child]
            horizon.add(child)
        else:
            value = read_leaf(child)
        values[child] = value
        if windowed:
            low[child], high[child] = window
        if emit is not None:
            emit(_leaf_event(rules, frame[0], child, frame[1] + 1, window, value, n > 0))
    visited = len(log.order)
    return Stats(visited, visited - opened, cutoffs)


def _leaf_reader(values: Sequence[Value | None]) -> Callable[[int], Value | None]:
    """Node number -> its leaf value. A tree loaded from a large file keeps its leaf
    values in NumPy (:class:`~gametree_cli.core.numeric.LazyValues`), each read costing
    ~0.3 µs; integers and decimals are converted in bulk once instead (~50 ns a
    node), exact fractions one at a time as the search reads them."""
    if isinstance(values, LazyValues) and (values.denominator == 1 or values.floats):
        return values.tolist().__getitem__
    return values.__getitem__


def _report_return(emit: Observer, frame: Frame, value: Value, detail: dict[str, Any] | None, windowed: bool,
                   cut: Cut | None, skipped: list[int]) -> None:
    """Report what the frame's node returns (its cut-off first, if any)."""
    node = frame[0]
    alpha, beta = (frame[4], frame[5]) if windowed else (None, None)
    if cut is not None:
        # the bound travels in the event's alpha/beta when the search has a window,
        # else (shallow pruning's Bound) in the detail
        cut_detail: dict[str, Any] = {"op": cut.op, "bound": cut.bound_name}
        if not windowed:
            cut_detail["bound_value"] = cut.bound
        cut_detail.update(returns=cut.returns, value_name=cut.value_name, skipped=skipped)
        emit(Event(CUT, node, frame[1], alpha, beta, cut.value, cut_detail))
    emit(Event(RETURN, node, frame[1], alpha, beta, value, detail))


def _leaf_event(rules: Rules, parent: int, node: int, depth: int, window: Any, value: Value,
                at_horizon: bool) -> Event:
    """The LEAF event of a leaf, or of a node evaluated by ``eval`` at the depth limit."""
    detail: dict[str, Any] = {"horizon": at_horizon}
    extra = rules.describe(node, parent, window, False)
    if extra:
        detail.update(extra)
    alpha, beta = window if rules.windowed else (None, None)
    return Event(LEAF, node, depth, alpha, beta, value, detail)
