"""Paranoid search: the root player against the coalition of all the others.

Preconditions: an n-player tree of payoff vectors without chance nodes.
Paranoid search is alpha-beta on the root player's component, with the root
player's nodes as ``max`` and everyone else's as ``min``: it runs the
two-player search itself (:func:`~gametree_cli.search.minimax.alphabeta`)
on :func:`paranoid_view`, a view of the same arrays, not a search of its own.
Values are the root player's numbers: what they can guarantee whatever the
others do.

Reference: Sturtevant & Korf, "On pruning techniques for multi-player
games", AAAI 2000.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Sequence

from ..core.errors import AlgorithmError
from .events import LEAF, Event, Observer
from ..core.model import MAX, MIN, PLAYER, Tree
from ..core.numbers import Value
from .record import SearchRecord
from .maxn import root_player, unfit_nplayer
from .minimax import alphabeta, minimax

if TYPE_CHECKING:
    from .options import Options

__all__ = ["paranoid", "paranoid_view", "unfit_paranoid", "run_paranoid"]


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

    Alpha-beta (same options as :func:`~gametree_cli.search.minimax.alphabeta`)
    on :func:`paranoid_view`; ``exhaustive`` runs plain minimax instead (the
    exact values that tell which root moves tie).
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


def unfit_paranoid(tree: Tree, options: Options) -> str | None:
    reason = unfit_nplayer(tree)
    if reason is None and tree.has_chance:
        reason = "it has chance nodes (paranoid search is alpha-beta, for deterministic trees)"
    return reason


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

