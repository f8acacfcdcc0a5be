"""The JSON result's one writer (``write_record``): its text holds exactly ``result_document``'s content.

Checked on trees with awkward ids (quotes, backslashes, dots, non-ASCII, NUL,
a lone surrogate) and numbers (signed zeros, 1 and 1.0, fractions, integers
beyond 64 bits), for every algorithm, with and without a depth limit and a
trace, with chunk boundaries anywhere, ids in several bands and lines split
by the memory budget; and the pieces it is made of (orjson's texts, NumPy's
pasting, the tree order and the ids) against the plain Python definitions.
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
from array import array
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.registry import ALGORITHMS, Options
from gametree_cli.search.minimax import SWEEP_FROM
from gametree_cli.core.columns import Column
from gametree_cli.core.errors import GameTreeError
from gametree_cli.core.numbers import value_to_json
from gametree_cli.io.document import build_tree
from gametree_cli.core.model import LEAF, MAX, MIN, Tree
from gametree_cli.views import json_text, node_ids, result_json
from gametree_cli.views.json_text import constant, dumps, dumps_each, paste, positive_numbers, table
from gametree_cli.views.node_ids import NodeIds
from gametree_cli.views.result_json import result_document, write_record
from .conftest import HANG_GUARD
from .deep_chains import chain_ids, default_chain, explicit_chain

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: id stems that need escaping, are not ASCII, contain dots, or are a lone surrogate
STEMS = ["n", "é\"", "a\\b", "tab\t", "\u2603", "x.y", "\ud800", "</", "\x00", "a,\"b\""]


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


def written(record, **keywords) -> str:
    stream = io.StringIO()
    write_record(record, stream, **keywords)
    return stream.getvalue()


def same_content(text: str, document: dict) -> bool:
    """The text is one JSON object with the document's keys, in order, and values, types included
    (``1`` is not ``1.0``, ``0.0`` is not ``-0.0``)."""
    assert text.endswith("}\n")
    return json.dumps(json.loads(text)) == json.dumps(document)


def every_result_matches(tree, depth: int | None = None) -> None:
    """Every algorithm's written result, with and without a trace, holds its document's content."""
    for name, algorithm in ALGORITHMS.items():
        options = Options(depth=depth)
        if algorithm.unfit(tree, options) is not None:
            continue
        for trace in (False, True):
            events: list | None = [] if trace else None
            try:
                record = solve(tree, name, options=options, observer=events.append if events is not None else None)
            except GameTreeError:
                continue  # e.g. a depth limit on a node without eval
            text = written(record, events=events)
            assert same_content(text, result_document(record, events=events)), (name, trace)


@SETTINGS
@given(named_trees(), st.sampled_from([None, 1, 2]))
def test_written_result_with_awkward_ids(tree, depth):
    every_result_matches(tree, depth)


@SETTINGS
@given(named_trees(), st.sampled_from([None, 1]), st.integers(1, 7), st.sampled_from([0, 1 << 20]),
       st.sampled_from([64, 1 << 24]))
def test_chunks_bands_and_budget_change_no_content(tree, depth, chunk, slack, budget):
    """Lines are made a chunk at a time (``CHUNK``), ids in bands of levels (``_SLACK`` 0: a band a level
    nearly) and a chunk's matrix split to stay within ``BUDGET``: none of it changes the content."""
    saved = result_json.CHUNK, node_ids._SLACK, json_text.BUDGET
    result_json.CHUNK, node_ids._SLACK, json_text.BUDGET = chunk, slack, budget
    try:
        every_result_matches(tree, depth)
    finally:
        result_json.CHUNK, node_ids._SLACK, json_text.BUDGET = saved


@SETTINGS
@given(named_trees(st.sampled_from([0.0, -0.0, 1, 1.0, -1, 2**70, -(2**70), 0.5, "1/3", 7]) | st.floats(-1e300, 1e300)))
def test_written_result_with_awkward_numbers(tree):
    """-0.0 and 0.0 print differently though equal, 1 and 1.0 too; integers beyond 64 bits go past orjson."""
    every_result_matches(tree)


