"""What a picture of a search shows, worked out once for every drawing format.

The DOT and LaTeX views differ only in syntax; which nodes are drawn, which
lie on the principal variation, which were pruned (and where the cut mark
goes), which the depth limit left unsearched, and what each node's label
says are decided here, from the :class:`SearchRecord` alone (no search).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.model import CHANCE, LEAF, PLAYER, Tree
from ..core.numbers import Number, Value
from ..search.record import Cut, SearchRecord
from .annotated import DEFAULT_MAX_NODES_SHOWN, capped_children, display_depth
from .marks import bound_sign

__all__ = ["Drawn", "picture_nodes", "picture_depth", "DEFAULT_MAX_NODES_SHOWN"]


@dataclass(slots=True)
class Drawn:
    """One node of the picture.

    Attributes:
        node: its number in the tree.
        parent: the parent's number, -1 for the root.
        depth: plies below the root.
        kind: LEAF, MAX, MIN, CHANCE or PLAYER.
        name: the node's id.
        player: the player to move (n-player trees), else None.
        move: the edge's label when the file gives one (ids are drawn anyway).
        p: the edge's probability under a chance parent, else None.
        value: what to print in the node: the search's value; a leaf's
            utility where the search did not reach it (drawn grey) or in a
            blank picture; None for nothing.
        alpha, beta: the bounds the node returned with (pruning searches).
        bound: the bound a shallow-pruning search gave the node, if any.
        cut: why the node's remaining children were skipped, if they were.
        cut_last: the cut happened at the last child: nothing was pruned there.
        sign: ``≥`` / ``≤`` when ``value`` is a lower / upper bound, else ``""``.
        horizon: evaluated by ``eval`` at the depth limit.
        on_pv: on the principal variation (the root is, unless blank).
        pruned: never visited because of a cut (drawn dashed, grey).
        cut_edge: the topmost pruned node: its edge carries the cut mark.
        unsearched: below the depth limit, so never visited (drawn dotted).
        hidden: how many nodes below this one the picture leaves out.
        omitted: children left out because the node has more than ``max_nodes``
            (the first ``max_nodes`` are drawn, and any beyond on the principal
            variation), as the annotated tree leaves them out.
        omitted_nodes: those children with everything below them.
        probe: Star2: the probe of the node, ``(bound side or None, value)``, if probed.
    """

    node: int
    parent: int
    depth: int
    kind: int
    name: str
    player: str | None
    move: str | None
    p: Number | None
    value: Value | None
    alpha: Value | None = None
    beta: Value | None = None
    bound: Value | None = None
    cut: Cut | None = None
    cut_last: bool = False
    sign: str = ""
    horizon: bool = False
    on_pv: bool = False
    pruned: bool = False
    cut_edge: bool = False
    unsearched: bool = False
    hidden: int = 0
    omitted: int = 0
    omitted_nodes: int = 0
    probe: tuple[str | None, Value] | None = None


def picture_depth(tree: Tree, max_nodes: int = DEFAULT_MAX_NODES_SHOWN, depth: int | None = None) -> int | None:
    """How many levels to draw: ``depth`` if given, else the levels that hold
    at most ``max_nodes`` nodes; None for the whole tree."""
    if depth is not None:
        return depth
    return display_depth(tree, max_nodes)


def picture_nodes(
    record: SearchRecord,
    *,
    blank: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES_SHOWN,
    depth: int | None = None,
) -> list[Drawn]:
    """The nodes to draw, in tree order (parents before children), with their facts.

    Args:
        record: the search to draw.
        blank: an exercise handout: structure and leaf utilities only.
        max_nodes: draw only the top levels holding at most this many nodes.
        depth: draw exactly this many levels below the root (overrides max_nodes).
    """
    tree = record.tree
    limit = picture_depth(tree, max_nodes, depth)
    pv = set() if blank else set(record.principal_variation()) | {0}
    pruned_roots = set(record.pruned)
    values = record.values
    bounds = record.bound
    first, count, kind = tree.first, tree.count, tree.kind
    prob = tree.prob
    drawn: list[Drawn] = []
    # (node, parent, depth, inside a pruned subtree, inside an unsearched one)
    stack: list[tuple[int, int, int, bool, bool]] = [(0, -1, 0, False, False)]
    while stack:
        node, parent, level, pruned, unsearched = stack.pop()
        cut_edge = not blank and node in pruned_roots and not pruned
        pruned = not blank and (pruned or node in pruned_roots)
        unsearched = not blank and not pruned and (unsearched or values[node] is None)
        node_kind = kind[node]
        if blank or pruned or unsearched:
            value = tree.value[node] if node_kind == LEAF else None
        else:
            value = values[node]
        entry = Drawn(
            node=node,
            parent=parent,
            depth=level,
            kind=node_kind,
            name=tree.node_id(node),
            player=tree.player_name(node) if node_kind == PLAYER else None,
            move=tree.moves.get(node) if node else None,
            p=prob[node] if prob is not None and parent >= 0 and kind[parent] == CHANCE else None,
            value=value,
            on_pv=node in pv and not pruned and not unsearched,
            pruned=pruned,
            cut_edge=cut_edge,
            unsearched=unsearched,
        )
        if not blank and not pruned and not unsearched:
            entry.horizon = record.at_horizon(node)
            window = record.bounds(node)
            if window is not None and count[node] and not entry.horizon:
                entry.alpha, entry.beta = window
            if bounds is not None and node in bounds and not entry.horizon:
                entry.bound = bounds[node]
            entry.cut = record.cut(node)
            entry.probe = record.probes.get(node) if record.probes else None
            entry.cut_last = entry.cut is not None and record.skipped_nothing(node)
            entry.sign = bound_sign(record, node)
        drawn.append(entry)
        n_children = count[node]
        if not n_children:
            continue
        if limit is not None and level >= limit:
            entry.hidden = tree.subtree_size(node) - 1
            continue
        for child in reversed(_kept_children(tree, node, entry, max_nodes, pv)):
            stack.append((child, node, level + 1, pruned, unsearched))
    return drawn


def _kept_children(tree: Tree, node: int, entry: Drawn, cap: int, pv: set[int]) -> list[int]:
    """``node``'s children to draw (:func:`.annotated.capped_children`: the annotated tree's rule);
    what is left out is counted on ``entry`` (a view draws a note for it)."""
    start, n_children = tree.first[node], tree.count[node]
    kept, entry.omitted = capped_children(list(range(start, start + n_children)), cap, pv)
    if entry.omitted:
        entry.omitted_nodes = tree.subtree_size(node) - 1 - sum(tree.subtree_size(child) for child in kept)
    return kept
