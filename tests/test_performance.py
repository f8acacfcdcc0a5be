"""The fast paths of issue 6 give exactly what the plain paths and the textbook give.

Each fast path is checked against an independent implementation written here
over the raw document (recursive, as a textbook has it), and against the
general code it stands in for, on random trees: the fast builder, the NumPy
level-by-level searches (exact fractions included, against the depth-first
walk on the same tree), alpha-beta, the written JSON result (the document's content), the ``.gtb`` format, the
fast YAML parse (same document as PyYAML, or PyYAML decides), the lazy
NumPy-backed values and the progress bar (shown only on a terminal). No test
here is timed: ``make bench`` measures speed.
"""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
import threading
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.registry import ALGORITHMS, Options, check_depth_limit
from gametree_cli.search.sweep import sweep
from gametree_cli.cli.app import app
from gametree_cli.core.errors import GameTreeError, TreeFormatError
from gametree_cli.io import document as document_module
from gametree_cli.io.binary import read_binary
from gametree_cli.io.binary_encode import encode_binary
from gametree_cli.io.document import build_tree
from gametree_cli.io.fastyaml import fast_yaml_document, plain_enough
from gametree_cli.core.numeric import LazyValues
from gametree_cli.views import result_json
from gametree_cli.views.result_json import result_document, write_record

from . import oracles
from .conftest import HANG_GUARD
from .test_result_json import every_result_matches, same_content, written

minimax_module = importlib.import_module("gametree_cli.search.minimax")

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- random documents ------------------------------------------------------------------

NUMBERS = {
    "int": st.integers(-50, 50),
    "fraction": st.sampled_from(["1/3", "-2/7", "5/2", 4, 0, -1]),
    "decimal": st.sampled_from([0.5, -1.25, 3.0, 2.75, -0.5]),
}


@st.composite
def documents(draw, *, chance: bool = True, depth: int = 5, extras: bool = True):
    """A two-player tree document: mappings, bare numbers and nested lists, with evals."""
    number = NUMBERS[draw(st.sampled_from(sorted(NUMBERS)))]

    def node(level: int, under_chance: bool):
        if level >= depth or draw(st.integers(0, 9)) < 2:
            value = draw(number)
            if not extras or draw(st.booleans()):
                return value
            leaf = {"value": value}
            if draw(st.integers(0, 3)) == 0:
                leaf["move"] = f"m{draw(st.integers(0, 99))}"
            return leaf
        size = draw(st.integers(1, 4))
        kinds = ["max", "min", None] + (["chance"] if chance else [])
        kind = draw(st.sampled_from(kinds))
        children = [node(level + 1, kind == "chance") for _ in range(size)]
        if kind == "chance" and draw(st.booleans()):
            weights = [draw(st.integers(1, 4)) for _ in children]
            children = [c if isinstance(c, dict) else {"value": c} if not isinstance(c, list) else {"children": c}
                        for c in children]
            for child, weight in zip(children, weights):
                child["p"] = f"{weight}/{sum(weights)}"
        if not extras and kind is None and draw(st.booleans()):
            return children  # a compact list: alternates
        mapping: dict = {"children": children, "eval": draw(number)}
        if kind is not None:
            mapping["type"] = kind
        if extras and draw(st.integers(0, 3)) == 0:
            mapping["move"] = f"m{draw(st.integers(0, 99))}"
        return mapping

    return {"root": node(0, False)}


def general_build(document):
    """The general builder alone (the fast path switched off)."""
    saved = document_module.fast_build
    document_module.fast_build = lambda *args, **kwargs: None
    try:
        return build_tree(document, may_alias=False)
    finally:
        document_module.fast_build = saved


def tree_facts(tree):
    return (bytes(tree.kind), list(tree.first), list(tree.count), list(tree.value), list(tree.player),
            None if tree.prob is None else list(tree.prob), tree.evals, tree.moves, tree.explicit_ids, tree.extra,
            [type(v) for v in tree.value])


# -- the fast builder ----------------------------------------------------------------------


