"""The NumPy sweep on whole levels: reduced in place, inner nodes numbered only where needed.

Why: ``search/sweep.py`` reduces a level whose every node has children straight
into ``values`` (no temporary result, no array of its node numbers) unless a
chance or decimal step needs them (docs/performance.md, issue 14, target 3b).
These trees make every level whole, mixing max, min and chance nodes within a
level, with integer, fraction and decimal leaves, so every branch of a level
runs; the oracle (tests/oracles.py) says what each node is worth.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gametree_cli.io.loader import parse_tree
from gametree_cli.search.sweep import sweep

from . import oracles


def _uniform(rng: random.Random, depth: int, kinds: tuple[str, ...], leaf: Any,
             widths: tuple[int, ...] = (2, 3)) -> dict[str, Any]:
    """A tree whose leaves are all at ``depth`` (every upper level whole), each node's branching one of
    ``widths`` (one width: every level uniform), kinds at random."""
    def node(level: int) -> dict[str, Any]:
        if level == depth:
            return {"value": leaf(rng)}
        kind = rng.choice(kinds)
        children = [node(level + 1) for _ in range(rng.choice(widths))]
        if kind == "chance":
            shares = [rng.randint(1, 4) for _ in children]
            for child, share in zip(children, shares):
                child["p"] = f"{share}/{sum(shares)}"
        return {"type": kind, "children": children}

    return {"root": node(0)}


_LEAVES = {
    "int": lambda rng: rng.randint(-99, 99),
    "fraction": lambda rng: f"{rng.randint(-99, 99)}/{rng.choice([2, 3, 7])}",
    "decimal": lambda rng: rng.randint(-999, 999) / 100,
}


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("kinds", [("max",), ("max", "min"), ("max", "min", "chance")], ids=["max", "mixed", "chance"])
def test_whole_levels_sweep_to_the_oracles_values(seed: int, kinds: tuple[str, ...]) -> None:
    rng = random.Random(seed * 7 + len(kinds))
    leaf = list(_LEAVES)[seed % 3]
    document = _uniform(rng, rng.randint(2, 5), kinds, _LEAVES[leaf])
    tree = parse_tree(json.dumps(document))
    name = "expectiminimax" if "chance" in kinds else "minimax"
    record = sweep(tree, name=name, min_width=0)
    if record is None:  # decimals under chance nodes that the float path cannot hold: the Python search's
        assert "chance" in kinds and leaf == "decimal"
        return
    expected = oracles.expectiminimax(document).values
    got = {tree.node_id(node): value for node, value in enumerate(record.values) if value is not None}
    assert got == expected


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("width", [1, 2, 4, 32, 33])
def test_uniform_levels_of_one_kind_sweep_to_the_oracles_values(seed: int, width: int) -> None:
    """Every node of a level with as many children: integer and fraction levels of one kind are
    reduced column by column (up to 32 children), decimal ones and wider ones by ``reduceat``."""
    rng = random.Random(seed)
    leaf = list(_LEAVES)[seed % 3]
    kinds = [("max",), ("min",), ("max", "min")][seed % 3 if width < 32 else 0]
    depth = {1: 6, 2: 6, 4: 4, 32: 2, 33: 2}[width]
    document = _uniform(rng, depth, kinds, _LEAVES[leaf], (width,))
    tree = parse_tree(json.dumps(document))
    record = sweep(tree, min_width=0)
    assert record is not None
    got = {tree.node_id(node): value for node, value in enumerate(record.values) if value is not None}
    assert got == oracles.minimax(document).values
