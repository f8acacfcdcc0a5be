"""`gametree check` and `solve --answers`: answer files (contract section 4),
exit codes (section 5), JUnit, JSON, folders, the shipped exercises and the
CI integration (pre-commit hook, GitHub workflow) as shipped."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gametree_cli.exercises.answers import read_answer_file
from gametree_cli.exercises.check import check_paths, exit_code, same_value
from gametree_cli.cli.app import app
from gametree_cli.core.errors import ExerciseError
from gametree_cli.exercises.check_report import describe_mismatch

from .conftest import ROOT, TREES, shared_or_skip
from . import oracles
from .test_ordering import compact_trees

AIMA = TREES / "aima-5-2.yaml"
GAMETREE = [sys.executable, "-m", "gametree_cli"]

#: AIMA fig. 5.2 by hand: alpha-beta visits B's three leaves, C.1, and D's three leaves.
AIMA_KEY = {
    "value": 3,
    "best_move": "a1",
    "best_moves": ["a1"],
    "principal_variation": ["a1", "B.1"],
    "pruned": ["C.2", "C.3"],
    "visit_order": ["A", "B", "B.1", "B.2", "B.3", "C", "C.1", "D", "D.1", "D.2", "D.3"],
    "nodes": {"B": 3, "C": {"value": 2, "alpha": 3, "beta": "inf"}, "D": {"value": 2, "alpha": 3, "beta": 5}},
    "stats": {"nodes_visited": 11, "leaves_evaluated": 7, "cutoffs": 2},
}


def write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(document if isinstance(document, str) else yaml.safe_dump(document, sort_keys=False))
    return path


def aima_exercise(tmp_path: Path, answers: dict[str, Any], name: str = "aima.answers.yaml", **extra: Any) -> Path:
    tree = os.path.relpath(AIMA, tmp_path)
    return write(tmp_path / name, {"tree": tree, "algorithm": "alphabeta", **extra, "answers": answers})


def check(runner, *args: str):
    return runner.invoke(app, ["check", *args])


# -- right answers ---------------------------------------------------------------


def test_the_hand_verified_aima_key_is_right(runner, tmp_path: Path) -> None:
    result = check(runner, str(aima_exercise(tmp_path, AIMA_KEY)))
    assert result.exit_code == 0, result.output
    assert "right" in result.stdout and "1 exercise: 1 right, 0 wrong" in result.stdout


def test_the_shipped_exercises_are_right(runner) -> None:
    result = check(runner, str(ROOT / "exercises"))
    assert result.exit_code == 0, result.output
    files = sorted((ROOT / "exercises").glob("*.answers.yaml"))
    assert {path.stem.removesuffix(".answers") for path in files} >= {"aima-5-2", "course", "depth-limited", "max-only", "dice", "ghost", "maxn-3players", "shallow-sum9"}
    for path in files:  # every exercise names a shipped tree
        for exercise in read_answer_file(path):
            assert exercise.tree_label == "inline" or Path(exercise.tree).resolve().is_relative_to(TREES)


def test_the_contract_example_answer_file(runner, tmp_path: Path) -> None:
    # contract section 4, verbatim apart from the tree path
    text = f"""\
tree: {os.path.relpath(AIMA, tmp_path)}      # relative to this file
algorithm: alphabeta
depth: null                         # optional
answers:                            # any subset of the JSON result's keys
  value: 3
  best_move: a1
  pruned: [C.2, C.3]
  nodes: {{B: 3, C: 2}}               # per-node values
