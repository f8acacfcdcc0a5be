"""Star1: expectiminimax with Ballard's pruning at chance nodes.

Preconditions: a two-player tree (``max``, ``min``, ``chance`` nodes) and
bounds ``[L, U]`` that no leaf value (nor an ``eval`` used at the depth
limit) leaves: :func:`check_star1_bounds` refuses a tree that breaks them,
since the pruning relies on them. Values are from MAX's point of view.

``max``/``min`` nodes are fail-soft alpha-beta: one rule, with the side's
comparison chosen per node. A chance node with window ``(alpha, beta)`` and
probabilities ``p_i`` searches child ``i`` with the window its value must
leave for the node to matter, given the values ``v_j`` already found and the
bounds on the unseen ones::

    A_i = (alpha - sum(p_j v_j, j < i) - U * sum(p_j, j > i)) / p_i
    B_i = (beta  - sum(p_j v_j, j < i) - L * sum(p_j, j > i)) / p_i

clipped to ``[L, U]``. After child ``i`` the node's value is at most
``upper = sum(p_j v_j, j <= i) + U * rest`` and at least ``lower = ... + L *
rest``; ``upper <= alpha`` (fail low) or ``lower >= beta`` (fail high) cuts
off the remaining children and returns that bound. A child with ``p = 0`` is
searched with ``(L, U)``. An opponent-model node (``random`` > 0) needs its
children's exact values for the mean: it searches each with ``(L, U)`` and
never cuts itself (pruning goes on below it).

The bound arithmetic is exact, decimals taken as written: a cut-off happens
where the hand calculation says, not where binary rounding puts it. Bounds
computed from decimals stay exact (:class:`_Written`) while the search
compares them, and are reported as the decimals they round to.

References: Ballard, "The *-minimax search procedure for trees containing
chance nodes", Artificial Intelligence 21 (1983); Hauk, Buro & Schaeffer,
"Rediscovering *-Minimax Search", Computers and Games 2004 (the pseudo-code
followed here, generalised to unequal probabilities).
"""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.errors import AlgorithmError, IllegalTreeError
from .events import Event, Observer
from ..core.model import CHANCE, MAX, MIN, Tree
from ..core.numbers import INF, NEG_INF, Number, Value, format_number
from .pruning_log import PruningLog
from .record import Cut, SearchRecord
from .expectation import as_written, chance_weights, divide, expected_value, unscale
from .expectation import decide
from .expecti import opponent_models, unfit_chance
from ..core.levels import level_bounds
from .value_search import ALPHA, BETA, Frame, Rules, walk

if TYPE_CHECKING:
    from .options import Options

__all__ = ["star1", "star1_bounds", "check_star1_bounds", "unfit_star1", "run_star1"]

# frame slots after the walk's and the window: [node, depth, next, end, alpha, beta, mode, ...]
_MODE = 6
_SIDE, _V = 7, 8  # a decision node: its side (see Star1Rules.sides), the best value so far
_SUM, _REST, _SEEN, _SCALE, _WEIGHTS, _ALPHA_S, _BETA_S, _DECIMAL = range(7, 15)  # a chance node; a model: _SEEN
_DECIDE, _CHANCE, _MODEL = range(3)


def star1(
    tree: Tree,
    *,
    bounds: tuple[Number, Number],
    depth_limit: int | None = None,
    observer: Observer | None = None,
    strict: bool = False,
) -> SearchRecord:
    """Expectiminimax with Star1 pruning at chance nodes (see the module docstring).

    Args:
        bounds: ``(L, U)``: no leaf (or ``eval`` used at the depth limit) lies outside.
        depth_limit: stop this many plies below the root and use ``eval``.
        observer: receives every call, leaf, cut and return.
        strict: cut only on ``>`` / ``<``.

    Returns:
        The record; ``values`` of visited nodes are what each call returned
        (bounds, not exact values, below a cut-off), ``pruned`` the topmost
        skipped nodes in tree order, ``cuts`` each cut's reason, ``alpha`` and
        ``beta`` each node's window.
    """
    log = PruningLog.for_tree(tree)
    relay = None if observer is None else _reporting_decimals(observer)
    stats = walk(tree, Star1Rules(tree, log.best, bounds, strict), log, depth_limit, relay)
    record = log.record("star1", tree, stats, depth_limit, {"bounds": list(bounds), "strict": strict})
    _report_decimals(record)
    return record