@pytest.mark.parametrize("text", [
    "4",  # the root is a leaf: no inner node at all
    "[[0.0, -0.0], [-0.0, 0.0], [1, 1.0]]",
    "[1, 1.0]", "[[1, 2.5], [1.0, 2]]", "[[2.5, 1], [\"5/2\", 1.0]]",  # equal, printed differently
    '{"players": ["A", "B", "C"], "root": {"children": [[1, 2, 3], [3, 2, 1], {"children": [[0, 0, 6], [6, 0, 0]]}]}}',
    '{"players": ["A", "B", "C"], "sum": 6, "root": {"children": [[1, 2, 3], [3, 2, 1], {"children": [[0, 0, 6], [6, 0, 0]]}]}}',
    '{"root": {"type": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": -0.0}]}}',
    '{"bounds": [-1e30, 1e30], "root": {"type": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": 5}]}}',
    "[" + ", ".join(str(k * 1000003) for k in range(300)) + "]",  # values far apart
    "[" + ", ".join(str(k % 7 - 3) for k in range(12_345)) + ", [1, 2]]",  # positions past 9999: digits in two pieces
    "[" + ", ".join(["[" * 300 + "1" + "]" * 300] + [str(k) for k in range(3000)]) + "]",  # a deep path: two bands
])
def test_written_result_of_special_trees(text):
    every_result_matches(parse_tree(text, fmt="json"))


@pytest.mark.parametrize("leaves", [
    ["0.0", "-0.0", "0.1", "0.7", "1.5", "-2.25", "1e300"],  # float64 values: -0.0 and 0.0 apart, 0.1 and 0.7 apart
    ['"1/3"', '"-2/7"', "4", "0", '"5/2"'],                  # int64 numerators over a common denominator
])
@pytest.mark.parametrize("depth", [None, 1])
def test_written_result_of_numpy_backed_values(leaves, depth):
    """Wide trees: minimax sweeps them level by level and its values stay in NumPy (a scaled ``Column``)."""
    cycle = iter(leaves * 1000)
    text = "[" + ", ".join("{\"eval\": " + leaves[0] + ", \"children\": [" + ", ".join(next(cycle) for _ in range(40)) + "]}"
                           for _ in range(120)) + "]"
    tree = parse_tree(text, fmt="json")
    assert len(tree.kind) >= SWEEP_FROM
    values = solve(tree, "minimax", options=Options(depth=depth)).values
    assert isinstance(values, Column) and isinstance(values.data, np.ndarray) and values.tree is None
    every_result_matches(tree, depth)


@pytest.mark.parametrize("probabilities", [["0.1", "0.2", "0.3", "0.4"], ['"1/10"', '"1/5"', '"3/10"', '"2/5"']])
def test_written_result_of_real_probabilities(probabilities):
    """A chance tree with decimal or fraction ``p``: the sweep's values are exact numerators
    (``WrittenColumn``), whole leaf values among expectations, which the writer codes apart
    (``dense_codes``' step): the same content as the document."""
    from gametree_cli.core.written_column import WrittenColumn

    leaves = iter([str(k * 7919 % 2_000_001 - 1_000_000) for k in range(4400)])  # a wide range: a sort

    def chance() -> str:
        return ('{"type": "chance", "children": ['
                + ", ".join('{"p": %s, "value": %s}' % (p, next(leaves)) for p in probabilities) + "]}")

    text = '{"root": {"type": "max", "children": [' + ", ".join(
        '{"type": "min", "children": [' + ", ".join(chance() for _ in range(5)) + "]}" for _ in range(220)) + "]}}"
    tree = parse_tree(text, fmt="json")
    assert len(tree.kind) >= 4096
    record = solve(tree, "expectiminimax")
    assert isinstance(record.values, WrittenColumn) and record.values.whole_step > 1
    text_written = written(record)
    assert same_content(text_written, result_document(record))
    entries = json.loads(text_written)["nodes"]  # each value against the column, one node at a time
    assert [entries[record.node_id(node)]["value"] for node in range(len(tree.kind))] == [
        value_to_json(record.values[node]) for node in range(len(tree.kind))]


