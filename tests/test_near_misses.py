"""Near misses met on the way (issue 13 §5): a misspelt algorithm, a tree file given to ``check``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gametree_cli.core.suggest import closest

from .conftest import TREES

GAMETREE = [sys.executable, "-m", "gametree_cli"]
KNOWN = ["minimax", "alphabeta", "expectiminimax", "expectimax", "star1", "star2", "maxn", "shallow", "paranoid"]


def run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(GAMETREE + list(arguments), capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("given", "meant"),
    [("alpha-beta", "alphabeta"), ("Alpha_Beta", "alphabeta"), ("alpha beta", "alphabeta"),
     ("alphabta", "alphabeta"), ("mini-max", "minimax"), ("expectimini", "expectiminimax"),
     ("star-1", "star1"), ("max-n", "maxn"), ("paranoia", "paranoid")],
)
def test_closest_names_the_meant_algorithm(given: str, meant: str) -> None:
    assert closest(given, KNOWN) == meant


@pytest.mark.parametrize("given", ["negamax", "mcts", "x"])
def test_closest_is_silent_when_nothing_is_near(given: str) -> None:
    assert closest(given, KNOWN) is None


def test_solve_with_a_near_miss_says_did_you_mean() -> None:
    result = run("solve", "--tree", "[[3],[3,1]]", "--algo", "alpha-beta")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("unknown algorithm 'alpha-beta'; did you mean alphabeta? (known: minimax, ")
    result = run("solve", "--tree", "[[3],[3,1]]", "--algo", "negamax")
    assert result.returncode == 2 and "did you mean" not in result.stderr


def test_answer_file_with_a_near_miss_says_did_you_mean(tmp_path: Path) -> None:
    answers = tmp_path / "a.answers.yaml"
    answers.write_text(f"tree: {TREES / 'aima-5-2.yaml'}\nalgorithm: alpha-beta\nanswers: {{value: 3}}\n")
    result = run("check", str(answers))
    assert result.returncode == 2
    assert "a.answers.yaml:2:12: algorithm: unknown algorithm 'alpha-beta'; did you mean alphabeta?" in result.stderr


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ((TREES / "aima-5-2.yaml").read_text(), "it has a root"),
        ('{"title": "t", "root": {"children": [1, 2]}}', "it has a root"),
        ("[[3, 12, 8], [2, 4, 6]]", "a nested list: the compact form"),
        ('EFG 2 R "g" { "A" "B" }\nt "" 1 "" { 1, 2 }\n', "a Gambit game (.efg)"),
    ],
)
def test_check_given_a_tree_file_says_so(tmp_path: Path, text: str, kind: str) -> None:
    path = tmp_path / "tree.yaml"
    path.write_text(text)
    result = run("check", str(path))
    assert result.returncode == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1
    assert line == (f"{path}:1: this is a tree file ({kind}), not an answer file: run `gametree solve` on it, "
                    "or name it in an answer file's `tree:` (docs/exercises.md)")
    assert "unknown key" not in result.stdout + result.stderr


def test_answer_files_are_still_answer_files() -> None:
    result = run("check", str(TREES.parent / "exercises" / "aima-5-2.answers.yaml"))
    assert result.returncode == 0, result.stdout + result.stderr