@SETTINGS
@given(documents())
def test_fast_builder_builds_what_the_general_builder_builds(document):
    fast = build_tree(json.loads(json.dumps(document)), may_alias=False)
    general = general_build(json.loads(json.dumps(document)))
    assert tree_facts(fast) == tree_facts(general)
    assert list(fast.parents()) == list(general.parents())


BAD_NODES = [
    {"children": []}, {"children": None}, {"value": None}, {"value": [1, 2]}, {"value": True}, {"value": "x"},
    {"type": "maxi", "children": [1]}, {"value": 1, "children": [2]}, {"p": "1/2", "value": 1}, {"id": "A", "value": 1},
    {"player": "MAX", "children": [1]}, {"nope": 1, "value": 2}, None, float("inf"), [], "7/0",
]


@SETTINGS
@given(documents(), st.sampled_from(BAD_NODES), st.integers(0, 30))
def test_fast_builder_leaves_every_error_to_the_general_builder(document, bad, where):
    """With one bad node planted, the error (message and location) is the general builder's."""
    text = json.dumps(document)
    spots = [index for index in range(len(text)) if text.startswith("[", index)]
    assume(spots)
    spot = spots[where % len(spots)] + 1
    planted = text[:spot] + json.dumps(bad) + ("," if text[spot] != "]" else "") + text[spot:]
    try:
        expected = str(general_build_error(planted))
    except AssertionError:
        return  # still valid (e.g. an id nobody else has)
    with pytest.raises(GameTreeError) as raised:
        parse_tree(planted, name="t.json", fmt="json")
    assert str(raised.value) == expected


def general_build_error(text):
    saved = document_module.fast_build
    document_module.fast_build = lambda *args, **kwargs: None
    try:
        parse_tree(text, name="t.json", fmt="json")
    except GameTreeError as error:
        return error
    finally:
        document_module.fast_build = saved
    raise AssertionError("valid")


def record_by_id(record):
    ids = record.tree.ids()
    return {ids[node]: value for node, value in enumerate(record.values) if value is not None}


@SETTINGS
@given(documents(extras=False), st.sampled_from([None, None, 0, 1, 2, 3]))
def test_numpy_sweep_matches_the_textbook_and_the_python_search(document, depth_limit):
    tree = build_tree(document, may_alias=False)
    if depth_limit is not None:
        try:
            check_depth_limit(tree, depth_limit)
        except GameTreeError:
            return  # a compact list at the limit has no eval: solve refuses it
    chance = tree.has_chance
    for name, averaged in (("minimax", False), ("expectiminimax", False), ("expectimax", True)):
        if name == "minimax" and chance:
            continue
        fast = sweep(tree, depth_limit, name=name, averaged_min=averaged, min_width=0)
        if fast is None:  # decimals under a chance node (exact decimal sums), or expectimax: Python path
            assert chance or averaged
            continue
        expected = oracles.expectiminimax(document, depth_limit, averaged_min=averaged).values
        got = record_by_id(fast)
        assert got == expected
        assert {key: type(value) for key, value in got.items()} == {
            key: (int if isinstance(value, Fraction) and value.denominator == 1 else type(value))
            for key, value in expected.items()}
        python = general_python_search(tree, name, depth_limit)
        assert list(fast.values) == list(python.values)
        assert (fast.stats, fast.horizon, fast.value) == (python.stats, python.horizon, python.value)
        assert fast.best_move() == python.best_move()


def general_python_search(tree, name, depth_limit):
    """The same search with the NumPy path refused (no NumPy form for the values)."""
    copy = general_build_from(tree)
    copy._numeric = False
    if name == "minimax":
        return minimax_module.minimax(copy, depth_limit=depth_limit)
    return solve(copy, name, depth=depth_limit)


def general_build_from(tree):
    from gametree_cli.core.model import Tree

    return Tree(kind=tree.kind, first=tree.first, count=tree.count, value=list(tree.value), player=tree.player,
                prob=tree.prob, evals=tree.evals, explicit_ids=tree.explicit_ids, moves=tree.moves, extra=tree.extra,
                players=tree.players, total=tree.total, bounds=tree.bounds, title=tree.title, source=tree.source)


