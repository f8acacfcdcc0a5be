"""The ``.gtb`` reader's one-pass columns (io/gtb_columns.py): compiled, from its source, and NumPy's.

Why: ``io/binary.py`` makes a ``.gtb`` tree's columns (count, first, running
sums, leaves, players, values) and checks the child counts and kinds in one
compiled pass when :mod:`gametree_cli.io.gtb_columns` is compiled, and with
NumPy passes when it is not. The three must give the same tree, and for a
damaged file the same one-line error (the first of the checks, in the same
order). Each test runs the reader three ways: the compiled module (skipped,
saying so, when it is not built), the module's Python source (the same loop,
slow but small trees are quick), and the NumPy path.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from gametree_cli import GameTreeError
from gametree_cli.io import binary, binary_encode, gtb_columns
from gametree_cli.io.binary import binary_tree
from gametree_cli.io.binary_encode import _pack, encode_binary
from gametree_cli.io.loader import load_tree, parse_tree

from .test_gtb_structure import _random_document

_EXAMPLES = sorted((Path(__file__).parent.parent / "trees").glob("*.yaml"))
_source: list[ModuleType] = []


def _source_module() -> ModuleType:
    """gtb_columns.py run from its source (whether or not it is compiled), made to look compiled to the reader."""
    if not _source:
        spec = importlib.util.spec_from_file_location("gametree_cli.io._gtb_columns_source", gtb_columns.__file__
                                                      if gtb_columns.__file__.endswith(".py")
                                                      else Path(gtb_columns.__file__).parent / "gtb_columns.py")
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        assert not module.COMPILED
        _source.append(module)
    return _source[0]


@pytest.fixture(params=["compiled", "source", "numpy"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which of the reader's paths makes the columns: gtb_columns compiled, its source, or NumPy."""
    if request.param == "compiled":
        if not gtb_columns.COMPILED:
            pytest.skip("io/gtb_columns.py is not compiled (no Cython or C compiler at install time)")
    elif request.param == "source":
        monkeypatch.setattr(binary, "gtb_columns", _source_module())
        monkeypatch.setattr(_source_module(), "COMPILED", True)
    else:
        monkeypatch.setattr(binary, "gtb_columns", _source_module())
        monkeypatch.setattr(_source_module(), "COMPILED", False)
    return request.param


def _columns(tree: Any) -> dict[str, Any]:
    """Everything the reader makes of the per-node arrays, as plain lists."""
    numeric = tree._numeric
    return {
        "kind": bytes(tree.kind), "count": list(tree.count), "first": list(tree.first), "player": list(tree.player),
        "totals": list(tree._totals), "value": [tree.value[node] for node in range(len(tree))],
        "leaf": None if numeric is None else numeric.leaf.tolist(),
        "spare": None if numeric is None or numeric.spare is None else numeric.spare[: len(tree)].tolist(),
        "formats": (tree.count.format, tree.first.format, tree.player.format),
    }


def _expected(tree: Any) -> dict[str, Any]:
    """The columns worked out node by node from the text reader's tree (an independent path)."""
    count = list(tree.count)
    totals = [0]
    for children in count:
        totals.append(totals[-1] + children)
    return {"kind": bytes(tree.kind), "count": count, "first": list(tree.first), "player": list(tree.player),
            "totals": totals, "value": [tree.value[node] for node in range(len(tree))]}


@pytest.mark.parametrize("seed", range(40))
def test_random_trees_read_as_the_text_reader_reads_them(seed: int, path: str) -> None:
    """Kinds, counts, first children, players, running sums and values of random trees (uneven branching,
    leaves at any depth; integer, wide integer and decimal leaves) are the text tree's, on every path."""
    rng = random.Random(seed)
    document = _random_document(rng, rng.choice([3, 40, 400, 3000]))
    scale = rng.choice([1, 1000, 1 << 40, 0.25])
    text = json.dumps(document)
    if scale != 1:  # leaves of another width (int16, int64) or decimals (float64)
        text = json.dumps(_scaled(document, scale))
    expected = parse_tree(text)
    read = binary_tree(encode_binary(expected), "random.gtb")
    got = _columns(read)
    assert {key: got[key] for key in _expected(expected)} == _expected(expected)
    assert got["formats"] == ("q", "q", "h")
    leaves = [node for node in range(len(read)) if not read.count[node]]
    if got["leaf"] is not None:  # integer or decimal leaves: NumPy's numerators, 0 at inner nodes
        inner = set(range(len(read))) - set(leaves)
        assert all(got["leaf"][node] == 0 for node in inner)
        assert got["spare"] in (None, got["leaf"])


