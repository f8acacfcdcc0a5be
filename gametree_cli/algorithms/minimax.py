"""Minimax and alpha-beta for two-player (and max-only) trees.

Preconditions: every inner node is ``max`` or ``min`` (no chance nodes, two
players); values are from MAX's point of view. Ties go to the first child in
file order. Both searches are iterative (an explicit stack), so depth is
bounded by memory, not by Python's recursion limit.

References: Russell & Norvig, *AIMA* 3rd ed., fig. 5.3 (MINIMAX-DECISION) and
fig. 5.7 (ALPHA-BETA-SEARCH, the "fail-soft" form that returns ``v``); Knuth
& Moore, "An analysis of alpha-beta pruning" (1975).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ..events import CALL, CUT, LEAF, RETURN, Event, Observer
from ..model import MAX, Tree
from ..numbers import INF, NEG_INF, Value
from ..numeric import leaf_reader
from ..record import Cut, PruningLog, SearchRecord, Stats

try:  # optional compiled kernel (setup.py builds it when a C compiler is there)
    from .. import _abkernel
except ImportError:  # pragma: no cover - depends on the build
    _abkernel = None
if getattr(_abkernel, "ABI", 1) < 3:  # pragma: no cover - a build older than its source: not trusted
    _abkernel = None

__all__ = ["minimax", "alphabeta", "level_bounds"]

#: use the compiled alpha-beta kernel when it is built (tests set this False to compare with the Python loop)
USE_KERNEL = True


def level_bounds(tree: Tree, depth_limit: int | None = None) -> list[tuple[int, int]]:
    """``[(start, end), ...]``: the node numbers of each depth level.

    Breadth-first numbering makes every level a contiguous block, and the
    next level's size is the sum of this level's child counts.
    """
    levels = [(0, 1)]
    count = tree.count
    if len(count) > 4096:  # summing slices in NumPy: ~50x faster on big levels
        from ..numeric import int64_view

        count = int64_view(count)
    while depth_limit is None or len(levels) <= depth_limit:
        start, end = levels[-1]
        size = int(count[start:end].sum() if end - start > 64 and hasattr(count, "sum") else sum(count[start:end]))
        if not size:
            break
        levels.append((end, end + size))
    return levels


def minimax(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None) -> SearchRecord:
    """Exhaustive minimax: every node within the depth limit gets its value.

    Without an observer the values are computed by one reverse sweep over the
    node numbers (children before parents); with one, by a depth-first walk
    that reports each call, leaf and return in order.
    """
    if observer is not None:
        return _minimax_walk(tree, depth_limit, observer)
    from .sweep import sweep  # NumPy level-by-level; None when values need Python numbers

    fast = sweep(tree, depth_limit)
    if fast is not None:
        return fast
    from .bottom_up import evaluate_bottom_up

    kind = tree.kind

    def combine(node: int, begin: int, children: list) -> Value:
        return max(children) if kind[node] == MAX else min(children)

    values, stats, horizon = evaluate_bottom_up(tree, depth_limit, combine)
    return SearchRecord("minimax", tree, values[0], values, stats=stats, horizon=horizon, depth_limit=depth_limit)


def _minimax_walk(tree: Tree, depth_limit: int | None, emit: Observer) -> SearchRecord:
    """Minimax as a depth-first walk that reports every step."""
    kind, first, count = tree.kind, tree.first, tree.count
    leaf_value, evals = tree.value, tree.evals
    values: list[Value | None] = [None] * len(kind)
    horizon: set[int] = set()
    stats = Stats()
    # frame: [node, depth, best value so far, next child position]
    stack: list[list] = []
    result: Value | None = None
    node, depth = 0, 0
    while True:
        if node >= 0:  # enter `node`
            stats.nodes_visited += 1
            if count[node] == 0 or depth == depth_limit:
                if count[node] == 0:
                    result = leaf_value[node]
                else:
                    result = evals[node]
                    horizon.add(node)
                stats.leaves_evaluated += 1
                values[node] = result
                emit(Event(LEAF, node, depth, value=result, detail={"horizon": node in horizon}))
            else:
                emit(Event(CALL, node, depth))
                stack.append([node, depth, None, 0])
                result = None
        frame = stack[-1] if stack else None
        if frame is None:
            break
        if result is not None:
            best = frame[2]
            if best is None or (result > best if kind[frame[0]] == MAX else result < best):  # type: ignore[operator]
                frame[2] = result
        parent = frame[0]
        if frame[3] < count[parent]:
            node = first[parent] + frame[3]
            frame[3] += 1
            depth = frame[1] + 1
            continue
        stack.pop()
        result = frame[2]
        values[parent] = result
        emit(Event(RETURN, parent, frame[1], value=result))
        node = -1
        if not stack:
            break
    return SearchRecord("minimax", tree, values[0], values, stats=stats, horizon=horizon, depth_limit=depth_limit)


def alphabeta(
    tree: Tree,
    *,
    depth_limit: int | None = None,
    observer: Observer | None = None,
    variant: str = "soft",
    strict: bool = False,
    child_order: Sequence[Sequence[int]] | None = None,
) -> SearchRecord:
    """Alpha-beta search, iterative.

    Args:
        depth_limit: stop this many plies below the root and use ``eval``.
        observer: receives every call, leaf, cut and return.
        variant: ``"soft"`` (AIMA, the contract's default: prune on
            ``v >= beta`` / ``v <= alpha`` and return ``v``) or ``"hard"``
            (the "practical" course form: keep alpha/beta, return ``beta`` /
            ``alpha`` on a cut and the bound otherwise).
        strict: prune only on ``>`` / ``<`` (some courses grade this way).
        child_order: per node, the order to search its children in (default:
            file order); see ``--order``.

    Returns:
        The record; ``values`` of visited nodes are what each call returned
        (bounds, not exact values, below a cut-off), ``pruned`` the topmost
        skipped nodes.
    """
    if observer is None and child_order is None and variant == "soft":
        return _alphabeta_quiet(tree, depth_limit, strict, use_kernel=USE_KERNEL)
    hard = variant == "hard"
    kind, first, count = tree.kind, tree.first, tree.count
    leaf_value, evals = tree.value, tree.evals
    log = PruningLog.for_tree(tree)
    values, ret_alpha, ret_beta, best = log.values, log.alpha, log.beta, log.best
    cuts, pruned, order, horizon = log.cuts, log.pruned, log.order, log.horizon
    visited = leaves = cutoffs = 0
    emit = observer

    # frame: [node, depth, alpha, beta, v, next position, is_max]
    stack: list[list] = []
    node, depth, alpha, beta = 0, 0, NEG_INF, INF
    result: Value = 0
    entering = True
    while True:
        if entering:
            visited += 1
            order.append(node)
            n_children = count[node]
            if n_children == 0 or depth == depth_limit:
                if n_children == 0:
                    result = leaf_value[node]  # type: ignore[assignment]
                else:
                    result = evals[node]  # type: ignore[assignment]
                    horizon.add(node)
                leaves += 1
                values[node] = result
                ret_alpha[node] = alpha
                ret_beta[node] = beta
                if emit is not None:
                    emit(Event(LEAF, node, depth, alpha, beta, result, {"horizon": node in horizon}))
            else:
                if emit is not None:
                    emit(Event(CALL, node, depth, alpha, beta))
                is_max = kind[node] == MAX
                stack.append([node, depth, alpha, beta, NEG_INF if is_max else INF, 0, is_max])
                entering = False
                result = None  # type: ignore[assignment]
        if not stack:
            break
        frame = stack[-1]
        parent = frame[0]
        positions = child_order[parent] if child_order is not None else None
        finished = False
        if result is not None:
            child = _current_child(frame, first, positions)
            a, b = frame[2], frame[3]
            if frame[6]:  # max node
                if hard:
                    if result > a:
                        a = frame[2] = result
                        best[parent] = child
                    test = a > b if strict else a >= b
                    trigger, bound_name, bound, returns, value_name = a, "beta", b, b, "alpha"
                else:
                    if result > frame[4]:
                        frame[4] = result
                        best[parent] = child
                    v = frame[4]
                    test = v > b if strict else v >= b
                    trigger, bound_name, bound, returns, value_name = v, "beta", b, v, "v"
                    if not test and v > a:
                        frame[2] = v
                op = (">" if strict else ">=")
            else:
                if hard:
                    if result < b:
                        b = frame[3] = result
                        best[parent] = child
                    test = b < a if strict else b <= a
                    trigger, bound_name, bound, returns, value_name = b, "alpha", a, a, "beta"
                else:
                    if result < frame[4]:
                        frame[4] = result
                        best[parent] = child
                    v = frame[4]
                    test = v < a if strict else v <= a
                    trigger, bound_name, bound, returns, value_name = v, "alpha", a, v, "v"
                    if not test and v < b:
                        frame[3] = v
                op = ("<" if strict else "<=")
            if test:
                cutoffs += 1
                cuts[parent] = Cut(trigger, op, bound_name, bound, returns, value_name)
                rest = _remaining_children(frame, first, count, positions)
                pruned.extend(rest)
                if emit is not None:
                    emit(Event(CUT, parent, frame[1], frame[2], frame[3], trigger,
                               {"op": op, "bound": bound_name, "returns": returns, "value_name": value_name,
                                "skipped": rest}))
                finished = True
                result = returns
        if not finished:
            if frame[5] < count[parent]:
                position = frame[5]
                node = first[parent] + (positions[position] if positions is not None else position)
                frame[5] += 1
                depth, alpha, beta = frame[1] + 1, frame[2], frame[3]
                entering = True
                continue
            if hard:
                result = frame[2] if frame[6] else frame[3]
            else:
                result = frame[4]
        stack.pop()
        values[parent] = result
        ret_alpha[parent] = frame[2]
        ret_beta[parent] = frame[3]
        if emit is not None:
            emit(Event(RETURN, parent, frame[1], frame[2], frame[3], result))
        entering = False
        if not stack:
            break

    if child_order is not None and pruned:
        rank = {node: position for position, node in enumerate(tree.preorder())}
        pruned.sort(key=rank.__getitem__)
    return log.record("alphabeta", tree, Stats(visited, leaves, cutoffs), depth_limit, {"variant": variant, "strict": strict})


def _alphabeta_quiet(tree: Tree, depth_limit: int | None, strict: bool, use_kernel: bool = True) -> SearchRecord:
    """Fail-soft alpha-beta in file order with nobody watching: the same record
    as :func:`alphabeta`, from a loop with nothing but the search in it.

    With ``use_kernel`` (and no depth limit), the compiled kernel
    (``gametree_cli._abkernel``) searches when it is built and the values
    have a NumPy form; otherwise, or when it declines, this Python loop does.

    Frames are ``[node, depth, alpha, beta, v, next position, is_max]``; a
    leaf's value climbs the stack in the inner loop until a node has another
    child to enter.
    """
    if use_kernel and depth_limit is None and _abkernel is not None:
        record = _alphabeta_kernel(tree, strict)
        if record is not None:
            return record
    kind, first, count = tree.kind, tree.first, tree.count
    evals = tree.evals
    read_leaf = leaf_reader(tree.value)
    log = PruningLog.for_tree(tree)
    values, ret_alpha, ret_beta, best = log.values, log.alpha, log.beta, log.best
    cuts, pruned, order, horizon = log.cuts, log.pruned, log.order, log.horizon
    leaves = cutoffs = 0
    enter = order.append
    max_op, min_op = (">", "<") if strict else (">=", "<=")
    limit = -1 if depth_limit is None else depth_limit
    stack: list[list] = []
    push, pop = stack.append, stack.pop
    node, depth, alpha, beta = 0, 0, NEG_INF, INF
    while True:
        enter(node)
        n_children = count[node]
        if n_children and depth != limit:
            is_max = kind[node] == MAX
            push([node, depth, alpha, beta, NEG_INF if is_max else INF, 1, is_max])
            node = first[node]
            depth += 1
            continue
        if n_children:
            result = evals[node]
            horizon.add(node)
        else:
            result = read_leaf(node)
        leaves += 1
        values[node] = result
        ret_alpha[node] = alpha
        ret_beta[node] = beta
        # hand ``result`` up until some node has a child left to enter
        while stack:
            frame = stack[-1]
            parent, position = frame[0], frame[5]
            if frame[6]:
                if result > frame[4]:
                    frame[4] = result
                    best[parent] = first[parent] + position - 1
                v = frame[4]
                bound = frame[3]
                if v > bound if strict else v >= bound:
                    cutoffs += 1
                    cuts[parent] = Cut(v, max_op, "beta", bound, v)
                    start = first[parent]
                    pruned.extend(range(start + position, start + count[parent]))
                    position = count[parent]
                elif v > frame[2]:
                    frame[2] = v
            else:
                if result < frame[4]:
                    frame[4] = result
                    best[parent] = first[parent] + position - 1
                v = frame[4]
                bound = frame[2]
                if v < bound if strict else v <= bound:
                    cutoffs += 1
                    cuts[parent] = Cut(v, min_op, "alpha", bound, v)
                    start = first[parent]
                    pruned.extend(range(start + position, start + count[parent]))
                    position = count[parent]
                elif v < frame[3]:
                    frame[3] = v
            if position < count[parent]:
                frame[5] = position + 1
                node = first[parent] + position
                depth, alpha, beta = frame[1] + 1, frame[2], frame[3]
                break
            pop()
            values[parent] = result = v
            ret_alpha[parent] = frame[2]
            ret_beta[parent] = frame[3]
        else:
            break
    return log.record("alphabeta", tree, Stats(len(order), leaves, cutoffs), depth_limit, {"variant": "soft", "strict": strict})


def _alphabeta_kernel(tree: Tree, strict: bool) -> SearchRecord | None:
    """:func:`_alphabeta_quiet` without a depth limit, searched by the C kernel;
    None when the values have no NumPy form (the caller's Python loop then runs).

    The kernel compares int64 numerators over one common denominator (exact)
    or float64 decimals and hands back compact arrays; its ``record`` then
    makes Python numbers (ints, Fractions, floats; ``-inf``/``inf`` for the
    unbounded) only for the nodes it visited.
    """
    import numpy as np

    from ..numeric import LazyValues, VisitBounds, int64_view, numeric_values

    numeric = numeric_values(tree)
    if numeric is None:
        return None
    leaf = numeric.leaf
    if leaf.dtype not in (np.int64, np.float64) or len(leaf) != len(tree.kind):
        return None
    is_float = leaf.dtype == np.float64
    first, count = tree.first, tree.count
    if getattr(first, "itemsize", 0) != 8:
        first = np.ascontiguousarray(int64_view(first))
    if getattr(count, "itemsize", 0) != 8:
        count = np.ascontiguousarray(int64_view(count))
    raw_order, raw_val, raw_alpha, raw_beta, raw_best, raw_cutn, raw_cutv, raw_cutb, raw_pruned, leaves = (
        _abkernel.search(tree.kind, first, count, np.ascontiguousarray(leaf), is_float, strict))

    denominator = numeric.denominator
    convert = None
    if not is_float and denominator != 1:
        def convert(numerator: int) -> Value:
            exact = Fraction(numerator, denominator)
            return exact.numerator if exact.denominator == 1 else exact

    max_op, min_op = (">", "<") if strict else (">=", "<=")
    _, order, _, _, best, cuts, pruned = _abkernel.record(
        len(tree.kind), tree.kind, raw_order, b"", b"", b"", raw_best, raw_cutn, raw_cutv, raw_cutb,
        raw_pruned, is_float, convert, NEG_INF, INF, Cut, max_op, min_op)
    # the values and bounds stay in arrays: a list of n slots costs 8 bytes a node (40 ms on 5.6M
    # nodes for 186,000 visited), a dict of bounds ~100 bytes a visited node
    visits = np.frombuffer(raw_order, dtype=np.int64)
    raw_type = np.float64 if is_float else np.int64
    data = np.zeros(len(tree.kind), dtype=raw_type)  # calloc'd: pages are touched only where written
    data[visits] = np.frombuffer(raw_val, dtype=raw_type)
    present = np.zeros(len(tree.kind), dtype=bool)
    present[visits] = True
    values = LazyValues(data, 1 if is_float else denominator, present)
    position = VisitBounds.positions(visits, len(tree.kind))
    ret_alpha = VisitBounds(np.frombuffer(raw_alpha, dtype=raw_type), visits, position, denominator)
    ret_beta = VisitBounds(np.frombuffer(raw_beta, dtype=raw_type), visits, position, denominator)
    return SearchRecord(
        "alphabeta",
        tree,
        values[0],
        values,
        best=best,
        pruned=pruned,
        stats=Stats(len(order), leaves, len(cuts)),
        alpha=ret_alpha,
        beta=ret_beta,
        cuts=cuts,
        horizon=set(),
        order=order,
        depth_limit=None,
        options={"variant": "soft", "strict": strict},
    )


def _current_child(frame: list, first: Sequence[int], positions: Sequence[int] | None) -> int:
    """The child whose result has just come back to ``frame``."""
    position = frame[5] - 1
    return first[frame[0]] + (positions[position] if positions is not None else position)


def _remaining_children(frame: list, first: Sequence[int], count: Sequence[int], positions: Sequence[int] | None) -> list[int]:
    """The children of ``frame``'s node that a cut skips, in search order."""
    start = first[frame[0]]
    remaining = range(frame[5], count[frame[0]])
    if positions is None:
        return [start + position for position in remaining]
    return [start + positions[position] for position in remaining]
