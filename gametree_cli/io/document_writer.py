"""A :class:`Tree` back to a tree document, and documents to YAML, JSON and compact text.

``tree_to_document`` is the inverse of :func:`~gametree_cli.io.document.build_tree`:
building the document it returns gives the same tree again (same ids, moves,
kinds, probabilities, evals and exact values). It writes only what the
contract's defaults do not already imply, so a file converted to YAML reads
like one a person wrote: no ``type`` where levels alternate, no ``p`` where a
chance node's children are equally likely, bare numbers for unnamed leaves and
nested lists for plain subtrees.

The text writers are iterative (no recursion, so a 100,000-deep chain is
written like any other tree) and keep the indentation bounded: below a fixed
nesting depth a subtree is written on one line in flow style, which YAML
and JSON read alike.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.errors import GameTreeError
from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from ..core.numbers import Value, is_fraction
from .document import NODE_KEYS
from .document_text import document_to_json, document_to_yaml, flow_json, number_to_document

__all__ = [
    "tree_to_document",
    "document_to_yaml",
    "document_to_json",
    "compact_document",
    "yaml_text",
    "json_text",
    "compact_text",
    "efg_text",
    "TEXT_WRITERS",
]

_STRUCTURAL = frozenset({"id", "move", "type", "player", "children", "value", "eval", "p"})
_EXTRA_KEYS = NODE_KEYS - _STRUCTURAL


# -- tree -> document -----------------------------------------------------------


def value_to_document(value: Value) -> Any:
    """A number, or a payoff vector as a list."""
    if isinstance(value, tuple):
        return [number_to_document(part) for part in value]
    return number_to_document(value)


def tree_to_document(tree: Tree) -> dict[str, Any]:
    """The tree as a plain document (contract section 1) that builds the same tree again.

    Keeps the title, players, ``sum``, ``bounds``, explicit ids, moves,
    probabilities, evals and exact values; the file's comments and
    ``description`` are not part of a :class:`Tree` and are not kept.
    """
    document: dict[str, Any] = {}
    if tree.title is not None:
        document["title"] = tree.title
    if tuple(tree.players) != ("MAX", "MIN"):
        document["players"] = list(tree.players)
    if tree.is_nplayer and len(tree.players) == 2:
        document["general_sum"] = True
    if tree.total is not None:
        document["sum"] = number_to_document(tree.total)
    if tree.bounds is not None:
        document["bounds"] = [number_to_document(tree.bounds[0]), number_to_document(tree.bounds[1])]
    document["root"] = _nodes(tree)
    return document


def _implicit_uniform(tree: Tree, node: int) -> bool:
    """True when a chance node's children are exactly equally likely (``p`` may be left out)."""
    assert tree.prob is not None
    n_children = tree.count[node]
    from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

    share = Fraction(1, n_children)
    for child in tree.children(node):
        p = tree.prob[child]
        if isinstance(p, float) or p != share:
            return False
    return True


def _deciders(tree: Tree) -> tuple[list[int], bytearray]:
    """Forward sweep: the nearest decision ancestor-or-self of each node (MAX/MIN, or the
    player), and whether each child must carry its ``p`` (its chance node is not uniform)."""
    size = len(tree)
    kind, first, count, player = tree.kind, tree.first, tree.count, tree.player
    decider = [-1] * size
    needs_p = bytearray(size)
    for node in range(size):
        node_kind = kind[node]
        if node_kind == MAX or node_kind == MIN:
            decider[node] = node_kind
        elif node_kind == PLAYER:
            decider[node] = player[node]
        n_children = count[node]
        if not n_children:
            continue
        start = first[node]
        inherited = decider[node]
        for child in range(start, start + n_children):
            decider[child] = inherited
        if node_kind == CHANCE and not _implicit_uniform(tree, node):
            for child in range(start, start + n_children):
                needs_p[child] = 1
    return decider, needs_p


