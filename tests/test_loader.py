"""The tree format (contract section 1): every rule, and every kind of bad input."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gametree_cli import IllegalTreeError, TreeFormatError
from gametree_cli.io.loader import load_tree, parse_tree, suffix
from gametree_cli.io.strict_json import SHALLOW
from gametree_cli.cli.app import app
from gametree_cli.core.model import CHANCE, LEAF, MAX, MIN

from .conftest import TREES

ERROR_LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+)(:(?P<col>\d+))?: (node (?P<node>[^:]+): )?(?P<message>.+)$")


def kinds(tree):
    return {tree.node_id(node): tree.kind[node] for node in range(len(tree))}


# -- rules --------------------------------------------------------------------


def test_contract_example_ids_moves_and_alternation() -> None:
    tree = load_tree(TREES / "aima-5-2.yaml")
    assert tree.ids() == ["A", "B", "C", "D", "B.1", "B.2", "B.3", "C.1", "C.2", "C.3", "D.1", "D.2", "D.3"]
    assert kinds(tree)["A"] == MAX and kinds(tree)["B"] == MIN and kinds(tree)["B.1"] == LEAF
    assert tree.move(tree.index("B")) == "a1"
    assert tree.move(tree.index("B.2")) == "B.2"  # default move: the id
    assert tree.title == "AIMA figure 5.2"
    assert [tree.value[tree.index(name)] for name in ("B.1", "B.2", "B.3")] == [3, 12, 8]


def test_compact_form_default_ids_from_unnamed_root() -> None:
    tree = parse_tree("[[3, 12, 8], [2, [4, 5]], 6]")
    ids = tree.ids()
    assert ids[0] == "root"
    assert sorted(ids) == sorted(["root", "1", "2", "3", "1.1", "1.2", "1.3", "2.1", "2.2", "2.2.1", "2.2.2"])
    k = kinds(tree)
    assert (k["root"], k["1"], k["2"], k["2.2"], k["3"]) == (MAX, MIN, MIN, MAX, LEAF)


def test_untyped_children_alternate_from_nearest_decision_ancestor_skipping_chance() -> None:
    tree = parse_tree(
        """
root:
  id: A
  type: min
  children:
    - id: C
      type: chance
      children:
        - {id: X, children: [1, 2]}
        - {id: Y, type: min, children: [{id: Z, children: [3]}]}
