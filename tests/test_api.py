"""The Python API a notebook user meets: load_tree, solve, Solution (docs/api.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gametree_cli
from gametree_cli import AlgorithmError, Options, Solution, Tree, TreeFormatError, load_tree, solve
from gametree_cli.search.registry import solve as run_search

TREES = Path(__file__).resolve().parent.parent / "trees"
AIMA = TREES / "aima-5-2.yaml"


def test_nothing_private_is_offered() -> None:
    names = dir(gametree_cli)
    assert names == sorted(set(gametree_cli.__all__) | {"__version__"})
    assert not [name for name in names if name.startswith("_") and name != "__version__"]
    for name in gametree_cli.__all__:
        assert getattr(gametree_cli, name) is not None


def test_load_tree_takes_a_path_a_string_path_or_the_text() -> None:
    from_path = load_tree(AIMA)
    assert isinstance(from_path, Tree) and len(from_path) == 13
    assert len(load_tree(str(AIMA))) == 13
    inline = load_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]")
    assert len(inline) == 13 and inline.title is None
    yaml_text = "root:\n  type: max\n  children: [1, 2]\n"
    assert len(load_tree(yaml_text)) == 3


def test_load_tree_errors_name_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(TreeFormatError, match="no-such-tree.yaml"):
        load_tree(tmp_path / "no-such-tree.yaml")
    with pytest.raises(TreeFormatError):
        load_tree("[[3, 12,")


def test_solve_speaks_in_ids_and_moves() -> None:
    answer = solve(load_tree(AIMA), "alphabeta")
    assert isinstance(answer, Solution)
    assert (answer.value, answer.best_move, answer.best_moves) == (3, "a1", ["a1"])
    assert answer.pruned == ["C.2", "C.3"]
    assert answer.principal_variation == ["a1", "B.1"]
    assert answer.values["B"] == 3 and "C.2" not in answer.values
    assert answer.value_of("C") == 2 and answer.bound("C") == "upper" and answer.bound("B") == "exact"
    assert answer.value_of("C.2") is None
    assert answer.stats == {"nodes_visited": 11, "leaves_evaluated": 7, "cutoffs": 2}
    assert answer.visit_order[:3] == ["A", "B", "B.1"]


def test_reprs_are_one_readable_line() -> None:
    tree = load_tree(AIMA)
    assert repr(tree) == "<Tree 'AIMA figure 5.2': 13 nodes, max/min, root 'A'>"
    assert repr(solve(tree, "alphabeta")) == (
        "<Solution alphabeta: value 3, best move 'a1', 11 of 13 nodes visited, pruned ['C.2', 'C.3']>")


def test_every_view_reads_the_one_record() -> None:
    answer = solve(AIMA, "alphabeta", trace=True)
    document = json.loads(answer.to_json())
    assert document["value"] == 3 and document["best_move"] == "a1" and document["pruned"] == ["C.2", "C.3"]
    assert answer.trace()[0] == "call maxValue(A, alpha=-inf, beta=inf)"
    assert answer.trace("es")[0].startswith("Invocacion maxValue(A")
    assert "a1 → B" in answer.text() and "\x1b[" not in answer.text()


def test_text_is_what_solve_prints_when_piped_long_lines_whole(tmp_path: Path) -> None:
    """A line longer than a terminal is kept whole, as the command line writes it to a pipe (Solution.text()
    wrapped at 100 columns, which broke the tree's drawing); width= still wraps for who asks."""
    import subprocess
    import sys

    path = tmp_path / "wide.yaml"
    path.write_text("root: {type: max, children: [{move: " + "x" * 150 + ", children: [3, 12]}, [2, 4]]}\n",
                    encoding="utf-8")
    piped = subprocess.run([sys.executable, "-m", "gametree_cli", "solve", str(path)], capture_output=True, text=True)
    answer = solve(str(path))
    assert piped.returncode == 0 and answer.text() == piped.stdout and "x" * 150 + " → 1" in answer.text()
    assert max(map(len, answer.text(width=60).splitlines())) <= 60
    assert answer.dot().startswith("digraph") and "forest" in answer.latex()
    with pytest.raises(ValueError, match="trace=True"):
        solve(AIMA).trace()


def test_options_as_keywords() -> None:
    hard = solve(AIMA, "alphabeta", variant="hard")
    assert hard.record.options.get("variant") == "hard"
    with_evals = '{"root": {"type": "max", "children": [{"eval": 5, "children": [1, 9]}, {"eval": 2, "children": [7]}]}}'
    assert solve(with_evals, "minimax").value == 7
    assert solve(with_evals, "minimax", depth=1).value == 5  # the evals at the depth limit
    with pytest.raises(AlgorithmError, match="unknown algorithm"):
        solve(AIMA, "no-such-algorithm")


def test_an_unknown_keyword_is_refused_not_ignored() -> None:
    """A typo (``dpeth=2``) used to run the search without the setting and give a wrong answer silently."""
    tree = load_tree(TREES / "depth-limited.yaml")
    assert solve(tree, "alphabeta").value != solve(tree, "alphabeta", depth=2).value  # the typo would matter
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'dpeth' \(known: depth, variant, strict, "
                                        r"order, ties, sum, bounds\)"):
        solve(tree, "alphabeta", dpeth=2)
    with pytest.raises(TypeError, match="arguments 'varient', 'stirct', 'ordr'"):
        solve(AIMA, "alphabeta", varient="hard", stirct=True, ordr="best")
    with pytest.raises(TypeError, match="'dpeth'"):  # the search layer's solve() too
        run_search(tree, "alphabeta", dpeth=2)


def test_keywords_beside_options_apply_to_a_copy() -> None:
    given = Options()
    hard = solve(AIMA, "alphabeta", options=given, variant="hard")
    assert hard.record.options["variant"] == "hard"
    assert given.variant == "soft"
    tree = load_tree(TREES / "depth-limited.yaml")
    limited = solve(tree, "alphabeta", options=given, depth=2)  # depth= beside options: a copy too
    assert given.depth is None
    assert solve(tree, "alphabeta", options=given).value == solve(tree, "alphabeta").value != limited.value


def test_options_compare_print_and_copy_as_the_dataclass_did() -> None:
    """Options is a plain class (no dataclasses import at start-up): equal by fields, shown by them, copied with
    its own ``extra``."""
    given = Options(depth=2, extra={"ties": "first"})
    copy = given.copy()
    assert copy == given and copy is not given and copy.extra is not given.extra
    copy.extra["sum"] = 10
    assert copy != given and given.extra == {"ties": "first"} and Options() == Options()
    assert repr(given) == "Options(depth=2, variant='soft', strict=False, order='given', extra={'ties': 'first'})"


def test_save_tree_says_force_true_from_python(tmp_path: Path) -> None:
    target = tmp_path / "t.json"
    target.write_text("{}")
    with pytest.raises(gametree_cli.GameTreeError, match=r"already exists \(use force=True to replace it\)"):
        gametree_cli.save_tree(load_tree(AIMA), target)
    gametree_cli.save_tree(load_tree(AIMA), target, force=True)
    assert len(load_tree(target)) == 13
