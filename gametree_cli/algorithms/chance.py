"""Expectiminimax, expectimax and Star1 for two-player trees with chance nodes.

Preconditions: two players (``max``, ``min``, ``chance`` nodes; max-only
trees too); values are from MAX's point of view. A chance node's value is the
probability-weighted sum of its children's values, summed left to right, so
integers and fractions stay exact and decimals stay floats.

Opponent models: a decision node with ``random: r`` (0 <= r <= 1) is a player
who moves at random, uniformly, a share ``r`` of the time and optimally the
rest: its value is ``(1 - r) * optimal + r * mean(children)``; the child it
"chooses" (best child, principal variation) is the optimal one.

Ties go to the first child in file order. Every search is iterative (an
explicit stack), so depth is bounded by memory, not by the recursion limit.

References: Russell & Norvig, *AIMA* 3rd ed., section 5.5 (EXPECTIMINIMAX);
Ballard, "The *-minimax search procedure for trees containing chance nodes",
Artificial Intelligence 21 (1983); Hauk, Buro & Schaeffer, "Rediscovering
*-Minimax Search", Computers and Games 2004 (the Star1 pseudo-code followed
here, generalised to unequal probabilities).
"""

from __future__ import annotations

from decimal import Context, Decimal, Inexact
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Iterable, Sequence

from ..errors import AlgorithmError, IllegalTreeError
from ..events import CALL, CUT, LEAF, RETURN, Event, Observer
from ..model import CHANCE, MAX, MIN, Tree
from ..numbers import INF, NEG_INF, Number, Value, format_number, normalize
from ..record import Cut, PruningLog, SearchRecord, Stats
from .bottom_up import evaluate_bottom_up
from .minimax import level_bounds

if TYPE_CHECKING:
    from . import Options

__all__ = [
    "expectiminimax",
    "expectimax",
    "star1",
    "expected_value",
    "uniform_mean",
    "mix",
    "opponent_models",
    "star1_bounds",
    "check_star1_bounds",
    "unfit_chance",
    "unfit_star1",
    "run_expectiminimax",
    "run_expectimax",
    "run_star1",
]


# -- exact arithmetic ------------------------------------------------------------


