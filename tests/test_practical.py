"""``--variant practical``: the course notes' alpha-beta form (issue 13 §1).

Hand-checked fixtures (the notes' tree, the smallest tree where the forms
differ) and, on random trees, agreement with :func:`oracles.alphabeta_notes`,
written straight from the notes' pseudo-code; both with the compiled search
loop and its Python source (``search_path``).
"""

from __future__ import annotations

import json

import pytest

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.events import Recorder
from gametree_cli.search.record import EXACT, LOWER, UPPER

from . import oracles
from .conftest import TREES
from .test_crosscheck import depth_choice, make_tree

SMALLEST = '{"root":{"type":"max","children":[6,{"children":[2]}]}}'
#: random trees per family (two families: compact and typed)
PER_FAMILY = 200


def values_by_id(record) -> dict[str, object]:
    tree = record.tree
    return {tree.node_id(node): value for node, value in enumerate(record.values) if value is not None}


def test_the_notes_tree_gives_the_notes_values(search_path: str) -> None:
    """A max; B = min(3, 12, B3); B3 = max(8, 7, 3); C = min(2, 4, 6); D = min(14, 5, 1), by hand:
    B3 is entered with (-inf, 3), raises alpha to 8 >= 3 and returns alpha = 8; C is entered with
    (3, inf), lowers beta to 2 <= 3 and returns 2; D lowers beta to 14, 5, then 1 <= 3: returns 1."""
    tree = load_tree(TREES / "course.yaml")
    record = solve(tree, "alphabeta", variant="practical")
    got = values_by_id(record)
    assert (got["A"], got["B"], got["B3"], got["C"], got["D"]) == (3, 3, 8, 2, 1)
    assert record.stats.cutoffs == 3 and record.pruned == [tree.index(i) for i in ("B3.2", "B3.3", "C.2", "C.3")]
    assert record.cut(tree.index("B3")).reason() == "alpha=8 >= beta=3"
    hard = values_by_id(solve(tree, "alphabeta", variant="hard"))
    assert (hard["B3"], hard["C"], hard["D"]) == (3, 3, 3)  # fail-hard returns the other bound


def test_smallest_case(search_path: str) -> None:
    tree = parse_tree(SMALLEST)
    inner = tree.index("2")
    assert solve(tree, "alphabeta", variant="practical").values[inner] == 2
    assert solve(tree, "alphabeta", variant="hard").values[inner] == 6
    assert solve(tree, "alphabeta").values[inner] == 2


def test_the_notes_trace_line(runner) -> None:
    from gametree_cli.cli.app import app

    result = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--variant", "practical", "--trace", "--lang", "es"])
    assert result.exit_code == 0
    assert "... PODA en maxValue de B3 porque alfa=8 >= beta=3 -> le asigna valor 8\n" in result.stdout


def test_answer_files_and_json_name_the_variant(runner, tmp_path) -> None:
    from gametree_cli.cli.app import app

    result = runner.invoke(app, ["solve", "--tree", SMALLEST, "--variant", "practical", "-f", "json"])
    document = json.loads(result.stdout)
    assert document["options"]["variant"] == "practical" and document["nodes"]["2"]["value"] == 2
    answers = tmp_path / "a.yaml"
    answers.write_text(f"tree: {TREES / 'course.yaml'}\nalgorithm: alphabeta\nvariant: practical\n"
                       "answers: {nodes: {B3: 8, C: 2, D: 1}}\n")
    assert runner.invoke(app, ["check", str(answers)]).exit_code == 0


@pytest.mark.parametrize("family", ["compact", "typed"])
def test_practical_agrees_with_the_notes_pseudo_code(family: str, search_path: str) -> None:
    failures = []
    for seed in range(PER_FAMILY):
        document, facts, rng = make_tree(family, seed)
        game = oracles.read(document)
        if any(node["type"] == "chance" for node in game.nodes()):
            continue
        depth, strict = depth_choice(rng, facts), rng.random() < 0.3
        tree = parse_tree(json.dumps(document))
        expected = oracles.alphabeta_notes(game, depth, strict=strict)
        recorder = Recorder()
        record = solve(tree, "alphabeta", depth=depth, variant="practical", strict=strict, observer=recorder)
        quiet = solve(tree, "alphabeta", depth=depth, variant="practical", strict=strict)
        problems = compare(tree, record, expected, game, depth)
        if values_by_id(quiet) != values_by_id(record):
            problems.append("the search without an observer gives other values")
        returns = {tree.node_id(e.node): e.value for e in recorder.events if e.kind in ("return", "leaf")}
        if returns != expected.values:
            problems.append(f"trace returns {returns} != {expected.values}")
        if problems:
            failures.append(f"{family} seed {seed} depth={depth} strict={strict}: {problems[:3]}")
    assert not failures, "\n".join(failures[:5])


