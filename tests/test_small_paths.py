"""A small tree's NumPy-free paths (issue 14, target 1) against the NumPy ones, on many random trees.

Below ``SMALL_TREE`` nodes the depth-first search runs on ``array.array``
buffers and rank keys (core/buffers.py, search/keys.py), the record reads
them one node at a time, expectiminimax skips the level sweep, and the JSON
result's per-node sections are written node by node (views/result_small.py).
Each must give what the NumPy path gives: the same JSON bytes, the same
annotated text, the same document, the same comparisons. The NumPy path is
forced by lowering ``SMALL_TREE`` to 0, the small one on a big tree by
raising it.
"""

from __future__ import annotations

import io
from array import array

import numpy as np
import pytest
from rich.console import Console

from gametree_cli.core import lazy
from gametree_cli.core.errors import GameTreeError
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.events import Recorder
from gametree_cli.search.keys import comparison_keys
from gametree_cli.search.registry import solve
from gametree_cli.views.annotated import render_result
from gametree_cli.views.result_json import result_document, write_record

from .test_crosscheck import FAMILIES, configurations, library_options, make_tree
from . import oracles

#: random trees per family (each with every algorithm that fits it, options drawn at random)
TREES = 150


def _solve(tree, algorithm: str, options, small: bool, monkeypatch: pytest.MonkeyPatch, observe: bool = False):
    monkeypatch.setattr(lazy, "SMALL_TREE", 1 << 40 if small else 0)
    recorder = Recorder() if observe else None
    return solve(tree, algorithm, options=options, observer=recorder), recorder


def _written(record, recorder, small: bool, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setattr(lazy, "SMALL_TREE", 1 << 40 if small else 0)
    stream = io.StringIO()
    write_record(record, stream, events=None if recorder is None else recorder.events)
    return stream.getvalue().encode("utf-8", "surrogatepass")


def _text(record) -> str:
    console = Console(file=io.StringIO(), width=120, no_color=True, force_terminal=False)
    console.print(render_result(record))
    return console.file.getvalue()  # type: ignore[attr-defined]


def _runs(family: str):
    """(tree, algorithm, options, observed) for each random tree of ``family`` and each algorithm fitting it."""
    for seed in range(TREES):
        document, facts, rng = make_tree(family, seed)
        text = __import__("json").dumps(document)
        tree = parse_tree(text, fmt="json")
        for algorithm, options in configurations(oracles.read(document), facts, rng):
            yield seed, tree, text, algorithm, library_options(options), rng.random() < 0.3


@pytest.mark.parametrize("family", FAMILIES)
def test_small_and_numpy_paths_write_the_same_result(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Per run: the JSON bytes of (small record, small writer), (NumPy record, chunked writer) and
    (small record, chunked writer: the record's bulk API on array.array storage) are the same, and so
    are the annotated text and the result document."""
    runs = 0
    for seed, tree, text, algorithm, options, observe in _runs(family):
        try:
            small, small_events = _solve(tree, algorithm, options, True, monkeypatch, observe)
            big, big_events = _solve(tree, algorithm, options, False, monkeypatch, observe)
        except GameTreeError:
            continue  # e.g. a depth limit where a node has no eval: both paths refuse alike (checked elsewhere)
        where = f"{family} seed {seed}: gametree solve --tree '{text}' --algo {algorithm} ({options})"
        expected = _written(big, big_events, False, monkeypatch)
        assert _written(small, small_events, True, monkeypatch) == expected, where
        assert _written(small, small_events, False, monkeypatch) == expected, where
        monkeypatch.setattr(lazy, "SMALL_TREE", 1 << 40)
        assert _text(small) == _text(big), where
        node_by_node = result_document(small)  # result_small.small_document
        monkeypatch.setattr(lazy, "SMALL_TREE", 0)
        chunked = result_document(big)  # RecordView and node_entries, a chunk at a time
        assert node_by_node == chunked, where
        assert __import__("json").dumps(node_by_node) == __import__("json").dumps(chunked), where  # key order too
        runs += 1
    assert runs >= TREES  # (not vacuous: most trees fit two algorithms or more)


def test_the_small_record_keeps_array_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the tests above compare is really two storages (else they could not fail)."""
    tree = parse_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", fmt="json")
    small, _ = _solve(tree, "alphabeta", None, True, monkeypatch)
    big, _ = _solve(tree, "alphabeta", None, False, monkeypatch)
    assert isinstance(small.values.data, array) and isinstance(small.flags, array)
    assert isinstance(big.values.data, np.ndarray) and isinstance(big.flags, np.ndarray)
    assert small.pruned == big.pruned == [8, 9] and small.horizon == big.horizon == set()


def _same_order(left, right, sources: list[int]) -> bool:
    return all((left[a] > left[b]) - (left[a] < left[b]) == (right[a] > right[b]) - (right[a] < right[b])
               for a in sources for b in sources)


@pytest.mark.parametrize("family", ["compact", "typed"])
def test_rank_keys_order_the_sources_as_the_numpy_keys(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys a small tree gets (ranks, in Python) and the NumPy ones compare every pair of sources
    alike: the leaves, the nodes at the depth limit, -inf and inf."""
    checked = 0
    for seed in range(TREES * 2):
        document, facts, rng = make_tree(family, seed)
        tree = parse_tree(__import__("json").dumps(document), fmt="json")
        if tree.has_chance or tree.is_nplayer:
            continue
        depth = rng.choice([None, 0, 1, 2]) if facts.get("evals") else None
        n = len(tree.kind)
        monkeypatch.setattr(lazy, "SMALL_TREE", 1 << 40)
        small = comparison_keys(tree, depth)
        monkeypatch.setattr(lazy, "SMALL_TREE", 0)
        big = comparison_keys(tree, depth)
        assert isinstance(small, array) and isinstance(big, np.ndarray)
        leaves = [node for node in range(n) if not tree.count[node]]
        horizon = [] if depth is None else [node for node in range(n) if tree.count[node] and
                                            len(tree.path(node)) == depth]
        assert _same_order(small, big.tolist(), leaves + horizon + [n, n + 1]), (seed, depth)
        checked += 1
    assert checked >= TREES


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "expectiminimax"])
def test_a_big_tree_forced_onto_the_small_path_gives_the_same_bytes(algorithm: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Past SMALL_TREE (5,461 nodes, many ties, a depth limit): the small path still agrees."""
    def node(depth: int, serial: list[int]) -> object:
        serial[0] += 1
        if depth == 6:
            return (serial[0] * 7919) % 23 - 11
        return {"eval": serial[0] % 5, "children": [node(depth + 1, serial) for _ in range(4)]}

    tree = parse_tree(__import__("json").dumps({"root": node(0, [0])}), fmt="json")
    assert len(tree.kind) >= lazy.SMALL_TREE
    for depth in (None, 4):
        options = library_options({"depth": depth})
        small, _ = _solve(tree, algorithm, options, True, monkeypatch)
        big, _ = _solve(tree, algorithm, options, False, monkeypatch)
        assert _written(small, None, True, monkeypatch) == _written(big, None, False, monkeypatch)