"""
    )
    k = kinds(tree)
    assert (k["A"], k["C"], k["X"], k["Y"], k["Z"]) == (MIN, CHANCE, MAX, MIN, MAX)
    assert tree.prob[tree.index("X")] == Fraction(1, 2)


def test_untyped_root_is_max_and_named_children_keep_default_ids_below() -> None:
    tree = parse_tree('{"root": {"children": [{"id": "L", "children": [1, 2]}, 3]}}')
    assert tree.ids()[0] == "root"
    assert set(tree.ids()) == {"root", "L", "2", "L.1", "L.2"}
    assert kinds(tree)["root"] == MAX and kinds(tree)["L"] == MIN


def test_numbers_exact_fractions_and_decimals() -> None:
    tree = parse_tree('[["7/3", 2.5, "-1/2", "4/2"], [1]]')
    values = {tree.node_id(node): tree.value[node] for node in range(len(tree)) if tree.count[node] == 0}
    assert values["1.1"] == Fraction(7, 3) and isinstance(values["1.1"], Fraction)
    assert values["1.2"] == 2.5 and isinstance(values["1.2"], float)
    assert values["1.3"] == Fraction(-1, 2)
    assert values["1.4"] == 2 and isinstance(values["1.4"], int)


def test_eval_and_bare_node_mapping_and_single_leaf() -> None:
    tree = parse_tree("{children: [{eval: 4, children: [1, 2]}, 3]}")
    assert tree.evals == {1: 4}
    leaf = parse_tree("5")
    assert len(leaf) == 1 and leaf.value[0] == 5


def test_two_player_names_and_player_key() -> None:
    tree = parse_tree(
        "players: [Alice, Bob]\nroot: {player: Bob, children: [{children: [1, 2]}, {player: 0, children: [3]}]}"
    )
    k = kinds(tree)
    assert (k["root"], k["1"], k["2"]) == (MIN, MAX, MAX)
    assert tree.players == ("Alice", "Bob")


def test_nplayer_vectors_and_player_rotation() -> None:
    tree = parse_tree(
        "players: [P1, P2, P3]\nroot: {children: [{children: [[1, 2, 6], [7, 2, 0]]}, {value: [4, 2, 3]}]}"
    )
    assert tree.is_nplayer
    assert tree.player_name(0) == "P1" and tree.player_name(tree.index("1")) == "P2"
    assert tree.value[tree.index("1.1")] == (1, 2, 6)


def test_yaml_aliases_repeat_a_subtree() -> None:
    tree = parse_tree("root:\n  children:\n    - &s {children: [1, 2]}\n    - *s\n")
    assert len(tree) == 7
    assert set(tree.ids()) == {"root", "1", "2", "1.1", "1.2", "2.1", "2.2"}


def test_stdin_reads_json_or_yaml(runner) -> None:
    result = runner.invoke(app, ["solve", "-", "--format", "json"], input="[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["value"] == 3
    result = runner.invoke(app, ["solve", "-", "--format", "json"], input="root:\n  children: [[1, 9], [2, 8]]\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["value"] == 2


def test_a_damaged_gtb_header_is_said_in_words(tmp_path: Path) -> None:
    """QA: a truncated .gtb said 'damaged .gtb file (JSONDecodeError: Expecting value: line 1 column
    999985 …)': a Python exception's name and a position inside the binary."""
    from gametree_cli.io.binary import MAGIC
    from gametree_cli.io.saver import save_tree

    path = tmp_path / "d.gtb"
    save_tree(load_tree(TREES / "aima-5-2.yaml"), path)
    data = path.read_bytes()
    start = len(MAGIC) + 8  # the header's length, then the header (JSON)
    for cut, said in ((len(MAGIC) + 3, "it ends before its header (truncated?)"),
                      (start + 5, "it ends inside its header (truncated?)")):
        path.write_bytes(data[:cut])
        with pytest.raises(TreeFormatError) as caught:
            load_tree(path)
        assert str(caught.value) == f"{path}: damaged .gtb file: {said}"
    path.write_bytes(data[:start] + b"}" + data[start + 1:])
    with pytest.raises(TreeFormatError, match=r"d\.gtb: damaged \.gtb file: its header is not valid JSON$"):
        load_tree(path)


def test_a_gtb_file_is_recognised_by_its_header_under_any_name_and_on_stdin(tmp_path: Path) -> None:
    """``cat d.gtb | gametree solve -`` and ``d.bin`` were read as YAML: 'the character U+0000 is not allowed'."""
    import subprocess
    import sys

    from gametree_cli.io.saver import save_tree

    source = Path(__file__).resolve().parent.parent / "trees" / "aima-5-2.yaml"
    binary = tmp_path / "d.gtb"
    save_tree(load_tree(source), binary)
    data = binary.read_bytes()
    expected = load_tree(source)
    for name in ("d.bin", "d.yaml", "d"):
        renamed = tmp_path / name
        renamed.write_bytes(data)
        tree = load_tree(renamed)
        assert list(tree.ids()) == list(expected.ids()) and tree.value == expected.value, name
    gametree = [sys.executable, "-m", "gametree_cli"]
    piped = subprocess.run([*gametree, "solve", "-", "--format", "json"], input=data, capture_output=True, check=False)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["value"] == 3
    # a truncated .gtb is still the .gtb reader's one-line error, under another name and on standard input
    (tmp_path / "cut.bin").write_bytes(data[:100])
    with pytest.raises(TreeFormatError, match=r"cut\.bin: damaged \.gtb file"):
        load_tree(tmp_path / "cut.bin")
    piped = subprocess.run([*gametree, "solve", "-"], input=data[:100], capture_output=True, check=False)
    assert piped.returncode == 2 and piped.stderr.decode().startswith("<stdin>: damaged .gtb file"), piped.stderr
    assert piped.stderr.decode().count("\n") == 1


def test_hundred_thousand_deep_chain_loads(tmp_path: Path) -> None:
    depth = 100_000
    text = '{"root": ' + '{"children": [' * depth + "7" + "]}" * depth + "}"
    path = tmp_path / "chain.json"
    path.write_text(text)
    tree = load_tree(path)
    assert len(tree) == depth + 1
    assert tree.depths()[len(tree) - 1] == depth


@pytest.mark.parametrize("depth", [SHALLOW // 2 - 1, SHALLOW // 2, SHALLOW])
def test_chains_either_side_of_the_threads_threshold_load(depth: int) -> None:
    """Below SHALLOW brackets json.loads runs in this thread (start-up: no thread, no threading), above in
    deep_call's; both read the chain, and a key given twice is found either way."""
    text = '{"root": ' + '{"children": [' * depth + "7" + "]}" * depth + "}"
    tree = parse_tree(text, fmt="json")
    assert len(tree) == depth + 1 and tree.depths()[depth] == depth
    with pytest.raises(TreeFormatError, match="given twice"):
        parse_tree(text[:-1] + ', "root": 1}', fmt="json")