"""
    result = check(runner, str(write(tmp_path / "aima-5-2.answers.yaml", text)))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("answer", ["≤2", "<=2", "<= 2", {"value": 2, "bound_kind": "upper"}, 2, {"value": 2}])
def test_a_value_written_as_its_bound_is_right(runner, tmp_path: Path, answer: Any) -> None:
    # AIMA's C returns 2 after the cut: only an upper bound (solve shows ≤ 2, the JSON bound_kind "upper");
    # a plain 2 does not ask for the kind (the contract's own example: nodes: {B: 3, C: 2})
    result = check(runner, str(aima_exercise(tmp_path, {"nodes": {"C": answer, "B": "3"}})))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("answer, expected", [
    ("≥2", "lower"), (">=2", "lower"), ({"value": 2, "bound_kind": "exact"}, "exact"),
    ({"value": 2, "bound_kind": "lower"}, "lower")])
def test_the_wrong_bound_is_wrong(runner, tmp_path: Path, answer: Any, expected: str) -> None:
    result = check(runner, str(aima_exercise(tmp_path, {"nodes": {"C": answer}})), "--format", "json")
    assert result.exit_code == 1, result.output
    (wrong,) = json.loads(result.stdout)["exercises"][0]["wrong"]
    assert wrong == {"field": "nodes[C].bound_kind", "expected": expected, "actual": "upper", "note": None}


def test_an_exact_value_written_as_a_bound_is_wrong(runner, tmp_path: Path) -> None:
    result = check(runner, str(aima_exercise(tmp_path, {"nodes": {"B": "≤3"}})), "--format", "json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["exercises"][0]["wrong"][0]["actual"] == "exact"


@pytest.mark.parametrize("answer, message", [
    ({"value": "≥2", "bound_kind": "upper"}, "nodes[C]: the value ≥2 is a lower bound but bound_kind says upper"),
    ({"value": 2, "bound_kind": "up"}, "nodes[C].bound_kind: expected one of exact, upper, lower"),
    ("≤x", "nodes[C].value:")])
def test_a_bound_that_cannot_be_read_is_a_mistake_in_the_file(runner, tmp_path: Path, answer: Any,
                                                              message: str) -> None:
    result = check(runner, str(aima_exercise(tmp_path, {"nodes": {"C": answer}})))
    assert result.exit_code == 2
    assert message in result.output


def test_exact_fractions_and_decimals(runner, tmp_path: Path) -> None:
    # 7/3 answered as "7/3" is right; as 2.3333333333 (within 1e-9) too; as 2.33 it is wrong.
    tree = {"root": {"type": "max", "children": [{"type": "min", "children": ["7/3", 5]}, 1]}}
    right = write(tmp_path / "right.answers.yaml", {"tree": tree, "answers": {"value": "7/3", "nodes": {"1": "7/3"}}})
    close = write(tmp_path / "close.answers.yaml", {"tree": tree, "answers": {"value": 2.3333333333}})
    wrong = write(tmp_path / "wrong.answers.yaml", {"tree": tree, "answers": {"value": 2.33}})
    assert check(runner, str(right)).exit_code == 0
    assert check(runner, str(close)).exit_code == 0
    result = check(runner, str(wrong))
    assert result.exit_code == 1
    assert "value: expected 2.33, got 7/3" in result.stdout


def test_same_value_rules() -> None:
    assert same_value("7/3", "7/3") and same_value("14/6", "7/3")
    assert not same_value(2, "7/3") and not same_value("7/2", "7/3")
    assert same_value(0.1 + 0.2, 0.3) and not same_value(0.3001, 0.3)
    assert same_value("-inf", "-inf") and same_value(float("inf"), "inf") and not same_value("inf", "-inf")
    assert same_value([1, "1/2"], [1, "1/2"]) and not same_value([1, 2], [1, 2, 3])
    assert not same_value(True, 1) and same_value(None, None)


# -- each kind of wrong answer, named ----------------------------------------------

WRONG_ANSWERS = [
    ({"value": 999}, "value", "expected 999, got 3"),
    ({"best_move": "a2"}, "best_move", "expected a2, got a1"),
    ({"best_moves": ["a1", "a3"]}, "best_moves", "not expected: a3"),
    ({"principal_variation": ["a1", "B.2"]}, "principal_variation", "first difference at position 2: B.2 instead of B.1"),
    ({"pruned": ["C.2"]}, "pruned", "missed cut-off: C.3 is never visited"),
    ({"pruned": ["C.2", "C.3", "D.3"]}, "pruned", "not pruned: D.3 is visited"),
    ({"pruned": ["C.3"]}, "pruned", "C.2 is never visited"),
    ({"visit_order": ["A", "B", "B.1", "B.2", "B.3", "C", "C.1", "C.2", "D", "D.1", "D.2", "D.3"]},
     "visit_order", "first difference at position 8: C.2 instead of D"),
    ({"visit_order": ["A", "B", "B.1"]}, "visit_order", "too few"),
    ({"nodes": {"C": 4}}, "nodes[C].value", "expected 4, got 2"),
    ({"nodes": {"C.2": 4}}, "nodes[C.2].value", "never visited"),
    ({"nodes": {"C": {"alpha": "-inf"}}}, "nodes[C].alpha", "expected -inf, got 3"),
    ({"nodes": {"D": {"value": 2, "beta": 14}}}, "nodes[D].beta", "expected 14, got 5"),
    ({"nodes": {"C.3": {"visited": True}}}, "nodes[C.3].visited", "expected true, got false"),
    ({"stats": {"cutoffs": 1}}, "stats.cutoffs", "expected 1, got 2"),
    ({"stats": {"nodes_visited": 13}}, "stats.nodes_visited", "expected 13, got 11"),
    ({"stats": {"leaves_evaluated": 9}}, "stats.leaves_evaluated", "expected 9, got 7"),
    ({"algorithm": "minimax"}, "algorithm", "expected minimax, got alphabeta"),
]


@pytest.mark.parametrize(("answers", "field", "words"), WRONG_ANSWERS, ids=[case[1] + ":" + case[2] for case in WRONG_ANSWERS])
def test_each_wrong_answer_fails_naming_the_field(runner, tmp_path: Path, answers, field, words) -> None:
    path = aima_exercise(tmp_path, {**AIMA_KEY, **answers})
    result = check(runner, str(path))
    assert result.exit_code == 1, result.output
    assert "WRONG" in result.stdout and f"{field}: expected" in result.stdout
    # exactly one field is wrong, said in words; the others stay silent
    outcome = check_paths([path])[0]
    assert [mismatch.field for mismatch in outcome.mismatches] == [field]
    assert words in describe_mismatch(outcome.mismatches[0])


def test_a_descendant_of_a_pruned_node_is_explained(runner, tmp_path: Path) -> None:
    # 2.1 = max(1, 2) = 2 <= alpha = 3 cuts 2.2, an inner node: list it, not its children
    tree = [[3, 5], [[1, 2], [4, 6]]]
    path = write(tmp_path / "c.answers.yaml", {"tree": tree, "answers": {"pruned": ["2.2", "2.2.1", "1.2"]}})
    assert check(runner, str(path)).exit_code == 1
    [mismatch] = check_paths([path])[0].mismatches
    assert mismatch.field == "pruned" and mismatch.actual == ["2.2"]
    assert mismatch.note == ("not pruned: 1.2 is visited; "
                             "2.2.1 lies inside a pruned subtree: list only the topmost pruned nodes")


def test_pruned_is_a_set_but_visit_order_is_ordered(runner, tmp_path: Path) -> None:
    swapped = aima_exercise(tmp_path, {"pruned": ["C.3", "C.2"]})
    assert check(runner, str(swapped)).exit_code == 0
    order = list(AIMA_KEY["visit_order"])
    order[1], order[5] = order[5], order[1]
    assert check(runner, str(aima_exercise(tmp_path, {"visit_order": order}, name="o.answers.yaml"))).exit_code == 1


# -- answers written by an independent reference -----------------------------------


def reference_answers(document: Any, algorithm: str) -> dict[str, Any]:
    """What a student who did it right writes, computed without gametree (tests/oracles.py)."""
    game = oracles.read(document)
    exact = oracles.minimax(game)
    line = oracles.principal_variation(game, exact)
    answers: dict[str, Any] = {"value": exact.value, "best_move": line[0], "principal_variation": line}
    if algorithm == "minimax":
        answers["nodes"] = exact.values
        answers["stats"] = {"nodes_visited": len(exact.values), "cutoffs": 0}
        answers["pruned"] = []
    else:
        search = oracles.alphabeta(game)
        answers["pruned"] = search.pruned
        answers["visit_order"] = search.order
        answers["stats"] = search.stats
    return answers


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=compact_trees.filter(lambda d: isinstance(d, list)), algorithm=st.sampled_from(["minimax", "alphabeta"]),
       mutate=st.sampled_from([None, "value", "stats", "visit_order", "pruned"]))
def test_independent_answers_pass_and_any_change_fails(tmp_path_factory, document, algorithm, mutate) -> None:
    answers = reference_answers(document, algorithm)
    field = mutate
    if mutate == "value":
        answers["value"] += 1
    elif mutate == "stats":
        answers["stats"]["nodes_visited"] += 1
        field = "stats.nodes_visited"
    elif mutate == "visit_order":
        answers["visit_order"] = answers.get("visit_order", ["root"])[:-1]
    elif mutate == "pruned":
        answers["pruned"] = answers["pruned"][1:] if answers["pruned"] else [answers["principal_variation"][-1]]
    folder = tmp_path_factory.mktemp("ref")
    path = write(folder / "ref.answers.json", json.dumps({"tree": document, "algorithm": algorithm, "answers": answers}))
    outcomes = check_paths([path])
    assert outcomes[0].error is None, outcomes[0].error
    wrong = [mismatch.field for mismatch in outcomes[0].mismatches]
    assert wrong == ([] if field is None else [field])
    assert exit_code(outcomes) == (0 if field is None else 1)


# -- invalid answer files: one line, file:line, exit 2 --------------------------------

INVALID = [
    ("tree: x.yaml\nanswers: {value: [1, 2\n", r"bad\.answers\.yaml:\d+(:\d+)?: invalid YAML"),
    ("", r"bad\.answers\.yaml:1: empty file"),
    ("tree: TREE\nanswers: {value: 3}\nalgo: alphabeta\n", r"bad\.answers\.yaml:3:1: unknown key 'algo'"),
    ("algorithm: alphabeta\nanswers: {value: 3}\n", r"bad\.answers\.yaml:1:1: no tree"),
    ("tree: TREE\n", r"bad\.answers\.yaml:1:1: no answers"),
    ("tree: TREE\nanswers:\n  valeu: 3\n", r"bad\.answers\.yaml:3:3: answers: unknown key 'valeu'"),
    ("tree: TREE\nanswers:\n  value: three\n", r"bad\.answers\.yaml:3:10: value: 'three' is not a number"),
    ("tree: TREE\nanswers:\n  pruned: [C.2, 1.10]\n", r"bad\.answers\.yaml:3:17: pruned\[1\]: 1\.1 is a number, not a node id"),
    ("tree: TREE\nanswers:\n  nodes: {Z: 3}\n", r"bad\.answers\.yaml:3:11: nodes: the tree has no node 'Z'"),
    # a per-node value in the short form (``C: x``) is located where it is written, not at the file's start
    ("tree: TREE\nanswers:\n  value: 3\n  nodes:\n    B: 3\n    C: x\n", r"bad\.answers\.yaml:6:8: nodes\[C\]\.value: 'x' is not a number"),
    ("tree: TREE\nanswers:\n  nodes:\n    C: [1, x]\n", r"bad\.answers\.yaml:4:12: nodes\[C\]\.value\[1\]: 'x' is not"),
    ("exercises:\n  - tree: TREE\n    answers:\n      value: 3\n      nodes:\n        B: 3\n        C: x\n",
     r"bad\.answers\.yaml:7:12: nodes\[C\]\.value: 'x' is not a number"),
    ("tree: TREE\nanswers:\n  nodes:\n    C: {value: x}\n", r"bad\.answers\.yaml:4:16: nodes\[C\]\.value: 'x' is not a number"),
    # an id or move YAML reads as an integer from other text than its digits is refused, not compared as '31'
    ("tree: TREE\nanswers:\n  best_move: 0x1F\n", r"bad\.answers\.yaml:3:14: best_move: 0x1F is read as the number 31: put it in quotes"),
    ("tree: TREE\nanswers:\n  pruned: [C.2, 017]\n", r"bad\.answers\.yaml:3:17: pruned\[1\]: 017 is read as the number 15: put it in quotes"),
    ("tree: TREE\nanswers:\n  nodes: {B: 3, 0x1F: 3}\n", r"bad\.answers\.yaml:3:17: nodes\[31\]: 0x1F is read as the number 31"),
    ("tree: TREE\nanswers:\n  nodes:\n    1_0:\n      value: 3\n", r"bad\.answers\.yaml:4:5: nodes\[10\]: 1_0 is read as the number 10"),
    ("tree: TREE\nanswers:\n  visit_order: [A, +5]\n", r"bad\.answers\.yaml:3:20: visit_order\[1\]: \+5 is read as the number 5"),
    ("tree: TREE\nanswers:\n  best_move: 1:30\n", r"bad\.answers\.yaml:3:14: best_move: 1:30 is read as the number 90"),
    ("tree: {root: {children: [{id: 0x1F, children: [1, 2]}, 3]}}\nanswers: {value: 3}\n",
     r"bad\.answers\.yaml:1:\d+: node 1: id 0x1F is read by YAML as the number 31: put it in quotes"),
    ("tree: TREE\nanswers:\n  best_move: yes\n", r"bad\.answers\.yaml:3:14: best_move: true is not a node id or move: put it in quotes"),
    ("tree: TREE\nanswers:\n  stats: {cuts: 1}\n", r"bad\.answers\.yaml:3:11: stats: unknown key 'cuts'"),
    ("tree: {root: {type: chance, children: [1, 2]}}\nalgorithm: minimax\nanswers: {value: 3}\n",
     r"bad\.answers\.yaml:2:12: minimax does not fit this tree: it has chance nodes"),
    ("tree: TREE\nalgorithm: alphabta\nanswers: {value: 3}\n", r"bad\.answers\.yaml:2:12: algorithm: unknown algorithm 'alphabta'"),
    ("tree: TREE\ndepth: -1\nanswers: {value: 3}\n", r"bad\.answers\.yaml:2:8: depth: expected a whole number"),
    ("tree: TREE\ndepth: 1\nanswers: {value: 3}\n", r"aima-5-2\.yaml:\d+:\d+: node B: the depth limit 1 stops here, but the node has no eval"),
    ("tree: missing.yaml\nanswers: {value: 3}\n", r"bad\.answers\.yaml:1:7: tree: no such file .*missing\.yaml"),
    ("- tree: TREE\n  answers: {value: 3}\n- 7\n", r"bad\.answers\.yaml:3:3: an exercise must be a mapping"),
    ("tree: {root: {type: max, children: [{id: B, children: [1, 2]}, {id: B, children: [3]}]}}\nanswers: {value: 3}\n",
     r"bad\.answers\.yaml:1:\d+: node B: duplicate id"),
    ("tree:\n  root:\n    id: A\n    children:\n      - id: B\n        children: [1, 2]\n      - id: C\n        type: chance\n"
     "        children:\n          - {p: 1/2, value: 1}\n          - {p: 1/3, value: 2}\nanswers: {value: 1}\n",
     r"bad\.answers\.yaml:7:9: node C: probabilities sum to 5/6, not 1"),
]


@pytest.mark.parametrize(("text", "pattern"), INVALID, ids=[case[1][:40] for case in INVALID])
def test_invalid_answer_files_exit_2_with_one_line(runner, tmp_path: Path, text: str, pattern: str) -> None:
    text = text.replace("TREE", os.path.relpath(AIMA, tmp_path))
    path = write(tmp_path / "bad.answers.yaml", text)
    result = check(runner, str(path))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and re.search(pattern, lines[0]), result.stderr
    assert "Traceback" not in result.output


def test_a_short_per_node_value_in_json_is_located(runner, tmp_path: Path) -> None:
    text = '{"tree": "%s", "answers": {"value": 3,\n  "nodes": {"B": 3, "C": "x"}}}' % os.path.relpath(AIMA, tmp_path)
    result = check(runner, str(write(tmp_path / "bad.answers.json", text)))
    assert result.exit_code == 2 and "bad.answers.json:2:26: nodes[C].value: 'x' is not a number" in result.stderr, result.stderr


def test_integers_written_as_their_digits_still_name_nodes(runner, tmp_path: Path) -> None:
    tree = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"
    path = write(tmp_path / "digits.answers.yaml", f"tree: {tree}\nanswers:\n  best_move: 1\n  nodes: {{1: 3, '3': 2}}\n")
    result = check(runner, str(path))
    assert result.exit_code == 0, result.output


def test_a_negative_zero_id_in_json_answers_is_refused(runner, tmp_path: Path) -> None:
    text = '{"tree": "%s", "answers": {"best_move": -0}}' % os.path.relpath(AIMA, tmp_path)
    result = check(runner, str(write(tmp_path / "bad.answers.json", text)))
    assert result.exit_code == 2 and "bad.answers.json:1:" in result.stderr and "best_move: -0 is read as the number 0" in result.stderr


def test_a_quoted_boolean_move_matches_a_quoted_answer(runner, tmp_path: Path) -> None:
    """YAML reads ``move: no`` as a boolean, which a tree refuses; quoted on both sides, 'no' is a name like any."""
    tree = "{root: {children: [{move: 'no', children: [3, 4]}, {move: 'true', children: [1, 2]}]}}"
    path = write(tmp_path / "quoted.answers.yaml",
                 f"tree: {tree}\nanswers:\n  best_move: 'no'\n  principal_variation: ['no', '1.1']\n")
    result = check(runner, str(path))
    assert result.exit_code == 0, result.output
    unquoted = write(tmp_path / "bare.answers.yaml", f"tree: {tree.replace(chr(39) + 'no' + chr(39), 'no')}\nanswers: {{value: 3}}\n")
    result = check(runner, str(unquoted))
    assert result.exit_code == 2 and "move must be a label (text or a number), found a boolean: put it in quotes" in result.stderr


def test_one_bad_file_does_not_hide_the_others(runner, tmp_path: Path) -> None:
    aima_exercise(tmp_path, AIMA_KEY, name="good.answers.yaml")
    aima_exercise(tmp_path, {"value": 4}, name="wrong.answers.yaml")
    write(tmp_path / "z-bad.answers.yaml", "tree: [")
    result = check(runner, str(tmp_path))
    assert result.exit_code == 2
    assert "3 exercises: 1 right, 1 wrong, 1 could not be checked" in result.stdout
    assert check(runner, str(tmp_path / "good.answers.yaml"), str(tmp_path / "wrong.answers.yaml")).exit_code == 1


def test_paths_that_hold_no_answers_exit_2(runner, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = check(runner, str(tmp_path / "empty"))
    assert result.exit_code == 2 and "no answer files in this folder" in result.stderr
    result = check(runner, str(tmp_path / "nowhere.answers.yaml"))
    assert result.exit_code == 2 and "nowhere.answers.yaml: no such file or folder" in result.stderr


# -- folders, JUnit, JSON --------------------------------------------------------------


def test_folders_are_searched_recursively(runner, tmp_path: Path) -> None:
    aima_exercise(tmp_path / "unit1", AIMA_KEY, name="a.answers.yaml")
    aima_exercise(tmp_path / "unit1" / "deep", {"value": 4}, name="b.answers.yml")
    write(tmp_path / "unit2" / "c.answers.json", json.dumps({"tree": [[1, 2], [3]], "answers": {"value": 3}}))
    write(tmp_path / "unit2" / "notes.yaml", "tree: nothing\n")  # not an answer file: ignored
    aima_exercise(tmp_path / ".hidden", {"value": 4}, name="h.answers.yaml")  # hidden folders are skipped
    outcomes = check_paths([tmp_path])
    assert [Path(outcome.file).name for outcome in outcomes] == ["a.answers.yaml", "b.answers.yml", "c.answers.json"]
    assert [outcome.status for outcome in outcomes] == ["right", "wrong", "right"]


def test_junit_report_counts_tests_and_failures(runner, tmp_path: Path) -> None:
    exercises = [
        {"name": "right one", "algorithm": "alphabeta", "answers": {"value": 3}},
        {"name": "wrong value", "algorithm": "alphabeta", "answers": {"value": 2, "pruned": ["C.2"]}},
        {"name": "wrong order", "algorithm": "minimax", "answers": {"best_move": "a3"}},
    ]
    many = write(tmp_path / "many.answers.yaml", {"tree": os.path.relpath(AIMA, tmp_path), "exercises": exercises})
    bad = write(tmp_path / "bad.answers.yaml", "tree: x\nanswers: {valeu: 1}\n")
    report = tmp_path / "out" / "report.xml"  # its folder is made as needed
    result = check(runner, str(many), str(bad), "--junit", str(report))
    assert result.exit_code == 2
    root = ElementTree.parse(report).getroot()
    cases = list(root.iter("testcase"))
    assert len(cases) == 4 and root.get("tests") == "4"
    failures = [case for case in cases if case.find("failure") is not None]
    errors = [case for case in cases if case.find("error") is not None]
    assert [case.get("name") for case in failures] == ["wrong value", "wrong order"]
    assert root.get("failures") == "2" and root.get("errors") == "1" and len(errors) == 1
    message = failures[0].find("failure").get("message")  # type: ignore[union-attr]
    assert "value: expected 2, got 3" in message and "pruned: expected [C.2], got [C.2, C.3]" in message
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert suites[str(many)].get("tests") == "3" and suites[str(many)].get("failures") == "2"
    # rewriting the report is fine; writing it over an input is not
    assert check(runner, str(many), "--junit", str(report)).exit_code == 1
    result = check(runner, str(many), "--junit", str(many))
    assert result.exit_code == 2 and "refusing to overwrite an input file" in result.stderr
    assert "exercises:" in many.read_text()


def test_json_format(runner, tmp_path: Path) -> None:
    path = aima_exercise(tmp_path, {**AIMA_KEY, "value": 4, "nodes": {"C": {"alpha": "-inf"}}})
    result = check(runner, str(path), "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["summary"] == {"exercises": 1, "right": 0, "wrong": 1, "errors": 0}
    exercise = document["exercises"][0]
    assert exercise["status"] == "wrong" and exercise["algorithm"] == "alphabeta" and exercise["name"] == "aima"
    assert exercise["wrong"] == [
        {"field": "value", "expected": 4, "actual": 3, "note": None},
        {"field": "nodes[C].alpha", "expected": "-inf", "actual": 3, "note": None},
    ]


def test_exercises_form_with_shared_defaults_and_names(runner, tmp_path: Path) -> None:
    text = f"""\
