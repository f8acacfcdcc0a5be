"""Max-n, shallow pruning and paranoid search (issue 4).

Hand-checked textbook answers, and agreement with the independent recursive
implementations of tests/oracles.py over the raw tree documents (not our
code) on many random trees.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from io import StringIO
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from gametree_cli import AlgorithmError, IllegalTreeError
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.paranoid import paranoid
from gametree_cli.cli.app import app
from gametree_cli.search.events import CALL, CUT, LEAF, RETURN, Recorder
from gametree_cli.io.document import build_tree
from gametree_cli.views.annotated import render_result, value_text
from gametree_cli.views.result_json import result_document
from gametree_cli.views.trace import TraceFormatter

from . import oracles
from .conftest import HANG_GUARD, ROOT, TREES, shared_or_skip

RULES = ("left", "right", "paranoid", "altruistic")

# -- random trees ------------------------------------------------------------------


@st.composite
def nplayer_documents(draw, chance=False, max_depth=4):
    """A random n-player tree with explicit ids, evals everywhere, non-negative
    vectors of one constant sum (small, so ties are frequent)."""
    n = draw(st.sampled_from([3, 3, 4]))
    total = draw(st.integers(0, 6))
    ids = count()
    budget = [draw(st.integers(1, 20))]

    def vector():
        cuts = sorted(draw(st.lists(st.integers(0, total), min_size=n - 1, max_size=n - 1)))
        return [high - low for low, high in zip([0, *cuts], [*cuts, total])]

    def node(depth):
        ident = f"n{next(ids)}"
        if depth == max_depth or budget[0] <= 0 or (depth > 0 and draw(st.integers(0, 2)) == 0):
            return {"id": ident, "value": vector()}
        budget[0] -= 1
        out = {"id": ident, "eval": vector()}
        width = draw(st.integers(1, 3))
        if chance and draw(st.integers(0, 3)) == 0:
            out["type"] = "chance"
            children = [node(depth + 1) for _ in range(width)]
            if draw(st.booleans()):
                weights = draw(st.lists(st.integers(1, 4), min_size=width, max_size=width))
                for child, weight in zip(children, weights):
                    child["p"] = f"{weight}/{sum(weights)}"
            out["children"] = children
            return out
        choice = draw(st.integers(0, 2))
        if choice == 1:
            out["player"] = draw(st.integers(0, n - 1))
        elif choice == 2:
            out["player"] = f"P{draw(st.integers(0, n - 1))}"
        out["children"] = [node(depth + 1) for _ in range(width)]
        return out

    return {"players": [f"P{i}" for i in range(n)], "sum": total, "root": node(0)}


def load(document):
    return build_tree(json.loads(json.dumps(document)))


def by_id(record):
    tree = record.tree
    return {tree.node_id(node): value for node, value in enumerate(record.values) if value is not None}


# -- properties --------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(nplayer_documents(chance=True), st.sampled_from(RULES), st.sampled_from([None, None, 0, 1, 2]))
def test_maxn_agrees_with_reference(document, rule, depth):
    tree = load(document)
    expected = oracles.maxn(document, rule, depth)
    record = solve(tree, "maxn", depth=depth, ties=rule)
    assert by_id(record) == expected.values
    walked = solve(tree, "maxn", depth=depth, ties=rule, observer=Recorder())
    assert walked.values == record.values
    assert walked.principal_variation() == record.principal_variation()


@settings(max_examples=200, deadline=None)
@given(nplayer_documents(), st.sampled_from(RULES), st.sampled_from([None, None, 1, 2]))
def test_shallow_follows_the_course_pseudocode_and_equals_maxn(document, rule, depth):
    tree = load(document)
    total = document["sum"]
    expected = oracles.shallow(document, total, rule, depth)
    record = solve(tree, "shallow", depth=depth, ties=rule)
    ids = tree.ids()
    assert record.value == expected.value
    assert [ids[node] for node in record.visit_order()] == expected.order
    assert [ids[node] for node in record.pruned] == expected.pruned
    assert record.stats.as_dict() == expected.stats
    exhaustive = solve(tree, "maxn", depth=depth, ties=rule)
    assert record.value == exhaustive.value
    assert set(record.visit_order()) <= set(exhaustive.visit_order())
    assert record.best_move() == exhaustive.best_move()


@settings(max_examples=200, deadline=None)
@given(nplayer_documents(), st.sampled_from([None, None, 1, 2]))
def test_paranoid_is_minimax_for_the_root_player_against_the_coalition(document, depth):
    tree = load(document)
    record = solve(tree, "paranoid", depth=depth)
    assert record.value == oracles.paranoid(document, depth, exhaustive=True).value
    root = oracles.read(document).root_player()
    assert record.value <= solve(tree, "maxn", depth=depth).value[root]
    # the same pruning as alpha-beta on the tree written as a two-player file
    twin = solve(build_tree(oracles.to_document(oracles.paranoid_game(document))), "alphabeta", depth=depth)
    assert record.values == twin.values
    assert record.pruned == twin.pruned
    assert record.stats.as_dict() == twin.stats.as_dict()


@settings(max_examples=100, deadline=None)
@given(nplayer_documents())
def test_paranoid_best_moves_are_the_exactly_equal_root_moves(document):
    """When the search's bounds tell (see SearchRecord.best_moves), they tell the truth."""
    tree = load(document)
    record = solve(tree, "paranoid")
    moves = result_document(record).get("best_moves")
    if tree.count[0] == 0:
        assert moves == []
        return
    if moves is None:  # a root child's bound may hide a tie
        return
    exact = oracles.paranoid(document, exhaustive=True).values
    # the root is the root player's own node: every child worth the root's value is as good
    assert moves == [child["id"] for child in document["root"]["children"] if exact[child["id"]] == record.value]