def _nodes(tree: Tree) -> Any:
    """Every node's document form, children before parents (no recursion)."""
    size = len(tree)
    kind, first, count, player = tree.kind, tree.first, tree.count, tree.player
    nplayer = tree.is_nplayer
    n_players = len(tree.players)
    decider, needs_p = _deciders(tree)
    # An untyped inner node alternates from its parent's entry in `decider`.
    parents = tree.parents()
    built: list[Any] = [None] * size
    explicit, moves, evals, extra, values = tree.explicit_ids, tree.moves, tree.evals, tree.extra, tree.value
    prob = tree.prob
    # A move equal to the node's id says nothing the default does not (Gambit
    # files label every action, so converted trees are full of them).
    ids = tree.ids() if moves else None
    for node in range(size - 1, -1, -1):
        entry: dict[str, Any] = {}
        name = explicit.get(node)
        if name is not None:
            entry["id"] = name
        move = moves.get(node)
        if move is not None and (ids is None or move != ids[node]):
            entry["move"] = move
        if needs_p[node]:
            assert prob is not None
            entry["p"] = number_to_document(prob[node])  # type: ignore[arg-type]
        node_kind = kind[node]
        n_children = count[node]
        if node_kind == LEAF:
            value = value_to_document(values[node])  # type: ignore[arg-type]
            if not entry:
                built[node] = value
            else:
                entry["value"] = value
                built[node] = entry
            continue
        up = parents[node]
        inherited = decider[up] if up >= 0 else -1
        implied = True
        if node == 0 and not nplayer and node_kind != CHANCE and (entry or node in evals or node in extra):
            implied = False  # a root written as a mapping says what it is, as people write it
            entry["type"] = "max" if node_kind == MAX else "min"
        elif node_kind == CHANCE:
            entry["type"] = "chance"
            implied = False
        elif nplayer:
            expected = 0 if inherited < 0 else (inherited + 1) % n_players
            if player[node] != expected:
                entry["player"] = tree.players[player[node]]
                implied = False
        else:
            expected_kind = MIN if inherited == MAX else MAX
            if node_kind != expected_kind:
                entry["type"] = "max" if node_kind == MAX else "min"
                implied = False
        if node in evals:
            entry["eval"] = value_to_document(evals[node])
        for key, item in extra.get(node, {}).items():
            if key in _EXTRA_KEYS and item is not None:
                entry[key] = number_to_document(item) if (isinstance(item, (int, float)) or is_fraction(item)) and not isinstance(item, bool) else item
        start = first[node]
        children = built[start : start + n_children]
        for child in range(start, start + n_children):
            built[child] = None
        if not entry and implied and not nplayer and not any(isinstance(child, dict) for child in children):
            built[node] = children  # a compact subtree: a bare nested list of numbers
        else:
            entry["children"] = children
            built[node] = entry
    return built[0]


def compact_document(tree: Tree) -> Any:
    """The tree as the contract's compact form (a nested list), or an error saying why not.

    Raises:
        GameTreeError: the tree holds something a nested list cannot: a title,
            player names, ids, moves, evals, chance nodes, more than two
            players, or a node that does not alternate.
    """
    def refuse(why: str) -> GameTreeError:
        return GameTreeError(f"the compact form (a nested list) cannot keep {why}; convert to YAML or JSON instead",
                             file=tree.source.name if tree.source else None)

    if tree.is_nplayer:
        raise refuse(f"a {len(tree.players)}-player tree" if len(tree.players) > 2 else "a general-sum game")
    if tuple(tree.players) != ("MAX", "MIN"):
        raise refuse(f"the player names {', '.join(tree.players)}")
    if tree.title is not None:
        raise refuse(f"the title {tree.title!r}")
    if tree.total is not None or tree.bounds is not None:
        raise refuse("sum or bounds")
    root = tree_to_document(tree)["root"]
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if set(item) != {"children"}:
                raise refuse(_first_mapping_reason(item))
            item = item["children"]
        if isinstance(item, list):
            stack.extend(reversed(item))
    return root  # no mapping left: every {"children": ...} leads down to a refused one


def _first_mapping_reason(node: dict[str, Any]) -> str:
    if "id" in node:
        return f"the id {node['id']!r}"
    if "move" in node:
        return f"the move {node['move']!r}"
    if node.get("type") == "chance":
        return "a chance node"
    if "eval" in node:
        return "an eval"
    if "random" in node:
        return "an opponent model (random)"
    if "type" in node:
        return f"a {node['type']} node that does not alternate with its parent"
    return "a node's keys (" + ", ".join(sorted(node)) + ")"


# -- tree -> text ---------------------------------------------------------------


def yaml_text(tree: Tree) -> str:
    """The tree as a YAML tree file."""
    return document_to_yaml(tree_to_document(tree))


def json_text(tree: Tree) -> str:
    """The tree as a JSON tree file."""
    return document_to_json(tree_to_document(tree))


def compact_text(tree: Tree) -> str:
    """The tree as one nested list (valid JSON and YAML); see :func:`compact_document`."""
    return flow_json(compact_document(tree)) + "\n"


def efg_text(tree: Tree) -> str:
    """The tree as a Gambit ``.efg`` file (every decision node its own information set)."""
    from .efg import write_efg

    return write_efg(tree_to_document(tree))


#: Text formats a tree can be written in: name -> writer.
TEXT_WRITERS: dict[str, Callable[[Tree], str]] = {
    "yaml": yaml_text,
    "json": json_text,
    "compact": compact_text,
    "efg": efg_text,
}
