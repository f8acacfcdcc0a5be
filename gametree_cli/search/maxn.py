"""Max-n and shallow pruning, for trees of three or more players.

Preconditions: an n-player tree (``players`` names 3 or more, or
``general_sum``); leaves are utility vectors, one number per player. Each
decision node's player maximises their own component.

* :func:`maxn` (Luckhardt & Irani 1986): a node's value is the child vector
  best for its player; chance nodes take the expected vector (exactly, see
  :mod:`~gametree_cli.search.expectation`). Ties follow a rule (see
  :data:`TIE_RULES`), by default the leftmost child is kept (the course's
  ``u >=p v``).
* :func:`shallow` (Korf 1991, "Multi-player alpha-beta pruning"): max-n that
  skips a node's remaining children once its player's best is at least the
  Bound its parent passed, ``Bound = Sum - Best_parent[parent's player]``.
  It needs non-negative utilities with a constant sum and no chance nodes
  (:func:`check_constant_sum`).

Both are one search, the depth-first :func:`~gametree_cli.search.value_search.walk`
under :class:`MaxNRules` (shallow pruning is max-n with a Bound to cut on),
watched or not.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

from ..core.errors import AlgorithmError, IllegalTreeError
from .events import Observer
from ..core.model import CHANCE, Tree
from ..core.numbers import Number, Value, format_number, format_value, normalize
from .pruning_log import PruningLog
from .record import Cut, SearchRecord
from .expectation import expected_vector
from ..core.levels import level_bounds
from .value_search import CHILDREN, END, Frame, Rules, walk

if TYPE_CHECKING:
    from .options import Options

__all__ = [
    "TIE_RULES",
    "maxn",
    "shallow",
    "MaxNRules",
    "preference",
    "root_player",
    "check_constant_sum",
    "unfit_nplayer",
    "unfit_maxn",
    "unfit_shallow",
    "run_maxn",
    "run_shallow",
]

Vector = tuple[Number, ...]
#: (candidate, best so far, player to move) -> True when the candidate replaces the best.
Preference = Callable[[Vector, Vector, int], bool]

#: Tie rules of max-n: which of two children with the same component for the
#: player to move is kept. "left" is the default and the contract's rule.
TIE_RULES = {
    "left": "keep the earlier (leftmost) child",
    "right": "take the later (rightmost) child",
    "paranoid": "take the child worse for the root player (then the leftmost)",
    "altruistic": "take the child better for the root player (then the leftmost)",
}

# frame slots after the walk's: the children's values (collected by max-n, and at chance nodes),
# the best vector so far, the Bound searched with, the player to move (-1 at a chance node)
_BEST, _BOUND, _WHO = 5, 6, 7


def root_player(tree: Tree) -> int:
    """The player whose point of view paranoid search and tie rules take.

    The player to move at the root; the first player of ``players`` when the
    root is a leaf or a chance node.
    """
    who = tree.player[0]
    return who if who >= 0 else 0


def preference(rule: str, root: int) -> Preference:
    """The comparison that implements tie rule ``rule`` (see :data:`TIE_RULES`)."""
    if rule == "left":
        return lambda new, best, who: new[who] > best[who]
    if rule == "right":
        return lambda new, best, who: new[who] >= best[who]
    if rule == "paranoid":
        return lambda new, best, who: new[who] > best[who] or (new[who] == best[who] and new[root] < best[root])
    if rule == "altruistic":
        return lambda new, best, who: new[who] > best[who] or (new[who] == best[who] and new[root] > best[root])
    raise AlgorithmError(f"unknown --ties rule {rule!r} (expected {', '.join(TIE_RULES)})")


def maxn(tree: Tree, *, depth_limit: int | None = None, observer: Observer | None = None,
         ties: str = "left") -> SearchRecord:
    """Exhaustive max-n: every node within the depth limit gets its value vector.

    Args:
        depth_limit: stop this many plies below the root and use ``eval``.
        observer: receives every call, leaf and return.
        ties: a rule of :data:`TIE_RULES`.

    Raises:
        AlgorithmError: an unknown tie rule.
    """
    return _search(tree, "maxn", None, depth_limit, observer, ties)


def shallow(tree: Tree, total: Number, *, depth_limit: int | None = None, observer: Observer | None = None,
            ties: str = "left") -> SearchRecord:
    """Max-n with Korf's shallow pruning, as the course's pseudo-code has it::

        shallow(node, Bound):
            Best = shallow(first child, Sum)
            for each further child:
                if Best[p] >= Bound: return Best          # cut-off
                Current = shallow(child, Sum - Best[p])
                if Current[p] > Best[p]: Best = Current
            return Best

    A child whose player is the node's own gets the bound ``Sum`` (the bound
    passes only between different players). Under a tie rule other than
    ``left`` the cut-off needs ``Best[p] > Bound``: on equality the parent
    could pick the cut node, whose value is then only a bound.

    Preconditions (checked by :func:`check_constant_sum`): no chance nodes,
    every leaf (and eval at the depth limit) non-negative with sum ``total``.

    Returns:
        The record; a node where a cut-off happened holds ``Best`` at that
        moment (a bound, as in alpha-beta), ``bound`` the Bound each inner
        node was searched with, ``pruned`` the topmost skipped nodes.
    """
    return _search(tree, "shallow", total, depth_limit, observer, ties)


def _search(tree: Tree, name: str, total: Number | None, depth_limit: int | None, observer: Observer | None,
            ties: str) -> SearchRecord:
    prefer = preference(ties, root_player(tree))
    log = PruningLog.for_tree(tree)
    rules = MaxNRules(tree, log.best, prefer, total, strict=ties != "left")
    stats = walk(tree, rules, log, depth_limit, observer)
    options: dict[str, Any] = {"ties": ties} if total is None else {"ties": ties, "sum": total}
    return SearchRecord(
        name, tree, log.values[0], log.values, best=log.best, pruned=log.pruned, stats=stats, cuts=log.cuts,
        horizon=log.horizon, order=log.order, depth_limit=depth_limit, options=options,
        bound=None if total is None else rules.bounds,
    )


class MaxNRules(Rules):
    """Max-n at one node: the child its player prefers; with a constant sum
    ``total``, shallow pruning: cut once that player's best reaches the Bound.

    Max-n collects the children's values and chooses when all are in;
    shallow pruning folds each value in as it comes, to cut as soon as it can.

    Event details: a child of a chance node carries its ``p``, a chance
    node's return its ``terms``; under shallow pruning a call carries the
    Bound it was searched with (``bound_value``).
    """

    def __init__(self, tree: Tree, best: dict[int, int], prefer: Preference, total: Number | None,
                 strict: bool) -> None:
        self.kind, self.first, self.prob = tree.kind, tree.first, tree.prob
        self.player, self.players = tree.player, tree.players
        self.best = best
        self.prefer = prefer
        self.total = total
        self.collects = total is None
        self.passes_windows = total is not None
        self.root_window = total
        self.op = ">" if strict else ">="
        self.bounds: dict[int, Value] = {}

    def open(self, node: int, depth: int, window: Any) -> Frame:
        if self.total is not None:
            self.bounds[node] = window
        return [node, depth, 0, 0, [], None, window, -1 if self.kind[node] == CHANCE else self.player[node]]

    def take(self, frame: Frame, child: int, value: Value) -> Cut | None:
        """Shallow pruning: keep the value if the player prefers it; cut on ``Best[p] >= Bound``."""
        who = frame[_WHO]
        if who < 0:  # a chance node: averaged when every child is in
            frame[CHILDREN].append(value)
            return None
        best = frame[_BEST]
        if best is None or self.prefer(value, best, who):  # type: ignore[arg-type]
            frame[_BEST] = best = value
            self.best[frame[0]] = child
        if child + 1 == frame[END]:
            return None  # nothing left to skip
        top, bound = best[who], frame[_BOUND]
        if top > bound if self.op == ">" else top >= bound:
            return Cut(top, self.op, "Bound", bound, best, f"Best[{self.players[who]}]")
        return None

    def child_window(self, frame: Frame, child: int) -> Number:
        """Shallow pruning's Bound for the child: ``Sum - Best[p]``, or ``Sum`` for the
        first child and for a child whose player is the node's own."""
        who = frame[_WHO]
        if child == self.first[frame[0]] or self.player[child] == who:
            return self.total  # type: ignore[return-value]
        return self.total - frame[_BEST][who]  # type: ignore[operator]

    def close(self, frame: Frame) -> tuple[Value, dict[str, Any] | None]:
        who, children = frame[_WHO], frame[CHILDREN]
        if who < 0:
            chances = self.prob[self.first[frame[0]] : frame[END]]  # type: ignore[index]
            return expected_vector(children, chances), {"terms": list(zip(chances, children))}  # type: ignore[arg-type]
        if not self.collects:  # shallow pruning kept the best as the values came
            return frame[_BEST], None
        prefer, chosen = self.prefer, 0  # max-n: the child the player prefers, by the tie rule
        for position in range(1, len(children)):
            if prefer(children[position], children[chosen], who):
                chosen = position
        self.best[frame[0]] = self.first[frame[0]] + chosen
        return children[chosen], None

    def describe(self, node: int, parent: int, window: Any, inner: bool) -> dict[str, Any] | None:
        detail: dict[str, Any] = {}
        if inner and self.total is not None:
            detail["bound_value"] = window
        if parent >= 0 and self.kind[parent] == CHANCE:
            detail["p"] = self.prob[node]  # type: ignore[index]
        return detail or None