class Star1Rules(Rules):
    """Star1 at one node: alpha-beta at decisions, Star1 windows and cuts at chance nodes."""

    passes_windows = True
    windowed = True
    root_window = (NEG_INF, INF)

    def __init__(self, tree: Tree, best: dict[int, int], bounds: tuple[Number, Number], strict: bool) -> None:
        self.kind, self.first, self.count, self.prob = tree.kind, tree.first, tree.count, tree.prob
        self.shares = opponent_models(tree)
        self.best = best
        self.strict = strict
        self.low, self.high = bounds
        self.low_exact, self.high_exact = as_written(self.low), as_written(self.high)
        self.decimal_bounds = self.low.__class__ is float or self.high.__class__ is float
        # a decision node's side: (better, own bound slot, opposing bound slot, cut op, its name, start)
        self.sides = {
            MAX: (operator.gt, ALPHA, BETA, ">" if strict else ">=", "beta", NEG_INF),
            MIN: (operator.lt, BETA, ALPHA, "<" if strict else "<=", "alpha", INF),
        }

    def open(self, node: int, depth: int, window: Any) -> Frame:
        alpha, beta = window
        kind = self.kind[node]
        if kind == CHANCE:
            start = self.first[node]
            given = self.prob[start : start + self.count[node]]  # type: ignore[index]
            scale, weights = chance_weights([as_written(p) for p in given])  # type: ignore[arg-type]
            # decimals among the bounds, the probabilities or (later) the values found
            # make the node's sums decimals: a cut-off returns a decimal
            decimal = self.decimal_bounds or any(p.__class__ is float for p in given)
            return [node, depth, 0, 0, alpha, beta, _CHANCE, 0, _suffix_sums(weights), [], scale, weights,
                    _times(as_written(alpha), scale), _times(as_written(beta), scale), decimal]
        if node in self.shares:
            return [node, depth, 0, 0, alpha, beta, _MODEL, None, None, []]
        side = self.sides[kind]
        return [node, depth, 0, 0, alpha, beta, _DECIDE, side, side[5]]

    def take(self, frame: Frame, child: int, value: Value) -> Cut | None:
        mode = frame[_MODE]
        if mode == _DECIDE:  # fail-soft alpha-beta, max and min alike
            better, own, other, op, other_name, _ = frame[_SIDE]
            if better(value, frame[_V]):
                frame[_V] = value
                self.best[frame[0]] = child
            v, bound = frame[_V], frame[other]
            if better(v, bound) or (v == bound and not self.strict):
                return Cut(v, op, other_name, bound, v)
            if better(v, frame[own]):
                frame[own] = v
            return None
        if mode == _MODEL:
            frame[_SEEN].append(value)
            return None
        return self._take_chance(frame, child, value)

    def _take_chance(self, frame: Frame, child: int, value: Value) -> Cut | None:
        """Add ``p * value`` to a chance node's sum; cut when the unseen children, at the
        bounds, can no longer bring it inside the window. All in units of ``1/scale``:
        the weights and their sums are integers for exact probabilities."""
        position = child - self.first[frame[0]]
        frame[_SEEN].append((self.prob[child], value))  # type: ignore[index]
        if _is_decimal(value):  # type: ignore[arg-type]
            frame[_DECIMAL] = True
        total = frame[_SUM] = frame[_SUM] + frame[_WEIGHTS][position] * as_written(value)  # type: ignore[arg-type]
        rest = frame[_REST][position + 1]
        upper = total + self.high_exact * rest
        lower = total + self.low_exact * rest
        strict = self.strict
        if upper < frame[_ALPHA_S] if strict else upper <= frame[_ALPHA_S]:
            upper = _bound(unscale(upper, frame[_SCALE]), frame[_DECIMAL])
            return Cut(upper, "<" if strict else "<=", "alpha", frame[ALPHA], upper, "upper")
        if lower > frame[_BETA_S] if strict else lower >= frame[_BETA_S]:
            lower = _bound(unscale(lower, frame[_SCALE]), frame[_DECIMAL])
            return Cut(lower, ">" if strict else ">=", "beta", frame[BETA], lower, "lower")
        return None

    def child_window(self, frame: Frame, child: int) -> tuple[Number, Number]:
        mode = frame[_MODE]
        if mode == _DECIDE:
            return frame[ALPHA], frame[BETA]
        position = child - self.first[frame[0]]
        if mode == _MODEL or frame[_WEIGHTS][position] == 0:
            return self.low, self.high
        return self._chance_window(frame, position)

    def _chance_window(self, frame: Frame, position: int) -> tuple[Number, Number]:
        """``(A_i, B_i)`` of the module docstring, clipped to ``[L, U]``.

        In units of ``1/scale``, exactly: ``A_i = (alpha*scale - done - U*rest) / w_i``;
        marked as a decimal (:class:`_Written`) when decimals took part (the
        node's sums, or that side of its own window).
        """
        weight, done, rest = frame[_WEIGHTS][position], frame[_SUM], frame[_REST][position + 1]
        alpha, beta = frame[_ALPHA_S], frame[_BETA_S]
        if not _infinite(alpha):
            alpha = divide(alpha - done - self.high_exact * rest, weight)
        if not _infinite(beta):
            beta = divide(beta - done - self.low_exact * rest, weight)
        decimal = frame[_DECIMAL]
        return ((_bound(alpha, decimal or _is_decimal(frame[ALPHA])) if alpha > self.low_exact else self.low),
                (_bound(beta, decimal or _is_decimal(frame[BETA])) if beta < self.high_exact else self.high))

    def close(self, frame: Frame) -> tuple[Value, dict[str, Any] | None]:
        mode = frame[_MODE]
        if mode == _DECIDE:
            return frame[_V], None
        seen = frame[_SEEN]
        node = frame[0]
        if mode == _CHANCE:
            # exact: the scaled sum is the expectation; a decimal among the probabilities
            # *or the values*: summed as expectiminimax sums them (as written, rounded once)
            value = expected_value(seen) if _has_float(seen) else unscale(frame[_SUM], frame[_SCALE])
            return value, {"terms": seen}
        position, value, detail = decide(self.kind[node] == MAX, self.shares[node], seen)
        self.best[node] = self.first[node] + position
        return value, detail

    def describe(self, node: int, parent: int, window: Any, inner: bool) -> dict[str, Any] | None:
        if parent >= 0 and self.kind[parent] == CHANCE:
            return {"p": self.prob[node]}  # type: ignore[index]
        return None