# -- hand-checked answers ----------------------------------------------------------


def test_aima_three_player_tree():
    """AIMA fig. 5.4: C keeps its best, then B, then A; (1,2,6) and (1,5,2) tie for A."""
    tree = load_tree(TREES / "maxn-3players.yaml")
    record = solve(tree)
    assert record.algorithm == "maxn"
    values = by_id(record)
    assert values["c1"] == (1, 2, 6) and values["c2"] == (6, 1, 2)
    assert values["c3"] == (1, 5, 2) and values["c4"] == (5, 4, 5)
    assert values["b1"] == (1, 2, 6) and values["b2"] == (1, 5, 2)
    assert record.value == (1, 2, 6)
    assert tree.move(record.best_move()) == "b1"
    right = solve(tree, "maxn", ties="right")
    assert right.value == (1, 5, 2) and tree.move(right.best_move()) == "b2"
    assert solve(tree, "paranoid").value == 1  # A can only guarantee 1


def test_shallow_sum9_cuts_where_the_course_says():
    """After b, P1 has 3, so P2 at c is searched with Bound 9 - 3 = 6 and stops at 6."""
    tree = load_tree(TREES / "shallow-sum9.yaml")
    record = solve(tree, "shallow")
    ids = tree.ids()
    assert record.value == (4, 2, 3) == solve(tree, "maxn").value
    assert [ids[node] for node in record.pruned] == ["b2.2", "c2"]
    assert record.stats.as_dict() == {"nodes_visited": 18, "leaves_evaluated": 9, "cutoffs": 2}
    assert {ids[node]: bound for node, bound in record.bound.items()} == {
        "a": 9, "b": 9, "b1": 9, "b2": 6, "c": 6, "c1": 9, "d": 6, "d1": 9, "d2": 7}
    assert record.cuts[tree.index("c")].reason() == "Best[P2]=6 >= Bound=6"
    assert record.cuts[tree.index("b2")].reason() == "Best[P3]=7 >= Bound=6"
    assert tree.move(record.best_move()) == "d"