title: unit 3
tree: {os.path.relpath(AIMA, tmp_path)}
exercises:
  - algorithm: minimax
    answers: {{nodes: {{C.2: 4}}}}
  - name: pruning
    answers: {{pruned: [C.2, C.3]}}
  - tree: [[1, 2], [0, 5]]
    answers: {{value: 1, best_move: '1'}}
"""
    outcomes = check_paths([write(tmp_path / "unit.answers.yaml", text)])
    assert [(o.name, o.status, o.algorithm) for o in outcomes] == [
        ("unit #1", "right", "minimax"), ("pruning", "right", "alphabeta"), ("unit #3", "right", "alphabeta")]


def test_options_reach_the_search(tmp_path: Path) -> None:
    best = aima_exercise(tmp_path, {"stats": {"leaves_evaluated": 5}, "pruned": ["C.2", "C.3", "D.1", "D.2"]}, order="best")
    assert check_paths([best])[0].status == "right"
    depth = write(tmp_path / "d.answers.yaml", {"tree": os.path.relpath(TREES / "depth-limited.yaml", tmp_path),
                                                 "depth": 2, "answers": {"value": 5, "best_move": "right"}})
    assert check_paths([depth])[0].status == "right"


def test_read_answer_file_raises_exercise_errors(tmp_path: Path) -> None:
    with pytest.raises(ExerciseError, match="exercises must be a list"):
        read_answer_file(write(tmp_path / "x.answers.yaml", "exercises: 3\n"))


# -- solve --answers: the teacher's answer key -------------------------------------------


def test_solve_writes_a_complete_key_that_check_accepts(runner, tmp_path: Path) -> None:
    key = tmp_path / "keys" / "aima.answers.yaml"
    key.parent.mkdir()
    result = runner.invoke(app, ["solve", str(AIMA), "--answers", str(key)])
    assert result.exit_code == 0, result.output
    document = yaml.safe_load(key.read_text())
    assert document["tree"] == os.path.relpath(AIMA, key.parent).replace(os.sep, "/")
    assert document["algorithm"] == "alphabeta"
    for field, expected in AIMA_KEY.items():  # the hand-verified answers, all there
        if field != "nodes":
            assert document["answers"][field] == expected
    assert document["answers"]["nodes"]["D"] == {"value": 2, "alpha": 3, "beta": 5}
    assert set(document["answers"]) == {"value", "best_move", "best_moves", "principal_variation", "pruned",
                                        "visit_order", "nodes", "stats"}
    assert check(runner, str(key)).exit_code == 0
    # never overwritten without --force; never the tree itself
    before = key.read_text()
    result = runner.invoke(app, ["solve", str(AIMA), "--algo", "minimax", "--answers", str(key)])
    assert result.exit_code == 2 and "already exists (use --force to replace it)" in result.stderr
    assert key.read_text() == before
    result = runner.invoke(app, ["solve", str(AIMA), "--algo", "minimax", "--answers", str(key), "--force"])
    assert result.exit_code == 0 and yaml.safe_load(key.read_text())["algorithm"] == "minimax"
    copy = tmp_path / "tree.yaml"
    copy.write_text(AIMA.read_text())
    result = runner.invoke(app, ["solve", str(copy), "--answers", str(copy), "--force"])
    assert result.exit_code == 2 and copy.read_text() == AIMA.read_text()


def test_solve_answers_keeps_options_and_inline_trees(runner, tmp_path: Path) -> None:
    key = tmp_path / "k.answers.yaml"
    result = runner.invoke(app, ["solve", "--tree", '[["1/3", 2], [3, "7/2"]]', "--order", "worst", "--variant", "hard",
                                 "--answers", str(key), "--format", "json"])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)  # stdout stays the JSON result alone
    document = yaml.safe_load(key.read_text())
    assert document["tree"] == [["1/3", 2], [3, "7/2"]]
    assert document["order"] == "worst" and document["variant"] == "hard"
    assert document["answers"]["nodes"]["1"]["value"] == "1/3"
    assert check(runner, str(key)).exit_code == 0
    result = runner.invoke(app, ["solve", "-", "--answers", str(tmp_path / "s.answers.yaml")], input="[[1, 2]]")
    assert result.exit_code == 2 and "not standard input" in result.stderr


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=compact_trees, algorithm=st.sampled_from(["minimax", "alphabeta"]), order=st.sampled_from(["given", "best", "worst"]))
def test_every_written_key_checks_right(tmp_path_factory, document, algorithm, order) -> None:
    folder = tmp_path_factory.mktemp("key")
    tree = write(folder / "t.json", json.dumps(document))
    key = folder / "sub" / "t.answers.yaml"
    key.parent.mkdir()
    result = CliRunner().invoke(app, ["solve", str(tree), "--algo", algorithm, "--order", order, "--answers", str(key)])
    assert result.exit_code == 0, result.output
    outcome = check_paths([key])[0]
    assert outcome.status == "right", (outcome.mismatches, outcome.error)
    assert yaml.safe_load(key.read_text())["answers"]["value"] == oracles.compact_value(document)


# -- real processes, the conformance case, CI as shipped -----------------------------------


def test_real_process_exit_codes(tmp_path: Path) -> None:
    wrong = aima_exercise(tmp_path, {"value": 999})
    process = subprocess.run([*GAMETREE, "check", str(wrong)], capture_output=True, text=True, cwd=ROOT)
    assert process.returncode == 1
    assert "value: expected 999, got 3" in process.stdout and process.stderr == ""
    process = subprocess.run([*GAMETREE, "check", str(ROOT / "exercises")], capture_output=True, text=True, cwd=ROOT)
    assert process.returncode == 0, process.stdout + process.stderr


def test_conformance_case_check_wrong_value() -> None:
    case = json.loads(shared_or_skip("conformance", "cases", "check-wrong-value.case.json").read_text())
    cases = shared_or_skip("conformance", "cases")
    argv = [arg.replace("{cases}", str(cases)) for arg in case["argv"]]
    process = subprocess.run([*GAMETREE, *argv], capture_output=True, text=True, cwd=ROOT)
    assert process.returncode == case["expect"]["exit"]
    for check_spec in case["expect"]["checks"]:
        for text in check_spec["texts"]:
            assert text in process.stdout + process.stderr


def hook_command(entry: str) -> list[str]:
    """The hook's entry with `gametree` resolved to this checkout's interpreter."""
    words = shlex.split(entry)
    assert words[0] == "gametree"
    return [*GAMETREE, *words[1:]]


def test_pre_commit_hook_runs_as_defined(tmp_path: Path) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(hook for hook in hooks if hook["id"] == "gametree-check")
    assert hook["language"] == "python" and hook["entry"].startswith("gametree check")
    pattern = re.compile(hook["files"])
    # pre-commit passes the matching files of the repository, relative to its top
    tracked = [path.relative_to(ROOT).as_posix() for path in (ROOT / "exercises").rglob("*") if path.is_file()]
    files = sorted(path for path in tracked if pattern.search(path))
    assert files and all(path.endswith(".answers.yaml") for path in files)
    assert not pattern.search("trees/aima-5-2.yaml")
    process = subprocess.run([*hook_command(hook["entry"]), *files], capture_output=True, text=True, cwd=ROOT)
    assert process.returncode == 0, process.stdout + process.stderr
    wrong = aima_exercise(tmp_path, {"value": 4})
    assert pattern.search(wrong.name)
    process = subprocess.run([*hook_command(hook["entry"]), str(wrong)], capture_output=True, text=True, cwd=ROOT)
    assert process.returncode == 1


def test_github_workflow_check_step_runs(tmp_path: Path) -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "gametree-check.yml").read_text())
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    runs = [step["run"].strip() for step in steps if "gametree check" in step.get("run", "")]
    assert len(runs) == 1 and "\n" not in runs[0]
    # run the step in a copy of the checkout's exercises and trees (it writes a report)
    for folder in ("exercises", "trees"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    process = subprocess.run(hook_command(runs[0]), capture_output=True, text=True, cwd=tmp_path)
    assert process.returncode == 0, process.stdout + process.stderr
    reports = [part for part in shlex.split(runs[0]) if part.endswith(".xml")]
    for report in reports:
        root = ElementTree.parse(tmp_path / report).getroot()
        assert int(root.get("tests")) >= 4 and root.get("failures") == "0"


def test_a_100000_deep_chain_is_checked_without_recursion(tmp_path: Path) -> None:
    depth = 100_000
    text = "".join(f'{{"id": "n{k}", "children": [' for k in range(depth)) + "7" + "]}" * depth
    (tmp_path / "chain.json").write_text(text)
    answers = {"value": 7, "best_move": "n1", "stats": {"nodes_visited": depth + 1, "leaves_evaluated": 1}}
    path = write(tmp_path / "chain.answers.yaml", {"tree": "chain.json", "algorithm": "alphabeta", "answers": answers})
    [outcome] = check_paths([path])
    assert outcome.status == "right", (outcome.error, outcome.mismatches)


@pytest.mark.parametrize(("note", "spanish"), [
    ("missed cut-off: C.3 is never visited", "corte no visto: C.3 nunca se visita"),
    ("missed cut-off: C.2, C.3 are never visited", "corte no visto: C.2, C.3 nunca se visitan"),
    ("not pruned: D is visited", "no podado: D se visita"),
    ("not pruned: D, E are visited", "no podado: D, E se visitan"),
    ("C.3 lies inside a pruned subtree: list only the topmost pruned nodes",
     "C.3 está dentro de un subárbol podado: liste solo los nodos podados más altos"),
    ("C.2, C.3 lie inside a pruned subtree: list only the topmost pruned nodes",
     "C.2, C.3 están dentro de un subárbol podado: liste solo los nodos podados más altos"),
])
def test_spanish_notes_agree_in_number(note: str, spanish: str) -> None:
    """One node or several: the Spanish verb agrees (it read 'se visita(n)')."""
    from gametree_cli.views.words import translate_note

    assert translate_note(note, "es") == spanish