def expected_value(terms: Iterable[tuple[Number, Number]]) -> Number:
    """``sum(p * v)``: exact for ints and fractions; a float once a decimal enters.

    With decimals the sum is taken over the decimals as written and rounded
    once (``0.1*1 + 0.2*2 + 0.7*3`` is ``2.6``, not ``2.5999999999999996``),
    so a student's hand calculation and the tool agree.
    """
    pairs = terms if isinstance(terms, list) else list(terms)
    for p, v in pairs:
        if p.__class__ is float or v.__class__ is float:
            return _decimal_sum(pairs)
    # exact: integer weights over the probabilities' common denominator, one
    # division at the end (a Fraction operation costs microseconds, an int's nanoseconds)
    scale = lcm(*[p.denominator for p, _ in pairs])  # type: ignore[union-attr]
    total = sum(p.numerator * (scale // p.denominator) * v for p, v in pairs)  # type: ignore[union-attr]
    return unscale(total, scale)


def unscale(total: Number, scale: int) -> Number:
    """``total / scale``, exact for ints and fractions, an int when whole."""
    if scale == 1:
        return normalize(total) if total.__class__ is Fraction else total
    if total.__class__ is int:
        return total // scale if total % scale == 0 else Fraction(total, scale)  # type: ignore[operator]
    if total.__class__ is float:
        return total / scale
    return normalize(total / scale)


def chance_weights(probabilities: Sequence[Number]) -> tuple[int, list[Number]]:
    """``(scale, weights)`` with ``p_i = weights[i] / scale``: integer weights over the
    common denominator for exact probabilities; the probabilities themselves
    (scale 1) when any is a decimal."""
    if any(p.__class__ is float for p in probabilities):
        return 1, list(probabilities)
    scale = lcm(*[p.denominator for p in probabilities])  # type: ignore[union-attr]
    return scale, [p.numerator * (scale // p.denominator) for p in probabilities]  # type: ignore[union-attr]


#: 100 significant digits, and a rounding is an error (Inexact is trapped): the
#: sums below are exact or not taken in Decimal at all.
_EXACT = Context(prec=100, traps=[Inexact])
#: the one division by the common denominator, carried far below a float's precision
_DECIMALS = Context(prec=100)


def _decimal_sum(pairs: list[tuple[Number, Number]]) -> float:
    """``sum(p * v)`` over the decimals the floats print as, rounded once to a float.

    Exact until that rounding: every number is a numerator (an integer, or the
    decimal a float prints as) over an integer denominator (a Fraction's own,
    else 1), the products are added over their common denominator, and only
    then divided. A uniform 1/3 of 5, -4.0 and -1 is 0.0, not the -3e-100 that
    rounding each 1/3 to 100 digits gives. C-implemented ``Decimal`` arithmetic
    is several times faster than ``Fraction``; when the digits do not fit (huge
    integers), Fractions do it.
    """
    common = 1
    for p, v in pairs:
        common = lcm(common, _denominator(p) * _denominator(v))
    try:
        add, multiply = _EXACT.add, _EXACT.multiply
        total = Decimal(0)
        for p, v in pairs:
            term = multiply(_numerator(p), _numerator(v))
            spread = common // (_denominator(p) * _denominator(v))
            total = add(total, term if spread == 1 else multiply(term, Decimal(spread)))
        return float(total if common == 1 else _DECIMALS.divide(total, Decimal(common)))
    except Inexact:
        exact = sum((_as_written(p) * _as_written(v) for p, v in pairs), Fraction(0))
        return float(exact)  # type: ignore[arg-type]


def _numerator(number: Number) -> Decimal:
    """A number's numerator as a Decimal: a float as the decimal it prints as
    (``0.1`` is 1/10, not 0.1000000000000000055...)."""
    if number.__class__ is float:
        return Decimal(repr(number))
    if isinstance(number, Fraction):  # Star1's exact bounds too
        return Decimal(number.numerator)
    return Decimal(number)  # type: ignore[arg-type]


def _denominator(number: Number) -> int:
    return number.denominator if isinstance(number, Fraction) else 1


def uniform_mean(values: Sequence[Number]) -> Number:
    """The mean as a uniform chance node computes it: ``sum((1/n) * v)``.

    Summed the same way as a chance node without ``p``, so an opponent model,
    an expectimax ``min`` node and an untyped-probability chance node over the
    same values agree to the last bit, also in floating point.
    """
    share = Fraction(1, len(values))
    return expected_value((share, v) for v in values)


def mix(share: Number, optimal: Number, mean: Number) -> Number:
    """An opponent model's value: ``(1 - share) * optimal + share * mean``."""
    if share == 0:
        return optimal
    if share == 1:
        return mean
    if share.__class__ is float or optimal.__class__ is float or mean.__class__ is float:
        return _decimal_sum([(1 - _as_written(share), optimal), (share, mean)])  # type: ignore[operator]
    return normalize((1 - share) * optimal + share * mean)


def _divide(numerator: Number, denominator: Number) -> Number:
    """Exact division for ints and fractions (``int / int`` would be a float)."""
    if numerator.__class__ is int and denominator.__class__ is int:
        if numerator % denominator == 0:  # type: ignore[operator]
            return numerator // denominator  # type: ignore[operator]
        return Fraction(numerator, denominator)  # type: ignore[arg-type]
    if isinstance(numerator, float) or isinstance(denominator, float):
        return numerator / denominator
    return normalize(Fraction(numerator) / denominator)


def opponent_models(tree: Tree) -> dict[int, Number]:
    """Decision node -> its share of random moves, for nodes with ``random`` > 0."""
    shares: dict[int, Number] = {}
    for node, extra in tree.extra.items():
        share = extra.get("random")
        if share:
            shares[node] = share  # type: ignore[assignment]
    return shares


# -- expectiminimax and expectimax ---------------------------------------------------


def expectiminimax(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None) -> SearchRecord:
    """Exhaustive expectiminimax: max, min, and expected value at chance nodes.

    Without an observer the values come from one reverse sweep over the node
    numbers (children before parents); with one, from a depth-first walk that
    reports every call, leaf and return.
    """
    return _expect(tree, depth_limit, observer, averaged_min=False, name="expectiminimax")


def expectimax(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None) -> SearchRecord:
    """Expectimax as course pseudo-code has it: ``min`` nodes are averaged uniformly.

    The opponent is taken to move uniformly at random (a ``min`` node is a
    chance node without ``p``); ``max`` and chance nodes are as in
    expectiminimax, opponent models on ``max`` nodes included. A ``min``
    node's own ``random`` share changes nothing: it is random already.
    """
    return _expect(tree, depth_limit, observer, averaged_min=True, name="expectimax")


def _expect(tree: Tree, depth_limit: int | None, observer: Observer | None, *, averaged_min: bool, name: str) -> SearchRecord:
    if observer is not None:
        return _expect_walk(tree, depth_limit, observer, averaged_min, name)
    if not averaged_min:
        from .sweep import sweep  # NumPy level by level, exact; None when it cannot hold the values

        fast = sweep(tree, depth_limit, name=name)
        if fast is not None:
            return fast
    kind, prob = tree.kind, tree.prob
    shares = opponent_models(tree)
    best: dict[int, int] = {}

    def combine(node: int, begin: int, children: list) -> Value:
        node_kind = kind[node]
        if node_kind == CHANCE:
            return expected_value(zip(prob[begin : begin + len(children)], children))  # type: ignore[index, arg-type]
        if averaged_min and node_kind == MIN:
            return uniform_mean(children)  # type: ignore[arg-type]
        optimal = max(children) if node_kind == MAX else min(children)
        best[node] = begin + children.index(optimal)
        share = shares.get(node)
        return optimal if share is None else mix(share, optimal, uniform_mean(children))  # type: ignore[arg-type]

    values, stats, horizon = evaluate_bottom_up(tree, depth_limit, combine)
    return SearchRecord(name, tree, values[0], values, best=best, stats=stats, horizon=horizon, depth_limit=depth_limit)


def _expect_walk(tree: Tree, depth_limit: int | None, emit: Observer, averaged_min: bool, name: str) -> SearchRecord:
    """Expectiminimax/expectimax as a depth-first walk that reports every step.

    Event details: a child of an averaging node (chance, or expectimax's
    ``min``) carries its ``p``; an averaging node's return carries ``terms``
    (each child's ``(p, value)``); an opponent model's return carries
    ``random``, ``optimal`` and ``mean``.
    """
    kind, first, count, prob = tree.kind, tree.first, tree.count, tree.prob
    leaf_value, evals = tree.value, tree.evals
    shares = opponent_models(tree)
    values: list[Value | None] = [None] * len(kind)
    best: dict[int, int] = {}
    horizon: set[int] = set()
    stats = Stats()

    def averages(node: int) -> bool:
        return kind[node] == CHANCE or (averaged_min and kind[node] == MIN)

    def edge_p(parent: int, child: int) -> Number:
        if kind[parent] == CHANCE:
            return prob[child]  # type: ignore[index, return-value]
        return Fraction(1, count[parent]) if count[parent] > 1 else 1

    # frame: [node, depth, next child position, child values]
    stack: list[list] = []
    node, depth = 0, 0
    result: Value | None = None
    entering = True
    while True:
        if entering:
            stats.nodes_visited += 1
            detail: dict[str, object] = {}
            if stack and averages(stack[-1][0]):
                detail["p"] = edge_p(stack[-1][0], node)
            if averaged_min and kind[node] == MIN:
                detail["averaged"] = True
            if count[node] == 0 or depth == depth_limit:
                if count[node] == 0:
                    result = leaf_value[node]
                else:
                    result = evals[node]
                    horizon.add(node)
                stats.leaves_evaluated += 1
                values[node] = result
                detail["horizon"] = node in horizon
                emit(Event(LEAF, node, depth, value=result, detail=detail))
            else:
                emit(Event(CALL, node, depth, detail=detail or None))
                stack.append([node, depth, 0, []])
                result = None
        if not stack:
            break
        frame = stack[-1]
        if result is not None:
            frame[3].append(result)
        parent = frame[0]
        if frame[2] < count[parent]:
            node = first[parent] + frame[2]
            frame[2] += 1
            depth = frame[1] + 1
            entering = True
            continue
        stack.pop()
        children: list[Number] = frame[3]
        begin = first[parent]
        detail = {}
        if averages(parent):
            terms = [(edge_p(parent, child), value) for child, value in zip(tree.children(parent), children)]
            result = expected_value(terms)
            detail["terms"] = terms
            if kind[parent] == MIN:
                detail["averaged"] = True
        else:
            optimal = max(children) if kind[parent] == MAX else min(children)
            best[parent] = begin + children.index(optimal)
            share = shares.get(parent)
            if share is None:
                result = optimal
            else:
                mean = uniform_mean(children)
                result = mix(share, optimal, mean)
                detail.update(random=share, optimal=optimal, mean=mean)
        values[parent] = result
        emit(Event(RETURN, parent, frame[1], value=result, detail=detail or None))
        entering = False
        if not stack:
            break
    return SearchRecord(name, tree, values[0], values, best=best, stats=stats, horizon=horizon, depth_limit=depth_limit)


# -- Star1 ------------------------------------------------------------------------

# frame layout of the Star1 stack
_NODE, _DEPTH, _ALPHA, _BETA, _V, _POS, _MODE, _SUM, _REST, _SEEN, _SCALE, _WEIGHTS, _ALPHA_S, _BETA_S, _DECIMAL = range(15)
# what a frame's node does with its children's values
_MAX_NODE, _MIN_NODE, _CHANCE_NODE, _MODEL_NODE = range(4)


def star1(
    tree: Tree,
    *,
    bounds: tuple[Number, Number],
    depth_limit: int | None = None,
    observer: Observer | None = None,
    strict: bool = False,
) -> SearchRecord:
    """Expectiminimax with Ballard's Star1 pruning at chance nodes, iterative.

    ``max``/``min`` nodes are fail-soft alpha-beta (as :func:`alphabeta`).
    A chance node with window ``(alpha, beta)`` and probabilities ``p_i``
    searches child ``i`` with the window its value must leave for the node
    to matter, given the values ``v_j`` already found and the bounds ``L``,
    ``U`` on the unseen ones::

        A_i = (alpha - sum(p_j v_j, j < i) - U * sum(p_j, j > i)) / p_i
        B_i = (beta  - sum(p_j v_j, j < i) - L * sum(p_j, j > i)) / p_i

    and the child's window is ``(max(A_i, L), min(B_i, U))``. After the child
    returns ``v_i``, the node's value is at most ``upper = sum(p_j v_j, j <= i)
    + U * rest`` and at least ``lower = ... + L * rest``; ``upper <= alpha``
    (fail low) or ``lower >= beta`` (fail high) cuts off the remaining
    children and returns that bound. A child with ``p = 0`` is searched with
    ``(L, U)``.

    An opponent-model node (``random`` > 0) needs its children's exact
    values for the mean: it searches each with the window ``(L, U)``, which
    gives exact values, and never cuts itself (pruning goes on below it).

    Args:
        bounds: ``(L, U)``: no leaf (or ``eval`` used at the depth limit) lies outside.
        depth_limit: stop this many plies below the root and use ``eval``.
        observer: receives every call, leaf, cut and return.
        strict: cut only on ``>`` / ``<``.

    Returns:
        The record; ``values`` of visited nodes are what each call returned
        (bounds, not exact values, below a cut-off), ``pruned`` the topmost
        skipped nodes in tree order, ``cuts`` each cut's reason.
    """
    low, high = bounds
    # the bound arithmetic is exact, decimals taken as written: a cut-off happens
    # where the hand calculation says, not where binary rounding puts it. Windows
    # and cut values computed from decimals stay exact (_Written) while the search
    # compares them, and are reported as the decimals they round to.
    low_exact, high_exact = _as_written(low), _as_written(high)
    decimal_bounds = low.__class__ is float or high.__class__ is float
    kind, first, count, prob = tree.kind, tree.first, tree.count, tree.prob
    leaf_value, evals = tree.value, tree.evals
    shares = opponent_models(tree)
    log = PruningLog.for_tree(tree)
    values, ret_alpha, ret_beta, best = log.values, log.alpha, log.beta, log.best
    cuts, pruned, order, horizon = log.cuts, log.pruned, log.order, log.horizon
    visited = leaves = cutoffs = 0
    emit = None if observer is None else _reporting_decimals(observer)

    stack: list[list] = []
    node, depth, alpha, beta = 0, 0, NEG_INF, INF
    result: Number | None = None
    p_in: Number | None = None  # the p of the edge into `node`, for the trace
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
                    detail: dict[str, object] = {"horizon": node in horizon}
                    if p_in is not None:
                        detail["p"] = p_in
                    emit(Event(LEAF, node, depth, alpha, beta, result, detail))
            else:
                if emit is not None:
                    emit(Event(CALL, node, depth, alpha, beta, detail={"p": p_in} if p_in is not None else None))
                node_kind = kind[node]
                if node_kind == CHANCE:
                    start = first[node]
                    shares_in = prob[start : start + n_children]  # type: ignore[index]
                    scale, weights = chance_weights([_as_written(p) for p in shares_in])  # type: ignore[union-attr]
                    # decimals among the bounds, the probabilities or (later) the values found
                    # make the node's sums decimals: a cut-off returns a decimal
                    decimal = decimal_bounds or any(p.__class__ is float for p in shares_in)  # type: ignore[union-attr]
                    stack.append([node, depth, alpha, beta, None, 0, _CHANCE_NODE, 0, _suffix_sums(weights), [],
                                  scale, weights, _times(_as_written(alpha), scale), _times(_as_written(beta), scale), decimal])
                elif node in shares:
                    stack.append([node, depth, alpha, beta, None, 0, _MODEL_NODE, 0, None, []])
                elif node_kind == MAX:
                    stack.append([node, depth, alpha, beta, NEG_INF, 0, _MAX_NODE, 0, None, None])
                else:
                    stack.append([node, depth, alpha, beta, INF, 0, _MIN_NODE, 0, None, None])
                result = None
        if not stack:
            break
        frame = stack[-1]
        parent = frame[_NODE]
        mode = frame[_MODE]
        finished = False
        if result is not None:
            position = frame[_POS] - 1
            child = first[parent] + position
            cut: Cut | None = None
            if mode == _MAX_NODE or mode == _MIN_NODE:
                a, b = frame[_ALPHA], frame[_BETA]
                if mode == _MAX_NODE:
                    if result > frame[_V]:
                        frame[_V] = result
                        best[parent] = child
                    v = frame[_V]
                    if v > b if strict else v >= b:
                        cut = Cut(v, ">" if strict else ">=", "beta", b, v)
                    elif v > a:
                        frame[_ALPHA] = v
                else:
                    if result < frame[_V]:
                        frame[_V] = result
                        best[parent] = child
                    v = frame[_V]
                    if v < a if strict else v <= a:
                        cut = Cut(v, "<" if strict else "<=", "alpha", a, v)
                    elif v < b:
                        frame[_BETA] = v
            elif mode == _CHANCE_NODE:
                # all in units of 1/scale: weights and their sums are integers for exact p
                frame[_SEEN].append((prob[child], result))  # type: ignore[index]
                if _is_decimal(result):
                    frame[_DECIMAL] = True
                total = frame[_SUM] = frame[_SUM] + frame[_WEIGHTS][position] * _as_written(result)
                rest = frame[_REST][position + 1]
                upper = total + high_exact * rest
                lower = total + low_exact * rest
                a, b = frame[_ALPHA_S], frame[_BETA_S]
                if upper < a if strict else upper <= a:
                    upper = _bound(unscale(upper, frame[_SCALE]), frame[_DECIMAL])
                    cut = Cut(upper, "<" if strict else "<=", "alpha", frame[_ALPHA], upper, "upper")
                elif lower > b if strict else lower >= b:
                    lower = _bound(unscale(lower, frame[_SCALE]), frame[_DECIMAL])
                    cut = Cut(lower, ">" if strict else ">=", "beta", frame[_BETA], lower, "lower")
            else:
                frame[_SEEN].append(result)
            if cut is not None:
                cutoffs += 1
                cuts[parent] = cut
                skipped = list(range(child + 1, first[parent] + count[parent]))
                pruned.extend(skipped)
                if emit is not None:
                    emit(Event(CUT, parent, frame[_DEPTH], frame[_ALPHA], frame[_BETA], cut.value,
                               {"op": cut.op, "bound": cut.bound_name, "returns": cut.returns,
                                "value_name": cut.value_name, "skipped": skipped}))
                finished = True
                result = cut.returns
        if not finished:
            position = frame[_POS]
            if position < count[parent]:
                node = first[parent] + position
                frame[_POS] += 1
                depth = frame[_DEPTH] + 1
                p_in = None
                if mode == _MAX_NODE or mode == _MIN_NODE:
                    alpha, beta = frame[_ALPHA], frame[_BETA]
                elif mode == _MODEL_NODE:
                    alpha, beta = low, high
                else:
                    p_in = prob[node]  # type: ignore[index]
                    alpha, beta = _chance_window(frame, position, low, high, low_exact, high_exact)
                entering = True
                continue
            detail = None
            if mode == _MAX_NODE or mode == _MIN_NODE:
                result = frame[_V]
            elif mode == _CHANCE_NODE:
                scale = frame[_SCALE]
                # exact: the scaled sum is the expectation; a decimal among the probabilities
                # *or the values*: summed as expectiminimax sums them (as written, rounded once)
                result = expected_value(frame[_SEEN]) if _has_float(frame[_SEEN]) else unscale(frame[_SUM], scale)
                detail = {"terms": frame[_SEEN]}
            else:
                children = frame[_SEEN]
                optimal = max(children) if kind[parent] == MAX else min(children)
                best[parent] = first[parent] + children.index(optimal)
                mean = uniform_mean(children)
                result = mix(shares[parent], optimal, mean)
                detail = {"random": shares[parent], "optimal": optimal, "mean": mean}
            if emit is not None:
                emit(Event(RETURN, parent, frame[_DEPTH], frame[_ALPHA], frame[_BETA], result, detail))
        elif emit is not None:
            emit(Event(RETURN, parent, frame[_DEPTH], frame[_ALPHA], frame[_BETA], result))
        stack.pop()
        values[parent] = result
        ret_alpha[parent] = frame[_ALPHA]
        ret_beta[parent] = frame[_BETA]
        entering = False
        if not stack:
            break

    record = log.record("star1", tree, Stats(visited, leaves, cutoffs), depth_limit, {"bounds": [low, high], "strict": strict})
    _report_decimals(record)
    return record


def _suffix_sums(weights: list[Number]) -> list[Number]:
    """``rest[i]``: the weight of children ``i..`` (``rest[n] = 0``), summed exactly."""
    rest: list[Number] = [0] * (len(weights) + 1)
    for position in range(len(weights) - 1, -1, -1):
        rest[position] = rest[position + 1] + weights[position]
    return rest


def _has_float(terms: list[tuple[Number, Number]]) -> bool:
    return any(p.__class__ is float or v.__class__ is float for p, v in terms)


def _chance_window(frame: list, position: int, low: Number, high: Number,
                   low_exact: Number, high_exact: Number) -> tuple[Number, Number]:
    """The window a chance node gives its child ``position`` (Star1), clipped to ``[L, U]``.

    In units of ``1/scale``, exactly: ``A_i = (alpha*scale - done - U*rest) / w_i``;
    rounded to a decimal (float) when decimals took part (the node's sums, or
    that side of its own window).
    """
    weight = frame[_WEIGHTS][position]
    if weight == 0:
        return low, high
    done = frame[_SUM]
    rest = frame[_REST][position + 1]
    alpha, beta = frame[_ALPHA_S], frame[_BETA_S]
    if not _infinite(alpha):
        alpha = _divide(alpha - done - high_exact * rest, weight)
    if not _infinite(beta):
        beta = _divide(beta - done - low_exact * rest, weight)
    decimal = frame[_DECIMAL]
    return ((_bound(alpha, decimal or _is_decimal(frame[_ALPHA])) if alpha > low_exact else low),
            (_bound(beta, decimal or _is_decimal(frame[_BETA])) if beta < high_exact else high))


def _as_written(number: Number) -> Number:
    """A decimal as the exact fraction it is written as (0.1 is 1/10); other numbers,
    and the infinite bounds, unchanged."""
    if number.__class__ is float and number not in (INF, NEG_INF):
        return Fraction(repr(number))
    return number


def _is_decimal(number: Number) -> bool:
    """A decimal, or an exact bound computed from decimals (infinite bounds are neither)."""
    return number.__class__ is _Written or (number.__class__ is float and number not in (INF, NEG_INF))


class _Written(Fraction):
    """A Star1 bound computed exactly from decimals.

    The search compares it exactly; it is reported as the decimal (float) it
    rounds to. Rounding it while searching could carry a fail-low bound above
    the alpha it fell below (10**30 rounds up), or narrow a child's window.
    """

    __slots__ = ()


def _bound(number: Number, decimal: bool) -> Number:
    """An exact bound, marked to be reported as a decimal when decimals took part."""
    if decimal and number not in (INF, NEG_INF):
        return _Written(number)
    return number


def _shown(number: Value | None) -> Value | None:
    return float(number) if number.__class__ is _Written else number  # type: ignore[arg-type]


def _report_decimals(record: SearchRecord) -> None:
    """Star1's record as reported: every bound computed from decimals as a decimal."""
    values, alpha, beta = record.values, record.alpha, record.beta
    for node in record.visit_order():
        values[node] = _shown(values[node])
        alpha[node] = _shown(alpha[node])  # type: ignore[index]
        beta[node] = _shown(beta[node])  # type: ignore[index]
    record.value = values[0]
    for node, cut in record.cuts.items():
        record.cuts[node] = cut._replace(value=_shown(cut.value), bound=_shown(cut.bound), returns=_shown(cut.returns))


def _reporting_decimals(observer: Observer) -> Observer:
    """Pass Star1's events on with every bound computed from decimals as a decimal."""

    def relay(event: Event) -> None:
        detail = event.detail
        if detail:
            detail = {key: _shown_detail(item) for key, item in detail.items()}
        observer(event._replace(alpha=_shown(event.alpha), beta=_shown(event.beta), value=_shown(event.value),
                                detail=detail))

    return relay


def _shown_detail(item: object) -> object:
    if isinstance(item, list) and item and isinstance(item[0], tuple):  # a chance node's terms
        return [(p, _shown(v)) for p, v in item]
    return _shown(item)  # type: ignore[arg-type]


def _infinite(bound: Number) -> bool:
    """An open window's side (alpha = -inf, beta = inf): it stays infinite, and must not
    meet an integer beyond a float's range in arithmetic (Python raises OverflowError)."""
    return bound.__class__ is float and (bound == INF or bound == NEG_INF)


def _times(bound: Number, scale: int) -> Number:
    """``bound * scale``; an infinite bound stays itself (the scale may exceed a float's range)."""
    return bound if _infinite(bound) else bound * scale


# -- fit, options and registration helpers ------------------------------------------------


def unfit_chance(tree: Tree, options: Options) -> str | None:
    """Why expectiminimax/expectimax cannot search ``tree``, or None."""
    if tree.is_nplayer:
        return f"it has {len(tree.players)} players; expectiminimax needs two (max, min and chance nodes)"
    return None


def star1_bounds(tree: Tree, options: Options) -> tuple[Number, Number] | None:
    """The bounds Star1 uses: ``--bounds`` (``options.extra["bounds"]``) over the file's."""
    given = options.extra.get("bounds")
    if given is not None:
        return tuple(given)  # type: ignore[return-value]
    return tree.bounds


def unfit_star1(tree: Tree, options: Options) -> str | None:
    """Why Star1 cannot search ``tree``, or None."""
    reason = unfit_chance(tree, options)
    if reason is not None:
        return reason
    bounds = star1_bounds(tree, options)
    if bounds is None:
        return "needs bounds: give `bounds: [L, U]` in the file or --bounds L U"
    low, high = bounds
    if not low < high:
        return f"the bounds [{format_number(low)}, {format_number(high)}] are empty: the lowest must be below the highest"
    return None


def check_star1_bounds(tree: Tree, bounds: tuple[Number, Number], depth_limit: int | None) -> None:
    """Refuse a leaf value (or an ``eval`` used at the depth limit) outside ``bounds``.

    Star1 prunes on the promise that no value lies outside them; a value that
    does would make its answer silently wrong.
    """
    low, high = bounds
    where = "the declared" if bounds == tree.bounds else "the --bounds"
    levels = level_bounds(tree, depth_limit)
    count, leaf_value, evals = tree.count, tree.value, tree.evals
    horizon_level = depth_limit if depth_limit is not None and depth_limit < len(levels) else None
    for level, (start, end) in enumerate(levels):
        at_horizon = level == horizon_level
        for node in range(start, end):
            if count[node] == 0:
                value, what = leaf_value[node], "value"
            elif at_horizon:
                value, what = evals[node], "eval"
            else:
                continue
            if not low <= value <= high:  # type: ignore[operator]
                raise tree.error(
                    IllegalTreeError,
                    f"{what} {format_number(value)} is outside {where} bounds "  # type: ignore[arg-type]
                    f"[{format_number(low)}, {format_number(high)}] that star1 relies on",
                    node,
                )


def run_expectiminimax(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    return expectiminimax(tree, depth_limit=options.depth, observer=observer)


def run_expectimax(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    return expectimax(tree, depth_limit=options.depth, observer=observer)


def run_star1(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    if options.variant != "soft":
        raise AlgorithmError("star1 has only the fail-soft form (--variant hard is for alphabeta)")
    if options.order != "given":
        raise AlgorithmError("star1 searches children in file order only (--order is for alphabeta)")
    bounds = star1_bounds(tree, options)
    assert bounds is not None  # unfit_star1 refused the tree otherwise
    check_star1_bounds(tree, bounds, options.depth)
    return star1(tree, bounds=bounds, depth_limit=options.depth, observer=observer, strict=options.strict)
