"""views/drawn_facts.py: the text view's facts of the drawn nodes, read in bulk, are the record's own answers.

Why: a big tree's text view reads values, bounds, signs, cuts, ids and subtree
sizes for all drawn nodes at once instead of asking the record node by node;
the record's one-node API (``values[node]``, ``bounds``, ``cut``,
``skipped_nothing``, ``at_horizon``, :func:`bound_sign`, ``tree.node_id``,
``tree.subtree_size``) is the oracle, on random trees, for every algorithm
and alpha-beta variant. ``lazy.SMALL_TREE`` is lowered so that small trees
take the big trees' path (NumPy storage, the bulk reads).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.core import lazy
from gametree_cli.io.binary_encode import write_binary
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.views.annotated import render_result
from gametree_cli.views.drawn_facts import drawn_facts, drawn_ids, subtree_sizes
from gametree_cli.views.marks import bound_sign


def _document(rng: random.Random, shape: str, ids: bool = True) -> dict[str, Any]:
    """A random tree: ``minmax`` (with evals, and ids here and there if ``ids``), ``chance`` (bounded) or
    ``vector`` (3 players)."""
    players = 3 if shape == "vector" else 2

    def leaf() -> Any:
        return [rng.randint(0, 9) for _ in range(players)] if shape == "vector" else rng.randint(-9, 9)

    def node(depth: int, kind: str) -> Any:
        if depth >= rng.randint(2, 6) or rng.random() < 0.1:
            return leaf()
        after = {"max": "min", "min": "max"}.get(kind, rng.choice(["max", "min"]))
        if shape == "chance" and kind != "chance" and rng.random() < 0.3:
            after = "chance"
        made: dict[str, Any] = {"children": [node(depth + 1, after) for _ in range(rng.randint(1, 4))]}
        if shape != "vector":
            made["type"] = kind
        made["eval"] = leaf()
        if shape == "minmax" and ids and rng.random() < 0.1:
            made["id"] = f"n{rng.randrange(10 ** 6)}"
        return made

    document: dict[str, Any] = {"root": node(0, "max")}
    if shape == "chance":
        document["bounds"] = [-9, 9]
    if shape == "vector":
        document["players"] = ["A", "B", "C"]
    return document


CASES = {
    "minmax": [("minimax", {}), ("alphabeta", {}), ("alphabeta", {"variant": "hard"}),
               ("alphabeta", {"variant": "practical", "strict": True}), ("alphabeta", {"strict": True, "order": "best"}),
               ("alphabeta", {"order": "worst", "variant": "hard"}), ("alphabeta", {"depth": 2}),
               ("minimax", {"depth": 3})],
    "chance": [("expectiminimax", {}), ("expectimax", {}), ("star1", {}), ("star2", {})],
    "vector": [("maxn", {}), ("paranoid", {}), ("paranoid", {"depth": 2})],
}


def _cases() -> list[tuple[int, str, str, dict[str, Any]]]:
    return [(seed, shape, algorithm, options) for seed in range(12) for shape, cases in CASES.items()
            for algorithm, options in cases]


def _record(text: str, algorithm: str, options: dict[str, Any]) -> Any:
    return solve(parse_tree(text), algorithm, **options)


@pytest.mark.parametrize(("seed", "shape", "algorithm", "options"), _cases())
def test_bulk_facts_are_the_records_answers(seed: int, shape: str, algorithm: str, options: dict[str, Any],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazy, "SMALL_TREE", 0)  # the big trees' storage and reads
    rng = random.Random(seed)
    text = json.dumps(_document(rng, shape))
    oracle = _record(text, algorithm, options)
    size = len(oracle.tree)
    nodes = [0] + rng.sample(range(1, size), min(size - 1, rng.randint(0, 60)))  # the root: never vacuous
    facts = drawn_facts(_record(text, algorithm, options), nodes)  # a fresh record: nothing asked before
    for at, node in enumerate(nodes):
        cut = oracle.cut(node)
        assert facts.values[at] == oracle.values[node], node
        assert facts.bounds[at] == oracle.bounds(node), node
        assert facts.signs[at] == bound_sign(oracle, node), node
        assert facts.horizon[at] == oracle.at_horizon(node), node
        assert facts.cuts[at] == cut, node
        assert facts.bound_reached[at] == (cut is not None and oracle.skipped_nothing(node)), node
    assert any(value is not None for value in facts.values)


@pytest.mark.parametrize("seed", range(20))
def test_ids_and_subtree_sizes_are_the_trees(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazy, "SMALL_TREE", 0)
    rng = random.Random(seed)
    document = _document(rng, "minmax", ids=seed % 3 == 0)  # ids in the file: tree.node_id's; else made here
    if seed % 2:
        document["root"] = {"id": "top", **document["root"]} if isinstance(document["root"], dict) else document["root"]
    tree = parse_tree(json.dumps(document))
    nodes, ups = [0], [-1]  # a drawing's nodes: parents first, each with its parent's position
    for node in range(1, len(tree)):
        parent = tree.parent_lookup()[node]
        if parent in nodes and rng.random() < 0.8:
            ups.append(nodes.index(parent))
            nodes.append(node)
    assert drawn_ids(tree, nodes, ups) == [tree.node_id(node) for node in nodes]
    assert subtree_sizes(tree, nodes) == [tree.subtree_size(node) for node in nodes]


def test_subtree_sizes_of_a_binary_files_running_sums(tmp_path: Path) -> None:
    """A .gtb tree's running sums may be int32 views of NumPy's memory: read as they are."""
    rng = random.Random(7)
    document = {"root": {"type": "max", "children": [
        {"type": "min", "children": [rng.randint(0, 9) for _ in range(rng.randint(1, 40))]} for _ in range(300)]}}
    path = tmp_path / "wide.gtb"
    write_binary(parse_tree(json.dumps(document)), path)
    tree = load_tree(str(path))
    nodes = list(range(0, len(tree), 7))
    assert subtree_sizes(tree, nodes) == [tree.subtree_size(node) for node in nodes]


@pytest.mark.parametrize(("seed", "shape", "algorithm", "options"),
                         [case for case in _cases() if case[0] < 4])
def test_the_text_view_is_the_same_either_way(seed: int, shape: str, algorithm: str, options: dict[str, Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole text view, node by node (a small tree) and in bulk (the big trees' path): the same text."""
    text = json.dumps(_document(random.Random(seed), shape, ids=seed % 2 == 0))
    shown = {"max_nodes": 12, "depth": None}
    small = [render_result(_record(text, algorithm, options), lang, **shown).plain_text() for lang in ("en", "es")]
    monkeypatch.setattr(lazy, "SMALL_TREE", 0)
    big = [render_result(_record(text, algorithm, options), lang, **shown).plain_text() for lang in ("en", "es")]
    assert big == small
    assert small[0] is not None and "\n" in small[0]