# -- bad input ----------------------------------------------------------------

BAD = [
    # name, text, suffix, expected line, node, words in the message
    ("duplicate", "root:\n  id: A\n  children:\n    - {id: B, value: 1}\n    - {id: B, value: 2}\n", ".yaml", 5, "B", "duplicate id"),
    ("unknown-type", "root:\n  type: maxi\n  children: [1, 2]\n", ".yaml", 2, "root", "unknown type"),
    ("leaf-no-value", "root:\n  children:\n    - id: X\n      move: m\n", ".yaml", 3, "X", "leaf without a value"),
    ("no-children", "root:\n  children:\n    - {id: X, children: []}\n    - 1\n", ".yaml", 3, "X", "no children"),
    ("not-a-number", "root:\n  children:\n    - {id: X, value: abc}\n", ".yaml", 3, "X", "not a number"),
    ("not-finite", "root:\n  children:\n    - {id: X, value: .inf}\n", ".yaml", 3, "X", "not a finite number"),
    ("nan-json", '{"root": {"children": [\n  {"id": "X", "value": NaN}]}}', ".json", 2, "X", "not a finite number"),
    ("bool", "root:\n  children: [1, true]\n", ".yaml", 2, "2", "not a number"),
    ("vector-two-player", "root:\n  children:\n    - {id: V, value: [1, 2]}\n", ".yaml", 3, "V", "two-player"),
    ("type-in-nplayer", "players: [a, b, c]\nroot:\n  type: max\n  children: [[1, 2, 3]]\n", ".yaml", 3, "root", "player"),
    ("vector-length", "players: [a, b, c]\nroot:\n  children:\n    - {id: V, value: [1, 2]}\n", ".yaml", 4, "V", "expected 3"),
    ("p-outside-chance", "root:\n  children:\n    - {id: X, p: 1/2, value: 1}\n", ".yaml", 3, "X", "not a chance node"),
    ("p-sum", "root:\n  type: chance\n  children:\n    - {id: X, p: 0.5, value: 1}\n    - {id: Y, p: 0.4, value: 1}\n", ".yaml", 2, "root", "sum to 0.9"),
    ("p-sum-exact", "root:\n  type: chance\n  children:\n    - {p: 1/2, value: 1}\n    - {p: 2/5, value: 1}\n", ".yaml", 2, "root", "sum to 9/10, not 1"),
    ("unknown-key", "root:\n  children:\n    - {id: X, vaule: 3}\n", ".yaml", 3, "X", "unknown key 'vaule'"),
    ("default-id-clash", "root:\n  id: B\n  children:\n    - 1\n    - {id: B.1, value: 2}\n", ".yaml", 5, "B.1", "duplicate id"),
    ("cycle", "root: &r\n  children: [1, *r]\n", ".yaml", 1, "2", "cycle"),
]


@pytest.mark.parametrize("name, text, suffix, line, node, words", BAD, ids=[case[0] for case in BAD])
def test_bad_input_one_line_error_exit_2(runner, tmp_path: Path, name, text, suffix, line, node, words) -> None:
    path = tmp_path / f"{name}{suffix}"
    path.write_text(text)
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    match = ERROR_LINE.match(lines[0])
    assert match, lines[0]
    assert match["file"] == str(path)
    assert int(match["line"]) == line, lines[0]
    assert match["node"] == node, lines[0]
    assert words in match["message"], lines[0]


