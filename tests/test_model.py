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
