"""Chance trees with real probabilities (decimals and fractions): the NumPy sweep is exact.

Issue 14, target 2: the sweep computes them in int64 numerators of the
decimals as written, flags which values are decimals (floats in the answer),
and hands the levels int64 cannot hold to the Python rules. Every answer is
checked against the independent textbook oracle (tests/oracles.py) and the
pure-Python search, on random trees read from JSON text and from ``.gtb``,
including trees whose numerators overflow int64 (the fallback runs).
"""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.sweep import sweep
from gametree_cli.io.binary import read_binary
from gametree_cli.io.binary_encode import encode_binary
from gametree_cli.io.document import build_tree
from gametree_cli.views.result_json import result_document

from . import oracles
from .test_performance import general_python_search, record_by_id

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: leaf values of one tree: one kind, or integers and fractions (exact together)
LEAVES = {
    "int": st.integers(-60, 60),
    "exact": st.sampled_from([3, -2, 0, 7, "1/3", "-5/7", "9/4"]),
    "decimal": st.sampled_from([0.5, -1.25, 3.0, 0.1, 0.3, -0.7, 12.345, 1e-05]),
}
#: digits of the decimal probabilities: 12 overflows int64 after two chance levels
DIGITS = st.sampled_from([1, 1, 2, 3, 12])


@st.composite
def shares(draw, size: int):
    """Probabilities of ``size`` children, as a document writes them: decimals summing to 1 as
    written, fractions, a mix of both, or none (uniform)."""
    style = draw(st.sampled_from(["decimal", "decimal", "fraction", "mixed", "uniform"]))
    if style == "uniform":
        return None
    if style == "fraction":
        weights = [draw(st.integers(1, 5)) for _ in range(size)]
        return [f"{weight}/{sum(weights)}" for weight in weights]
    digits = draw(DIGITS)
    scale = 10**digits
    cuts = sorted(draw(st.lists(st.integers(0, scale), min_size=size - 1, max_size=size - 1)))
    parts = [high - low for low, high in zip([0, *cuts], [*cuts, scale])]
    decimals = [float(Fraction(part, scale)) for part in parts]
    if style == "mixed" and size > 1:  # one share as an exact fraction, the rest decimals
        rest = sum(Fraction(repr(share)) for share in decimals[1:])
        return [str(1 - rest), *decimals[1:]]
    return decimals


@st.composite
def chance_documents(draw, depth: int = 5):
    """Two-player trees with chance nodes at any level and real probabilities."""
    number = LEAVES[draw(st.sampled_from(sorted(LEAVES)))]

    def node(level: int):
        if level >= depth or draw(st.integers(0, 9)) < 2:
            return draw(number)
        size = draw(st.integers(1, 4))
        kind = draw(st.sampled_from(["max", "min", "chance", "chance"]))
        children = [node(level + 1) for _ in range(size)]
        if kind == "chance":
            given_shares = draw(shares(size))
            if given_shares is not None:
                children = [{"p": share, "children": child} if isinstance(child, list) else
                            {**child, "p": share} if isinstance(child, dict) else {"p": share, "value": child}
                            for child, share in zip(children, given_shares)]
        return {"type": kind, "children": children, "eval": draw(st.one_of(number, LEAVES["decimal"]))}

    return {"root": node(0)}


def leaves_mix_decimals_and_exact(document) -> bool:
    """Integer and decimal leaves in one tree have no NumPy form: the Python path (not these tests' subject)."""
    kinds = set()

    def visit(node):
        if isinstance(node, dict):
            if "value" in node:
                kinds.add(isinstance(node["value"], float))
            for child in node.get("children", []):
                visit(child)
        else:
            kinds.add(isinstance(node, float))

    visit(document["root"])
    return len(kinds) > 1