SYNTAX = [
    ("tabs", "root:\n\tchildren: [1, 2]\n", ".yaml", 2, "tab"),
    ("empty-yaml", "", ".yaml", 1, "empty file"),
    ("empty-json", "  \n", ".json", 1, "empty file"),
    ("json-syntax", '{"root": {"children": [1, 2,]}}', ".json", 1, "invalid JSON"),
    ("json-syntax-line", '{"root":\n {"children":\n [1 2]}}', ".json", 3, "invalid JSON"),
    ("yaml-syntax", "root:\n  children: [1, 2\n", ".yaml", 3, "invalid YAML"),
    ("no-root", "title: x\n", ".yaml", None, "no 'root'"),
    ("duplicate-key", "root:\n  children: [1, 2]\n  children: [3]\n", ".yaml", 3, "'children' is given twice"),
    ("players-not-list", "players: abc\nroot: [1]\n", ".yaml", 1, "players"),
]


@pytest.mark.parametrize("name, text, suffix, line, words", SYNTAX, ids=[case[0] for case in SYNTAX])
def test_malformed_files(runner, tmp_path: Path, name, text, suffix, line, words) -> None:
    path = tmp_path / f"{name}{suffix}"
    path.write_text(text)
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in result.output
    assert message.startswith(str(path) + (f":{line}" if line else ":")), message
    assert words in message


def test_missing_file_and_directory(runner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "no such file" in result.stderr
    result = runner.invoke(app, ["solve", str(tmp_path)])
    assert result.exit_code == 2 and "directory" in result.stderr


def test_alias_bomb_is_refused_quickly() -> None:
    # each anchor holds two aliases of the previous one: 2**24 leaves from a few lines
    parts = ["&x0 [1, 2]"] + [f"&x{level} [*x{level - 1}, *x{level - 1}]" for level in range(1, 24)]
    text = "root:\n  children: [" + ", ".join(parts) + "]\n"
    with pytest.raises(IllegalTreeError, match="aliases expand"):
        parse_tree(text, fmt="yaml")


def test_node_limit(tmp_path: Path) -> None:
    with pytest.raises(IllegalTreeError, match="more than 5 nodes"):
        parse_tree("[[1, 2], [3, 4]]", max_nodes=5)


def test_depth_limit_without_eval_is_an_error(runner) -> None:
    result = runner.invoke(app, ["solve", str(TREES / "aima-5-2.yaml"), "--depth", "1"])
    assert result.exit_code == 2, result.output
    assert re.search(r"aima-5-2\.yaml:\d+:\d+: node B: the depth limit 1 stops here, but the node has no eval", result.stderr)


def test_errors_are_value_errors_with_location() -> None:
    with pytest.raises(TreeFormatError) as caught:
        parse_tree('{"root": [1,', name="x.json", fmt="json")
    assert isinstance(caught.value, ValueError)
    assert caught.value.file == "x.json" and caught.value.line == 1


@settings(deadline=None)  # a starved worker on a loaded CI machine must not fail a 1 ms check (Flaky timings)
@given(st.text(alphabet="ab./", max_size=9))
@example("..json")
@example("x.json/.")
@example("foo.")
@example("a/../b.yaml")
@example("a.a/a/..")
def test_the_extension_is_read_as_pathlib_reads_it(name: str) -> None:
    """format_for reads a name's suffix without importing pathlib (start-up): the same suffix as PurePosixPath's."""
    assert suffix(name) == PurePosixPath(name).suffix


def test_the_loaders_text_formats_are_the_writers() -> None:
    """io/loader.py names the text formats so that reading imports no writer (start-up); they must agree."""
    from gametree_cli.io.document_writer import TEXT_WRITERS
    from gametree_cli.io.loader import TEXT_FORMATS, TREE_WRITERS

    assert set(TEXT_FORMATS) == set(TEXT_WRITERS) and set(TEXT_FORMATS) <= set(TREE_WRITERS)


def test_a_big_json_text_is_told_from_a_small_one_past_its_first_megabyte():
    """The node count's upper bound (commas and brackets) is taken on the first megabyte first; a text whose
    nodes all come after a long first string is still seen to be big, and a long text of few nodes small."""
    from gametree_cli.io.loader import _SCAN_NODES_FROM, _SCAN_PREFIX, _may_reach_small_tree
    padding = "x" * (2 * _SCAN_PREFIX)
    leaves = ",".join(['{"value": 1}'] * _SCAN_NODES_FROM)
    assert _may_reach_small_tree('{"id": "' + padding + '", "children": [' + leaves + "]}")
    assert not _may_reach_small_tree('{"id": "' + padding + '", "children": [{"value": 1}, {"value": 2}]}')
    assert _may_reach_small_tree('{"children": [' + leaves + '], "id": "' + padding + '"}')
