"""Star2: Star1 with a probing phase at chance nodes (Ballard 1983).

Star1 (:mod:`.star1`) knows nothing of a chance node's unseen children but
the bounds ``[L, U]``. Star2 first *probes* each child: it searches only the
child's first move. A ``max`` child is worth at least what its first move
is worth, so a probe gives a lower bound ``lo_i`` (a ``min`` child: an upper
bound ``hi_i``). If the probes alone push the node's expectation out of its
window, the node is cut without searching any child fully; otherwise the
children are searched as Star1 searches them, with the probed bounds in
place of ``L`` / ``U`` for the children not yet searched::

    probe of child i:  window (max(A_i, L), min(B_i, U)),
        A_i = (alpha - sum(p_j hi_j, j != i)) / p_i
        B_i = (beta  - sum(p_j lo_j, j != i)) / p_i
    cut after a probe: sum(p_j hi_j) <= alpha, or sum(p_j lo_j) >= beta
    search of child i: Star1's windows and cuts, with sum(p_j hi_j, j > i)
        for U * sum(p_j, j > i) and sum(p_j lo_j, j > i) for L * ...

A fail-soft probe result ``r`` of a ``max`` child is a lower bound only when
``r > A_i`` (below it, ``r`` bounds the first move from above); of a ``min``
child an upper bound only when ``r < B_i``.

Where probing applies: a chance node whose children are all ``max`` / ``min``
nodes above the depth limit, none an opponent model, none with ``p = 0``
(Ballard's regular *-minimax trees). Elsewhere (leaves among the children:
probing would just evaluate them) the node is searched as Star1 does.

Costs, as a tree without a transposition table pays them: a probed child
that is then searched is searched again from its first move, and every leaf
evaluation counts in ``leaves_evaluated`` (a leaf probed and searched again
counts twice). ``nodes_visited`` and ``visit_order`` count each node once;
``cutoffs`` counts every time a cut condition held, probes included;
``record.probes`` keeps each probe's result and the bound it gave.

References: Ballard, "The *-minimax search procedure for trees containing
chance nodes", Artificial Intelligence 21 (1983); Hauk, Buro & Schaeffer,
"Rediscovering *-Minimax Search", Computers and Games 2004 (Star2's probing
phase, here generalised to unequal probabilities and min children).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import AlgorithmError
from .events import Observer
from ..core.model import CHANCE, MAX, MIN, Tree
from ..core.numbers import Number, Value
from .pruning_log import PruningLog
from .record import Cut, SearchRecord, Stats
from .expectation import as_written, divide, unscale
from .star1 import (_ALPHA_S, _BETA_S, _DECIMAL, _MODE, _SCALE, _SEEN, _SUM, _V, _WEIGHTS, Star1Rules, _bound,
                    _infinite, _is_decimal, _report_decimals, _reporting_decimals, _shown, check_star1_bounds,
                    star1_bounds)
from .value_search import ALPHA, BETA, Frame, walk

if TYPE_CHECKING:
    from . import Options

__all__ = ["star2", "run_star2", "Probe", "probe_side"]

# a chance frame: Star1's slots, then these
_PHASE, _LO, _HI, _LO_REST, _HI_REST, _LO_SUM, _HI_SUM, _PROBE_WINDOW = range(15, 23)
_PROBING, _SEARCHING = 0, 1
#: the mode of a decision node being probed (Star1's modes are 0..2)
_PROBE = 3

#: one probe's outcome: the child's kind of bound ("lower", "upper", or None when
#: the result bounds nothing) and the value its first move returned
Probe = tuple[str | None, Value]


def star2(
    tree: Tree,
    *,
    bounds: tuple[Number, Number],
    depth_limit: int | None = None,
    observer: Observer | None = None,
    strict: bool = False,
) -> SearchRecord:
    """Expectiminimax with Star2 pruning at chance nodes (see the module docstring).

    Returns:
        The record, as Star1's, plus ``record.probes``: probed node -> :data:`Probe`.
    """
    log = PruningLog.for_tree(tree)
    log.order = _Entries(log.cuts)
    rules = Star2Rules(tree, log.best, bounds, strict, depth_limit)
    relay = None if observer is None else _reporting_decimals(observer)
    stats = walk(tree, rules, log, depth_limit, relay)
    seen: set[int] = set()
    log.order = [node for node in log.order if not (node in seen or seen.add(node))]  # type: ignore[func-returns-value]
    log.pruned = _never_visited(tree, log.values, log.horizon)
    stats = Stats(len(log.order), stats.leaves_evaluated, stats.cutoffs)
    record = log.record("star2", tree, stats, depth_limit, {"bounds": list(bounds), "strict": strict})
    record.probes = {node: (side, _shown(value)) for node, (side, value) in rules.probes.items()}
    _report_decimals(record)
    return record


class _Entries(list):  # type: ignore[type-arg]
    """The visit log: a node entered again (a probed child, now searched) forgets the
    cut-off its probe may have made below, since the search decides anew."""

    def __init__(self, cuts: dict[int, Cut]) -> None:
        super().__init__()
        self.cuts = cuts
        self.seen: set[int] = set()

    def append(self, node: int) -> None:
        if node in self.seen:
            self.cuts.pop(node, None)
        else:
            self.seen.add(node)
        super().append(node)


def _never_visited(tree: Tree, values: list[Value | None], horizon: set[int]) -> list[int]:
    """The topmost nodes never visited, in tree order: the unvisited children of visited
    inner nodes (a probe visits a node's first child only; a cut skips the rest)."""
    first, count = tree.first, tree.count
    found = [child for node, value in enumerate(values) if value is not None and count[node] and node not in horizon
             for child in range(first[node], first[node] + count[node]) if values[child] is None]
    if not found:
        return []
    rank = {node: position for position, node in enumerate(tree.preorder())}
    return sorted(found, key=rank.__getitem__)


class Star2Rules(Star1Rules):
    """Star1's rules, with a probing pass over a chance node's children before the search."""

    def __init__(self, tree: Tree, best: dict[int, int], bounds: tuple[Number, Number], strict: bool,
                 depth_limit: int | None) -> None:
        super().__init__(tree, best, bounds, strict)
        self.limit = depth_limit
        self.probes: dict[int, Probe] = {}
        self._probing = -1  # the child about to be entered for its probe
        #: node -> the window it was last entered with; node -> (value, window) of its last search
        self._entry: dict[int, tuple[Number, Number]] = {}
        self.memory: dict[int, tuple[Value, tuple[Number, Number]]] = {}
        self._recalled = -1  # the child whose value recall() just gave

    remembers = True

    def _probes_here(self, node: int, depth: int, weights: list[Number]) -> bool:
        """Whether the chance node's children can all be probed (see the module docstring)."""
        if depth + 1 == self.limit or not all(weights):
            return False
        kind, count = self.kind, self.count
        return all(kind[child] in (MAX, MIN) and count[child] and child not in self.shares
                   for child in range(self.first[node], self.first[node] + self.count[node]))

    def open(self, node: int, depth: int, window: Any) -> Frame:
        frame = super().open(node, depth, window)
        if node == self._probing:  # a decision node probed: its first move only, never a cut
            self._probing = -1
            frame[_MODE] = _PROBE
            frame[3] = 1
            return frame
        if self.kind[node] == CHANCE:
            weights, scale = frame[_WEIGHTS], frame[_SCALE]
            n = len(weights)
            probing = self._probes_here(node, depth, weights)
            frame += [_PROBING if probing else _SEARCHING, [self.low_exact] * n, [self.high_exact] * n, None, None,
                      self.low_exact * scale, self.high_exact * scale, None]
            if not probing:
                _rests(frame)
        return frame

    def recall(self, frame: Frame, child: int, window: Any) -> Value | None:
        """A transposition table's answer: the child's last search, when its value still
        decides under ``window`` (fail-soft: exact inside its old window, else a bound that
        lies beyond the new window's same side). Never for a probe (it wants a first move)."""
        remembered = self.memory.get(child)
        if remembered is None or (self.kind[frame[0]] == CHANCE and frame[_PHASE] == _PROBING):
            return None
        value, (low, high) = remembered
        if not self.count[child] or frame[1] + 1 == self.limit:
            self._recalled = child
            return value  # a leaf, or eval at the depth limit: exact
        alpha, beta = window
        if low < value < high or (value >= high and value >= beta) or (value <= low and value <= alpha):  # type: ignore[operator]
            self._recalled = child  # take() keeps what the earlier search knew (its own window)
            return value
        return None

    def take(self, frame: Frame, child: int, value: Value) -> Cut | None:
        mode = frame[_MODE]
        if child == self._recalled:
            self._recalled = -1
        elif not (self.kind[frame[0]] == CHANCE and frame[_PHASE] == _PROBING):  # a search, not a probe
            self.memory[child] = (value, self._entry[child])
        if mode == _PROBE:
            frame[_V] = value
            return None
        if self.kind[frame[0]] == CHANCE and frame[_PHASE] == _PROBING:
            return self._take_probe(frame, child, value)
        return super().take(frame, child, value)

    def _take_probe(self, frame: Frame, child: int, value: Value) -> Cut | None:
        """A child's probe is in: keep the bound it gives, cut if the bounds alone decide,
        else after the last probe start the search over from the first child."""
        position = child - self.first[frame[0]]
        weight, (low, high) = frame[_WEIGHTS][position], frame[_PROBE_WINDOW]
        exact = as_written(value)
        side = probe_side(self.kind[child], value, low, high)
        if side == "lower":
            frame[_LO_SUM] += weight * (exact - frame[_LO][position])
            frame[_LO][position] = exact
        elif side == "upper":
            frame[_HI_SUM] += weight * (exact - frame[_HI][position])
            frame[_HI][position] = exact
        self.probes[child] = (side, value)
        if _is_decimal(value):  # type: ignore[arg-type]
            frame[_DECIMAL] = True
        strict, upper, lower = self.strict, frame[_HI_SUM], frame[_LO_SUM]
        if upper < frame[_ALPHA_S] if strict else upper <= frame[_ALPHA_S]:
            upper = _bound(unscale(upper, frame[_SCALE]), frame[_DECIMAL])
            return Cut(upper, "<" if strict else "<=", "alpha", frame[ALPHA], upper, "probed upper")
        if lower > frame[_BETA_S] if strict else lower >= frame[_BETA_S]:
            lower = _bound(unscale(lower, frame[_SCALE]), frame[_DECIMAL])
            return Cut(lower, ">" if strict else ">=", "beta", frame[BETA], lower, "probed lower")
        if position == len(frame[_WEIGHTS]) - 1:  # every probe is in: now the search
            frame[_PHASE] = _SEARCHING
            _rests(frame)
            frame[2] = self.first[frame[0]]
        return None

    def child_window(self, frame: Frame, child: int) -> tuple[Number, Number]:
        mode = frame[_MODE]
        if mode == _PROBE:
            window = frame[ALPHA], frame[BETA]
        elif self.kind[frame[0]] == CHANCE and frame[_PHASE] == _PROBING:
            window = frame[_PROBE_WINDOW] = self._probe_window(frame, child - self.first[frame[0]])
            self._probing = child
        else:
            window = super().child_window(frame, child)
        self._entry[child] = window
        return window

    def _probe_window(self, frame: Frame, position: int) -> tuple[Number, Number]:
        """``(max(A_i, L), min(B_i, U))`` for child ``i``'s probe, the other children at their bounds."""
        weight = frame[_WEIGHTS][position]
        alpha, beta = frame[_ALPHA_S], frame[_BETA_S]
        if not _infinite(alpha):
            alpha = divide(alpha - (frame[_HI_SUM] - weight * frame[_HI][position]), weight)
        if not _infinite(beta):
            beta = divide(beta - (frame[_LO_SUM] - weight * frame[_LO][position]), weight)
        return self._clipped(frame, alpha, beta)

    def _clipped(self, frame: Frame, alpha: Number, beta: Number) -> tuple[Number, Number]:
        """A child's window clipped to ``[L, U]``; marked decimal where decimals took part."""
        decimal = frame[_DECIMAL]
        return ((_bound(alpha, decimal or _is_decimal(frame[ALPHA])) if alpha > self.low_exact else self.low),
                (_bound(beta, decimal or _is_decimal(frame[BETA])) if beta < self.high_exact else self.high))

    def _chance_window(self, frame: Frame, position: int) -> tuple[Number, Number]:
        """Star1's ``(A_i, B_i)`` with the unseen children at their probed bounds."""
        weight, done = frame[_WEIGHTS][position], frame[_SUM]
        alpha, beta = frame[_ALPHA_S], frame[_BETA_S]
        if not _infinite(alpha):
            alpha = divide(alpha - done - frame[_HI_REST][position + 1], weight)
        if not _infinite(beta):
            beta = divide(beta - done - frame[_LO_REST][position + 1], weight)
        return self._clipped(frame, alpha, beta)

    def _take_chance(self, frame: Frame, child: int, value: Value) -> Cut | None:
        """Star1's cut test with the unseen children at their probed bounds."""
        position = child - self.first[frame[0]]
        frame[_SEEN].append((self.prob[child], value))  # type: ignore[index]
        if _is_decimal(value):  # type: ignore[arg-type]
            frame[_DECIMAL] = True
        total = frame[_SUM] = frame[_SUM] + frame[_WEIGHTS][position] * as_written(value)  # type: ignore[arg-type]
        upper = total + frame[_HI_REST][position + 1]
        lower = total + frame[_LO_REST][position + 1]
        strict = self.strict
        if upper < frame[_ALPHA_S] if strict else upper <= frame[_ALPHA_S]:
            upper = _bound(unscale(upper, frame[_SCALE]), frame[_DECIMAL])
            return Cut(upper, "<" if strict else "<=", "alpha", frame[ALPHA], upper, "upper")
        if lower > frame[_BETA_S] if strict else lower >= frame[_BETA_S]:
            lower = _bound(unscale(lower, frame[_SCALE]), frame[_DECIMAL])
            return Cut(lower, ">" if strict else ">=", "beta", frame[BETA], lower, "lower")
        return None

    def close(self, frame: Frame) -> tuple[Value, dict[str, Any] | None]:
        if frame[_MODE] == _PROBE:
            side = probe_side(self.kind[frame[0]], frame[_V], frame[ALPHA], frame[BETA])
            return frame[_V], {"probe": side or "none"}
        return super().close(frame)

    def describe(self, node: int, parent: int, window: Any, inner: bool) -> dict[str, Any] | None:
        detail = super().describe(node, parent, window, inner)
        if inner and node == self._probing:
            detail = {**(detail or {}), "probe": True}
        return detail


def probe_side(kind: int, value: Value, low: Number, high: Number) -> str | None:
    """The bound a probe's fail-soft result gives the probed node searched with ``(low, high)``:
    a max node's first move bounds it from below unless the result failed low (``<= low``: then it
    only bounds the first move from above); a min node's from above unless it failed high."""
    if kind == MAX and as_written(value) > as_written(low):  # type: ignore[arg-type,operator]
        return "lower"
    if kind == MIN and as_written(value) < as_written(high):  # type: ignore[arg-type,operator]
        return "upper"
    return None


def _rests(frame: Frame) -> None:
    """``rest[k]``: the scaled sum of ``w_j * lo_j`` (and ``hi_j``) over children ``j >= k``."""
    weights, lows, highs = frame[_WEIGHTS], frame[_LO], frame[_HI]
    n = len(weights)
    low_rest: list[Number] = [0] * (n + 1)
    high_rest: list[Number] = [0] * (n + 1)
    for position in range(n - 1, -1, -1):
        low_rest[position] = low_rest[position + 1] + weights[position] * lows[position]
        high_rest[position] = high_rest[position + 1] + weights[position] * highs[position]
    frame[_LO_REST], frame[_HI_REST] = low_rest, high_rest


def run_star2(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    if options.variant != "soft":
        raise AlgorithmError("star2 has only the fail-soft form (--variant hard is for alphabeta)")
    if options.order != "given":
        raise AlgorithmError("star2 searches children in file order only (--order is for alphabeta)")
    bounds = star1_bounds(tree, options)
    assert bounds is not None  # unfit_star1 refused the tree otherwise
    check_star1_bounds(tree, bounds, options.depth)
    return star2(tree, bounds=bounds, depth_limit=options.depth, observer=observer, strict=options.strict)
