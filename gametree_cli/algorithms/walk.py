"""The one depth-first search that expectiminimax, Star1, max-n and shallow pruning run.

Why one walk: entering a node, evaluating a leaf (or an ``eval`` at the
depth limit), handing a value to the parent, skipping the rest after a
cut-off, counting, recording and reporting events are the same in every
search; only what a node does with its children's values differs. Each
algorithm states that once, as :class:`Rules`, and this walk does the rest,
with or without an observer: the events (CALL, LEAF, CUT, RETURN) are
reports of the same steps, never a second implementation.

Preconditions: the tree's breadth-first arrays (:class:`~gametree_cli.model.Tree`:
a node's children are ``first[node] .. first[node] + count[node] - 1``).
Iterative (an explicit stack of frames), so depth is bounded by memory, not
by Python's recursion limit.

References: Knuth & Moore, "An analysis of alpha-beta pruning" (1975), for
the shape (a node's value is folded from its children's, left to right,
until a bound says the rest cannot matter).
"""

from __future__ import annotations

from typing import Any

from ..events import CALL, CUT, LEAF, RETURN, Event, Observer
from ..model import Tree
from ..numbers import Value
from ..record import Cut, PruningLog, Stats

__all__ = ["Rules", "walk", "NODE", "DEPTH", "NEXT", "ALPHA", "BETA", "CHILDREN"]

#: frame slots the walk reads: the node, its depth, the position of the next child to enter
NODE, DEPTH, NEXT = 0, 1, 2
#: windowed rules keep the node's bounds here (events and the record read them)
ALPHA, BETA = 3, 4
#: collecting rules keep the children's values here, in order
CHILDREN = 3

Frame = list[Any]


class Rules:
    """What one algorithm does at a node; :func:`walk` calls these hooks.

    Attributes:
        collects: the walk appends each child's value to ``frame[CHILDREN]``
            and never calls :meth:`take` (exhaustive searches: nothing to cut).
        passes_windows: each child is searched with :meth:`child_window`'s
            window (else with None: nothing to pass down).
        windowed: windows are ``(alpha, beta)`` pairs; events and the record
            carry them (a leaf: the window it got; an inner node: its frame's
            ``ALPHA``/``BETA`` slots when it returns).
        root_window: the window the root is searched with.
    """

    collects: bool = False
    passes_windows: bool = False
    windowed: bool = False
    root_window: Any = None

    def open(self, node: int, depth: int, window: Any) -> Frame:
        """The frame of an inner node about to search its children: ``[node, depth, 0, ...]``."""
        raise NotImplementedError

    def take(self, frame: Frame, child: int, value: Value) -> Cut | None:
        """Fold a child's value into the frame; a :class:`Cut` stops the node,
        which then returns ``cut.returns``."""
        raise NotImplementedError

    def child_window(self, frame: Frame, position: int) -> Any:
        """The window the child at ``position`` is searched with (``passes_windows`` rules)."""
        raise NotImplementedError

    def close(self, frame: Frame) -> tuple[Value, dict[str, Any] | None]:
        """The node's value once every child is in, and its RETURN event's detail."""
        raise NotImplementedError

    def describe(self, node: int, parent: int, window: Any, inner: bool) -> dict[str, Any] | None:
        """Extra detail of the CALL (``inner``) or LEAF event of ``node`` (with an observer only)."""
        return None


