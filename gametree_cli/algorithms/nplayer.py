"""Searches for trees of three or more players: max-n, shallow pruning, paranoid.

Preconditions: an n-player tree (``players`` names 3 or more); leaves are
utility vectors, one number per player. Each decision node's player
maximises their own component.

* :func:`maxn` (Luckhardt & Irani 1986): a node's value is the child vector
  best for its player; chance nodes take the expected vector. Ties follow a
  rule (see :data:`TIE_RULES`), by default the leftmost child is kept (the
  course's ``u >=p v``).
* :func:`shallow` (Korf 1991, "Multi-player alpha-beta pruning"): max-n that
  skips a node's remaining children once its player's best is at least the
  Bound its parent passed, ``Bound = Sum - Best_parent[parent's player]``.
  It needs non-negative utilities with a constant sum and no chance nodes.
* :func:`paranoid` (Sturtevant & Korf 2000): the root player against the
  coalition of all others, i.e. alpha-beta on the root player's component
  with the root player's nodes as ``max`` and everyone else's as ``min``.

All searches are iterative (an explicit stack or a level sweep), so depth is
bounded by memory, not by Python's recursion limit.
"""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING, Callable, Sequence

from ..errors import AlgorithmError, IllegalTreeError
from ..events import CALL, CUT, LEAF, RETURN, Event, Observer
from ..model import CHANCE, MAX, MIN, PLAYER, Tree
from ..numbers import Number, Value, format_number, format_value, normalize
from ..record import Cut, SearchRecord, Stats
from .bottom_up import evaluate_bottom_up
from .chance import expected_value
from .minimax import alphabeta, level_bounds, minimax

if TYPE_CHECKING:
    from . import Options