def assert_matches_the_oracle(record, document, depth_limit=None) -> None:
    expected = oracles.expectiminimax(document, depth_limit).values
    got = record_by_id(record)
    assert got == expected
    exact_int = {key: (int if isinstance(value, Fraction) and value.denominator == 1 else type(value))
                 for key, value in expected.items()}
    assert {key: type(value) for key, value in got.items()} == exact_int
    assert {key: repr(value) for key, value in got.items()} == {key: repr(value) for key, value in expected.items()}


@SETTINGS
@given(chance_documents(), st.sampled_from([None, None, 1, 2, 3]))
def test_the_sweep_gives_the_oracles_values_for_real_probabilities(document, depth_limit):
    tree = build_tree(json.loads(json.dumps(document)), may_alias=False)
    record = sweep(tree, depth_limit, name="expectiminimax", min_width=0)
    if record is None:  # (a decimal eval over exact leaves without chance nodes: max and min need no sweep)
        assert leaves_mix_decimals_and_exact(document) or (depth_limit is not None and not tree.has_chance)
        return
    assert record.engine == "sweep"
    assert_matches_the_oracle(record, document, depth_limit)
    python = general_python_search(tree, "expectiminimax", depth_limit)
    assert list(record.values) == list(python.values)
    assert [type(value) for value in record.values] == [type(value) for value in python.values]
    assert (record.stats, record.value, record.best_move()) == (python.stats, python.value, python.best_move())
    assert record.horizon == python.horizon
    assert record.principal_variation() == python.principal_variation()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(chance_documents())
def test_json_and_gtb_files_give_the_same_exact_answer(tmp_path_factory, document):
    folder = tmp_path_factory.mktemp("real")
    text = folder / "tree.json"
    text.write_text(json.dumps(document))
    from_json = load_tree(text)
    binary = folder / "tree.gtb"
    binary.write_bytes(encode_binary(from_json))
    from_gtb = read_binary(binary, str(binary))
    assert from_gtb.prob == from_json.prob
    assert [type(p) for p in from_gtb.prob or []] == [type(p) for p in from_json.prob or []]
    answers = []
    for tree in (from_json, from_gtb):
        record = solve(tree, "expectiminimax")
        assert_matches_the_oracle(record, document)
        answers.append(json.dumps(result_document(record), sort_keys=True))
    assert answers[0] == answers[1]


def test_int64_overflow_hands_the_top_levels_to_the_python_rules():
    """Twelve-digit probabilities on three chance levels: 10**36 does not fit int64."""
    shares = [0.123456789012, 0.876543210988]
    inner = {"type": "chance", "children": [{"p": shares[0], "value": 7}, {"p": shares[1], "value": -3}]}
    middle = {"type": "max", "children": [{"type": "chance", "children": [
        {"p": share, **json.loads(json.dumps(inner))} for share in shares]} for _ in range(3)]}
    document = {"root": {"type": "chance", "children": [{"p": share, **json.loads(json.dumps(middle))}
                                                        for share in shares]}}
    tree = build_tree(json.loads(json.dumps(document)), may_alias=False)
    record = sweep(tree, name="expectiminimax", min_width=0)
    assert record is not None and record.python_levels > 0
    assert_matches_the_oracle(record, document)


def test_a_float_and_a_fraction_that_tie_in_numerators_compare_as_python_does():
    """0.5 * 0 + 0.5 * 0.6 is the float 0.3, which is below 3/10: max takes the fraction, min the float."""
    for kind, chosen in (("max", Fraction), ("min", float)):
        document = {"root": {"type": kind, "children": [
            {"type": "chance", "children": [{"p": 0.5, "value": 0}, {"p": 0.5, "value": "3/5"}]}, "3/10"]}}
        tree = build_tree(json.loads(json.dumps(document)), may_alias=False)
        record = sweep(tree, name="expectiminimax", min_width=0)
        assert record is not None and type(record.value) is chosen
        assert_matches_the_oracle(record, document)


