"""The tree's own arithmetic: subtree sizes from breadth-first blocks agree with a node-by-node walk."""

from __future__ import annotations

import random

from gametree_cli.io.loader import parse_tree


def _walked_size(tree, node: int) -> int:
    size, stack = 0, [node]
    while stack:
        current = stack.pop()
        size += 1
        start = tree.first[current]
        stack.extend(range(start, start + tree.count[current]))
    return size


def _random_compact(rng: random.Random, depth: int) -> object:
    if depth == 0 or rng.random() < 0.3:
        return rng.randint(0, 9)
    return [_random_compact(rng, depth - 1) for _ in range(rng.randint(1, 4))]


def test_subtree_sizes_agree_with_a_walk() -> None:
    rng = random.Random(17)
    for _ in range(200):
        document = _random_compact(rng, rng.randint(1, 6))
        tree = parse_tree(str(document if isinstance(document, list) else [document]), name="t.json")
        assert [tree.subtree_size(node) for node in range(len(tree))] == \
            [_walked_size(tree, node) for node in range(len(tree))]
        assert tree.subtree_size(0) == len(tree)


def test_subtree_sizes_of_a_big_tree() -> None:
    """From 4,096 nodes the running sums come from NumPy: the same sizes."""
    rng = random.Random(5)
    document = [[[[rng.randint(0, 9) for _ in range(rng.randint(1, 5))] for _ in range(rng.randint(2, 6))]
                 for _ in range(20)] for _ in range(20)]
    tree = parse_tree(str(document), name="t.json")
    assert len(tree) >= 4096
    for node in [0, 1, 5, 25, 300, 1000, len(tree) - 1, *rng.sample(range(len(tree)), 50)]:
        assert tree.subtree_size(node) == _walked_size(tree, node), node


def _walked_parents(tree) -> list[int]:
    parent = [-1] * len(tree)
    for node in range(len(tree)):
        start = tree.first[node]
        for child in range(start, start + tree.count[node]):
            parent[child] = node
    return parent


def test_parents_looked_up_one_at_a_time_agree_with_a_walk() -> None:
    """``parent_lookup`` (a search in the running sums) gives every node's parent, small and big trees,
    and the ids and paths made from it are those of the whole parent array."""
    rng = random.Random(23)
    documents = [_random_compact(rng, rng.randint(1, 6)) for _ in range(150)]
    documents.append([[[rng.randint(0, 9) for _ in range(rng.randint(1, 5))] for _ in range(rng.randint(2, 6))]
                      for _ in range(400)])
    for document in documents:
        tree = parse_tree(str(document if isinstance(document, list) else [document]), name="t.json")
        lookup = tree.parent_lookup()
        assert tree._parent is None  # not made by the lookup
        assert [lookup[node] for node in range(len(tree))] == _walked_parents(tree)
        ids, paths = [tree.node_id(node) for node in range(len(tree))], [tree.path(node) for node in range(len(tree))]
        assert tree.parents() is tree.parent_lookup()  # once made, the array itself
        assert ids == tree.ids() and paths == [tree.path(node) for node in range(len(tree))]


def test_a_tree_not_numbered_breadth_first_falls_back_to_the_parent_array() -> None:
    """Root 0 with children 3 and 4, node 3 with children 1 and 2: the running sums point at the wrong
    nodes (they assume breadth-first numbering), and the lookup must notice and use the parent array."""
    from array import array

    from gametree_cli.core.model import LEAF, MAX, MIN, Tree

    tree = Tree(kind=bytearray([MAX, LEAF, LEAF, MIN, LEAF]), first=array("q", [3, 0, 0, 1, 0]),
                count=array("q", [2, 0, 0, 2, 0]), value=[None, 1, 2, None, 3], player=array("h", [0, 0, 0, 1, 0]))
    assert [tree.parent_lookup()[node] for node in range(5)] == [-1, 3, 3, 0, 0] == _walked_parents(tree)


def _random_named(rng: random.Random, depth: int, serial: list[int]) -> dict:
    """A tree whose nodes are named at random (the root too), so that ids mix names and positions."""
    node: dict = {}
    if rng.random() < 0.4:
        serial[0] += 1
        node["id"] = f"n{serial[0]}"
    if depth == 0 or rng.random() < 0.25:
        node["value"] = rng.randint(0, 9)
    else:
        node["children"] = [_random_named(rng, depth - 1, serial) for _ in range(rng.randint(1, 3))]
    return node


def test_ids_made_one_at_a_time_in_any_order_are_the_rule_s() -> None:
    """``node_id`` remembers the last ids it made and starts from a remembered ancestor (a path walked down
    costs a step a node, not a walk to the root): in any order, along paths, and past the memory's size,
    every id is the one the whole list gives, also the children of an unnamed root ("1", not "root.1")."""
    import json

    rng = random.Random(31)
    for round_ in range(120):
        document = {"root": _random_named(rng, rng.randint(1, 7), [0])}
        text = json.dumps(document)
        expected = parse_tree(text, name="t.json").ids()
        tree = parse_tree(text, name="t.json")
        order = list(range(len(tree)))
        if round_ % 3 == 0:
            rng.shuffle(order)
        elif round_ % 3 == 1:  # root-to-leaf paths, the way the principal variation asks
            order = [step for leaf in order for step in reversed([leaf, *_ancestors(tree, leaf)])]
        assert [tree.node_id(node) for node in order] == [expected[node] for node in order]
    chain = parse_tree("[" * 300 + "1" + "]" * 300, name="chain.json")  # longer than the memory
    assert [chain.node_id(node) for node in range(len(chain))] == parse_tree(
        "[" * 300 + "1" + "]" * 300, name="chain.json").ids()


def _ancestors(tree, node: int) -> list[int]:
    lookup, found = tree.parent_lookup(), []
    while node > 0:
        node = lookup[node]
        found.append(node)
    return found