def compare(tree, record, expected: oracles.Search, game, depth) -> list[str]:
    """Every fact the oracle speaks for; and that each bound kind the record claims is true."""
    problems = []
    got = values_by_id(record)
    if got != expected.values:
        problems.append(f"values {got} != {expected.values}")
    if record.value != expected.value:
        problems.append(f"value {record.value} != {expected.value}")
    if [tree.node_id(n) for n in record.visit_order()] != expected.order:
        problems.append("visit order")
    if [tree.node_id(n) for n in record.pruned] != expected.pruned:
        problems.append(f"pruned {record.pruned} != {expected.pruned}")
    if record.stats.as_dict() != expected.stats:
        problems.append(f"stats {record.stats.as_dict()} != {expected.stats}")
    if sorted(tree.node_id(n) for n in record.cuts) != sorted(expected.cut):
        problems.append("cut nodes")
    for node_id, (alpha, beta) in expected.returned.items():
        node = tree.index(node_id)
        if tree.count[node] and node_id not in expected.horizon and record.bounds(node) != (alpha, beta):
            problems.append(f"{node_id}: returned with {record.bounds(node)}, expected {(alpha, beta)}")
    exact = oracles.minimax(game, depth).values
    for node_id, value in got.items():
        kind, truth = record.bound_kind(tree.index(node_id)), exact[node_id]
        claims = {EXACT: truth == value, LOWER: truth >= value, UPPER: truth <= value}.get(kind, True)
        if not claims:
            problems.append(f"{node_id}: bound kind {kind} of {value}, but its value is {truth}")
    return problems


# -- issue 13 §2-3: bounds shown as bounds, the principal variation marked, Spanish everywhere ----------


def test_a_cut_node_shows_a_bound_and_a_cut_at_the_last_child_prunes_nothing(runner) -> None:
    """[[3],[3,1]]: node 2 is cut after 3 <= alpha=3, so it holds "at most 3" (its value is 1);
    [[3],[5,3]]: the condition holds at 2's last child: counted, but nothing is drawn pruned."""
    from gametree_cli.cli.app import app

    text = runner.invoke(app, ["solve", "--tree", "[[3],[3,1]]"]).stdout
    assert "└── 2 ▼ min  ≤ 3  [α=3, β=inf]  ✂ cut: v=3 <= alpha=3" in text
    assert "★ root ▲ max  = 3" in text and "├── ★ 1 ▼ min  = 3" in text  # the PV, without colour
    result = runner.invoke(app, ["solve", "--tree", "[[3],[5,3]]", "-f", "json"])
    document = json.loads(result.stdout)
    assert document["stats"]["cutoffs"] == 1 and document["pruned"] == []
    assert document["nodes"]["2"]["bound_kind"] == "upper" and "bound_kind" not in document["nodes"]["root"]
    text = runner.invoke(app, ["solve", "--tree", "[[3],[5,3]]"]).stdout
    assert "✂" not in text and "bound reached at the last child: v=3 <= alpha=3" in text
    trace = runner.invoke(app, ["solve", "--tree", "[[3],[5,3]]", "--trace", "--lang", "es"]).stdout
    assert "PODA" not in trace
    assert ".. Cota alcanzada en el ultimo hijo en minValue de 2 porque v=3 <= alfa=3 -> le asigna valor 3\n" in trace


def test_the_spanish_trace_reads_as_the_notes(runner) -> None:
    from gametree_cli.cli.app import app

    minimax = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--algo", "minimax", "--trace", "--lang", "es"])
    lines = minimax.stdout.splitlines()
    assert ".. Invocacion maxValue(B.1) -> que retorna valor terminal 3" in lines
    assert "... Invocacion minValue(B3.1) -> que retorna valor terminal 8" in lines
    assert lines[lines.index("") - 1] == "valor encontrado: 3"
    pruning = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--trace", "--lang", "es"]).stdout
    assert ".. Invocacion maxValue(B.2, alfa=-inf, beta=3) -> que retorna valor terminal 12\n" in pruning
    assert "... PODA en maxValue de B3 porque v=8 >= beta=3 -> le asigna valor 8\n" in pruning  # the contract's line
    english = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--trace"]).stdout
    assert "    leaf B.1 = 3\n" in english and "value found: 3\n" in english


def test_spanish_covers_the_tree_the_summary_and_check(runner, tmp_path) -> None:
    from gametree_cli.cli.app import app

    text = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--lang", "es"]).stdout
    assert "✂ corte: v=2 <= alfa=3" in text and "✂ podado" in text
    assert "alphabeta: valor 3 · mejor jugada B · nodos visitados 12 · hojas evaluadas 7 · cortes 3" in text
    for word in ("cut", "pruned", "best move", "nodes visited", "value "):
        assert word not in text
    answers = tmp_path / "a.yaml"
    answers.write_text(f"tree: {TREES / 'course.yaml'}\nalgorithm: alphabeta\nanswers: {{value: 3, nodes: {{B3: 7}}}}\n")
    report = runner.invoke(app, ["check", str(answers), "--lang", "es"])
    assert report.exit_code == 1
    assert "nodes[B3].value: se esperaba 7, se obtuvo 8" in report.stdout and "1 ejercicio: 0 bien, 1 mal" in report.stdout


def test_the_pictures_show_bounds_and_the_principal_variation() -> None:
    from gametree_cli.views.dot import render_dot
    from gametree_cli.views.latex import render_latex

    record = solve(load_tree(TREES / "course.yaml"), "alphabeta", variant="practical")
    dot = render_dot(record, lang="es")
    assert 'label="≥ 8"' in dot and 'label="≤ 2"' in dot and '<td balign="right">★ A<br/>' in dot  # A's annotation, beside it
    assert "(en el último hijo)" in dot and "✂ β=1" not in dot  # D: cut at its last child
    latex = render_latex(record)
    assert r"$\geq 8$" in latex and r"$\leq 1$" in latex and r"$\star$\,A" in latex
