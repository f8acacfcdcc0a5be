"""``--order given|best|worst``: checked against the plain recursive alpha-beta
of tests/oracles.py over the raw nested-list document, Knuth–Moore's minimal
tree under the best order, and a tree built so that the worst order prunes nothing."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from io import StringIO
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.ordering import child_order_for
from gametree_cli.cli.app import app
from gametree_cli.core.errors import AlgorithmError
from gametree_cli.views.annotated import annotated_tree, render_result
from gametree_cli.views.result_json import result_document

from . import oracles
from .conftest import ROOT


def uniform(branching: int, depth: int, leaf: Any) -> Any:
    if depth == 0:
        return leaf()
    return [uniform(branching, depth - 1, leaf) for _ in range(branching)]


compact_trees = st.recursive(
    st.integers(-20, 20),
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=40,
)


# -- agreement with the reference ---------------------------------------------


@settings(max_examples=200, deadline=None)
@given(document=compact_trees, order=st.sampled_from(["given", "best", "worst"]))
def test_every_order_matches_the_reference(document: Any, order: str) -> None:
    tree = parse_tree(json.dumps(document), fmt="json")
    record = solve(tree, "alphabeta", order=order)
    reference = oracles.alphabeta(document, order=order)
    ids = tree.ids()
    assert record.value == reference.value == oracles.compact_value(document)
    assert [ids[node] for node in record.visit_order()] == reference.order
    assert [ids[node] for node in record.pruned] == reference.pruned  # in tree order
    assert record.stats.as_dict() == reference.stats
    assert record.options["order"] == order


@settings(max_examples=100, deadline=None)
@given(document=compact_trees)
def test_given_order_is_the_file_order(document: Any) -> None:
    tree = parse_tree(json.dumps(document), fmt="json")
    assert child_order_for(tree, "given") is None
    plain = result_document(solve(tree, "alphabeta"))
    given_order = result_document(solve(tree, "alphabeta", order="given"))
    for key in ("value", "pruned", "visit_order", "stats", "nodes"):
        assert plain[key] == given_order[key]


# -- Knuth–Moore: the best order searches the minimal tree ---------------------


@settings(max_examples=150, deadline=None)
@given(
    branching=st.integers(1, 4),
    depth=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    spread=st.sampled_from([1, 3, 1000]),
)
def test_best_order_reaches_the_minimal_tree(branching: int, depth: int, seed: int, spread: int) -> None:
    if branching**depth > 1500:
        depth = max(d for d in range(1, 7) if branching**d <= 1500)
    rng = random.Random(seed)
    # small spreads make many ties: the count must not depend on them
    document = uniform(branching, depth, lambda: rng.randint(0, spread))
    tree = parse_tree(json.dumps(document), fmt="json")
    record = solve(tree, "alphabeta", order="best")
    minimal = branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1
    assert record.stats.leaves_evaluated == minimal
    assert record.value == oracles.compact_value(document)


def test_best_order_minimal_tree_textbook_sizes() -> None:
    # b=3, d=4: 3^2 + 3^2 - 1 = 17 of 81 leaves; b=2, d=3: 2^2 + 2 - 1 = 5 of 8.
    for branching, depth, minimal in ((3, 4, 17), (2, 3, 5), (10, 2, 19)):
        counter = iter(range(10**6))
        document = uniform(branching, depth, lambda: next(counter) % 7)
        record = solve(parse_tree(json.dumps(document), fmt="json"), "alphabeta", order="best")
        assert record.stats.leaves_evaluated == minimal


# -- the worst order degrades to minimax ---------------------------------------


def worst_case_tree(branching: int, depth: int, is_max: bool, low: int, rng: random.Random) -> tuple[Any, int]:
    """A subtree whose value lies strictly inside (low, low + width), built so
    that, searched worst-first inside any wider window, no cut ever happens.

    A max node's children occupy consecutive value intervals, so worst-first
    (ascending) each one raises v and stays below beta; a min node's the
    same, mirrored. Children are then shuffled in the file, so the search's
    own sort has to find the worst order.
    """
    if depth == 0:
        return low + 1, 2
    width = 2 * branching ** (depth - 1)
    children = []
    for position in range(branching):
        child, _ = worst_case_tree(branching, depth - 1, not is_max, low + position * width, rng)
        children.append(child)
    rng.shuffle(children)
    return children, width * branching


@settings(max_examples=60, deadline=None)
@given(branching=st.integers(2, 4), depth=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_worst_order_prunes_nothing_on_a_tree_built_so(branching: int, depth: int, seed: int) -> None:
    while branching**depth > 1500:
        depth -= 1
    document, _ = worst_case_tree(branching, depth, True, 0, random.Random(seed))
    tree = parse_tree(json.dumps(document), fmt="json")
    worst = solve(tree, "alphabeta", order="worst")
    assert worst.pruned == []
    assert worst.stats.cutoffs == 0
    assert worst.stats.leaves_evaluated == branching**depth
    assert worst.stats.nodes_visited == len(tree)
    assert worst.value == oracles.compact_value(document)
    if depth >= 2:  # the same tree is not unprunable: the best order cuts it down
        best = solve(tree, "alphabeta", order="best")
        assert best.stats.leaves_evaluated < branching**depth


def test_worst_order_on_the_textbook_tree() -> None:
    record = solve(load_tree(ROOT / "trees" / "aima-5-2.yaml"), "alphabeta", order="worst")
    ids = record.tree.ids()
    # C (2) and D (2) tie, so they keep their file order, then B (3);
    # inside each MIN node the largest leaf first (D's are already so)
    assert [ids[n] for n in record.visit_order()] == ["A", "C", "C.3", "C.2", "C.1", "D", "D.1", "D.2", "D.3", "B", "B.2", "B.3", "B.1"]
    assert record.pruned == []
    assert record.value == 3


def test_best_order_with_a_depth_limit_sorts_by_eval() -> None:
    # hand-verified: at depth 2, L = min(4, 6) = 4 and R = min(8, 5) = 5, so R goes first,
    # R2 (5) before R1 (8); L's first child L1 (4) <= alpha=5 cuts L2.
    record = solve(load_tree(ROOT / "trees" / "depth-limited.yaml"), "alphabeta", depth=2, order="best")
    ids = record.tree.ids()
    assert [ids[n] for n in record.visit_order()] == ["S", "R", "R2", "R1", "L", "L1"]
    assert [ids[n] for n in record.pruned] == ["L2"]
    assert record.value == 5
    assert record.tree.move(record.best_move()) == "right"


def test_exact_fractions_are_sorted_exactly() -> None:
    tree = parse_tree('[["1/3", "2/7"], ["1/2", "5/9"]]', fmt="json")
    record = solve(tree, "alphabeta", order="best")
    assert record.value == Fraction(1, 2)
    assert [tree.node_id(n) for n in record.visit_order()][:2] == ["root", "2"]


def test_unknown_order_is_an_algorithm_error() -> None:
    tree = parse_tree("[[1, 2], [3]]")
    with pytest.raises(AlgorithmError, match="unknown order"):
        child_order_for(tree, "random")


# -- the order is visible -------------------------------------------------------


def render(renderable: Any) -> str:
    console = Console(file=StringIO(), width=120, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_annotated_tree_draws_the_search_order_with_file_positions() -> None:
    record = solve(load_tree(ROOT / "trees" / "aima-5-2.yaml"), "alphabeta", order="worst")
    text = render(render_result(record))
    lines = [line for line in text.splitlines() if "→" in line]
    assert [line.split("→")[1].split()[0] for line in lines] == ["C", "D", "B"]
    assert "#3 a3 → D" in text and "#1 ★ a1 → B" in text  # B is on the principal variation
    assert "--order worst" in text and "order worst" in text.splitlines()[-1]
    given_text = render(annotated_tree(solve(record.tree, "alphabeta")))
    assert "#1" not in given_text and "--order" not in given_text


def test_cli_order_reaches_json_and_text(runner) -> None:
    tree = str(ROOT / "trees" / "aima-5-2.yaml")
    result = runner.invoke(app, ["solve", tree, "--order", "best", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["options"]["order"] == "best"
    assert document["stats"]["leaves_evaluated"] == 5  # 3 + 1 + 1: the minimal tree of b=3, d=2
    result = runner.invoke(app, ["solve", tree, "--order", "sideways"])
    assert result.exit_code == 2


def test_a_100000_deep_chain_needs_no_recursion() -> None:
    depth = 100_000
    tree = parse_tree("[" * depth + "7" + "]" * depth, fmt="json")
    record = solve(tree, "alphabeta", order="best")
    assert record.value == 7 and record.stats.nodes_visited == depth + 1
    text = render(annotated_tree(record, depth=2))
    assert "#1" in text and "more nodes below" in text


def drawn_ids(text: str) -> list[str]:
    """Ids of the drawn nodes, top to bottom (notes left out)."""
    ids = []
    for line in text.splitlines():
        body = line.lstrip("│├└─ ")
        if not body or body.startswith("("):
            continue
        body = body.split(" ", 1)[1] if body.startswith("#") else body
        body = body.removeprefix("★ ")  # the principal variation's mark
        body = body.split("→ ", 1)[1] if "→ " in body else body
        ids.append(body.split()[0])
    return ids


@pytest.mark.parametrize(("tree_file", "algorithm", "order"), [
    ("aima-5-2.yaml", "alphabeta", "worst"),
    ("course.yaml", "alphabeta", "best"),
    ("maxn-3players.yaml", "paranoid", "best"),  # sorts a derived two-player view of the tree
])
def test_the_drawing_follows_the_search(tree_file: str, algorithm: str, order: str) -> None:
    from gametree_cli.search.registry import ALGORITHMS

    if algorithm not in ALGORITHMS:
        pytest.skip(f"{algorithm} is not registered")
    record = solve(load_tree(ROOT / "trees" / tree_file), algorithm, order=order)
    tree, ids = record.tree, record.tree.ids()
    rank = {node: k for k, node in enumerate(record.visit_order())}
    expected: list[str] = []

    def walk(node: int) -> None:  # visited children as entered, then the others in file order
        expected.append(ids[node])
        for child in sorted(tree.children(node), key=lambda child: (rank.get(child, math.inf), child)):
            walk(child)

    walk(0)
    assert drawn_ids(render(annotated_tree(record))) == expected
    visited = [node_id for node_id in expected if rank.get(tree.index(node_id)) is not None]
    assert visited == [ids[node] for node in record.visit_order()]
