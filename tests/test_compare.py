"""`gametree compare` (every fitting algorithm side by side) and `gametree blank`
(the exercise handout: structure and leaf values, nothing computed)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.registry import Options
from gametree_cli.cli.app import app
from gametree_cli.exercises.comparison import compare_algorithms, pruned_nodes, searchable_nodes
from gametree_cli.core.numbers import value_to_json

from .conftest import TREES
from .test_ordering import compact_trees

AIMA = str(TREES / "aima-5-2.yaml")


def test_compare_aima_side_by_side(runner) -> None:
    result = runner.invoke(app, ["compare", AIMA])
    assert result.exit_code == 0, result.output
    lines = {line.split()[1]: " ".join(line.split()) for line in result.stdout.splitlines() if line.startswith("│")}
    # hand-counted: minimax visits all 13 nodes; alpha-beta 11, with C.2 and C.3 pruned
    assert lines["minimax"] == "│ minimax │ 3 │ a1 │ 13 │ 9 │ 0 │ 0 of 13 nodes (0.0%) │"
    assert lines["alphabeta"] == "│ alphabeta │ 3 │ a1 │ 11 │ 7 │ 2 │ 2 of 13 nodes (15.4%) │"
    assert "AIMA figure 5.2" in result.stdout


def test_compare_json_matches_each_solve(runner) -> None:
    result = runner.invoke(app, ["compare", AIMA, "--format", "json", "--order", "best"])
    assert result.exit_code == 0, result.output
    rows = {row["algorithm"]: row for row in json.loads(result.stdout)["algorithms"]}
    tree = load_tree(AIMA)
    for name, row in rows.items():
        record = solve(tree, name, order="best")
        assert row["stats"] == record.stats.as_dict()
        assert row["value"] == value_to_json(record.value)  # type: ignore[arg-type]
    assert rows["alphabeta"]["stats"]["leaves_evaluated"] == 5  # the minimal tree: 3 + 3 - 1
    assert rows["alphabeta"]["pruned"] == ["C.2", "C.3", "D.1", "D.2"]
    assert rows["alphabeta"]["pruned_nodes"] == 4 and rows["alphabeta"]["searchable_nodes"] == 13


def test_pruned_subtrees_are_counted_whole() -> None:
    # 2.1 = max(1, 2) = 2 <= alpha = 3: the cut skips 2.2 and its two leaves
    tree = parse_tree("[[3, 5], [[1, 2], [4, 6]]]")
    rows = {row.algorithm: row for row in compare_algorithms(tree)}
    assert rows["alphabeta"].pruned == 3 and rows["alphabeta"].searchable == len(tree) == 11
    assert rows["minimax"].pruned == 0


def test_depth_limit_counts_only_nodes_above_it(runner) -> None:
    tree = load_tree(TREES / "depth-limited.yaml")
    assert searchable_nodes(tree, 2) == 7 and searchable_nodes(tree, None) == len(tree) == 15
    rows = {row.algorithm: row for row in compare_algorithms(tree, Options(depth=2))}
    assert rows["alphabeta"].record.value == rows["minimax"].record.value == 5  # type: ignore[union-attr]
    result = runner.invoke(app, ["compare", str(TREES / "depth-limited.yaml"), "--depth", "1"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["compare", str(TREES / "aima-5-2.yaml"), "--depth", "1"])
    assert result.exit_code == 2 and "no eval" in result.stderr


@settings(max_examples=100, deadline=None)
@given(document=compact_trees)
def test_visited_plus_pruned_is_everything(document: Any) -> None:
    tree = parse_tree(json.dumps(document), fmt="json")
    for order in ("given", "best", "worst"):
        record = solve(tree, "alphabeta", order=order)
        assert record.stats.nodes_visited + pruned_nodes(record) == searchable_nodes(tree, None) == len(tree)


def test_compare_bad_input_exits_2(runner, tmp_path) -> None:
    result = runner.invoke(app, ["compare", str(tmp_path / "none.yaml")])
    assert result.exit_code == 2 and "no such file" in result.stderr


# -- blank --------------------------------------------------------------------------


def test_blank_shows_structure_and_leaves_only(runner) -> None:
    result = runner.invoke(app, ["blank", AIMA])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.splitlines()[0] == "AIMA figure 5.2"
    assert "a1 → B ▼ min" in text and "D.1  14" in text and "C.3  6" in text
    for computed in ("=", "α", "β", "✂", "cut", "pruned", "value"):
        assert computed not in text, computed


def test_blank_keeps_what_an_exercise_needs(runner) -> None:
    text = runner.invoke(app, ["blank", str(TREES / "depth-limited.yaml")]).stdout
    assert "R1 ▲ max  (eval 8)" in text and "R1.1  1" in text
    text = runner.invoke(app, ["blank", "--tree", '{"root": {"type": "chance", "children": [{"p": "1/3", "value": 3}, {"p": "2/3", "value": 6}]}}']).stdout
    assert "[p=1/3] 1  3" in text and "○ chance" in text and " = " not in text
    result = runner.invoke(app, ["blank", "-"], input="[[1, 2], [3, 4]]")
    assert result.exit_code == 0 and "2.2  4" in result.stdout


def test_compare_speaks_spanish(runner) -> None:
    spanish = runner.invoke(app, ["compare", AIMA, "--lang", "es"]).stdout
    assert "mejor jugada" in spanish and "nodos visitados" in spanish and "2 de 13 nodos (15.4%)" in spanish
    assert "best move" not in spanish


def test_blank_speaks_spanish(runner) -> None:
    """--lang es: the drawing's own words (the notes left out below a level) in Spanish, the tree unchanged."""
    english = runner.invoke(app, ["blank", AIMA, "--show-depth", "1"]).stdout
    spanish = runner.invoke(app, ["blank", AIMA, "--show-depth", "1", "--lang", "es"]).stdout
    assert "more nodes below" in english and "nodos más debajo" in spanish and "more" not in spanish
    assert spanish.splitlines()[:2] == english.splitlines()[:2]