def _scaled(document: Any, scale: Any) -> Any:
    if isinstance(document, dict):
        return {key: _scaled(value, scale) for key, value in document.items()}
    if isinstance(document, list):
        return [_scaled(item, scale) for item in document]
    return document * scale if isinstance(document, int) and not isinstance(document, bool) else document


@pytest.mark.parametrize("example", _EXAMPLES, ids=lambda example: example.stem)
def test_every_example_tree_reads_the_same_on_every_path(example: Path, path: str) -> None:
    """Chance, n-player (stored players), payoff vectors, labels, evals: the text tree's columns."""
    expected = load_tree(example)
    read = binary_tree(encode_binary(expected), example.name)
    got = _columns(read)
    assert {key: got[key] for key in _expected(expected)} == _expected(expected)


@pytest.mark.parametrize("count_dtype", [np.int8, np.int16, np.int32, np.int64])
@pytest.mark.parametrize("value_dtype", [np.int8, np.int16, np.int32, np.int64, np.float64])
def test_every_stored_width_reads(count_dtype: Any, value_dtype: Any, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts and leaf values stored in each element type the writer may choose read as the same tree."""
    monkeypatch.setattr(binary_encode, "_narrow", lambda data: data)  # keep the types given
    header = {"version": 1, "nodes": 6, "players": ["MAX", "MIN"], "vector_payoffs": False, "title": None,
              "sum": None, "bounds": None, "denominator": "1"}
    arrays = {"kind": np.array([1, 2, 0, 0, 0, 0], dtype=np.uint8),
              "count": np.array([2, 3, 0, 0, 0, 0], dtype=count_dtype),
              "value": np.array([7, -3, 5, 2], dtype=value_dtype)}
    tree = binary_tree(_pack(header, arrays), "widths.gtb")
    assert list(tree.count) == [2, 3, 0, 0, 0, 0] and list(tree.first) == [1, 3, 0, 0, 0, 0]
    assert list(tree._totals) == [0, 2, 5, 5, 5, 5, 5] and list(tree.player) == [0, 1, -1, -1, -1, -1]
    assert [tree.value[node] for node in range(6)] == [None, None, 7, -3, 5, 2]
    assert [type(tree.value[node]) for node in range(2, 6)] == [float if value_dtype == np.float64 else int] * 4


def _file(kinds: list[int], counts: list[int], values: bool = True) -> bytes:
    leaves = sum(1 for count in counts if count == 0)
    header: dict[str, Any] = {"version": 1, "nodes": len(kinds), "players": ["MAX", "MIN"], "vector_payoffs": False,
                              "title": None, "sum": None, "bounds": None, "denominator": "1"}
    arrays = {"kind": np.array(kinds, dtype=np.uint8), "count": np.array(counts, dtype=np.int64)}
    if values:
        arrays["value"] = np.arange(leaves, dtype=np.int64)
    else:
        header["values_json"] = list(range(leaves))
    return _pack(header, arrays)


def _outcome(data: bytes) -> str:
    """The tree's columns, or the one-line error."""
    try:
        return repr(_columns(binary_tree(data, "damaged.gtb")))
    except GameTreeError as error:
        message = str(error)
        assert "\n" not in message and message.startswith("damaged.gtb")
        return message


_DAMAGED = [
    ([1, 0, 0], [3, -1, 0], "do not add up"),                      # a negative count (the sum is still n - 1)
    ([1, 0, 0], [3, 0, 0], "do not add up"),                       # a count of n
    ([1, 0, 0], [1, 0, 0], "do not add up"),                       # too few children
    ([1, 2, 0, 0], [2, 2, 0, 0], "do not add up"),                 # too many
    ([1, 0, 0], [2, 0, 1 << 40], "do not add up"),                 # far beyond n
    ([9, 0, 0], [3, -1, 0], "do not add up"),                      # bad counts and a bad kind: the counts first
    ([5, 0, 0], [2, 0, 0], "kinds do not match"),                  # no such kind
    ([0, 0, 0], [2, 0, 0], "kinds do not match"),                  # a leaf with children
    ([1, 1, 0], [2, 0, 0], "kinds do not match"),                  # a max node without
    ([0, 1, 1, 0, 0], [0, 2, 2, 0, 0], "numbered before its parent"),
    ([1, 0, 2, 0], [1, 0, 2, 0], "numbered before its parent"),
    ([0, 1, 9, 0, 0], [0, 2, 2, 0, 0], "kinds do not match"),      # misnumbered and a bad kind: the kind first
    ([4, 0, 0], [2, 0, 0], "a player node in a two-player tree"),
]


@pytest.mark.parametrize("kinds, counts, says", _DAMAGED)
@pytest.mark.parametrize("values", [True, False], ids=["array", "json"])
def test_each_damage_is_the_same_one_line_error(kinds: list[int], counts: list[int], says: str, values: bool,
                                                path: str) -> None:
    assert says in _outcome(_file(kinds, counts, values))


@pytest.mark.parametrize("seed", range(30))
def test_randomly_damaged_files_give_what_numpy_gives(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A random tree's kinds and counts changed at random: the compiled pass and its source give the NumPy
    path's error (or, where the change still makes a tree, its tree)."""
    rng = random.Random(seed)
    tree = parse_tree(json.dumps(_random_document(rng, rng.choice([20, 300]))))
    kinds, counts = list(tree.kind), list(tree.count)
    for _ in range(rng.randint(1, 3)):
        node = rng.randrange(len(kinds))
        if rng.random() < 0.5:
            kinds[node] = rng.choice([0, 1, 2, 3, 4, 5, 200])
        else:
            counts[node] = rng.choice([0, 1, 2, -1, len(counts), counts[node] + 1, counts[node] - 1])
    data = _file(kinds, counts)
    monkeypatch.setattr(binary, "gtb_columns", _source_module())
    outcomes = []
    for one_pass in (False, True):
        monkeypatch.setattr(_source_module(), "COMPILED", one_pass)
        outcomes.append(_outcome(data))
    if gtb_columns.COMPILED:
        monkeypatch.setattr(binary, "gtb_columns", gtb_columns)
        outcomes.append(_outcome(data))
    assert outcomes == [outcomes[0]] * len(outcomes)


def test_the_compiled_module_is_built_from_this_source() -> None:
    """When compiled, the .so is not older than its source (else the reader runs yesterday's loop)."""
    import os

    if not gtb_columns.COMPILED:
        pytest.skip("io/gtb_columns.py is not compiled (no Cython or C compiler at install time)")
    source = Path(gtb_columns.__file__).with_name("gtb_columns.py")
    assert os.path.getmtime(gtb_columns.__file__) >= os.path.getmtime(source), "stale gtb_columns build: make install"


def test_the_source_imports_and_runs_without_cython(monkeypatch: pytest.MonkeyPatch) -> None:
    """An install without Cython at run time: ``import cython`` fails, core/_no_cython's stand-ins serve
    (fused_type too), and the reader, on its NumPy path, reads the same tree as the loop from the source."""
    import sys

    monkeypatch.setitem(sys.modules, "cython", None)  # makes ``import cython`` raise ImportError
    spec = importlib.util.spec_from_file_location("gametree_cli.io._gtb_columns_no_cython",
                                                  Path(gtb_columns.__file__).with_name("gtb_columns.py"))
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    assert module.COMPILED is False
    data = encode_binary(parse_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"))
    monkeypatch.setattr(binary, "gtb_columns", module)
    numpy_read = _columns(binary_tree(data, "course.gtb"))
    monkeypatch.setattr(module, "COMPILED", True)
    assert _columns(binary_tree(data, "course.gtb")) == numpy_read