__all__ = [
    "TIE_RULES",
    "maxn",
    "shallow",
    "paranoid",
    "preference",
    "check_constant_sum",
    "root_player",
    "paranoid_view",
    "unfit_maxn",
    "unfit_shallow",
    "unfit_paranoid",
    "run_maxn",
    "run_shallow",
    "run_paranoid",
    "run_paranoid_exhaustive",
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


def _expected(vectors: Sequence[Vector], probabilities: Sequence[Number]) -> Vector:
    """The component-wise expectation: exact while the inputs are exact, and with
    decimals the sum of the decimals as written, rounded once, as a two-player
    chance node computes it (0.1*1 + 0.2*2 + 0.7*3 is 2.6, not 2.5999999999999996)."""
    width = len(vectors[0])
    return tuple(
        expected_value([(p, vector[component]) for p, vector in zip(probabilities, vectors)])
        for component in range(width)
    )


# -- max-n ---------------------------------------------------------------------


def maxn(
    tree: Tree,
    *,
    depth_limit: int | None = None,
    observer: Observer | None = None,
    ties: str = "left",
) -> SearchRecord:
    """Exhaustive max-n: every node within the depth limit gets its value vector.

    Without an observer the values come from one reverse sweep over the node
    numbers (children before parents); with one, from a depth-first walk that
    reports each call, leaf and return in order.

    Args:
        depth_limit: stop this many plies below the root and use ``eval``.
        observer: receives every call, leaf and return.
        ties: a rule of :data:`TIE_RULES`.

    Raises:
        AlgorithmError: an unknown tie rule.
    """
    prefer = preference(ties, root_player(tree))
    if observer is not None:
        return _walk(tree, "maxn", depth_limit, observer, prefer, None, False, {"ties": ties})
    kind, player, prob = tree.kind, tree.player, tree.prob
    best: dict[int, int] = {}

    def combine(node: int, begin: int, children: list) -> Value:
        if kind[node] == CHANCE:
            return _expected(children, prob[begin : begin + len(children)])  # type: ignore[arg-type,index]
        who = player[node]
        chosen, top = 0, children[0]
        for position in range(1, len(children)):
            if prefer(children[position], top, who):
                chosen, top = position, children[position]
        best[node] = begin + chosen
        return top  # type: ignore[no-any-return]

    values, stats, horizon = evaluate_bottom_up(tree, depth_limit, combine)
    return SearchRecord(
        "maxn", tree, values[0], values, best=best, stats=stats, horizon=horizon,
        depth_limit=depth_limit, options={"ties": ties},
    )


# -- shallow pruning -------------------------------------------------------------


def shallow(
    tree: Tree,
    total: Number,
    *,
    depth_limit: int | None = None,
    observer: Observer | None = None,
    ties: str = "left",
) -> SearchRecord:
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
    prefer = preference(ties, root_player(tree))
    return _walk(tree, "shallow", depth_limit, observer, prefer, total, ties != "left", {"ties": ties, "sum": total})


def _walk(
    tree: Tree,
    name: str,
    depth_limit: int | None,
    emit: Observer | None,
    prefer: Preference,
    total: Number | None,
    strict: bool,
    options: dict[str, object],
) -> SearchRecord:
    """Depth-first max-n; with ``total`` given, shallow pruning under that sum."""
    kind, first, count, player = tree.kind, tree.first, tree.count, tree.player
    leaf_value, evals, prob = tree.value, tree.evals, tree.prob
    prune = total is not None
    n = len(kind)
    values: list[Value | None] = [None] * n
    best: dict[int, int] = {}
    bounds: dict[int, Value] = {}
    cuts: dict[int, Cut] = {}
    pruned: list[int] = []
    order: list[int] = []
    horizon: set[int] = set()
    visited = leaves = cutoffs = 0
    op = ">" if strict else ">="

    # frame: [node, depth, Bound, Best, best child, next position, expectation terms]
    stack: list[list] = []
    node, depth, bound = 0, 0, total
    result: Value | None = None
    entering = True
    while True:
        if entering:
            visited += 1
            order.append(node)
            n_children = count[node]
            if n_children == 0 or depth == depth_limit:
                if n_children == 0:
                    result = leaf_value[node]
                else:
                    result = evals[node]
                    horizon.add(node)
                leaves += 1
                values[node] = result
                if emit is not None:
                    detail = {"horizon": node in horizon}
                    if stack and kind[stack[-1][0]] == CHANCE:
                        detail["p"] = prob[node]  # type: ignore[index]
                    emit(Event(LEAF, node, depth, value=result, detail=detail))
            else:
                if prune:
                    bounds[node] = bound  # type: ignore[assignment]
                if emit is not None:
                    detail = {"bound_value": bound} if prune else {}
                    if stack and kind[stack[-1][0]] == CHANCE:
                        detail["p"] = prob[node]  # type: ignore[index]
                    emit(Event(CALL, node, depth, detail=detail or None))
                stack.append([node, depth, bound, None, -1, 0, []])
                result = None
            entering = False
        if not stack:
            break
        frame = stack[-1]
        parent = frame[0]
        if result is not None:  # a child came back
            child = first[parent] + frame[5] - 1
            if kind[parent] == CHANCE:
                frame[6].append(result)
            elif frame[3] is None or prefer(result, frame[3], player[parent]):  # type: ignore[arg-type]
                frame[3] = result
                frame[4] = child
        position = frame[5]
        if position < count[parent]:
            who = player[parent]
            if prune and position > 0:
                top = frame[3][who]
                if (top > frame[2]) if strict else (top >= frame[2]):
                    cutoffs += 1
                    rest = list(range(first[parent] + position, first[parent] + count[parent]))
                    pruned.extend(rest)
                    value_name = f"Best[{tree.players[who]}]"
                    cuts[parent] = Cut(top, op, "Bound", frame[2], frame[3], value_name)
                    if emit is not None:
                        emit(Event(CUT, parent, frame[1], value=top, detail={
                            "op": op, "bound": "Bound", "bound_value": frame[2], "returns": frame[3],
                            "value_name": value_name, "skipped": rest}))
                    position = count[parent]  # finished: fall through to the return
            if position < count[parent]:
                node = first[parent] + position
                frame[5] += 1
                depth = frame[1] + 1
                if prune:
                    same = player[node] == who
                    bound = total if position == 0 or same else total - frame[3][who]  # type: ignore[operator]
                entering = True
                continue
        stack.pop()
        detail = None
        if kind[parent] == CHANCE:
            begin = first[parent]
            chances = prob[begin : begin + count[parent]]  # type: ignore[index]
            result = _expected(frame[6], chances)
            detail = {"terms": list(zip(chances, frame[6]))}
        else:
            result = frame[3]
            best[parent] = frame[4]
        values[parent] = result
        if emit is not None:
            emit(Event(RETURN, parent, frame[1], value=result, detail=detail))
        if not stack:
            break

    return SearchRecord(
        name, tree, values[0], values, best=best, pruned=pruned, stats=Stats(visited, leaves, cutoffs),
        cuts=cuts, horizon=horizon, order=order, depth_limit=depth_limit, options=options,
        bound=bounds if prune else None,
    )


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


# -- paranoid ------------------------------------------------------------------


def paranoid_view(tree: Tree) -> Tree:
    """The two-player tree paranoid search sees: the root player's nodes are
    ``max``, everyone else's ``min``, each vector reduced to the root player's
    component. Shares the shape arrays with ``tree`` (same node numbers)."""
    root = root_player(tree)
    player = tree.player
    kind = bytearray(
        (MAX if player[node] == root else MIN) if code == PLAYER else code
        for node, code in enumerate(tree.kind)
    )
    value: list[Value | None] = [None if vector is None else vector[root] for vector in tree.value]  # type: ignore[index]
    evals = {node: vector[root] for node, vector in tree.evals.items()}  # type: ignore[index]
    view = Tree(
        kind=kind, first=tree.first, count=tree.count, value=value,
        player=array("h", (0 if code == MAX else 1 if code == MIN else -1 for code in kind)),
        evals=evals, explicit_ids=tree.explicit_ids, moves=tree.moves,
        players=(tree.players[root], "others"), title=tree.title, source=tree.source,
    )
    view._ids, view._index, view._parent, view._depth = tree._ids, tree._index, tree._parent, tree._depth
    return view


def paranoid(
    tree: Tree,
    *,
    depth_limit: int | None = None,
    observer: Observer | None = None,
    variant: str = "soft",
    strict: bool = False,
    child_order: Sequence[Sequence[int]] | None = None,
    exhaustive: bool = False,
) -> SearchRecord:
    """The root player against the coalition of all the others.

    Alpha-beta (same options as :func:`~gametree_cli.algorithms.minimax.alphabeta`)
    on :func:`paranoid_view`; ``exhaustive`` runs plain minimax instead (the
    exact values that tell which root moves tie). Values are the root player's
    numbers: what they can guarantee whatever the others do.
    """
    view = paranoid_view(tree)
    relay = None if observer is None else _role_relay(tree, view, observer)
    if exhaustive:
        record = minimax(view, depth_limit=depth_limit, observer=relay)
    else:
        record = alphabeta(view, depth_limit=depth_limit, observer=relay, variant=variant,
                           strict=strict, child_order=child_order)
    record.algorithm = "paranoid"
    record.tree = tree
    record.options["root_player"] = tree.players[root_player(tree)]
    return record


def _role_relay(tree: Tree, view: Tree, observer: Observer) -> Observer:
    """Pass events on, saying whether a node sides with the root player (max)
    or the coalition (min), and which vector a leaf's number comes from."""
    kind = view.kind

    def relay(event: Event) -> None:
        code = kind[event.node]
        if event.kind == LEAF:
            detail = dict(event.detail or {})
            detail["vector"] = tree.evals[event.node] if detail.get("horizon") else tree.value[event.node]
            event = event._replace(detail=detail)
        elif code == MAX or code == MIN:
            detail = dict(event.detail or {})
            detail["role"] = "max" if code == MAX else "min"
            event = event._replace(detail=detail)
        observer(event)

    return relay


# -- registry glue -------------------------------------------------------------


def _unfit_nplayer(tree: Tree) -> str | None:
    if not tree.is_nplayer:
        return "it is a two-player tree of single numbers; n-player searches need payoff vectors (3+ players, or general_sum: true)"
    return None


def unfit_maxn(tree: Tree, options: Options) -> str | None:
    return _unfit_nplayer(tree)


def unfit_shallow(tree: Tree, options: Options) -> str | None:
    reason = _unfit_nplayer(tree)
    if reason is None and tree.has_chance:
        reason = "it has chance nodes (shallow pruning needs a deterministic tree)"
    if reason is None and options.extra.get("sum", tree.total) is None:
        reason = "it has no constant sum (give sum: in the file, or --sum)"
    return reason


def unfit_paranoid(tree: Tree, options: Options) -> str | None:
    reason = _unfit_nplayer(tree)
    if reason is None and tree.has_chance:
        reason = "it has chance nodes (paranoid search is alpha-beta, for deterministic trees)"
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


def run_paranoid(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    ties = options.extra.get("ties")
    if ties is not None and str(ties).strip().lower() != "left":
        raise AlgorithmError("--ties does not apply to paranoid (alpha-beta keeps the leftmost child on a tie)")
    child_order = None
    if options.order != "given":
        from .ordering import child_order_for

        child_order = child_order_for(paranoid_view(tree), options.order, options.depth)
    record = paranoid(tree, depth_limit=options.depth, observer=observer, variant=options.variant,
                      strict=options.strict, child_order=child_order)
    record.options["order"] = options.order
    return record


def run_paranoid_exhaustive(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    """Paranoid's exact counterpart: every node's exact paranoid value."""
    return paranoid(tree, depth_limit=options.depth, observer=observer, exhaustive=True)