def test_blank_bad_tree_exits_2(runner, tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("root:\n  children:\n    - id: B\n      children: [1]\n    - id: B\n      children: [2]\n")
    result = runner.invoke(app, ["blank", str(bad)])
    assert result.exit_code == 2 and result.stderr.startswith(f"{bad}:5:") and "duplicate" in result.stderr


def _compare_lines(width: int, lang: str = "en") -> tuple[list[str], list[Any]]:
    import io

    from rich.console import Console

    from gametree_cli.exercises.compare_table import comparison_table

    tree = load_tree(TREES / "backgammon-mini.yaml")
    rows = compare_algorithms(tree)
    console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system=None)
    console.print(comparison_table(rows, title=tree.title, lang=lang))
    return console.file.getvalue().splitlines(), rows  # type: ignore[attr-defined]


def test_compare_never_crops_names_or_values_on_narrow_consoles() -> None:
    from gametree_cli.core.numbers import format_value

    for width in (120, 80, 60, 40, 30):
        for lang in ("en", "es"):
            lines, rows = _compare_lines(width, lang)
            assert all(len(line) <= width for line in lines), (width, lines)
            assert not any("…" in line for line in lines), (width, lang, lines)
            for row in rows:  # each name and its value whole, on one line (the row or the block under the name)
                value = format_value(row.record.value)
                assert any(row.algorithm in line.replace("│", " ").split() for line in lines), (width, row.algorithm)
                assert any(value in line.split() for line in lines), (width, value, lines)
    wide, _ = _compare_lines(80)
    row = next(line for line in wide if "expectimax " in line)
    assert "443/8" in row and "47" in row  # at 80 columns still one table row per algorithm


def test_fitted_widths_fit_or_give_up() -> None:
    from gametree_cli.exercises.compare_table import fitted_widths

    headers, kinds = ["name", "a long header"], ["whole", "words"]
    cells = [["expectiminimax", "0 of 47 nodes"]]
    assert fitted_widths(headers, cells, kinds, 200) == [14, 13]
    narrow = fitted_widths(headers, cells, kinds, 28)  # 7 of border and padding, 14 for the name, 7 left
    assert narrow == [14, 7] and sum(narrow) + 7 == 28
    assert fitted_widths(headers, cells, kinds, 26) is None  # "header" is 6 wide, the name 14: 27 at least
