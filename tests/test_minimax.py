"""Minimax and alpha-beta: textbook answers, and agreement with the independent
recursive implementations of tests/oracles.py (over the raw nested lists) on random trees."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.events import Recorder
from gametree_cli.search.record import EXACT, UPPER
from gametree_cli.views.result_json import result_document

from . import oracles
from .conftest import TREES

def game_trees(max_leaves: int = 40):
    """Random compact trees: nested lists of small integers (many ties)."""
    leaf = st.integers(min_value=-9, max_value=9)
    return st.recursive(leaf, lambda children: st.lists(children, min_size=1, max_size=4), max_leaves=max_leaves)


# -- textbook answers -------------------------------------------------------------


def test_aima_figure_5_2_alphabeta_matches_contract_example() -> None:
    record = solve(load_tree(TREES / "aima-5-2.yaml"), "alphabeta")
    document = result_document(record)
    assert document["value"] == 3 and document["best_move"] == "a1"
    assert document["principal_variation"] == ["a1", "B.1"]
    assert document["pruned"] == ["C.2", "C.3"]
    assert document["visit_order"] == ["A", "B", "B.1", "B.2", "B.3", "C", "C.1", "D", "D.1", "D.2", "D.3"]
    assert document["stats"] == {"nodes_visited": 11, "leaves_evaluated": 7, "cutoffs": 2}
    assert document["nodes"]["C.2"] == {"visited": False, "type": "leaf"}
    assert document["nodes"]["C"]["cut"] == "v=2 <= alpha=3"
    assert document["nodes"]["B"]["alpha"] == "-inf" and document["nodes"]["B"]["beta"] == 3


def test_aima_minimax_values() -> None:
    record = solve(load_tree(TREES / "aima-5-2.yaml"), "minimax")
    tree = record.tree
    assert {tree.node_id(n): record.values[n] for n in range(4)} == {"A": 3, "B": 3, "C": 2, "D": 2}
    assert record.pruned == [] and record.stats.nodes_visited == 13 and record.stats.leaves_evaluated == 9


def test_course_example_prunes_inside_b3() -> None:
    record = solve(load_tree(TREES / "course.yaml"), "alphabeta")
    document = result_document(record)
    assert document["value"] == 3
    assert document["pruned"] == ["B3.2", "B3.3", "C.2", "C.3"]
    assert document["nodes"]["B3"]["value"] == 8 and document["nodes"]["B3"]["cut"] == "v=8 >= beta=3"
    assert document["nodes"]["D"]["value"] == 1
    assert document["stats"] == {"nodes_visited": 12, "leaves_evaluated": 7, "cutoffs": 3}


def test_hard_variant_returns_the_bounds() -> None:
    record = solve(load_tree(TREES / "course.yaml"), "alphabeta", variant="hard")
    tree = record.tree
    values = {tree.node_id(n): record.values[n] for n in range(len(tree)) if record.values[n] is not None}
    assert values["A"] == 3
    assert values["B3"] == 3  # returns beta on the cut, not v=8
    assert values["C"] == 3 and values["D"] == 3  # fail low: return alpha
    assert record.cuts[tree.index("B3")].reason() == "alpha=8 >= beta=3"


def test_strict_prunes_only_on_strict_inequality() -> None:
    tree = parse_tree("[[3, 5], [3, 9], [2, 7]]")
    assert result_document(solve(tree, "alphabeta"))["pruned"] == ["2.2", "3.2"]
    assert result_document(solve(tree, "alphabeta", strict=True))["pruned"] == ["3.2"]


def test_depth_limited_search_uses_eval() -> None:
    tree = load_tree(TREES / "depth-limited.yaml")
    full = solve(tree, "minimax")
    assert full.value == 7 and tree.move(full.best_move()) == "left"
    for algorithm in ("minimax", "alphabeta"):
        limited = solve(tree, algorithm, depth=2)
        document = result_document(limited)
        assert limited.value == 5 and document["best_move"] == "right", algorithm
        assert all(name not in document["visit_order"] for name in ("L1.1", "R2.2"))
        assert document["nodes"]["L1"]["horizon"] is True
        assert "L1.1" not in document["pruned"]
    assert solve(tree, "minimax", depth=2).stats.leaves_evaluated == 4
    assert solve(tree, "minimax", depth=0).value == 0


@pytest.mark.parametrize("name, algorithm", [("depth-limited.yaml", "minimax"), ("depth-limited.yaml", "alphabeta"),
                                             ("aima-5-2.yaml", "alphabeta"), ("maxn-3players.yaml", "paranoid")])
def test_a_limit_deeper_than_the_tree_is_no_limit(name: str, algorithm: str) -> None:
    """A depth of 2**63 or more overflowed the search's C integer and was reported as a decimal's range."""
    tree = load_tree(TREES / name)
    unlimited = result_document(solve(tree, algorithm))
    for depth in (len(tree) - 1, len(tree), 2**63 - 1, 2**63, 2**64, 10**30):
        limited = result_document(solve(tree, algorithm, depth=depth))
        assert limited.pop("depth") == depth  # the limit as given, echoed
        assert limited == {key: value for key, value in unlimited.items() if key != "depth"}, depth


def test_max_only_tree_is_single_agent_search() -> None:
    record = solve(load_tree(TREES / "max-only.yaml"), "minimax")
    assert record.value == 9
    assert [record.tree.move(n) for n in record.principal_variation()] == ["south", "forest", "forest.2"]


def _leaf_calls(tree, algorithm: str = "alphabeta") -> dict[str, str]:
    """The function each leaf is called with in the Spanish trace (``Invocacion maxValue(leaf...``)."""
    import re

    from gametree_cli.search.events import Recorder
    from gametree_cli.views.trace import TraceFormatter

    recorder = Recorder()
    solve(tree, algorithm, observer=recorder)
    formatter = TraceFormatter(tree, "es")
    calls = {}
    for event in recorder.events:
        line = formatter.line(event)
        if event.kind == "leaf" and line is not None:
            match = re.search(r"Invocacion (\w+)\(([^,)]+)", line)
            assert match is not None, line
            calls[match.group(2)] = match.group(1)
    return calls


def test_single_agent_leaves_are_called_as_its_inner_nodes_are() -> None:
    """A max-only tree: every child of a max node, inner or leaf, is called with maxValue (no MIN
    ever moves); two-player trees keep the notes' minValue for a leaf under MAX."""
    calls = _leaf_calls(load_tree(TREES / "max-only.yaml"))
    assert calls and set(calls.values()) == {"maxValue"}
    assert set(_leaf_calls(parse_tree("{type: min, children: [{type: min, children: [3, 4]}, 1]}")).values()) == {"minValue"}
    chance = parse_tree("{type: max, children: [{type: chance, children: [{type: max, children: [1, 2]}, 5]}, 3]}")
    assert set(_leaf_calls(chance, "expectiminimax").values()) == {"maxValue"}  # MAX moves again after the dice
    assert set(_leaf_calls(parse_tree("[3, 12, 8]")).values()) == {"minValue"}  # a lone MAX: MIN would move next
    course = _leaf_calls(load_tree(TREES / "course.yaml"))
    assert course["B.1"] == "maxValue" and course["B3.1"] == "minValue"


def test_ties_keep_the_first_child_and_best_moves_lists_all() -> None:
    tree = parse_tree("[[3, 4], [5, 3], [1, 9], [3, 3]]")
    document = result_document(solve(tree, "minimax"))
    assert document["best_move"] == "1" and document["best_moves"] == ["1", "2", "4"]
    document = result_document(solve(tree, "alphabeta"))
    # root child 2 is cut at its 3 (<= alpha=3): a bound, at most 3, so it may tie; no second search tells
    assert document["best_move"] == "1" and "best_moves" not in document


@pytest.mark.parametrize(("lang", "more"), [("en", "… and 1,990 more"), ("es", "… y 1,990 más")])
def test_the_summary_names_the_first_ten_equal_moves_and_counts_the_rest(lang: str, more: str) -> None:
    """QA: a root of 200,000 ties printed a 1.69 MB summary line (and DOT graph label); the JSON keeps all."""
    from gametree_cli.views.annotated import summary_line
    from gametree_cli.views.dot import render_dot

    record = solve(parse_tree(json.dumps([1] * 2001)), "minimax")
    named = ", ".join(str(child) for child in range(2, 12))
    line = summary_line(record, lang).plain
    assert f": {named} {more})" in line and "12" not in line.split("·")[1]
    assert f": {named} {more})" in render_dot(record, lang=lang)
    assert result_document(record)["best_moves"] == [str(child) for child in range(1, 2002)]
    few = solve(parse_tree(json.dumps([1] * 11)), "minimax")  # ten equal moves: all named, nothing counted
    assert summary_line(few, lang).plain.split("·")[1].endswith(f": {', '.join(str(c) for c in range(2, 12))}) ")


def test_alphabeta_best_moves_when_its_bounds_rule_ties_out() -> None:
    tree = parse_tree("[[3, 4], [2, 9], [5, 1]]")
    record = solve(tree, "alphabeta")
    assert [record.bound_kind(child) for child in tree.children(0)] == [EXACT, UPPER, UPPER]
    assert result_document(record)["best_moves"] == ["1"]  # 2 and 1 are at most 2 and 1: below 3
    hard = solve(tree, "alphabeta", variant="hard")  # fail-hard clamps them to alpha=3: they may tie
    assert [hard.values[child] for child in tree.children(0)] == [3, 3, 3] and hard.best_moves() is None


def test_fractions_stay_exact() -> None:
    record = solve(parse_tree('[["7/3", "5/2"], ["1/3"]]'), "alphabeta")
    assert result_document(record)["value"] == "7/3"


def test_root_leaf() -> None:
    document = result_document(solve(parse_tree("4"), "alphabeta"))
    assert document["value"] == 4 and document["best_move"] is None and document["principal_variation"] == []


def test_deep_chain_solves_without_recursion(tmp_path: Path, search_path: str) -> None:
    depth = 100_000
    path = tmp_path / "chain.json"
    path.write_text('{"root": ' + '{"children": [' * depth + "[5, 6]" + "]}" * depth + "}")
    tree = load_tree(path)
    assert solve(tree, "minimax").value == solve(tree, "alphabeta").value == (5 if depth % 2 else 6)
    recorder = Recorder()
    solve(tree, "alphabeta", observer=recorder)
    assert sum(event.kind == "call" for event in recorder.events) == depth + 1


# -- properties on random trees ------------------------------------------------------


# (the search_path fixture chooses the loop once for all examples: hypothesis may share it)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=game_trees())
def test_alphabeta_agrees_with_reference(raw, search_path: str) -> None:
    tree = parse_tree(json.dumps(raw))
    assert solve(tree, "minimax").value == oracles.compact_value(raw)
    for variant in ("soft", "hard"):
        for strict in (False, True):
            expected = oracles.alphabeta(raw, variant=variant, strict=strict)
            record = solve(tree, "alphabeta", variant=variant, strict=strict)
            document = result_document(record)
            assert record.value == expected.value == oracles.compact_value(raw)
            assert document["visit_order"] == expected.order
            assert document["pruned"] == expected.pruned
            assert document["stats"]["cutoffs"] == expected.stats["cutoffs"]
            assert {name: entry["value"] for name, entry in document["nodes"].items() if entry["visited"]} == \
                {name: oracles.to_json(value) for name, value in expected.values.items()}


@settings(max_examples=200, deadline=None)
@given(game_trees())
def test_visited_and_pruned_cover_the_tree_exactly_once(raw) -> None:
    tree = parse_tree(json.dumps(raw))
    record = solve(tree, "alphabeta")
    covered = list(record.visit_order())
    for node in record.pruned:
        assert record.values[node] is None
        stack = [node]
        while stack:
            current = stack.pop()
            covered.append(current)
            stack.extend(tree.children(current))
    assert sorted(covered) == list(range(len(tree)))


@settings(max_examples=100, deadline=None)
@given(game_trees())
def test_minimax_walk_with_events_agrees_with_sweep(raw) -> None:
    """minimax's two paths: the depth-first walk (here observed) and the NumPy level sweep."""
    from gametree_cli.search.sweep import sweep

    tree = parse_tree(json.dumps(raw))
    recorder = Recorder()
    walked = solve(tree, "minimax", observer=recorder)
    swept = sweep(tree, min_width=0)
    assert swept is not None
    assert walked.values == swept.values and walked.stats == swept.stats
    assert walked.principal_variation() == swept.principal_variation() and walked.best_moves() == swept.best_moves()
    assert [event.node for event in recorder.events if event.kind in ("call", "leaf")] == swept.visit_order()


def perfectly_ordered(branching: int, depth: int):
    """A uniform tree with distinct leaves whose first child is always the best one."""
    import random

    rng = random.Random(branching * 100 + depth)

    def build(level: int):
        return rng.random() if level == depth else [build(level + 1) for _ in range(branching)]

    return oracles.best_first(build(0))


@pytest.mark.parametrize("branching, depth", [(2, 1), (2, 4), (3, 3), (3, 4), (4, 5), (5, 2), (2, 7)])
def test_knuth_moore_minimal_tree_on_perfect_ordering(branching: int, depth: int) -> None:
    raw = perfectly_ordered(branching, depth)
    record = solve(parse_tree(json.dumps(raw)), "alphabeta")
    expected = branching ** math.ceil(depth / 2) + branching ** math.floor(depth / 2) - 1
    assert record.stats.leaves_evaluated == expected
    assert record.value == oracles.compact_value(raw)


# -- typed trees with evals, under depth limits ------------------------------------


def typed_trees():
    """Random mapping trees: some nodes typed max/min (repeats allowed), each inner node an eval."""
    leaf = st.builds(lambda value: {"value": value}, st.integers(-9, 9))

    def inner(children):
        return st.builds(
            lambda kids, kind, heuristic: {"children": kids, "eval": heuristic, **({"type": kind} if kind else {})},
            st.lists(children, min_size=1, max_size=3),
            st.sampled_from([None, None, "max", "min"]),
            st.integers(-9, 9),
        )

    return st.recursive(leaf, inner, max_leaves=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=typed_trees(), depth=st.sampled_from([None, 0, 1, 2, 3]))
def test_typed_trees_under_depth_limits(raw, depth, search_path: str) -> None:
    tree = parse_tree(json.dumps({"root": raw}))
    expected = oracles.minimax({"root": raw}, depth).value
    assert solve(tree, "minimax", depth=depth).value == expected
    for variant in ("soft", "hard"):
        assert solve(tree, "alphabeta", depth=depth, variant=variant).value == expected
    assert solve(tree, "minimax", depth=depth, observer=Recorder()).value == expected