def _suffix_sums(weights: list[Number]) -> list[Number]:
    """``rest[i]``: the weight of children ``i..`` (``rest[n] = 0``), summed exactly."""
    rest: list[Number] = [0] * (len(weights) + 1)
    for position in range(len(weights) - 1, -1, -1):
        rest[position] = rest[position + 1] + weights[position]
    return rest


def _has_float(terms: list[tuple[Number, Number]]) -> bool:
    return any(p.__class__ is float or v.__class__ is float for p, v in terms)


def _infinite(bound: Number) -> bool:
    """An open window's side (alpha = -inf, beta = inf): it stays infinite, and must not
    meet an integer beyond a float's range in arithmetic (Python raises OverflowError)."""
    return bound.__class__ is float and (bound == INF or bound == NEG_INF)


def _times(bound: Number, scale: int) -> Number:
    """``bound * scale``; an infinite bound stays itself (the scale may exceed a float's range)."""
    return bound if _infinite(bound) else bound * scale


# -- bounds computed from decimals ------------------------------------------------------


class _Written(Fraction):
    """A Star1 bound computed exactly from decimals.

    The search compares it exactly; it is reported as the decimal (float) it
    rounds to. Rounding it while searching could carry a fail-low bound above
    the alpha it fell below (10**30 rounds up), or narrow a child's window.
    """

    __slots__ = ()


def _is_decimal(number: Number) -> bool:
    """A decimal, or an exact bound computed from decimals (infinite bounds are neither)."""
    return number.__class__ is _Written or (number.__class__ is float and number not in (INF, NEG_INF))


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


# -- fit, options and registry glue ----------------------------------------------------


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


def run_star1(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    if options.variant != "soft":
        raise AlgorithmError("star1 has only the fail-soft form (--variant hard is for alphabeta)")
    if options.order != "given":
        raise AlgorithmError("star1 searches children in file order only (--order is for alphabeta)")
    bounds = star1_bounds(tree, options)
    assert bounds is not None  # unfit_star1 refused the tree otherwise
    check_star1_bounds(tree, bounds, options.depth)
    return star1(tree, bounds=bounds, depth_limit=options.depth, observer=observer, strict=options.strict)
