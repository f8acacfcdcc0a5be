"""Star2 (Ballard's probing at chance nodes): against the independent oracle and expectiminimax.

Random trees come from tests/test_chance.py's generator (two players, chance
nodes, bounds [LOW, HIGH]); regular trees (max, chance, min, chance, ...)
make chance nodes whose children can all be probed, where Star2 differs
from Star1.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.search.registry import solve
from gametree_cli.search.events import Recorder
from gametree_cli.views.result_json import result_document
from gametree_cli.views.trace import TraceFormatter

from . import oracles
from .conftest import TREES
from .test_chance import HIGH, LOW, documents, tree_of, values_by_id


@st.composite
def regular_documents(draw: Any, max_depth: int = 5) -> dict[str, Any]:
    """max, chance, min, chance, ... levels, 1-3 children, bounds [LOW, HIGH], ids n0, n1, ..."""
    ids = itertools.count()
    kinds = ["max", "chance", "min", "chance"]

    def make(depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"id": f"n{next(ids)}"}
        if depth == max_depth or (depth > 1 and draw(st.integers(0, 5)) == 0):
            node["value"] = draw(st.integers(LOW, HIGH))
            return node
        node["type"] = kinds[depth % 4]
        count = draw(st.integers(1, 3))
        node["children"] = [make(depth + 1) for _ in range(count)]
        if node["type"] == "chance" and draw(st.booleans()):
            weights = draw(st.lists(st.integers(1, 4), min_size=count, max_size=count))
            for child, weight in zip(node["children"], weights):
                child["p"] = f"{weight}/{sum(weights)}"
        return node

    return {"bounds": [LOW, HIGH], "root": make(0)}


def check_against_oracle(document: dict[str, Any], depth: int | None = None, strict: bool = False) -> Any:
    tree = tree_of(document)
    game = oracles.read(document)
    reference = oracles.star2(game, LOW, HIGH, depth, strict=strict)
    exact = oracles.expectiminimax(game, depth)
    recorder = Recorder()
    record = solve(tree, "star2", depth=depth, strict=strict, observer=recorder)
    assert record.value == reference.value == exact.value
    result = result_document(record)
    assert result["visit_order"] == reference.order
    assert result["pruned"] == reference.pruned
    assert values_by_id(record) == reference.values
    assert record.stats.leaves_evaluated == reference.leaves
    assert record.stats.cutoffs == len(reference.cut)
    assert record.stats.nodes_visited == len(reference.order)
    ids = tree.ids()
    assert {ids[node]: probe for node, probe in record.probes.items()} == reference.bound
    quiet = solve(tree, "star2", depth=depth, strict=strict)
    assert quiet.values == record.values and quiet.pruned == record.pruned
    assert sum(event.kind == "leaf" for event in recorder.events) == record.stats.leaves_evaluated
    return record


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(bounds=True, evals=True, max_nodes=50), st.booleans(), st.sampled_from([None, None, 1, 2, 3]))
def test_star2_agrees_with_the_oracle_on_random_trees(document: dict[str, Any], strict: bool, depth: int | None) -> None:
    check_against_oracle(document, depth, strict)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(regular_documents(), st.booleans())
def test_star2_agrees_with_the_oracle_on_regular_trees(document: dict[str, Any], strict: bool) -> None:
    check_against_oracle(document, None, strict)


def leaves_below(node: dict[str, Any]) -> list[dict[str, Any]]:
    if "children" not in node:
        return [node]
    return [leaf for child in node["children"] for leaf in leaves_below(child)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(regular_documents(), st.sampled_from([LOW, HIGH]))
def test_star2_pruned_subtrees_cannot_change_the_value(document: dict[str, Any], extreme: int) -> None:
    """Sound pruning: any values in the pruned subtrees (here all L, or all U) give the same value."""
    record = solve(tree_of(document), "star2")
    pruned = set(record.pruned)
    ids = record.tree.ids()
    names = {ids[node] for node in pruned}
    changed = json.loads(json.dumps(document))

    def walk(node: dict[str, Any], inside: bool) -> None:
        inside = inside or node["id"] in names
        if "children" not in node:
            if inside:
                node["value"] = extreme
            return
        for child in node["children"]:
            walk(child, inside)

    walk(changed["root"], False)
    assert oracles.expectiminimax(changed).value == record.value
    # and nothing unvisited lies outside a pruned subtree
    parent = record.tree.parents()
    for node in range(len(record.tree)):
        if record.values[node] is None:
            up = node
            while up not in pruned:
                up = parent[up]
                assert up >= 0


def test_star2_probe_cuts_where_star1_searches() -> None:
    """Hand-checked: the min root's bound 3 meets Y's probes (5 and 6: at least 11/2) before any full search."""
    document = {
        "bounds": [-10, 10],
        "root": {"id": "A", "type": "min", "children": [
            {"id": "X", "type": "chance", "children": [
                {"id": "X1", "type": "max", "children": [3, 1]},
                {"id": "X2", "type": "max", "children": [2, 3]}]},
            {"id": "Y", "type": "chance", "children": [
                {"id": "Y1", "type": "max", "children": [5, 9]},
                {"id": "Y2", "type": "max", "children": [6, 0]}]}]},
    }
    record = check_against_oracle(document)
    tree = record.tree
    assert record.value == 3 and tree.move(record.best_move()) == "X"
    assert record.values[tree.index("Y")] == Fraction(11, 2)
    assert [tree.node_id(node) for node in record.pruned] == ["Y1.2", "Y2.2"]
    # X: both children probed (first moves 3, 2), then searched: the first moves are remembered,
    # so 6 leaves (X1.1, X2.1, X1.2, X2.2, Y1.1, Y2.1) where Star1 evaluates 7
    assert record.stats.leaves_evaluated == 6
    assert solve(tree, "star1").stats.leaves_evaluated == 7
    lines = [TraceFormatter(tree).line(event) for event in _events(tree, "star2")]
    assert "      X1.1 = 3: remembered from the probe, not searched again" in lines
    assert "    probe maxValue(Y2, alpha=-10, beta=1) with p=1/2: its first move only" in lines
    assert "      probe of Y2: maxValue >= 6 (lower bound from its first move)" in lines
    assert "    cut in chanceValue of Y: probed lower=11/2 >= beta=3 -> returns 11/2" in lines
    spanish = [TraceFormatter(tree, "es").line(event) for event in _events(tree, "star2")]
    assert ".. PODA en chanceValue de Y porque cota inferior de los sondeos=11/2 >= beta=3 -> le asigna valor 11/2" \
        in spanish
    result = result_document(record)
    assert result["probes"]["Y2"] == {"bound": "lower", "value": 6}
    from rich.console import Console

    from gametree_cli.views.annotated import annotated_tree
    from gametree_cli.views.dot import render_dot

    assert "Y2<br/>α=−10, β=1<br/>probe ≥ 6" in render_dot(record)  # DOT: a real minus sign, one line each
    console = Console(no_color=True, width=200, record=True, file=open("/dev/null", "w"))
    console.print(annotated_tree(record))
    assert "Y2 ▲ max  ≥ 6  [α=-10, β=1]  (probe: ≥ 6)" in console.export_text()  # only its first move searched


def test_a_probe_that_fails_low_bounds_nothing() -> None:
    # Root max takes 4 from the first chance node; the second's children are min nodes whose
    # first moves (-5, -6) put the upper bound at -11/2 <= alpha = 4: a cut on the probes.
    document = {"bounds": [-10, 10], "root": {"id": "R", "type": "max", "children": [
        {"id": "P", "type": "chance", "children": [{"id": "P1", "type": "min", "children": [4]},
                                                   {"id": "P2", "type": "min", "children": [4]}]},
        {"id": "Q", "type": "chance", "children": [{"id": "Q1", "type": "min", "children": [-5, 9]},
                                                   {"id": "Q2", "type": "min", "children": [-6, 9]}]}]}}
    record = check_against_oracle(document)
    tree = record.tree
    assert record.cut(tree.index("Q")).value_name == "probed upper"
    assert record.probes[tree.index("Q1")] == ("upper", -5)
    # Root max takes 8 from P, so Q's children need more than 6 to matter: Q1's first move 2
    # fails low (it bounds nothing), Q2's 7 is a lower bound; the search of Q1 (3) then cuts Q.
    document = {"bounds": [-10, 10], "root": {"id": "R", "type": "max", "children": [
        {"id": "P", "type": "chance", "children": [{"id": "P1", "type": "min", "children": [8]}]},
        {"id": "Q", "type": "chance", "children": [{"id": "Q1", "type": "max", "children": [2, 3]},
                                                   {"id": "Q2", "type": "max", "children": [7, 9]}]}]}}
    record = check_against_oracle(document)
    tree = record.tree
    assert record.probes[tree.index("Q1")] == (None, 2)
    assert record.probes[tree.index("Q2")] == ("lower", 7)
    assert record.cut(tree.index("Q")).value_name == "upper"  # the search's cut: 1/2*3 + 1/2*10 <= 8
    assert record.values[tree.index("Q")] == Fraction(13, 2)
    lines = [TraceFormatter(tree).line(event) for event in _events(tree, "star2")]
    assert "      probe of Q1: first move 2, outside the probe window: no bound" in lines


def _events(tree: Any, algorithm: str) -> list[Any]:
    recorder = Recorder()
    solve(tree, algorithm, observer=recorder)
    return recorder.events


@pytest.mark.parametrize("strict", [False, True])
def test_star2_with_decimals_gives_star1s_value(strict: bool) -> None:
    document = {"bounds": [-1.5, 2.5], "root": {"type": "max", "children": [
        {"type": "chance", "children": [{"type": "min", "p": 0.3, "children": [0.5, 1.25]},
                                        {"type": "min", "p": 0.7, "children": [2.0, -1.5]}]},
        {"type": "chance", "children": [{"type": "min", "p": "1/3", "children": [2.5, 0.1]},
                                        {"type": "min", "p": "2/3", "children": [-0.2, 1.0]}]}]}}
    tree = tree_of(document)
    star1 = solve(tree, "star1", strict=strict)
    star2 = solve(tree, "star2", strict=strict)
    assert star2.value == star1.value == solve(tree, "expectiminimax").value
    assert isinstance(star2.value, float)


def test_star2_command_line_and_refusals(runner: Any) -> None:
    from gametree_cli.cli.app import app

    result = runner.invoke(app, ["solve", str(TREES / "backgammon-mini.yaml"), "--algo", "star2", "--format", "json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["value"] == "221/4" and answer["algorithm"] == "star2" and "probes" in answer
    result = runner.invoke(app, ["solve", "--tree", "[[1, 2]]", "--algo", "star2"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["solve", str(TREES / "dice.yaml"), "--algo", "star2", "--variant", "hard"])
    assert result.exit_code == 2 and "fail-soft" in result.output


PROBED_CUT = {"bounds": [-10, 10], "root": {"id": "R", "type": "max", "children": [
    {"id": "P", "type": "chance", "children": [{"id": "P1", "type": "min", "children": [4]},
                                               {"id": "P2", "type": "min", "children": [4]}]},
    {"id": "Q", "type": "chance", "children": [{"id": "Q1", "type": "min", "children": [-5, 9]},
                                               {"id": "Q2", "type": "min", "children": [-6, 9]}]}]}}


@pytest.mark.parametrize(("lang", "reason"), [("en", "probed upper=5/2 <= alpha=4"),
                                              ("es", "cota superior de los sondeos=5/2 <= alfa=4")])
def test_a_cut_on_the_probes_is_worded_alike_in_every_view(lang: str, reason: str) -> None:
    """QA: the Spanish tree said 'probed upper=' where the trace said 'cota superior de los sondeos=',
    and the English trace 'upper bound of the probes=' where the tree and JSON said 'probed upper='."""
    from gametree_cli.views.annotated import annotated_tree
    from gametree_cli.views.page_words import page_reason

    tree = tree_of(PROBED_CUT)
    record = solve(tree, "star2")
    cut = record.cut(tree.index("Q"))
    trace = "\n".join(filter(None, (TraceFormatter(tree, lang).line(event) for event in _events(tree, "star2"))))
    assert f" {reason} -> " in trace
    assert f"✂ {'corte' if lang == 'es' else 'cut'}: {reason}" in annotated_tree(record, lang=lang).plain_text()
    assert page_reason(cut, lang) == reason
    if lang == "en":  # the JSON is not translated: the record's own words, which English shares
        assert result_document(record)["nodes"]["Q"]["cut"] == reason


@pytest.mark.parametrize(("lang", "name", "probe"), [("en", "probed upper", "probe"),
                                                      ("es", "cota superior de los sondeos", "sondeo")])
def test_pictures_word_cuts_and_probes_as_the_text_does(lang: str, name: str, probe: str) -> None:
    """QA: Spanish pictures said 'upper=4 ≤ α=4' and 'probe ≤ 6/5' where solve --lang es says
    'cota superior' and '(sondeo: ≤ 6/5)'."""
    from gametree_cli.views.dot import render_dot
    from gametree_cli.views.latex import render_latex

    tree = tree_of(PROBED_CUT)
    record = solve(tree, "star2")
    dot = render_dot(record, lang=lang)
    assert f"✂ {name}=5/2 ≤ α=4" in dot and f"<br/>{probe} ≤ −5" in dot  # Q, and Q1's probe (annotation lines: <br/>)
    latex = render_latex(record, lang=lang)
    assert "\\mathit{" + name.replace(" ", "\\ ") + "}{=}" in latex and f"{probe} $\\leq -5$" in latex
    star1 = solve(tree, "star1")
    cut = star1.cut(tree.index("Q"))
    said = {"en": "upper", "es": "cota superior"}[lang]
    assert cut is not None and cut.value_name == "upper" and f"✂ {said}=" in render_dot(star1, lang=lang)
