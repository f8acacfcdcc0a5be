"""Chance nodes: expectiminimax, expectimax, opponent models and Star1.

Every search is checked against the plain recursive implementations of
tests/oracles.py over the raw tree document (not our loader's arrays), on
random trees, plus hand-checked answers with exact fractions.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gametree_cli import AlgorithmError, IllegalTreeError
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.registry import default_algorithm
from gametree_cli.search.expectation import expected_value
from gametree_cli.cli.app import app
from gametree_cli.search.events import Recorder
from gametree_cli.search.record_facts import EXACT, LOWER, UPPER
from gametree_cli.io.document import build_tree
from gametree_cli.views.result_json import result_document
from gametree_cli.views.trace import TraceFormatter

from . import oracles
from .conftest import HANG_GUARD, ROOT, TREES, shared_or_skip

LOW, HIGH = -10, 10

# -- random trees ---------------------------------------------------------------------

leaf_values = st.one_of(
    st.integers(LOW, HIGH),
    st.builds(lambda a, b: f"{a}/{b}", st.integers(LOW * 3, HIGH * 3), st.just(3)),
)
shares = st.sampled_from(["0", "1/5", "1/2", "1", "3/4"])


decimal_values = st.integers(LOW * 10, HIGH * 10).map(lambda tenths: tenths / 10)


def decimal_probabilities(weights: list[int]) -> list[str]:
    """Decimals with 3 digits, summing to 1 exactly as decimals (the last takes the rest)."""
    total = sum(weights)
    shares = [Fraction(math.floor(Fraction(weight, total) * 1000), 1000) for weight in weights[:-1]]
    shares.append(1 - sum(shares, Fraction(0)))
    return [f"{float(share):.3f}" for share in shares]


@st.composite
def documents(draw, *, chance=True, models=True, evals=False, max_nodes=40, bounds=False, decimals=False):
    """A random two-player tree document with explicit ids n0, n1, ... (preorder)."""
    ids = itertools.count()
    budget = [draw(st.integers(1, max_nodes))]
    types = ["max", "min", "chance"] if chance else ["max", "min"]

    def make(depth):
        node = {"id": f"n{next(ids)}"}
        budget[0] -= 1
        inner = budget[0] > 0 and depth < 6 and draw(st.integers(0, 3)) > (0 if depth == 0 else 1)
        if not inner:
            value = draw(decimal_values if decimals else leaf_values)
            node["value"] = value
            return node
        node["type"] = draw(st.sampled_from(types))
        if evals:
            node["eval"] = draw(st.integers(LOW, HIGH))
        if models and node["type"] != "chance" and draw(st.integers(0, 3)) == 0:
            node["random"] = draw(shares)
        count = draw(st.integers(1, 4))
        children = [make(depth + 1) for _ in range(count)]
        if node["type"] == "chance" and draw(st.booleans()):
            weights = draw(st.lists(st.integers(0, 4), min_size=count, max_size=count).filter(any))
            ps = decimal_probabilities(weights) if decimals else [f"{weight}/{sum(weights)}" for weight in weights]
            for child, p in zip(children, ps):
                child["p"] = p
        node["children"] = children
        return node

    document = {"root": make(0)}
    if bounds:
        document["bounds"] = [LOW, HIGH]
    return document


def tree_of(document):
    return build_tree(json.loads(json.dumps(document)))


def values_by_id(record) -> dict[str, object]:
    ids = record.tree.ids()
    return {ids[node]: value for node, value in enumerate(record.values) if value is not None}


def assert_exact(value) -> None:
    assert not isinstance(value, float), f"{value!r} should be exact"


# -- properties -------------------------------------------------------------------------


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(evals=True), st.sampled_from(["expectiminimax", "expectimax"]), st.sampled_from([None, 0, 1, 2, 3]))
def test_expectiminimax_and_expectimax_agree_with_reference(document, algorithm, depth) -> None:
    tree = tree_of(document)
    game = oracles.read(document)
    expected = oracles.expectimax(game, depth) if algorithm == "expectimax" else oracles.expectiminimax(game, depth)
    for observer in (None, Recorder()):
        record = solve(tree, algorithm, depth=depth, observer=observer)
        assert values_by_id(record) == expected.values
        for value in values_by_id(record).values():
            assert_exact(value)
        best = record.best_move()
        assert (tree.node_id(best) if best is not None else None) == oracles.best_move(game, expected)
        assert record.stats.as_dict() == expected.stats
        assert record.pruned == []
    assert result_document(record)["visit_order"] == expected.order  # preorder, as the recursion visits


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(bounds=True, evals=True), st.booleans(), st.sampled_from([None, None, 1, 2, 3]))
@example(  # n3 is searched with the closed window [-10, -10] and cut on its lower bound: -10 bounds 0 from below
    document={"bounds": [-10, 10], "root": {"id": "n0", "type": "min", "children": [
        {"id": "n1", "value": -10}, {"id": "n2", "type": "chance", "children": [{"id": "n3", "type": "chance", "children": [
            {"id": "n4", "value": 0, "p": "0/1"}, {"id": "n5", "value": 0, "p": "0/1"}, {"id": "n6", "value": 0, "p": "0/1"},
            {"id": "n7", "value": 0, "p": "1/1"}]}]}]}},
    strict=False, depth=None)
@example(  # n3 (a min node played as a random opponent with share 0) gets the closed window [0, 0] and searches
    # both children: its 0 is exact, and the record says so (the test demanded a bound: found by Hypothesis)
    document={"root": {"id": "n0", "type": "max", "eval": 0, "children": [
        {"id": "n1", "value": 0}, {"id": "n2", "value": 0}, {"id": "n3", "type": "min", "eval": 0, "random": "0",
                                                           "children": [{"id": "n4", "value": 0}, {"id": "n5", "value": 0}]}]},
              "bounds": [-10, 10]},
    strict=True, depth=None)
def test_star1_agrees_with_reference_star1_and_expectiminimax(document, strict, depth) -> None:
    tree = tree_of(document)
    game = oracles.read(document)
    exact = solve(tree, "expectiminimax", depth=depth)
    reference = oracles.star1(game, LOW, HIGH, depth, strict=strict)
    recorder = Recorder()
    record = solve(tree, "star1", depth=depth, strict=strict, observer=recorder)
    assert record.value == reference.value == exact.value
    assert_exact(record.value)
    assert record.stats.leaves_evaluated <= exact.stats.leaves_evaluated
    document_json = result_document(record)
    assert document_json["visit_order"] == reference.order
    assert document_json["pruned"] == reference.pruned
    assert record.stats.cutoffs == reference.stats["cutoffs"] == len(record.cuts)
    assert values_by_id(record) == reference.values
    # fail-soft: a value outside its entry window bounds the true value on that side
    true = oracles.expectiminimax(game, depth).values
    windows = {tree.node_id(event.node): (event.alpha, event.beta) for event in recorder.events
               if event.kind in ("call", "leaf")}
    assert windows == reference.window
    for name, returned in values_by_id(record).items():
        alpha, beta = windows[name]
        if alpha == beta == returned:  # a closed window: both sides hold, the record's kind says which bound
            kind = record.bound_kind(tree.index(name))  # or EXACT: every child searched, nothing cut
            expected = {UPPER: true[name] <= returned, LOWER: true[name] >= returned, EXACT: true[name] == returned}
            assert expected[kind]
        elif returned <= alpha:
            assert true[name] <= returned
        elif returned >= beta:
            assert true[name] >= returned
        else:
            assert true[name] == returned
    # the same search without an observer
    quiet = solve(tree, "star1", depth=depth, strict=strict)
    assert quiet.values == record.values and quiet.pruned == record.pruned


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(decimals=True, bounds=True), st.sampled_from(["expectiminimax", "expectimax", "star1"]))
def test_decimal_trees_give_the_decimal_answer(document, algorithm) -> None:
    tree = tree_of(document)
    exact = oracles.expectimax(document) if algorithm == "expectimax" else oracles.expectiminimax(document)
    record = solve(tree, algorithm)
    assert isinstance(record.value, float)
    assert record.value == exact.value
    if algorithm != "star1":  # every node: the exact sum of the decimals as written, rounded once
        assert values_by_id(record) == exact.values


@pytest.mark.parametrize("algorithm", ["expectiminimax", "expectimax", "star1"])
def test_decimal_expectations_over_thirds_are_exact_until_the_last_rounding(algorithm) -> None:
    # 1/3*5 + 1/3*(-4.0) + 1/3*(-1) is 0; rounding each 1/3 to 100 digits first gave -3e-100,
    # and so did an opponent model's 1/3*0.3 + 2/3*(-0.15) (found by test_crosscheck)
    for text in ("{bounds: [-5, 5], root: {type: chance, children: [5, -4.0, -1]}}",
                 "{bounds: [-5, 5], root: {type: max, random: 2/3, children: [0.3, -0.6]}}"):
        value = solve(parse_tree(text), algorithm).value
        assert value == 0 and isinstance(value, float), (text, value)
    three = parse_tree("{players: [A, B, C], root: {type: chance, children: [[5, 0, 0], [-4.0, 0, 0], [-1, 0, 0]]}}")
    assert solve(three, "maxn").value == (0, 0, 0)


def test_star1_bounds_take_decimals_as_written() -> None:
    # after 0.54*4, the coin is worth at most 2.16 + 0.46*5 = 4.46 <= alpha = 4.46: the
    # hand calculation cuts. In binary floats 2.16 + 2.3000000000000003 > 4.46 and star1
    # used to search the second child too (found by test_crosscheck).
    tree = parse_tree('{"bounds": [0, 5], "root": {"type": "max", "children": [4.46, {"type": "chance", '
                      '"children": [{"p": 0.54, "value": 4}, {"p": 0.46, "value": 5}]}]}}')
    record = solve(tree, "star1")
    assert [tree.node_id(node) for node in record.pruned] == ["2.2"]
    assert record.cuts[tree.index("2")].reason() == "upper=4.46 <= alpha=4.46"
    # a window that involves a decimal is reported as one, exactly rounded: (4.46 - 5*0.46) / 0.54 = 4
    assert record.alpha[tree.index("2.1")] == 4.0 and isinstance(record.alpha[tree.index("2.1")], float)


def test_star1_keeps_bounds_from_decimals_exact_while_searching() -> None:
    # the coin's only outcome is MIN's choice, worth -2**70; after its first leaf the coin is
    # known to be at most 1.0 * 10**30 = alpha: a cut. That bound rounded to a float is
    # 1e+30 > 10**30, so it used to beat "safe" at the root: best move "coin", value 1e+30
    # (found by test_crosscheck). Kept exact while searching, it is reported as 1e+30.
    big, low = 10**30, -(2**70)
    tree = parse_tree(f'{{"bounds": [{low}, {big}], "root": {{"type": "max", "children": [{{"id": "safe", "value": {big}}}, '
                      f'{{"id": "coin", "type": "chance", "children": [{{"p": 1.0, "type": "min", "children": [{big}, {low}]}}]}}]}}}}')
    record = solve(tree, "star1")
    assert tree.move(record.best_move()) == "safe" and record.value == big and isinstance(record.value, int)
    assert record.values[tree.index("coin")] == 1e30 and isinstance(record.values[tree.index("coin")], float)
    assert tree.move(solve(tree, "expectiminimax").best_move()) == "safe"


def test_star1_opponent_model_over_an_exact_bound_and_decimals() -> None:
    # the coin cuts at its last child (upper = 0 <= alpha = L = 0) and returns its exact
    # bound; the model then averages it with 2.5: this raised TypeError (found by test_crosscheck)
    tree = parse_tree("{bounds: [0, 10], root: {type: max, random: 1/2, children: "
                      "[{type: chance, children: [{p: 0.5, value: 0}, {p: 0.5, value: 0}]}, 2.5]}}")
    assert solve(tree, "star1").value == solve(tree, "expectiminimax").value == 1.875


def test_star1_sums_decimal_values_as_written_like_expectiminimax() -> None:
    # exact probabilities, decimal values: 1/2*5.1 + 1/2*8.7 is 6.9, not the binary
    # (5.1 + 8.7) / 2 = 6.8999999999999995 star1 used to report (found by test_crosscheck)
    tree = parse_tree("{bounds: [0, 10], root: {type: chance, children: [{p: 1/2, value: 5.1}, {p: 1/2, value: 8.7}]}}")
    assert solve(tree, "star1").value == solve(tree, "expectiminimax").value == 6.9


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(bounds=True, models=False, max_nodes=60))
def test_star1_never_evaluates_more_leaves(document) -> None:
    tree = tree_of(document)
    exact = solve(tree, "expectiminimax")
    record = solve(tree, "star1")
    assert record.value == exact.value
    assert record.stats.leaves_evaluated <= exact.stats.leaves_evaluated
    # every node star1 did not visit lies under a pruned node; no pruned node was visited
    pruned = set(record.pruned)
    parent = tree.parents()
    for node in range(len(tree)):
        if record.values[node] is None:
            up = node
            while up not in pruned:
                up = parent[up]
                assert up >= 0, f"{tree.node_id(node)} unvisited but not under a pruned node"
    assert all(record.values[node] is None for node in pruned)


@settings(max_examples=200, deadline=None)
@given(documents(chance=False, models=False, evals=True), st.sampled_from([None, 1, 2]))
def test_expectiminimax_equals_minimax_without_chance_nodes(document, depth) -> None:
    tree = tree_of(document)
    plain = solve(tree, "minimax", depth=depth)
    for observer in (None, Recorder()):
        record = solve(tree, "expectiminimax", depth=depth, observer=observer)
        assert record.values == plain.values
        assert record.best_move() == plain.best_move()
        assert record.principal_variation() == plain.principal_variation()


@settings(max_examples=150, deadline=None)
@given(documents(chance=False, models=False, bounds=True), st.booleans())
def test_star1_is_alphabeta_without_chance_nodes(document, strict) -> None:
    tree = tree_of(document)
    alphabeta = solve(tree, "alphabeta", strict=strict)
    record = solve(tree, "star1", strict=strict)
    assert record.values == alphabeta.values
    assert record.pruned == alphabeta.pruned
    assert record.stats.as_dict() == alphabeta.stats.as_dict()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=1, max_size=5), st.lists(st.integers(-5, 5), min_size=5, max_size=5))
def test_decimal_probabilities_stay_decimals(weights, values) -> None:
    total = sum(weights)
    ps = [round(weight / total, 4) for weight in weights]
    ps[-1] = float(round(1 - sum(ps[:-1]), 4))  # decimals that sum to 1 within 1e-9
    document = {"root": {"type": "chance", "children": [{"p": p, "value": value} for p, value in zip(ps, values)]}}
    record = solve(tree_of(document), "expectiminimax")
    assert isinstance(record.value, float)
    assert record.value == oracles.expectiminimax(document).value  # the decimal sum, rounded once


exact_numbers = st.one_of(
    st.integers(-10**6, 10**6),
    st.sampled_from([2**63 + 1, -(2**70), 10**30]),  # beyond 64 bits: Python integers all the same
    st.fractions(max_denominator=50).map(lambda number: number.numerator if number.denominator == 1 else number),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.fractions(0, 1, max_denominator=12), exact_numbers), min_size=1, max_size=6))
def test_expected_value_is_the_exact_sum_of_products(terms) -> None:
    # summed in integers over the common denominator (no Fraction arithmetic): the same number
    # Fraction arithmetic gives, an int when whole, never a float
    probabilities = [p.numerator if p.denominator == 1 else p for p, _ in terms]
    pairs = list(zip(probabilities, (value for _, value in terms)))
    expected = sum((Fraction(p) * value for p, value in pairs), Fraction(0))
    found = expected_value(pairs)
    assert found == expected
    assert type(found) is (int if expected.denominator == 1 else Fraction)


# -- hand-checked answers ------------------------------------------------------------------


def test_dice_by_hand() -> None:
    tree = load_tree(TREES / "dice.yaml")
    record = solve(tree)
    assert record.algorithm == "expectiminimax"
    assert (record.value, tree.move(record.best_move())) == (Fraction(39, 8), "bet")
    values = values_by_id(record)
    assert (values["Roll"], values["Reroll"], values["Lose"], values["Bet"]) == (Fraction(7, 2), Fraction(9, 2), Fraction(9, 2), Fraction(39, 8))
    star = solve(tree, "star1")
    assert star.value == Fraction(39, 8)
    assert [tree.node_id(node) for node in star.pruned] == ["Roll.4", "Roll.5", "Roll.6"]
    assert star.stats.leaves_evaluated == 8 < record.stats.leaves_evaluated == 11
    assert star.cuts[tree.index("Roll")].reason() == "upper=4 <= alpha=4"
    # expectimax: Lose = (9/2 + 5)/2 = 19/4, Bet = 3/2 + 3/4*19/4 = 81/16
    assert solve(tree, "expectimax").value == Fraction(81, 16)


def test_ghost_opponent_model_by_hand() -> None:
    tree = load_tree(TREES / "ghost.yaml")
    assert default_algorithm(tree) == "expectiminimax"
    record = solve(tree)
    # Left = 4/5*1 + 1/5*7 = 11/5; Right = 4/5*2 + 1/5*5/2 = 21/10
    assert values_by_id(record)["Left"] == Fraction(11, 5)
    assert values_by_id(record)["Right"] == Fraction(21, 10)
    assert (record.value, tree.move(record.best_move())) == (Fraction(11, 5), "left")
    assert [tree.move(node) for node in record.principal_variation()] == ["left", "corner"]
    minimax = solve(tree, "minimax")
    assert (minimax.value, tree.move(minimax.best_move())) == (2, "right")
    assert solve(tree, "expectimax").value == 7
    assert solve(tree, "star1").value == Fraction(11, 5)


def test_expectimax_course_example() -> None:
    # the CS188 expectimax slide: chance averages 8, 4, 7 -> 8
    tree = parse_tree("[[3, 12, 9], [2, 4, 6], [15, 6, 0]]")
    record = solve(tree, "expectimax")
    assert [record.values[child] for child in tree.children(0)] == [8, 4, 7]
    assert record.value == 8 and tree.move(record.best_move()) == "1"
    # AIMA fig. 5.2 with a random opponent: B = 23/3, C = 4, D = 7
    aima = solve(load_tree(TREES / "aima-5-2.yaml"), "expectimax")
    assert aima.value == Fraction(23, 3)


def test_seven_thirds_is_exact_in_text_and_json(runner) -> None:
    tree = '{root: {type: chance, children: [{p: "1/3", value: 5}, {p: 2/3, value: 1}]}}'
    result = runner.invoke(app, ["solve", "--tree", tree, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["value"] == "7/3"
    result = runner.invoke(app, ["solve", "--tree", tree])
    assert "= 7/3" in result.output and "2.33" not in result.output
    decimal = '{root: {type: chance, children: [{p: 0.1, value: 1}, {p: 0.2, value: 2}, {p: 0.7, value: 3}]}}'
    result = runner.invoke(app, ["solve", "--tree", decimal, "--format", "json"])
    assert json.loads(result.output)["value"] == 2.6


def test_conformance_case_emm_fractions() -> None:
    case = json.loads(shared_or_skip("conformance", "cases", "emm-fractions.case.json").read_text())
    tree = load_tree(shared_or_skip("conformance", "cases", "emm-fractions.yaml"))
    document = result_document(solve(tree, "expectiminimax"))
    def contains(actual, expected) -> bool:  # the runner's rule: only the keys the case names
        if isinstance(expected, dict):
            return isinstance(actual, dict) and all(key in actual and contains(actual[key], item)
                                                    for key, item in expected.items())
        return actual == expected and type(actual) is type(expected)

    assert contains(document, case["expect"]["json"])


# -- probabilities -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("children", "message", "node"),
    [
        ('[{p: 1/3, value: 1}, {p: 1/3, value: 2}, {p: 1/6, value: 3}]', "probabilities sum to 5/6, not 1", "C"),
        ('[{p: 0.3, value: 1}, {p: 0.3, value: 2}, {p: 0.3, value: 3}]', "probabilities sum to 0.9, not 1", "C"),
        ('[{p: 0.5000000011, value: 1}, {p: 0.5, value: 2}]', "probabilities sum to 1.0000000011, not 1", "C"),
        ('[{p: 1/2, value: 1}, {p: 2/3, value: 2}]', "probabilities sum to 7/6, not 1", "C"),
        ('[{p: 3/2, value: 1}, {p: -1/2, value: 2}]', "p is negative (-1/2)", "C.2"),
        ('[{p: 0.5, value: 1}, {value: 2}]', "p is missing", "C.2"),
        ('[{p: many, value: 1}, {p: 0.5, value: 2}]', "p: 'many' is not a number", "C.1"),
    ],
)
def test_bad_probabilities_are_one_line_errors(tmp_path: Path, runner, children, message, node) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"root:\n  id: C\n  type: chance\n  children: {children}\n")
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    assert lines[0].startswith(f"{path}:")
    assert f"node {node}: {message}" in lines[0]


def test_probabilities_within_tolerance_or_exact_are_accepted() -> None:
    thirds = "0.3333333333"  # sums to 0.9999999999: within 1e-9
    tree = parse_tree(f'{{root: {{type: chance, children: [{{p: {thirds}, value: 3}}, {{p: {thirds}, value: 3}}, {{p: {thirds}, value: 3}}]}}}}')
    assert math.isclose(solve(tree).value, 3, rel_tol=1e-9)
    uniform = parse_tree("{root: {type: chance, children: [1, 2, 4]}}")
    assert solve(uniform).value == Fraction(7, 3)
    zero = parse_tree('{root: {type: chance, children: [{p: 0, value: 9}, {p: "1/1", value: 2}]}}')
    assert solve(zero).value == 2 and solve(zero, "star1", bounds=(0, 9)).value == 2


# -- star1: fit, bounds and options ---------------------------------------------------------------


def test_star1_needs_bounds_and_cli_bounds_override(runner) -> None:
    path = str(ROOT / "trees" / "aima-5-2.yaml")
    result = runner.invoke(app, ["solve", path, "--algo", "star1"])
    assert result.exit_code == 2
    assert "needs bounds: give `bounds: [L, U]` in the file or --bounds L U" in result.stderr
    result = runner.invoke(app, ["solve", path, "--algo", "star1", "--bounds", "0", "20", "-f", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["value"] == 3 and document["pruned"] == ["C.2", "C.3"]  # alpha-beta's answer
    assert document["options"]["bounds"] == [0, 20]
    result = runner.invoke(app, ["solve", path, "--algo", "star1", "--bounds", "5", "20"])
    assert result.exit_code == 2
    assert "node B.1: value 3 is outside the --bounds bounds [5, 20]" in result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"{path}:")
    result = runner.invoke(app, ["solve", path, "--algo", "star1", "--bounds", "5", "5"])
    assert result.exit_code == 2 and "bounds [5, 5] are empty" in result.stderr


def test_star1_refuses_evals_outside_bounds_at_the_depth_limit() -> None:
    tree = parse_tree("{bounds: [0, 10], root: {type: max, children: [{type: chance, eval: 11, children: [1, 2]}, 3]}}")
    with pytest.raises(IllegalTreeError, match="eval 11 is outside the declared bounds"):
        solve(tree, "star1", depth=1)
    assert solve(tree, "star1").value == 3


def test_file_bounds_reject_leaves_outside() -> None:
    with pytest.raises(IllegalTreeError, match=r"value 12 is outside the declared bounds \[0, 10\]"):
        parse_tree("{bounds: [0, 10], root: {type: chance, children: [1, 12]}}")


def test_chance_algorithms_refuse_what_they_cannot_do() -> None:
    three = parse_tree("{players: [A, B, C], root: {player: A, children: [[1, 2, 3], [3, 2, 1]]}}")
    for name in ("expectiminimax", "expectimax", "star1"):
        with pytest.raises(AlgorithmError, match="3 players"):
            solve(three, name, bounds=(0, 5))
    dice = load_tree(TREES / "dice.yaml")
    with pytest.raises(AlgorithmError, match="fail-soft"):
        solve(dice, "star1", variant="hard")
    with pytest.raises(AlgorithmError, match="chance nodes"):
        solve(dice, "minimax")


def test_star1_fail_high_at_a_chance_node() -> None:
    # MIN chooses between 3 and a coin over [8, 10]: after heads (8), the coin is worth
    # at least 1/2*8 + 1/2*0 = 4 >= beta = 3, so tails is never looked at.
    tree = parse_tree("{bounds: [0, 10], root: {id: M, type: min, children: [3, {id: Coin, type: chance, children: [8, 10]}]}}")
    record = solve(tree, "star1")
    assert record.value == 3 and [tree.node_id(node) for node in record.pruned] == ["Coin.2"]
    assert record.cuts[tree.index("Coin")].reason() == "lower=4 >= beta=3"


# -- deep trees -------------------------------------------------------------------------------


def test_deep_chain_of_chance_nodes_needs_no_recursion() -> None:
    depth = 100_001  # the bottom node is a min node
    root: dict = {"type": "max", "children": []}
    node = root
    types = itertools.cycle(["min", "chance", "max", "chance"])
    for _ in range(depth):  # one child each (a chance node's is certain): cheap, but deep
        child = {"type": next(types), "children": []}
        node["children"] = [child]
        node = child
    node["children"] = [1, 2]
    tree = build_tree({"bounds": [0, 2], "root": root})
    assert len(tree) == depth + 3
    assert solve(tree, "expectiminimax").value == 1
    assert solve(tree, "star1").value == 1
    calls = []
    assert solve(tree, "expectiminimax", observer=lambda event: calls.append(event.kind == "call")).value == 1
    assert sum(calls) == depth + 1  # the walk (not the sweep) went all the way down


# -- trace and rendering --------------------------------------------------------------------------


def trace_lines(tree, algorithm, lang, **options) -> list[str]:
    recorder = Recorder()
    solve(tree, algorithm, observer=recorder, **options)
    formatter = TraceFormatter(tree, lang)
    return [line for line in map(formatter.line, recorder.events) if line is not None]


def test_trace_shows_chance_nodes_in_english_and_spanish() -> None:
    tree = load_tree(TREES / "dice.yaml")
    english = trace_lines(tree, "expectiminimax", "en")
    assert "  call chanceValue(Bet)" in english
    assert "    leaf Win = 6 with p=1/4" in english
    assert "    call minValue(Lose) with p=3/4" in english
    assert "    chanceValue of Bet returns the expected value 1/4*6 + 3/4*9/2 = 39/8" in english[-2:]
    spanish = trace_lines(tree, "expectiminimax", "es")
    assert ". Invocacion chanceValue(Bet):" in spanish
    assert ".. Invocacion minValue(Win) con probabilidad 1/4 -> que retorna valor terminal 6" in spanish
    assert ".. Invocacion minValue(Lose) con probabilidad 3/4:" in spanish
    assert ".. chanceValue de Bet asigna valor esperado 1/4*6 + 3/4*9/2 = 39/8" in spanish
    star = trace_lines(tree, "star1", "es")
    assert ".. PODA en chanceValue de Roll porque cota superior=4 <= alfa=4 -> le asigna valor 4" in star
    assert "    cut in chanceValue of Roll: upper=4 <= alpha=4 -> returns 4" in trace_lines(tree, "star1", "en")
    ghost = trace_lines(load_tree(TREES / "ghost.yaml"), "expectiminimax", "es")
    assert ".. minValue de Left asigna valor 4/5*min 1 + 1/5*media 7 = 11/5" in ghost
    averaged = trace_lines(tree, "expectimax", "en")
    assert "    call chanceValue(Lose) with p=3/4" in averaged
    assert "      leaf Pay = 5 with p=1/2" in averaged
    negative = trace_lines(parse_tree("{root: {type: chance, children: [-1, 2]}}"), "expectiminimax", "en")
    assert negative[-1] == "  chanceValue of root returns the expected value 1/2*(-1) + 1/2*2 = 1/2"


def test_json_trace_carries_probabilities_and_terms(runner) -> None:
    result = runner.invoke(app, ["solve", str(TREES / "dice.yaml"), "--trace", "-f", "json"])
    assert result.exit_code == 0, result.output
    trace = json.loads(result.output)["trace"]
    win = next(event for event in trace if event["node"] == "Win")
    assert win == {"event": "leaf", "node": "Win", "depth": 2, "value": 6, "p": "1/4"}
    bet = [event for event in trace if event["node"] == "Bet"][-1]
    assert bet["event"] == "return" and bet["terms"] == [["1/4", 6], ["3/4", "9/2"]] and bet["value"] == "39/8"
    result = runner.invoke(app, ["solve", str(TREES / "ghost.yaml"), "--trace", "-f", "json"])
    left = [event for event in json.loads(result.output)["trace"] if event["node"] == "Left"][-1]
    assert (left["random"], left["optimal"], left["mean"], left["value"]) == ("1/5", 1, 7, "11/5")


def test_annotated_tree_shows_chance_nodes_and_star1_cuts(runner) -> None:
    result = runner.invoke(app, ["solve", str(TREES / "dice.yaml"), "--algo", "star1"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "roll → Roll ○ chance  ≤ 4  [α=4, β=inf]  ✂ cut: upper=4 <= alpha=4" in text
    assert "[p=1/6] Roll.4  ✂ pruned" in text
    assert "bet → Bet ○ chance  = 39/8 (expected)" in text
    assert "[p=3/4] Lose ▼ min  = 9/2" in text
    assert "star1: value 39/8 · best move bet" in text and "pruned subtrees 3" in text
    ghost = runner.invoke(app, ["solve", str(TREES / "ghost.yaml")]).output
    assert "left → Left ▼ min (random 1/5)  = 11/5" in ghost
    averaged = runner.invoke(app, ["solve", str(TREES / "dice.yaml"), "--algo", "expectimax"]).output
    assert "Lose ▼ min (averaged: uniformly random opponent)  = 19/4 (expected)" in averaged


def test_subprocess_solves_a_chance_tree() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gametree_cli", "solve", str(TREES / "dice.yaml"), "--algo", "star1", "-f", "json"],
        capture_output=True, text=True, timeout=HANG_GUARD, check=False,
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["value"] == "39/8" and document["best_move"] == "bet"
    assert document["pruned"] == ["Roll.4", "Roll.5", "Roll.6"]
    assert "best_moves" not in document  # Star1 cut: its values cannot tell every tie (docs/chance.md)


# -- the shipped mini-backgammon tree -------------------------------------------------------------


def test_shipped_backgammon_mini_is_the_generators_tree_and_solves() -> None:
    import yaml

    from gametree_cli.generate.backgammon import backgammon_tree

    path = TREES / "backgammon-mini.yaml"
    shipped = yaml.safe_load(path.read_text())
    assert shipped == backgammon_tree(position=(3, 4, 1, 2), plies=5, roll=1)  # regenerate it if this fails
    tree = load_tree(path)
    record = solve(tree)
    assert record.algorithm == "expectiminimax"
    assert record.value == oracles.expectiminimax(shipped).value == Fraction(221, 4)
    # the notes' example: MAX, with a 1, brings a piece home (4->5) rather than join 3->4
    assert tree.move(record.best_child(0)) == "4->5"
    star = solve(tree, "star1")
    assert star.value == record.value and star.stats.leaves_evaluated <= record.stats.leaves_evaluated
    assert solve(tree, "expectimax").value == oracles.expectimax(shipped).value


def test_many_outcome_counts_have_no_int64_form_but_an_answer(tmp_path) -> None:
    """Chance nodes of 2 to 47 outcomes: the common denominator of the probabilities
    (lcm(2..47) ~ 5e21) has no int64 form; that once raised OverflowError (a traceback)."""
    document = {"root": {"type": "max", "children": [{"type": "chance", "children": list(range(k))}
                                                      for k in range(2, 48)]}}
    expected = max(Fraction(sum(range(k)), k) for k in range(2, 48))
    tree = parse_tree(json.dumps(document), fmt="json")
    assert solve(tree, "expectiminimax").value == expected
    path = tmp_path / "tree.json"
    path.write_text(json.dumps(document))
    binary = tmp_path / "tree.gtb"
    assert subprocess.run([sys.executable, "-m", "gametree_cli", "convert", str(path), "-o", str(binary)],
                          capture_output=True).returncode == 0
    assert solve(load_tree(binary), "expectiminimax").value == expected


def _doc_command(runner, command: str) -> str:
    import shlex

    words = shlex.split(command)
    assert words[0] == "gametree", command
    result = runner.invoke(app, words[1:])
    assert result.exit_code == 0, (command, result.output)
    return "\n".join(line.rstrip() for line in result.stdout.splitlines())


def test_chance_doc_samples_are_the_real_output(runner, monkeypatch) -> None:
    """docs/chance.md: a block after ``<!-- sample: CMD -->`` is CMD's whole output; each code span
    in the table after ``<!-- sample lines: CMD; CMD -->`` is part of one of those commands' lines."""
    import re

    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "chance.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- sample: (.+?) -->\n```\n(.*?)```\n", text, re.S)
    assert len(blocks) == 2
    for command, block in blocks:
        assert _doc_command(runner, command) == block.rstrip("\n"), command
    tables = re.findall(r"<!-- sample lines: (.+?) -->\n((?:\|.*\n)+)", text)
    assert len(tables) == 1
    for commands, table in tables:
        lines = "\n".join(_doc_command(runner, command.strip()) for command in commands.split(";")).splitlines()
        spans = [span for row in table.splitlines()[2:] for cell in row.split("|")[2:] for span in re.findall(r"`([^`]+)`", cell)]
        assert len(spans) >= 10
        for span in spans:
            assert any(span in line for line in lines), span