def walk(tree: Tree, rules: Rules, log: PruningLog, depth_limit: int | None, observer: Observer | None) -> Stats:
    """Search ``tree`` depth-first by ``rules``, filling ``log``; return the counters.

    ``log.values`` gets every visited node's value (what it returned: a bound
    below a cut-off), ``log.order`` the visit order, ``log.horizon`` the nodes
    evaluated by ``eval``, ``log.cuts``/``log.pruned`` the cut-offs, and for
    windowed rules ``log.alpha``/``log.beta`` each node's window as it returned.
    """
    first, count, leaf_value, evals = tree.first, tree.count, tree.value, tree.evals
    values, low, high, cuts, pruned, horizon = log.values, log.alpha, log.beta, log.cuts, log.pruned, log.horizon
    enter = log.order.append
    windowed = rules.windowed
    open_frame, close, take = rules.open, rules.close, None if rules.collects else rules.take
    child_window = rules.child_window if rules.passes_windows else None
    emit = observer
    limit = -1 if depth_limit is None else depth_limit
    visited = leaves = cutoffs = 0
    stack: list[Frame] = []
    node, depth, window = 0, 0, rules.root_window
    value: Value | None
    while True:
        visited += 1
        enter(node)
        if count[node] and depth != limit:
            frame = open_frame(node, depth, window)
            if emit is not None:
                parent = stack[-1][0] if stack else -1
                alpha, beta = window if windowed else (None, None)
                emit(Event(CALL, node, depth, alpha, beta, detail=rules.describe(node, parent, window, True)))
            stack.append(frame)
            value = None
        else:
            at_horizon = count[node] > 0
            if at_horizon:
                value = evals[node]
                horizon.add(node)
            else:
                value = leaf_value[node]
            leaves += 1
            values[node] = value
            if windowed:
                low[node], high[node] = window
            if emit is not None:
                emit(_leaf_event(rules, stack, node, depth, window, value, at_horizon))
        # hand ``value`` up until some node has a child left to enter
        while stack:
            frame = stack[-1]
            parent = frame[0]
            if value is not None:
                if take is None:
                    frame[3].append(value)
                else:
                    cut = take(frame, first[parent] + frame[2] - 1, value)
                    if cut is not None:  # the node is done: it returns the cut's value
                        cutoffs += 1
                        cuts[parent] = cut
                        skipped = list(range(first[parent] + frame[2], first[parent] + count[parent]))
                        pruned.extend(skipped)
                        value = cut.returns
                        stack.pop()
                        values[parent] = value
                        if windowed:
                            low[parent], high[parent] = frame[3], frame[4]
                        if emit is not None:
                            emit(_cut_event(frame, cut, skipped, windowed))
                            emit(_return_event(frame, value, None, windowed))
                        continue
            position = frame[2]
            if position < count[parent]:
                frame[2] = position + 1
                node = first[parent] + position
                depth = frame[1] + 1
                if child_window is not None:
                    window = child_window(frame, position)
                break
            stack.pop()
            value, detail = close(frame)
            values[parent] = value
            if windowed:
                low[parent], high[parent] = frame[3], frame[4]
            if emit is not None:
                emit(_return_event(frame, value, detail, windowed))
        else:
            return Stats(visited, leaves, cutoffs)


def _leaf_event(rules: Rules, stack: list[Frame], node: int, depth: int, window: Any, value: Value,
                at_horizon: bool) -> Event:
    """The LEAF event of a leaf, or of a node evaluated by ``eval`` at the depth limit."""
    detail: dict[str, Any] = {"horizon": at_horizon}
    extra = rules.describe(node, stack[-1][0] if stack else -1, window, False)
    if extra:
        detail.update(extra)
    alpha, beta = window if rules.windowed else (None, None)
    return Event(LEAF, node, depth, alpha, beta, value, detail)


def _return_event(frame: Frame, value: Value, detail: dict[str, Any] | None, windowed: bool) -> Event:
    if windowed:
        return Event(RETURN, frame[0], frame[1], frame[3], frame[4], value, detail)
    return Event(RETURN, frame[0], frame[1], value=value, detail=detail)


def _cut_event(frame: Frame, cut: Cut, skipped: list[int], windowed: bool) -> Event:
    """A CUT event: the bound travels in the event's alpha/beta when the search has
    a window, else (shallow pruning's Bound) in the detail."""
    detail: dict[str, Any] = {"op": cut.op, "bound": cut.bound_name}
    if not windowed:
        detail["bound_value"] = cut.bound
    detail.update(returns=cut.returns, value_name=cut.value_name, skipped=skipped)
    if windowed:
        return Event(CUT, frame[0], frame[1], frame[3], frame[4], cut.value, detail)
    return Event(CUT, frame[0], frame[1], value=cut.value, detail=detail)