def test_the_text_is_laid_out_as_documented():
    """docs/solving.md: two spaces a level, each entry of ``nodes`` on one line, compact; UTF-8."""
    record = solve(parse_tree('{"root": {"id": "Á", "children": [[3, 12], [2]]}}', fmt="json"), "alphabeta")
    lines = written(record).splitlines()
    assert lines[:2] == ["{", '  "algorithm": "alphabeta",']
    start = lines.index('  "nodes": {')
    assert lines[start + 1] == '    "Á": {"visited":true,"value":3,"alpha":3,"beta":"inf","type":"max"},'
    assert lines[start + 4].startswith('    "Á.1.2": {"visited":true,"value":12,') and lines[-1] == "}"


def test_bytes_go_to_the_binary_buffer_as_utf8():
    """A text stream with a buffer (standard output, a file) gets the UTF-8 bytes directly."""
    record = solve(parse_tree('{"root": {"id": "Á\\ud800", "children": [1, 2]}}', fmt="json"), "minimax")
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="latin-1")  # JSON is UTF-8 whatever the stream says
    stream.write("")
    write_record(record, stream)
    assert raw.getvalue().decode("utf-8") == written(record)
    assert json.loads(raw.getvalue())["visit_order"] == ["Á\ud800", "Á\ud800.1", "Á\ud800.2"]  # escaped, valid UTF-8


# -- the pieces ------------------------------------------------------------------------------------


def test_dumps_writes_what_orjson_refuses():
    assert dumps(2**70) == str(2**70).encode() and dumps([-(2**64), 1]) == b"[-18446744073709551616,1]"
    assert json.loads(dumps({"id": "x\ud800"})) == {"id": "x\ud800"}
    assert dumps(10**4299) == b"1" + b"0" * 4299  # the longest integer Python turns into text


@pytest.mark.parametrize("items", [
    [1, -2, 2**63 - 1, -(2**63)], [0.5, -0.0, 1e300, 3, 1.0], ["a", 'b","c', "", "é\\", "x,y"], [2**70, 1],
    ["\ud800", "a"], [True, None, [1, "2"], Fraction(1, 3).__str__()], [],
    [1, "inf", -2.5, "1/3", "-inf"], [1, "a,b", 2, ","], [2**70, "x"], ["\ud800", 3], ["1/2", 0],
])
def test_dumps_each_is_each_items_text(items):
    assert dumps_each(items) == [dumps(item) for item in items]


def test_paste_puts_each_lines_pieces_together():
    names = table([b"a", b"bcd", b""]).at(np.array([0, 1, -1, 2]))
    numbers = positive_numbers(np.array([7, 0, 10_000, 123_456_789]))
    text = paste([names, constant(b"="), *numbers, constant(b";")], 4)
    assert bytes(text) == b"a=7;bcd=;=10000;=123456789;"
    saved = json_text.BUDGET
    json_text.BUDGET = 1  # every line a matrix of its own
    try:
        assert bytes(paste([names, constant(b"="), *numbers, constant(b";")], 4)) == bytes(text)
    finally:
        json_text.BUDGET = saved


def test_tree_order_and_ids_whatever_the_numbering():
    """Nodes numbered otherwise than level by level in order: node 1's children are 5 and 6, node 2's 3 and 4."""
    tree = Tree(kind=bytearray([MAX, MIN, MIN, LEAF, LEAF, LEAF, LEAF]), first=array("q", [1, 5, 3, 0, 0, 0, 0]),
                count=array("q", [2, 2, 2, 0, 0, 0, 0]), value=[None] * 3 + [1, 2, 3, 4],
                player=array("q", [0, 1, 1, -1, -1, -1, -1]))
    ids = NodeIds(tree)
    assert ids.order().tolist() == list(tree.preorder()) == [0, 1, 5, 6, 2, 3, 4]
    assert ids.order(1).tolist() == list(tree.preorder(1))
    nodes = np.arange(len(tree))[::-1].copy()
    lines = bytes(paste(ids.pieces(nodes), len(nodes))).decode().split(",\n    ")[1:]
    assert [json.loads(line) for line in lines] == [tree.ids()[node] for node in nodes.tolist()]
    every_result_matches(tree)


def test_solve_writes_an_id_with_a_lone_surrogate(tmp_path):
    """A JSON tree file may name a node "\\ud800"; the result used to crash on it (UTF-8 cannot hold it):
    now the id is written escaped, and the result is valid UTF-8 JSON."""
    import subprocess
    import sys

    path = tmp_path / "surrogate.json"
    path.write_text('{"root": {"id": "A\\ud800", "children": [1, 2]}}', encoding="ascii")
    done = subprocess.run([sys.executable, "-m", "gametree_cli", "solve", str(path), "--format", "json", "--trace"],
                          capture_output=True, check=True)
    result = json.loads(done.stdout.decode("utf-8"))
    assert result["visit_order"] == ["A\ud800", "A\ud800.1", "A\ud800.2"]
    assert result["trace"][0]["node"] == "A\ud800"