def check_constant_sum(tree: Tree, total: Number, depth_limit: int | None = None, where: str = "sum") -> None:
    """Refuse vectors shallow pruning cannot handle: a negative component, or a
    sum other than ``total`` (leaves, and evals where the depth limit uses them).

    Raises:
        IllegalTreeError: located at the first offending node.
    """
    value = tree.value
    for node in range(len(value)):
        vector = value[node]
        if vector is not None:
            _check_vector(tree, node, vector, total, "value", where)  # type: ignore[arg-type]
    if depth_limit is not None:
        levels = level_bounds(tree, depth_limit)
        if len(levels) > depth_limit:
            start, end = levels[depth_limit]
            for node in range(start, end):
                if tree.count[node] and node in tree.evals:
                    _check_vector(tree, node, tree.evals[node], total, "eval", where)  # type: ignore[arg-type]


def _check_vector(tree: Tree, node: int, vector: Vector, total: Number, what: str, where: str) -> None:
    for part in vector:
        if part < 0:
            raise tree.error(IllegalTreeError, f"{what} {format_value(vector)} has a negative component ({format_number(part)}); "
                             "shallow pruning needs non-negative utilities", node)
    found = sum(vector)
    if isinstance(found, float) or isinstance(total, float):
        equal = math.isclose(float(found), float(total), rel_tol=1e-9, abs_tol=1e-9)
    else:
        equal = found == total
    if not equal:
        raise tree.error(IllegalTreeError, f"{what} {format_value(vector)} sums to {format_number(normalize(found))}, "
                         f"not the constant {where} {format_number(total)} that shallow pruning needs", node)