TIES = """
players: [P1, P2, P3]
root:
  id: A
  children:
    - id: B
      children: [[4, 5, 0], [1, 5, 3], [2, 5, 2]]
    - {id: C, value: [2, 2, 5]}
"""


@pytest.mark.parametrize(("rule", "at_b", "at_root"), [
    ("left", (4, 5, 0), (4, 5, 0)),        # keeps the first of the tied
    ("right", (2, 5, 2), (2, 2, 5)),       # takes the last of the tied (at the root too: 2 = 2)
    ("paranoid", (1, 5, 3), (2, 2, 5)),    # worst for P1 at B, so P1 prefers C
    ("altruistic", (4, 5, 0), (4, 5, 0)),  # best for P1
])
def test_tie_rules(rule, at_b, at_root):
    tree = parse_tree(TIES)
    record = solve(tree, "maxn", ties=rule)
    assert record.values[tree.index("B")] == at_b
    assert record.value == at_root
    assert record.options["ties"] == rule


def test_conformance_case_maxn_tie():
    case = shared_or_skip("conformance", "cases", "maxn-tie.case.json")
    expected = json.loads(case.read_text())["expect"]["json"]
    record = solve(load_tree(case.parent / "maxn-tie.yaml"), "maxn")
    document = json.loads(json.dumps(result_document(record)))
    for key in ("value", "best_move", "principal_variation", "pruned", "visit_order"):
        assert document[key] == expected[key]
    for name, entry in expected["nodes"].items():
        assert document["nodes"][name]["value"] == entry["value"]


def test_chance_nodes_take_the_expected_vector_exactly():
    tree = parse_tree("""
players: [A, B, C]
root:
  children:
    - type: chance
      children:
        - {p: 1/3, value: [1, 2, 3]}
        - {p: 2/3, children: [[3, 0, 1], [0, 4, 0]]}
    - [1, 1, 1]
""")
    record = solve(tree, "maxn")
    assert record.values[tree.index("1")] == (Fraction(1, 3), Fraction(10, 3), 1)
    assert record.value == (1, 1, 1)  # A: 1 beats the expectation's 1/3
    assert result_document(record)["nodes"]["1"]["value"] == ["1/3", "10/3", 1]


def test_chance_nodes_sum_decimals_as_written():
    # as a two-player chance node does: 0.1*1 + 0.2*2 + 0.7*3 is 2.6, not the binary
    # 2.5999999999999996 max-n used to report (found by test_crosscheck)
    tree = parse_tree("{players: [A, B, C], root: {type: chance, children: "
                      "[{p: 0.1, value: [1, 0, 0]}, {p: 0.2, value: [2, 0, 0]}, {p: 0.7, value: [3, 0, 0]}]}}")
    for observer in (None, Recorder()):
        assert solve(tree, "maxn", observer=observer).value == (2.6, 0, 0)


def test_paranoid_best_moves_left_out_when_a_bound_may_hide_a_tie():
    """A cut returns a bound: C returns 3 after its first leaf but is really worth 1 to P1, D returns 3
    and is worth 3. Both are "at most 3" to the search: which of them ties with B it cannot tell."""
    tree = parse_tree("""
players: [P1, P2, P3]
root:
  id: A
  children:
    - {id: B, children: [[3, 0, 0], [4, 0, 0]]}
    - {id: C, children: [[3, 0, 0], [1, 0, 0]]}
    - {id: D, children: [[3, 1, 0], [5, 0, 0]]}
""")
    record = solve(tree, "paranoid")
    ids = tree.ids()
    assert record.value == 3
    assert [ids[node] for node in record.pruned] == ["C.2", "D.2"]
    document = result_document(record)
    assert "best_moves" not in document and record.best_moves() is None
    assert solve(tree, "paranoid", order="best").best_moves() is None  # B, D, C: D is still cut at 3
    exhaustive = paranoid(tree, exhaustive=True)  # minimax on the same view: exact values tell
    assert [ids[node] for node in exhaustive.best_moves()] == ["B", "D"]


# -- bad input ---------------------------------------------------------------------


