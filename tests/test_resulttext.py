"""The JSON result's ids and entries: the compiled helper (gametree_cli._resulttext)
against Python, the table of entry texts against ``node_entry``, and the whole
streamed result against ``write_result`` on trees with awkward ids and numbers."""

from __future__ import annotations

import importlib
import io
from json.encoder import encode_basestring  # type: ignore[attr-defined]

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli import parse_tree, solve
from gametree_cli.algorithms import ALGORITHMS, Options
from gametree_cli.errors import GameTreeError
from gametree_cli.formats.document import build_tree
from gametree_cli.views import result_stream, tree_order
from gametree_cli.views.node_bodies import node_bodies, number_texts
from gametree_cli.views.result_json import result_document, write_result

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: id stems that need escaping, are not ASCII, contain dots, or are a lone surrogate
STEMS = ["n", "é\"", "a\\b", "tab\t", "\u2603", "x.y", "\ud800", "</", "\x00"]

minimax_module = importlib.import_module("gametree_cli.algorithms.minimax")
kernel_module = importlib.import_module("gametree_cli._resulttext") if importlib.util.find_spec(
    "gametree_cli._resulttext") else None
needs_kernel = pytest.mark.skipif(kernel_module is None, reason="the compiled helper is not built (no C compiler)")


@st.composite
def named_trees(draw, numbers=st.integers(-9, 9)):
    """Two-player trees, some nodes with ids of their own (unique: a counter after a stem)."""
    serial = iter(range(10**6))

    def node(level: int):
        named = draw(st.integers(0, 3)) == 0
        if level >= 4 or draw(st.integers(0, 9)) < 3:
            mapping = {"value": draw(numbers)}
        else:
            width = draw(st.sampled_from([1, 2, 3, 12]))  # 12: two-digit positions
            mapping = {"type": draw(st.sampled_from(["max", "min"])), "children": [node(level + 1) for _ in range(width)],
                       "eval": 0}
        if named:
            mapping["id"] = f"{draw(st.sampled_from(STEMS))}{next(serial)}"
        return mapping

    return build_tree({"root": node(0)})


def python_quoted_ids(tree) -> list[str]:
    return [encode_basestring(name) for name in tree.ids()]


@needs_kernel
@SETTINGS
@given(named_trees())
def test_compiled_ids_are_the_quoted_ids(tree):
    ids = result_stream._compiled_ids(tree)
    offsets = np.frombuffer(ids.offsets, dtype=np.int64)
    text = ids.text.decode("utf-8", "surrogatepass")
    assert len(offsets) == len(tree) + 1
    got = [ids.text[offsets[node]:offsets[node + 1]].decode("utf-8", "surrogatepass") for node in range(len(tree))]
    assert got == python_quoted_ids(tree)
    assert text == "".join(got)


@needs_kernel
@SETTINGS
@given(named_trees(), st.data())
def test_compiled_join_pastes_ids_and_bodies(tree, data):
    ids = result_stream._compiled_ids(tree)
    quoted = python_quoted_ids(tree)
    nodes = data.draw(st.lists(st.integers(0, len(tree) - 1), max_size=50))
    assert ids.join(nodes) == ",\n  ".join(quoted[node] for node in nodes)
    bodies = ["", ": é", ": {x}", "\ud800"]
    body_of = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(nodes), max_size=len(nodes))), dtype=np.int32)
    encoded = tuple(body.encode("utf-8", "surrogatepass") for body in bodies)
    assert ids.join(nodes, body_of, encoded) == ",\n  ".join(
        quoted[node] + bodies[index] for node, index in zip(nodes, body_of.tolist()))


@needs_kernel
@SETTINGS
@given(named_trees(), st.sampled_from([None, 0, 1, 2, 3]))
def test_compiled_tree_order_is_the_preorder(tree, depth):
    for compiled in (None, kernel_module):
        tree_order.forget()
        assert tree_order.tree_order(tree, depth, compiled).tolist() == list(tree.preorder(depth))
    tree_order.forget()


