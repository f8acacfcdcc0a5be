"""The scanner's breadth-first numbering on big ragged trees, and the Tree columns it hands over.

Why: the scanner numbers nodes breadth-first from its depth-first arrays
(io/scan_order.py): a node's children are found from the subtree sizes, and
until a node is numbered its ``first`` and ``player`` slots hold its
depth-first number and the decision kind above it. On a ragged tree (a deep
chain beside wide fans) breadth-first numbers run ahead of depth-first ones
in some places and behind in others, which a regular bench tree never shows;
past SMALL_TREE nodes the loader hands the Tree the scanner's NumPy memory
as typed views (core/buffers.typed_view), which must read like the
``array.array`` columns of the json.loads path. Nothing here is timed.
"""

from __future__ import annotations

import json
import random
from array import array
from typing import Any

import numpy as np
import pytest

from gametree_cli.core.lazy import SMALL_TREE
from gametree_cli.core.numeric import int64_view

from .scanner_paths import scanner  # noqa: F401
from .test_jsonscan import assert_same_tree, loads_path, scanned


def ragged_file(rng: random.Random, nodes: int) -> str:
    """A tree of about ``nodes`` nodes: chains, fans and leaves at every depth, in every node form,
    with moves, evals, chance nodes with and without p, untyped nodes under typed ones."""
    budget = [nodes]

    def node(depth: int, p: str | None) -> Any:
        budget[0] -= 1
        if budget[0] <= 0 or rng.random() < (0.05 if depth < 3 else 0.35):
            value = rng.randint(-999, 999)
            return value if p is None and rng.random() < 0.3 else {"value": value, **({"p": p} if p else {})}
        k = rng.choice([1, 1, 2, 3, 4, 12, 40]) if depth < 40 else 1
        kind = rng.choice(["max", "min", None, "chance"])
        shares = None
        if kind == "chance" and rng.random() < 0.5:
            shares = [f"{rng.randint(1, 3)}/{3 * k}" for _ in range(k)]
            shares[-1] = f"{3 * k - sum(int(s.split('/')[0]) for s in shares[:-1])}/{3 * k}"
            if int(shares[-1].split("/")[0]) <= 0:
                shares = None
        children = [node(depth + 1, shares[i] if shares else None) for i in range(k)]
        if kind is None and p is None and rng.random() < 0.3:
            return children
        mapping: dict[str, Any] = {"children": children, **({"type": kind} if kind else {})}
        if rng.random() < 0.1:
            mapping["eval"] = rng.randint(-50, 50)
        if rng.random() < 0.1:
            mapping["move"] = rng.choice(["a", "é", "long move"])
        if p is not None:
            mapping["p"] = p
        return mapping

    root = {"type": "max", "children": [node(1, None) for _ in range(rng.randint(2, 6))]}
    return json.dumps({"title": "ragged", "root": root})


def test_ragged_big_trees_are_numbered_as_the_json_loads_path_numbers_them(scanner) -> None:
    rng = random.Random(14)
    built = 0
    for _ in range(4):
        text = ragged_file(rng, 2 * SMALL_TREE)
        tree = loads_path(text)
        assert not isinstance(tree, str), tree
        built += len(tree.kind) >= SMALL_TREE
        assert_same_tree(text)
    assert built >= 2  # the big-tree path (typed views, NumPy values) was taken


def test_a_chain_beside_a_fan(scanner) -> None:
    """Breadth-first numbers far ahead of depth-first ones (the fan after the chain) and far behind."""
    chain: Any = 7
    for depth in range(300):
        chain = {"children": [chain, depth]} if depth % 2 else [chain]
    fan = [{"value": v, "move": str(v)} for v in range(SMALL_TREE)]
    for root in ([chain, fan], [fan, chain], [[fan], chain, fan]):
        assert_same_tree(json.dumps({"root": {"type": "min", "children": root}}))


def test_the_columns_read_like_the_arrays_they_replace(scanner) -> None:
    """Index (negative too), slice, iterate, compare, and NumPy views of the same memory."""
    text = ragged_file(random.Random(3), 2 * SMALL_TREE)
    tree, expected = scanned(text), loads_path(text)
    assert len(tree.kind) >= SMALL_TREE
    for name, code in (("first", "q"), ("count", "q"), ("player", "h")):
        column, wanted = getattr(tree, name), getattr(expected, name)
        assert isinstance(wanted, array) and wanted.typecode == code
        assert memoryview(column).format == code and len(column) == len(wanted)
        assert list(column) == list(wanted) and column[-1] == wanted[-1] and column[5] == wanted[5]
        assert list(column[3:40:7]) == list(wanted[3:40:7])
        assert column == memoryview(wanted)
        view = np.asarray(column)
        assert np.shares_memory(view, np.asarray(column)) and view.tolist() == list(wanted)
    count = int64_view(tree.count)
    assert np.shares_memory(count, np.asarray(tree.count))  # no copy for the bulk readers
    last = int(np.flatnonzero(count)[-1])  # the last inner node's children are the last nodes
    assert tree.first[last] + tree.count[last] == len(tree.kind)


LEAVES = ['{"value": 5}', '{"value":5}', '{"value":  \n 5}', '{"value": -0.5e3}', '{"value": 5, "move": "a"}',
          '{"value": 5 }', '{"value": null}', '{"value": 1e999}', '{"value": 4611686018427387904}', '{"value": "x"}',
          '{"value": -}', '{"value": 2.5}', '{"value": 5, "value": 6}', '{"value": 5, "children": [1]}',
          '{"value": 5', '{"value"', '{"value":', '{"valuex": 5}', '{"VALUE": 5}', '{"value": 5}}', '{"value": 07}']


@pytest.mark.parametrize("leaf", LEAVES)
def test_the_usual_leaf_is_read_as_any_mapping_is(scanner, leaf: str) -> None:
    """kernel.quick_leaf reads ``{"value": N}`` without a frame: what it builds, or why and where it stops
    (path, offset), must be what the general mapping reader gives, which a space after ``{`` forces."""
    for at in range(3):
        siblings = ["1", "2", "3"]
        siblings[at] = leaf
        text = '{"root": [[' + ", ".join(siblings) + "]]}"
        general = text.replace('{"value"', '{ "value"')
        quick, slow = scanner.scan(text, 100, 1), scanner.scan(general, 100, 1)
        if len(slow) == 3:  # bailed: the same reason, path, and place (one space before it)
            assert quick[0] == slow[0] and quick[2] == slow[2], (text, quick, slow)
            assert quick[1] == slow[1] - general[: slow[1]].count('{ "value"'), (text, quick, slow)
        else:
            assert quick == slow
    built = '{"root": [' + leaf + ", " + leaf + "]}"
    if len(scanner.scan(built, 100, 1)) > 3:  # built: as json.loads and the builders build it
        assert_same_tree(built)