def test_leaf_not_summing_to_sum_is_an_error_at_load(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("players: [A, B, C]\nsum: 9\nroot:\n  children:\n    - [1, 2, 6]\n    - [1, 2, 7]\n")
    with pytest.raises(IllegalTreeError) as caught:
        load_tree(path)
    assert str(caught.value) == f"{path}:6:7: node 2: value sums to 10, not the declared sum 9"


def test_shallow_refuses_a_negative_component_with_its_location(tmp_path):
    path = tmp_path / "negative.yaml"
    path.write_text("players: [A, B, C]\nsum: 9\nroot:\n  children:\n    - [1, 2, 6]\n    - [-1, 4, 6]\n")
    tree = load_tree(path)
    assert solve(tree, "maxn").value == (1, 2, 6)  # max-n itself is fine with it
    with pytest.raises(IllegalTreeError) as caught:
        solve(tree, "shallow")
    assert str(caught.value) == (f"{path}:6:7: node 2: value (-1, 4, 6) has a negative component (-1); "
                                 "shallow pruning needs non-negative utilities")


def test_sum_option_overrides_the_file_and_is_checked():
    tree = load_tree(TREES / "shallow-sum9.yaml")
    with pytest.raises(IllegalTreeError, match=r"node b1.1: value \(3, 3, 3\) sums to 9, not the constant --sum 10"):
        solve(tree, "shallow", sum=10)
    tree = parse_tree("{players: [A, B, C], root: {children: [[1, 2, 3], [6, 0, 0]]}}")
    with pytest.raises(AlgorithmError, match="no constant sum"):
        solve(tree, "shallow")
    assert solve(tree, "shallow", sum=6).value == (6, 0, 0)


def test_shallow_checks_the_evals_the_depth_limit_uses():
    tree = parse_tree("""
players: [A, B, C]
sum: 6
root:
  children:
    - {eval: [2, 2, 2], children: [[1, 2, 3]]}
    - {eval: [3, 3, 1], children: [[6, 0, 0]]}
""")
    assert solve(tree, "shallow").value == (6, 0, 0)
    with pytest.raises(IllegalTreeError, match=r"node 2: eval \(3, 3, 1\) sums to 7"):
        solve(tree, "shallow", depth=1)


@pytest.mark.parametrize(("tree_file", "algo", "message"), [
    ("maxn-3players.yaml", "alphabeta", "alphabeta does not fit this tree: it has 3 players"),
    ("maxn-3players.yaml", "minimax", "(algorithms that fit: maxn, paranoid)"),
    ("maxn-3players.yaml", "shallow", "it has no constant sum (give sum: in the file, or --sum)"),
    ("aima-5-2.yaml", "maxn", "maxn does not fit this tree: it is a two-player tree of single numbers"),
    ("aima-5-2.yaml", "paranoid", "(algorithms that fit: minimax, alphabeta"),
    ("aima-5-2.yaml", "shallow", "shallow does not fit"),
])
def test_algorithms_refuse_trees_they_do_not_fit(runner, tree_file, algo, message):
    result = runner.invoke(app, ["solve", str(TREES / tree_file), "--algo", algo])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_chance_nodes_are_refused_by_shallow_and_paranoid():
    tree = parse_tree("{players: [A, B, C], sum: 3, root: {type: chance, children: [[1, 1, 1], [3, 0, 0]]}}")
    assert solve(tree, "maxn").value == (2, Fraction(1, 2), Fraction(1, 2))
    for algo in ("shallow", "paranoid"):
        with pytest.raises(AlgorithmError, match=r"it has chance nodes.*\(algorithms that fit: maxn\)"):
            solve(tree, algo)


def test_unknown_tie_rule_and_ties_for_paranoid_are_errors(runner):
    result = runner.invoke(app, ["solve", str(TREES / "maxn-3players.yaml"), "--ties", "middle"])
    assert result.exit_code == 2
    assert "unknown --ties rule 'middle' (expected left, right, paranoid, altruistic)" in result.output
    result = runner.invoke(app, ["solve", str(TREES / "maxn-3players.yaml"), "--algo", "paranoid", "--ties", "right"])
    assert result.exit_code == 2
    assert "--ties does not apply to paranoid" in result.output


# -- deep trees --------------------------------------------------------------------


def test_a_100000_deep_chain_needs_no_recursion():
    depth = 100_000
    node = {"value": [3, 0, 0]}
    for level in range(depth):
        node = {"children": [node, [0, 3, 0]] if level % 2 else [node]}
    tree = build_tree({"players": ["A", "B", "C"], "sum": 3, "root": node})
    values = {algo: solve(tree, algo).value for algo in ("maxn", "shallow", "paranoid")}
    assert values["maxn"] == values["shallow"]
    assert values["paranoid"] <= values["maxn"][0]
    walked = solve(tree, "maxn", observer=lambda event: None)
    assert walked.value == values["maxn"]


# -- views -------------------------------------------------------------------------


def trace_lines(tree, algo, lang, **options):
    recorder = Recorder()
    solve(tree, algo, observer=recorder, **options)
    formatter = TraceFormatter(tree, lang)
    return [line for line in map(formatter.line, recorder.events) if line is not None]


def test_shallow_trace_shows_vectors_and_bounds_in_english_and_spanish():
    tree = load_tree(TREES / "shallow-sum9.yaml")
    english = trace_lines(tree, "shallow", "en")
    assert english[0] == "call maxnValue[P1](a, Bound=9)"
    assert "  call maxnValue[P2](c, Bound=6)" in english
    assert "      leaf b1.1 = (3, 3, 3)" in english
    assert "    cut in maxnValue[P2] of c: Best[P2]=6 >= Bound=6 -> returns (2, 6, 1)" in english
    assert english[-1] == "  maxnValue[P1] of a returns (4, 2, 3)"
    spanish = trace_lines(tree, "shallow", "es")
    assert spanish[0] == "Invocacion maxnValue[P1](a, Bound=9):"
    assert ".. PODA en maxnValue[P2] de c porque Best[P2]=6 >= Bound=6 -> le asigna valor (2, 6, 1)" in spanish
    assert ". maxnValue[P1] de a asigna valor (4, 2, 3)" in spanish


def test_paranoid_trace_names_each_side():
    tree = load_tree(TREES / "maxn-3players.yaml")
    lines = trace_lines(tree, "paranoid", "es")
    assert lines[0] == "Invocacion maxValue[A](a, alfa=-inf, beta=inf):"
    assert ". Invocacion minValue[B](b1, alfa=-inf, beta=inf):" in lines
    # a leaf is called with the function of the player to move there, as in two-player traces: after C comes A
    assert "... Invocacion maxValue[A](c1.1, alfa=-inf, beta=inf) -> que retorna valor terminal (1, 2, 6) -> 1" in lines


def test_maxn_leaves_are_called_with_the_next_players_function():
    """As ``maxValue(B.1)`` below a min node: the player who moves at the leaf, the one at the inner siblings'
    nodes, else the next in the players' order."""
    lines = trace_lines(load_tree(TREES / "maxn-3players.yaml"), "maxn", "es")
    assert "... Invocacion maxnValue[A](c1.1) -> que retorna valor terminal (1, 2, 6)" in lines
    mixed = parse_tree('''
players: [A, B, C]
root:
  player: A
  children:
    - player: C
      children:
        - [1, 2, 3]
        - player: B
          children: [[4, 5, 6], [7, 8, 9]]
''', name="mixed.yaml", fmt="yaml")
    lines = trace_lines(mixed, "maxn", "es")
    assert ".. Invocacion maxnValue[B](1.1) -> que retorna valor terminal (1, 2, 3)" in lines  # B moves at 1.2
    assert "... Invocacion maxnValue[C](1.2.1) -> que retorna valor terminal (4, 5, 6)" in lines  # after B: C


def test_maxn_trace_events_carry_vectors():
    tree = load_tree(TREES / "maxn-3players.yaml")
    recorder = Recorder()
    solve(tree, "maxn", observer=recorder)
    kinds = [event.kind for event in recorder.events]
    assert kinds.count(CALL) == kinds.count(RETURN) == 7 and kinds.count(LEAF) == 8 and CUT not in kinds
    assert recorder.events[-1].value == (1, 2, 6)


def render(record, color=False):
    stream = StringIO()
    console = Console(file=stream, width=120, color_system="standard" if color else None, force_terminal=color)
    console.print(render_result(record))
    return stream.getvalue()


def test_annotated_tree_names_players_and_shows_compact_vectors():
    tree = load_tree(TREES / "shallow-sum9.yaml")
    text = render(solve(tree, "shallow"))
    assert "c ◆ P2  = (2, 6, 1)  [Bound=6]  ✂ cut: Best[P2]=6 >= Bound=6" in text
    assert "c2 ◆ P3  ✂ pruned" in text
    assert "shallow: value (4, 2, 3) · best move d" in text
    paranoid = render(solve(tree, "paranoid"))
    assert "b ◆ P2 ▼ min  = 1" in paranoid
    assert "b1.1  (3, 3, 3)  = 3" in paranoid
    assert "paranoid: value 2 for P1" in paranoid


def test_the_deciding_component_is_emphasised():
    text = value_text((1, 2, 6), 1, "bold")
    assert text.plain == "(1, 2, 6)"
    emphasised = [part for part, style in text.runs if "underline" in style]
    assert emphasised == ["2"]
    coloured = render(solve(load_tree(TREES / "maxn-3players.yaml"), "maxn"), color=True).splitlines()
    line = {name: next(row for row in coloured if f"m{name}\x1b" in row) for name in ("b1", "c1", "c1.1")}
    assert "\x1b[1;4m6\x1b[0m" in line["c1"] and "\x1b[1;4m2\x1b[0m" in line["b1"]  # C's 6, B's 2
    assert "\x1b[1;4m" not in line["c1.1"]  # a leaf decides nothing


def test_json_result_for_each_algorithm(runner):
    result = runner.invoke(app, ["solve", str(TREES / "shallow-sum9.yaml"), "--algo", "shallow", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["value"] == [4, 2, 3]
    assert document["pruned"] == ["b2.2", "c2"]
    assert document["nodes"]["c"] == {"visited": True, "value": [2, 6, 1], "type": "P2", "bound": 6,
                                      "cut": "Best[P2]=6 >= Bound=6"}
    assert document["nodes"]["c2"]["visited"] is False
    assert document["options"] == {"ties": "left", "sum": 9}
    result = runner.invoke(app, ["solve", str(TREES / "maxn-3players.yaml"), "--algo", "paranoid", "-f", "json"])
    document = json.loads(result.stdout)
    assert document["value"] == 1 and document["best_move"] == "b1"
    assert document["options"]["root_player"] == "A"


def test_json_trace_of_shallow(runner):
    result = runner.invoke(app, ["solve", str(TREES / "shallow-sum9.yaml"), "--algo", "shallow", "-f", "json", "--trace"])
    trace = json.loads(result.stdout)["trace"]
    assert trace[0] == {"event": "call", "node": "a", "depth": 0, "bound_value": 9}
    cut = next(event for event in trace if event["event"] == "cut" and event["node"] == "c")
    assert cut["value"] == 6 and cut["bound_value"] == 6 and cut["returns"] == [2, 6, 1]
    assert cut["skipped"] == ["c2"]


def test_real_subprocess():
    command = [sys.executable, "-m", "gametree_cli", "solve", str(TREES / "maxn-3players.yaml"), "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == [1, 2, 6]
    bad = subprocess.run([sys.executable, "-m", "gametree_cli", "solve", str(TREES / "maxn-3players.yaml"),
                          "--algo", "shallow"], capture_output=True, text=True, cwd=ROOT, timeout=HANG_GUARD)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