@needs_kernel
def test_compiled_ids_of_a_depth_limited_prefix_and_a_limit():
    tree = parse_tree("[[1, [2, 3]], [4, 5]]", fmt="json")
    first = np.array(tree.first, dtype=np.int64)
    count = np.array(tree.count, dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    text, offsets = kernel_module.quoted_ids(first, count, 3, none, (), True, None)
    assert text == b'"root""1""2"' and list(np.frombuffer(offsets, dtype=np.int64)) == [0, 6, 9, 12]
    assert kernel_module.quoted_ids(first, count, len(tree), none, (), True, 20) is None  # over the limit
    text, _ = kernel_module.quoted_ids(first, count, len(tree), np.array([0, 4], dtype=np.int64), (b'"R"', b'"x"'),
                                       False, None)
    assert text == b'"R""R.1""R.2""R.1.1""x""R.2.1""R.2.2""x.1""x.2"'


@needs_kernel
@pytest.mark.parametrize("first, count", [
    ([1, 0, 0], [3, 0, 0]),        # children past the end
    ([1, 1, 0], [1, 1, 0]),        # node 1's child numbered before it... itself
    ([1, 1, 0, 0], [2, 2, 0, 0]),  # two parents for nodes 1 and 2
    ([2, 0, 3], [1, 0, 1]),        # node 2's child is past the end
])
def test_compiled_ids_refuse_arrays_that_are_not_a_tree(first, count):
    first, count = np.array(first, dtype=np.int64), np.array(count, dtype=np.int64)
    with pytest.raises(ValueError):
        kernel_module.quoted_ids(first, count, len(first), np.zeros(0, dtype=np.int64), (), True, None)
    with pytest.raises(ValueError):
        kernel_module.preorder(first, count, len(first))


@needs_kernel
def test_compiled_ids_refuse_a_node_with_two_parents_and_an_unreached_parent():
    none = np.zeros(0, dtype=np.int64)
    for first, count in (([1, 3, 3, 0, 0], [2, 1, 1, 0, 0]), ([1, 0, 3, 0], [1, 0, 1, 0])):
        with pytest.raises(ValueError):
            kernel_module.quoted_ids(np.array(first, dtype=np.int64), np.array(count, dtype=np.int64), len(first),
                                     none, (), True, None)


@needs_kernel
def test_compiled_join_refuses_nodes_and_bodies_out_of_range():
    text, offsets = b'"root""1"', np.array([0, 6, 9], dtype=np.int64).tobytes()
    with pytest.raises(IndexError):
        kernel_module.join(np.array([2], dtype=np.int64), text, offsets, b",", None, None)
    with pytest.raises(IndexError):
        kernel_module.join(np.array([-1], dtype=np.int64), text, offsets, b",", None, None)
    with pytest.raises(IndexError):
        kernel_module.join(np.array([1], dtype=np.int64), text, offsets, b",", np.array([5], dtype=np.int32), (b"",))
    with pytest.raises(ValueError):  # one body index per node, not per node number
        kernel_module.join(np.array([1], dtype=np.int64), text, offsets, b",", np.array([0, 0], dtype=np.int32), (b"",))
    with pytest.raises(TypeError):
        kernel_module.join(np.array([1], dtype=np.int64), text, offsets, b",", np.array([0], dtype=np.int32), ("s",))
    assert kernel_module.join(np.zeros(0, dtype=np.int64), text, offsets, b",", None, None) == b""


def all_paths_match(tree, depth: int | None = None, chunk: int | None = None) -> None:
    """Every algorithm's streamed result, by every path, is write_result's text
    (``chunk``: nodes written at a time, lowered to put chunk boundaries anywhere)."""
    for name, algorithm in ALGORITHMS.items():
        options = Options(depth=depth)
        if algorithm.unfit(tree, options) is not None:
            continue
        try:
            record = solve(tree, name, options=options)
        except GameTreeError:
            continue
        expected = io.StringIO()
        write_result(result_document(record), expected)
        for vector_from in (tree_order.VECTOR_FROM, 0):
            for kernel in (True, False):
                saved = tree_order.VECTOR_FROM, result_stream.USE_KERNEL, tree_order.CHUNK
                tree_order.VECTOR_FROM, result_stream.USE_KERNEL = vector_from, kernel
                tree_order.CHUNK = chunk or tree_order.CHUNK
                try:
                    streamed = io.StringIO()
                    result_stream.write_record(record, streamed)
                finally:
                    tree_order.VECTOR_FROM, result_stream.USE_KERNEL, tree_order.CHUNK = saved
                assert streamed.getvalue() == expected.getvalue(), (name, vector_from, kernel)


@SETTINGS
@given(named_trees(), st.sampled_from([None, 1, 2]))
def test_streamed_result_with_awkward_ids(tree, depth):
    all_paths_match(tree, depth)


@SETTINGS
@given(named_trees(), st.sampled_from([None, 1, 2]), st.integers(1, 7))
def test_streamed_result_in_small_chunks(tree, depth, chunk):
    """Entries, ids and orders are made a chunk at a time: a chunk boundary anywhere changes no byte."""
    all_paths_match(tree, depth, chunk)


def test_streamed_result_of_a_wide_root_in_small_chunks():
    """Child positions past a chunk's reach (3000 children, 7 a chunk) are written without a table up to the widest."""
    all_paths_match(parse_tree("[" + ", ".join(str(k % 7 - 3) for k in range(3000)) + ", [1, 2]]", fmt="json"), chunk=7)


@SETTINGS
@given(named_trees(st.sampled_from([0.0, -0.0, 1, 1.0, -1, 2**70, -(2**70), 0.5, "1/3", 7]) | st.floats(-1e300, 1e300)))
def test_streamed_result_with_awkward_numbers(tree):
    """-0.0 and 0.0 print differently though equal, 1 and 1.0 too; integers beyond int64 have no NumPy form."""
    all_paths_match(tree)


@pytest.mark.parametrize("text", [
    "[[0.0, -0.0], [-0.0, 0.0], [1, 1.0]]",
    "[1, 1.0]", "[[1, 2.5], [1.0, 2]]", "[[2.5, 1], [\"5/2\", 1.0]]",  # equal, printed differently
    "[[1, 2.5], [-0.0, 3]]",
    '{"players": ["A", "B", "C"], "root": {"children": [[1, 2, 3], [3, 2, 1], {"children": [[0, 0, 6], [6, 0, 0]]}]}}',
    '{"players": ["A", "B", "C"], "sum": 6, "root": {"children": [[1, 2, 3], [3, 2, 1], {"children": [[0, 0, 6], [6, 0, 0]]}]}}',
    '{"root": {"type": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": -0.0}]}}',
    "[" + ", ".join(str(k * 1000003) for k in range(300)) + "]",  # values far apart: np.unique, not a table
])
def test_streamed_result_of_special_trees(text):
    all_paths_match(parse_tree(text, fmt="json"))


@pytest.mark.parametrize("leaves", [
    ["0.0", "-0.0", "0.1", "0.7", "1.5", "-2.25", "1e300"],  # float64 values: -0.0 and 0.0 apart, 0.1 and 0.7 apart
    ['"1/3"', '"-2/7"', "4", "0", '"5/2"'],                  # int64 numerators over a common denominator
])
@pytest.mark.parametrize("depth", [None, 1])
def test_streamed_result_of_numpy_backed_values(leaves, depth, monkeypatch):
    """Wide trees: minimax sweeps them level by level (or walks them) and its values stay in arrays."""
    cycle = iter(leaves * 800)
    text = "[" + ", ".join("{\"eval\": " + leaves[0] + ", \"children\": [" + ", ".join(next(cycle) for _ in range(40)) + "]}"
                           for _ in range(80)) + "]"
    tree = parse_tree(text, fmt="json")
    for sweep_from in (0, len(tree) + 1):  # the NumPy sweep, then the depth-first walk
        monkeypatch.setattr(minimax_module, "SWEEP_FROM", sweep_from)
        assert solve(tree, "minimax", options=Options(depth=depth)).value_codes(np.arange(len(tree))) is not None
        all_paths_match(tree, depth)


def test_streamed_result_falls_back_when_compiled_ids_would_be_too_long(monkeypatch):
    """A deep chain's ids grow quadratically: past the limit the Python path writes them."""
    monkeypatch.setattr(result_stream, "_ID_BYTES_PER_NODE", 0)
    depth = 2_000
    tree = parse_tree("[" * depth + "1, 2" + "]" * depth, fmt="json")
    if kernel_module is not None:
        assert result_stream._compiled_ids(tree) is None
    all_paths_match(tree)


def test_every_unvisited_node_of_a_type_shares_one_text():
    tree = parse_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", fmt="json")
    body_of, bodies = node_bodies(solve(tree, "alphabeta"))
    assert len(set(body_of.tolist())) < len(tree)
    assert bodies[0] == ': {\n   "visited": false,\n   "type": "leaf"\n  }'


def test_bodies_of_a_chunk_are_those_of_its_nodes():
    """The writer asks the texts of a chunk of nodes, in any order: each is the one asked for all nodes."""
    tree = parse_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", fmt="json")
    record = solve(tree, "alphabeta")
    body_of, bodies = node_bodies(record)
    chunk = np.array([12, 0, 5, 3, 9], dtype=np.int64)
    chunk_of, chunk_bodies = node_bodies(record, chunk)
    assert len(chunk_of) == len(chunk)
    assert [chunk_bodies[index] for index in chunk_of.tolist()] == [bodies[body_of[node]] for node in chunk.tolist()]


def test_number_texts_keep_types_and_signed_zeros_apart():
    from fractions import Fraction

    assert number_texts([1, 1.0, 0.0, -0.0, 0, Fraction(1, 2), 0.5, float("inf"), 1, -0.0]) == [
        "1", "1.0", "0.0", "-0.0", "0", '"1/2"', "0.5", '"inf"', "1", "-0.0"]