def test_sweep_keeps_exact_fractions_and_refuses_what_int64_cannot_hold():
    tree = parse_tree('{"root": {"type": "chance", "children": [1, 2, {"type": "chance", "children": [0, 1]}]}}')
    record = sweep(tree, name="expectiminimax", min_width=0)
    assert record.value == Fraction(7, 6) and isinstance(record.value, Fraction)
    assert sweep(parse_tree(f"[[{2**70}, 1], [2, 3]]"), min_width=0) is None  # beyond int64: the Python path
    assert solve(parse_tree(f"[[{2**70}, 1], [2, 3]]"), "minimax").value == 2
    assert sweep(parse_tree("[[0.5, 1], [2, 3]]"), min_width=0) is None  # decimals mixed with integers
    assert solve(parse_tree("[[0.5, 1], [2, 3]]"), "minimax").value == 2


# -- alpha-beta ---------------------------------------------------------------


nested = st.recursive(st.integers(-20, 20), lambda inner: st.lists(inner, min_size=1, max_size=4), max_leaves=60)


@SETTINGS
@given(nested)
def test_alphabeta_matches_the_textbook(raw):
    tree = parse_tree(json.dumps(raw))
    record = solve(tree, "alphabeta")
    expected = oracles.alphabeta(raw)
    ids = tree.ids()
    assert record.value == expected.value
    assert [ids[node] for node in record.visit_order()] == expected.order
    assert [ids[node] for node in record.pruned] == expected.pruned
    assert record.stats.as_dict() == expected.stats


# -- the written JSON result --------------------------------------------------------------------


@st.composite
def any_tree(draw):
    """Trees for every algorithm: two-player (with ids, moves, chance) or three-player with a sum."""
    if draw(st.booleans()):
        document = draw(documents())
        if isinstance(document["root"], dict) and draw(st.booleans()):
            document["root"]["id"] = draw(st.sampled_from(["A", "é\"x", "a.b"]))
        return build_tree(document)
    players = ["A", "B", "C"]

    def node(level):
        if level >= 3 or draw(st.integers(0, 4)) == 0:
            first = draw(st.integers(0, 6))
            second = draw(st.integers(0, 9 - first))
            return [first, second, 9 - first - second]
        return {"children": [node(level + 1) for _ in range(draw(st.integers(1, 3)))]}

    return build_tree({"players": players, "sum": 9, "root": node(0)})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_tree(), st.sampled_from([None, None, 1, 2]), st.sampled_from([None, 3]))
def test_written_json_result_holds_the_document(tree, depth_limit, chunk):
    """The writer's text (written a chunk of nodes at a time, ``chunk``: a few) parses to
    ``result_document``'s content, key order and number types included, with and without a trace."""
    saved = result_json.CHUNK
    result_json.CHUNK = chunk or saved
    try:
        every_result_matches(tree, depth_limit)
    finally:
        result_json.CHUNK = saved


# -- the binary format -----------------------------------------------------------------------------


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=any_tree())
def test_gtb_round_trip_keeps_the_tree_and_every_answer(tmp_path_factory, tree):
    path = tmp_path_factory.mktemp("gtb") / "t.gtb"
    path.write_bytes(encode_binary(tree))
    back = read_binary(path, str(path))
    assert tree_facts(back)[:10] == tree_facts(tree)[:10]
    assert [type(v) for v in back.value] == [type(v) for v in tree.value]
    assert (back.players, back.total, back.bounds, back.title, back.is_nplayer) == (
        tree.players, tree.total, tree.bounds, tree.title, tree.is_nplayer)
    for name, algorithm in ALGORITHMS.items():
        if algorithm.unfit(tree, Options()) is None:
            first, second = io.StringIO(), io.StringIO()
            write_record(solve(tree, name), first)
            write_record(solve(back, name), second)
            assert first.getvalue() == second.getvalue(), name