# -- registry glue -------------------------------------------------------------


def unfit_nplayer(tree: Tree) -> str | None:
    """Why a search of payoff vectors cannot search ``tree``, or None."""
    if not tree.is_nplayer:
        return "it is a two-player tree of single numbers; n-player searches need payoff vectors (3+ players, or general_sum: true)"
    return None


def unfit_maxn(tree: Tree, options: Options) -> str | None:
    return unfit_nplayer(tree)


def unfit_shallow(tree: Tree, options: Options) -> str | None:
    reason = unfit_nplayer(tree)
    if reason is None and tree.has_chance:
        reason = "it has chance nodes (shallow pruning needs a deterministic tree)"
    if reason is None and options.extra.get("sum", tree.total) is None:
        reason = "it has no constant sum (give sum: in the file, or --sum)"
    return reason


def _ties(options: Options) -> str:
    rule = str(options.extra.get("ties") or "left").strip().lower()
    preference(rule, 0)  # refuses an unknown rule before searching
    return rule


def run_maxn(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    return maxn(tree, depth_limit=options.depth, observer=observer, ties=_ties(options))


def run_shallow(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    ties = _ties(options)
    given = options.extra.get("sum")
    total = tree.total if given is None else given
    check_constant_sum(tree, total, options.depth, "sum" if given is None else "--sum")
    return shallow(tree, total, depth_limit=options.depth, observer=observer, ties=ties)
