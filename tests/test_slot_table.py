"""The slot table of a big depth-first search (core/buffers.py: SlotTable) answers node -> visit position
as a full table would, for every reader's kind of question, while it covers only the nodes asked about.

Why: the table is made as far as it is read (issue 14, target 3b: a full one was ~1 ms of fresh memory
for a 1.4-million-node tree), so a wrong cover would give a node -1 (not visited) or another's slot.
Checked against a dict built from the visit order, on random orders and on alpha-beta and minimax
searches of random trees forced onto the NumPy path (``lazy.SMALL_TREE`` 0), against tests/oracles.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from gametree_cli.core import lazy
from gametree_cli.core.buffers import SlotTable, slot_table
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.views.annotated import render_result

from . import oracles


def _expected(order: np.ndarray, size: int) -> np.ndarray:
    table = np.full(size, -1, dtype=np.int64)
    for slot, node in enumerate(order.tolist()):
        table[node] = slot
    return table


@pytest.mark.parametrize("seed", range(12))
def test_the_table_answers_as_a_full_one(seed: int) -> None:
    """Single nodes (int, NumPy ints, negative) and arrays (few and many nodes), in random order."""
    rng = random.Random(seed)
    size = rng.choice([1, 7, 300, 5_000, 70_000, 200_000])
    order = np.array(rng.sample(range(size), rng.randint(1, min(size, 20_000))), dtype=np.int64)
    expected = _expected(order, size)
    table = SlotTable(order, size)
    assert len(table) == size
    for _ in range(300):
        ask = rng.random()
        if ask < 0.5:
            node = rng.randrange(size) if rng.random() < 0.5 else rng.randrange(min(size, 5_000))
            assert int(table[node]) == expected[node]
            assert int(table[np.int64(node)]) == expected[node]
            assert int(table[node - size]) == expected[node]
        else:
            nodes = np.array([rng.randrange(size) for _ in range(rng.choice([0, 1, 5, 100, 5_000]))], dtype=np.int64)
            got = table[nodes].astype(np.int64, copy=False)
            assert got.tolist() == expected[nodes].tolist()
    assert table[np.arange(size, dtype=np.int64)].tolist() == expected.tolist()
    for outside in (size, -size - 1):
        with pytest.raises(IndexError):
            table[outside]
    with pytest.raises(IndexError):
        table[np.array([0, size], dtype=np.int64)]


def test_reading_the_top_does_not_make_the_whole_table() -> None:
    """The first nodes of a big tree are answered from a table of a few thousand entries; a read of many
    nodes at once (a writer of every node) makes the whole table once, and the answers stay the same."""
    size = 1 << 20
    rng = np.random.default_rng(1)  # every one of the first 10,000 nodes visited (as a tree's top is), then a few
    order = rng.permutation(np.concatenate([np.arange(10_000), 10_000 + rng.permutation(size - 10_000)[:50_000]]))
    expected = _expected(order, size)
    table = SlotTable(order, size)
    assert [int(table[node]) for node in range(2_000)] == expected[:2_000].tolist()
    assert 2_000 <= table.covered <= 8_192
    covered = table.covered  # every node it covers, its last one and the first past it
    assert [int(table[node]) for node in range(covered + 1)] == expected[: covered + 1].tolist()
    assert table.covered > covered
    assert [int(table[node]) for node in range(table.covered)] == expected[: table.covered].tolist()
    assert table[np.arange(5_000, 6_000, dtype=np.int64)].tolist() == expected[5_000:6_000].tolist()
    assert table.covered < size // 16
    assert int(table[size - 1]) == expected[size - 1] and table.covered == size
    made = table.table
    assert table[np.arange(size, dtype=np.int64)].tolist() == expected.tolist() and table.table is made


def _random_root(rng: random.Random, depth: int, budget: list[int]) -> Any:
    if depth == 0 or budget[0] <= 0 or rng.random() < 0.2:
        return rng.randint(-6, 6)  # ties and equal bounds
    width = rng.randint(1, 4)
    budget[0] -= width
    return {"type": rng.choice(("max", "min")), "children": [_random_root(rng, depth - 1, budget) for _ in range(width)]}


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax"])
def test_a_big_search_s_slots_and_values_match_the_oracle(seed: int, algorithm: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """On the NumPy path, every node's slot is its place in the visit order and its value the oracle's;
    the drawing is the node-by-node path's."""
    rng = random.Random(seed)
    root = _random_root(rng, rng.randint(2, 8), [rng.choice([30, 300, 3_000])])
    if not isinstance(root, dict):
        root = {"type": "max", "children": [root]}
    document = {"title": f"seed {seed}", "root": root}
    text = json.dumps(document)
    drawn_small = render_result(solve(parse_tree(text), algorithm)).plain_text()
    monkeypatch.setattr(lazy, "SMALL_TREE", 0)
    tree = parse_tree(text)
    record = solve(tree, algorithm)
    search = oracles.alphabeta(oracles.read(document)) if algorithm == "alphabeta" else oracles.minimax(oracles.read(document))
    ids = [record.node_id(node) for node in range(len(tree.kind))]
    if record.values.slot_of is not None:  # the depth-first search (minimax may take the level sweep)
        assert isinstance(record.values.slot_of, SlotTable)
        position = {node: slot for slot, node in enumerate(record.order)}
        asked = list(range(len(ids)))
        rng.shuffle(asked)
        assert [int(record.values.slot_of[node]) for node in asked] == [position.get(node, -1) for node in asked]
        assert [ids[node] for node in record.order] == search.order
    assert {ids[node]: value for node, value in enumerate(record.values) if value is not None} == search.values
    assert render_result(record).plain_text() == drawn_small


def test_a_small_tree_keeps_an_array() -> None:
    """Below SMALL_TREE the table is an ``array('i')`` of every node (no NumPy), as before."""
    table = slot_table([2, 0, 1], 4)
    assert table.typecode == "i" and list(table) == [1, 2, 0, -1]