def test_gtb_keeps_opponent_models_bounds_and_explicit_ids(tmp_path):
    text = ('{"title": "t", "bounds": [-5, "15/2"], "root": {"id": "A", "type": "max", "random": "1/3", "children": ['
            '{"id": "B", "move": "left", "type": "chance", "children": [{"p": 0.25, "value": 1}, {"p": 0.75, "value": "7/2"}]},'
            '{"id": "C", "eval": 2, "children": [3, -5]}]}}')
    tree = parse_tree(text)
    path = tmp_path / "t.gtb"
    path.write_bytes(encode_binary(tree))
    back = load_tree(path)
    assert back.explicit_ids == tree.explicit_ids and back.moves == tree.moves
    assert back.extra == tree.extra and back.bounds == tree.bounds and back.evals == tree.evals
    assert list(back.prob) == list(tree.prob)
    assert solve(back, "expectiminimax").value == solve(tree, "expectiminimax").value


def test_damaged_gtb_files_are_one_line_errors(tmp_path, runner):
    good = encode_binary(parse_tree("[[3, 12, 8], [2, 4, 6]]"))
    cases = {
        "magic.gtb": b"not a tree at all",
        "truncated.gtb": good[: len(good) - 100],
        "header.gtb": good[:17] + b"!" + good[18:],
        "counts.gtb": good.replace(b'"nodes":9', b'"nodes":8'),
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(TreeFormatError):
            load_tree(path)
        result = runner.invoke(app, ["solve", str(path)])
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        assert result.output.strip().count("\n") == 0 and result.output.startswith(str(path)), result.output


def test_convert_writes_gtb_and_every_command_reads_it(tmp_path, runner):
    source = Path(__file__).resolve().parents[1] / "trees" / "aima-5-2.yaml"
    target = tmp_path / "aima.gtb"
    result = runner.invoke(app, ["convert", str(source), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.stat().st_size < 2000
    from_yaml = runner.invoke(app, ["solve", str(source), "--format", "json"])
    from_gtb = subprocess.run([sys.executable, "-m", "gametree_cli", "solve", str(target), "--format", "json"],
                              capture_output=True, text=True, check=True)
    assert from_gtb.stdout == from_yaml.output


# -- fast YAML ------------------------------------------------------------------------------------

SCALAR_ALPHABET = "0123456789.-+eE_:xobyesnofaNYTtrulI/~'\",[]# -\\é"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=SCALAR_ALPHABET, min_size=1, max_size=8),
       st.sampled_from(["a: {}\n", "- {}\n", "a: [{}, 1]\n", "{}: 1\n", "root:\n  children:\n  - {}\n  - value: {}\n"]))
def test_fast_yaml_reads_what_pyyaml_reads_or_declines(token, shape):
    text = shape.replace("{}", token)
    parsed, document = fast_yaml_document(text)
    if not parsed:
        return
    assert repr(document) == repr(yaml.load(text, Loader=yaml.CSafeLoader))


@pytest.mark.parametrize("text", [
    "a: 010", "a: 1e3", "a: 0.5e3", "a: yes", "a: On", "a: 1_000", "a: _4", "a: 0x1F", "a: 1:30", "a: -.9",
    "a: &x 3\nb: *x", "a: !!str 3", "? [1, 2]\n: 3", "title: a: b", "a:\tb", "---\na: 1", "a: {b: 1}",
    "root:\n" + " " * 300 + "a: 1",
])
def test_fast_yaml_declines_what_yaml_11_and_12_read_differently(text):
    assert not plain_enough(text)


def test_fast_yaml_gives_the_same_tree_and_pyyaml_still_pinpoints_errors(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("title: plain\nroot:\n  type: max\n  children:\n  - children: [3, 12, 8]\n  - children: ['7/3', 4, 0.5]\n")
    assert fast_yaml_document(good.read_text())[0]
    tree = load_tree(good)
    assert solve(tree, "minimax").value == 3
    bad = tmp_path / "bad.yaml"
    bad.write_text("root:\n  children:\n  - value: 1\n  - value: 2\n    value: 3\n  - children: [\n")
    with pytest.raises(TreeFormatError) as raised:
        load_tree(bad)
    assert str(raised.value).startswith(f"{bad}:")
    assert raised.value.line is not None


# -- lazy values, parents, progress ------------------------------------------------------------------


def test_lazy_values_read_like_a_list():
    data = np.array([6, 0, -3, 9], dtype=np.int64)
    values = LazyValues(data, 3, np.array([True, False, True, True]))
    expected = [2, None, -1, 3]
    assert [values[i] for i in range(4)] == expected and list(values) == expected and values == expected
    assert values[1:3] == [None, -1] and len(values) == 4
    assert all(type(v) is int for v in values if v is not None)
    halves = LazyValues(np.array([1, 2], dtype=np.int64), 2)
    assert list(halves) == [Fraction(1, 2), 1] and type(halves[1]) is int
    halves[0] = 5
    assert list(halves) == [5, 1]
    floats = LazyValues(np.array([0.5, 2.0]))
    assert list(floats) == [0.5, 2.0] and type(floats[1]) is float


@SETTINGS
@given(nested)
def test_vectorised_parents_match_the_definition(raw):
    tree = parse_tree(json.dumps(raw))
    parent = [-1] * len(tree)
    for node in range(len(tree)):
        for child in tree.children(node):
            parent[child] = node
    assert list(tree.parents()) == parent


def test_parents_of_children_ranges_out_of_breadth_first_order():
    """parents() has a shortcut for breadth-first numbering; other numberings take the general path."""
    from array import array

    from gametree_cli.core.model import LEAF, MAX, MIN, Tree

    # node 1's children are 5 and 6, node 2's are 3 and 4
    tree = Tree(kind=bytearray([MAX, MIN, MIN, LEAF, LEAF, LEAF, LEAF]), first=array("q", [1, 5, 3, 0, 0, 0, 0]),
                count=array("q", [2, 2, 2, 0, 0, 0, 0]), value=[None] * 3 + [1, 2, 3, 4],
                player=array("q", [0, 1, 1, -1, -1, -1, -1]))
    assert list(tree.parents()) == [-1, 0, 0, 2, 2, 1, 1]


@pytest.mark.parametrize("depth", [100_000, 100_001])
def test_long_chains_need_no_recursion(tmp_path, depth):
    """100,000 plies through the fast builder, the searches and .gtb (the innermost [1, 2] is
    MIN at an odd depth: value 1)."""
    text = "[" * depth + "1, 2" + "]" * depth
    tree = parse_tree(text, fmt="json")
    expected = 1 if (depth - 1) % 2 else 2
    assert solve(tree, "minimax").value == expected
    assert solve(tree, "alphabeta").value == expected
    path = tmp_path / "chain.gtb"
    path.write_bytes(encode_binary(tree))
    assert solve(load_tree(path), "minimax").value == expected


def test_streamed_result_of_a_deep_chain():
    """Ids of a chain grow with depth (the output is quadratic), so 5,000 plies: past any recursion limit."""
    depth = 5_000
    tree = parse_tree("[" * depth + "1, 2" + "]" * depth, fmt="json")
    record = solve(tree, "alphabeta")
    assert same_content(written(record), result_document(record))


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No bar off a terminal; on one, the bar's own thread shows the stage ticked.
    The test waits for that thread's write (an event), not for some time to pass."""
    from gametree_cli.core import progress

    class Terminal(io.StringIO):
        def __init__(self) -> None:
            super().__init__()
            self.building_shown = threading.Event()

        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> int:
            written = super().write(text)
            if "checking and building" in self.getvalue():
                self.building_shown.set()
            return written

    plain = io.StringIO()
    with progress.shown(plain, delay=0):
        assert progress._latest is None  # not a terminal: no bar, ticks cost one global read
        progress.tick("build", 10)
    screen = Terminal()
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    with progress.shown(screen, delay=0):
        progress.tick("build", 65536)
        assert screen.building_shown.wait(HANG_GUARD), "the bar never showed the building stage"
    assert "checking and building the tree" in screen.getvalue()
    assert progress._latest is None and progress._display is None
