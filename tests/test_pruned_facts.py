"""record_facts.pruned_before and pruned_count: the text view's reading of the pruned subtrees.

Why: they answer from the cut rows (the first child each cut skipped, and how
many) instead of listing every pruned root (docs/performance.md, issue 14.3);
``record.pruned``, the list, is the oracle, on random trees, every child
order, the depth-first search's small and big storages and the searches that
list their pruned nodes themselves (Star1 on chance trees).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gametree_cli.core import lazy
from gametree_cli.core.levels import level_bounds
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.record_facts import pruned_before, pruned_count
from gametree_cli.search.registry import solve


def _document(rng: random.Random, chance: bool) -> dict[str, Any]:
    """A tree of uneven branching (leaves at any depth), optionally with chance nodes (uniform, bounded)."""
    def node(depth: int, kind: str) -> Any:
        if depth >= rng.randint(2, 6) or rng.random() < 0.1:
            return rng.randint(0, 20)
        after = {"max": "min", "min": "max"}.get(kind, rng.choice(["max", "min"]))
        if chance and kind != "chance" and rng.random() < 0.3:
            after = "chance"
        return {"type": kind, "children": [node(depth + 1, after) for _ in range(rng.randint(1, 4))]}

    made: dict[str, Any] = {"root": node(0, "max")}
    if chance:
        made["bounds"] = [0, 20]
    return made


def _solve(text: str, algorithm: str, order: str) -> Any:
    return solve(parse_tree(text), algorithm, order=order)


@pytest.mark.parametrize("big_storage", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_pruned_facts_are_the_pruned_list(seed: int, big_storage: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if big_storage:
        monkeypatch.setattr(lazy, "SMALL_TREE", 0)  # the NumPy storage of big trees: cut rows in an array
    rng = random.Random(seed)
    chance = seed % 4 == 3
    text = json.dumps(_document(rng, chance))
    cases = [("star1", "given")] if chance else [("alphabeta", "given"), ("alphabeta", "best"), ("minimax", "given")]
    for algorithm, order in cases:
        listed = _solve(text, algorithm, order).pruned
        tree = parse_tree(text)
        ends = sorted({end for _, end in level_bounds(tree)} | {0, 1, len(tree)} |
                      {rng.randrange(len(tree) + 1) for _ in range(4)})  # the view's level ends, and any
        for end in ends:  # a fresh record each time: the facts must not lean on a list made before
            assert pruned_before(_solve(text, algorithm, order), end) == {node for node in listed if node < end}
        assert pruned_count(_solve(text, algorithm, order)) == len(listed), (algorithm, order)


def test_the_random_trees_prune() -> None:
    """The cases above are not vacuous: most random trees have pruned subtrees, under every search tried."""
    for algorithm, chance in (("alphabeta", False), ("star1", True)):
        pruning = [bool(_solve(json.dumps(_document(random.Random(seed), chance)), algorithm, "given").pruned)
                   for seed in range(40)]
        assert sum(pruning) >= 20, (algorithm, sum(pruning))