# -- deep trees: the id table stays near the ids' own size (docs/limits.md) ----------------------------

@st.composite
def chains_beside_long_ids(draw):
    """Chains up to 80 deep under a root, their nodes named or not, some ids long (up to 200 characters):
    the shapes where a row's width once came from the level above rather than from its own parent."""
    serial = iter(range(10**6))
    named = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))

    def chain(length: int) -> dict:
        mapping: dict = {"value": draw(st.integers(-9, 9))}
        for level in range(length):
            if draw(st.floats(0, 1)) < named:
                mapping["id"] = "x" * draw(st.sampled_from([1, 3, 200])) + str(next(serial))
            siblings = [mapping] + [draw(st.integers(-9, 9)) for _ in range(draw(st.sampled_from([0, 0, 1, 11])))]
            mapping = {"type": ("max", "min")[level % 2], "children": siblings}
        return mapping

    branches = [chain(draw(st.integers(0, 80))) for _ in range(draw(st.integers(1, 4)))]
    root: dict = {"type": "max", "children": branches}
    if draw(st.booleans()):
        root["id"] = "r" * draw(st.sampled_from([1, 200]))
    return build_tree({"root": root})


def id_lines(tree) -> tuple[list[str], int]:
    """Every node's id as the id table writes it, and the bytes the table holds."""
    ids = NodeIds(tree)
    nodes = np.arange(len(tree), dtype=np.int64)
    lines = bytes(paste(ids.pieces(nodes), len(nodes))).decode("utf-8", "surrogatepass").split(",\n    ")[1:]
    return [json.loads(line) for line in lines], sum(band.nbytes for band in ids._bands)


@SETTINGS
@given(st.one_of(named_trees(), chains_beside_long_ids()))
def test_ids_follow_the_plain_rule(tree):
    """The id table's ids are ``Tree.ids()``'s (the contract's rule, one node at a time in Python)."""
    assert id_lines(tree)[0] == tree.ids()


@pytest.mark.parametrize("explicit", [True, False])
def test_the_id_table_of_a_deep_chain_is_near_the_ids_size(explicit):
    """A 3,000-deep chain with ids of its own once took ~18 MB of rows for its 40 KB of ids (each
    level's rows as wide as the level above's); without ids, the ids themselves grow with depth."""
    depth = 3000 if explicit else 1000
    tree = parse_tree((explicit_chain if explicit else default_chain)(depth), name="chain.json")
    ids, held = id_lines(tree)
    assert ids == chain_ids(depth, explicit)
    written = sum(len(node_ids.LINE) + len(dumps(node_id)) for node_id in ids)
    assert held <= 3 * written + node_ids._SLACK, (held, written)


def test_a_hundred_thousand_deep_named_chain_writes_json_within_1_5_gb(tmp_path):
    """tree-format.md: a 100,000-deep chain solves from either format; its JSON result (10 MB) once
    needed ~20 GB for its id table. Here the whole process may take 1.5 GB of address space."""
    depth = 100_000
    path = tmp_path / "chain.json"
    path.write_text(explicit_chain(depth))
    limit = 3 << 29

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run([sys.executable, "-m", "gametree_cli", "solve", str(path), "--format", "json"],
                          capture_output=True, preexec_fn=limited, timeout=HANG_GUARD, check=False)
    assert done.returncode == 0, done.stderr.decode()[-500:]
    result = json.loads(done.stdout)
    ids = chain_ids(depth, explicit=True)
    assert result["value"] == 7
    assert list(result["nodes"]) == ids == result["visit_order"] == [ids[0], *result["principal_variation"]]
    entries = [result["nodes"][node_id] for node_id in (ids[0], ids[1], ids[-1])]
    assert [(entry["visited"], entry["value"], entry["type"]) for entry in entries] == [
        (True, 7, "max"), (True, 7, "min"), (True, 7, "leaf")]