def test_a_big_decimal_tree_is_solved_by_the_sweep():
    """Issue 14's tree, smaller: max, chance, min, chance, ... with p 0.1/0.2/0.3/0.4, read as JSON text."""
    shares = [0.1, 0.2, 0.3, 0.4]
    leaves = iter(range(10**6))

    def node(level: int):
        if level == 7:
            return {"value": next(leaves) % 199 - 99}
        kind = ("max", "chance", "min", "chance")[level % 4]
        children = [node(level + 1) for _ in shares]
        if kind == "chance":
            children = [{**child, "p": share} for child, share in zip(children, shares)]
        return {"type": kind, "children": children}

    document = {"root": node(0)}
    tree = parse_tree(json.dumps(document))
    record = solve(tree, "expectiminimax")
    assert (record.engine, record.python_levels) == ("sweep", 0)
    assert record.value == oracles.expectiminimax(document).value and type(record.value) is float


def test_a_decimal_with_more_digits_than_a_float_holds_is_read_back_as_the_float_prints():
    """The inner expectation has 17 significant digits: the float it rounds to prints otherwise, and the
    outer expectation sums the printed decimal (as the Python search and the oracle do), not the exact one."""
    inner = {"type": "chance", "children": [{"p": 0.33, "value": 987654321.098765}, {"p": 0.67, "value": 1.0}]}
    # 325925926.63259245 exactly; the float prints as 325925926.63259244, and the root differs in its last digit
    document = {"root": {"type": "chance", "children": [{"p": 0.3, **inner}, {"p": 0.7, "value": -1.0}]}}
    tree = build_tree(json.loads(json.dumps(document)), may_alias=False)
    record = sweep(tree, name="expectiminimax", min_width=0)
    assert record is not None and record.python_levels > 0
    assert_matches_the_oracle(record, document)


#: found by Hypothesis (2026-11-25): the levels' common denominator (2.1·10^18, from a 12-digit share and a
#: decimal eval) fits the top levels but not the horizon's; the sweep then decoded the levels it had already
#: rescaled over their old denominators, and the min nodes read -2·10^12 instead of -2
RESCALED_THEN_DECODED = {"root": {"type": "max", "eval": 3, "children": [
    {"type": "chance", "eval": 3, "children": [
        {"type": "min", "eval": 3, "children": [3, -2, {"type": "chance", "eval": 3, "children": [{"p": 1.0, "value": 3}]}]}]},
    {"type": "chance", "eval": 3, "children": [
        {"type": "min", "eval": 3, "p": "1/1", "children": [
            {"type": "chance", "eval": 1e-05, "children": [
                {"type": "max", "children": [3, 3, 3], "eval": 3, "p": 0.0},
                {"type": "max", "children": [3, 3, 3], "eval": 3, "p": 0.0},
                {"p": 0.0, "value": 3}, {"p": 1.0, "value": 3}]},
            3, -2,
            {"type": "max", "eval": 3, "children": [
                {"type": "chance", "eval": 3, "children": [{"p": 0.0, "value": 3}, {"p": 0.0, "value": 3}, {"p": 1.0, "value": 3}]},
                {"type": "chance", "eval": 3, "children": [{"p": 0.0, "value": 3}, {"p": 0.0, "value": 3},
                                                           {"p": 1e-12, "value": 3}, {"p": 0.999999999999, "value": 3}]},
                {"type": "max", "children": ["1/3"], "eval": 3},
                {"type": "max", "children": ["-5/7"], "eval": 3}]}]}]}]}}


def test_a_level_too_big_to_rescale_leaves_the_rescaled_ones_right():
    tree = build_tree(json.loads(json.dumps(RESCALED_THEN_DECODED)), may_alias=False)
    record = sweep(tree, 3, name="expectiminimax", min_width=0)
    assert record is not None and record.engine == "sweep"
    assert_matches_the_oracle(record, RESCALED_THEN_DECODED, 3)
    assert list(record.values) == list(general_python_search(tree, "expectiminimax", 3).values)
