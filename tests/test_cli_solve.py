"""`gametree solve` end to end: text, trace (EN/ES), JSON, errors; CliRunner and a real process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
from gametree_cli.cli.app import app
from gametree_cli.views.trace import StreamingTrace

from .conftest import HANG_GUARD, TREES

AIMA = str(TREES / "aima-5-2.yaml")
COURSE = str(TREES / "course.yaml")


def collapse(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


def test_spanish_trace_matches_the_course_notes(runner) -> None:
    result = runner.invoke(app, ["solve", COURSE, "--algo", "alphabeta", "--trace", "--lang", "es"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    expected = [
        "Invocacion maxValue(A, alfa=-inf, beta=inf):",
        ". Invocacion minValue(B, alfa=-inf, beta=inf):",
        ".. Invocacion maxValue(B.1, alfa=-inf, beta=inf) -> que retorna valor terminal 3",
        ".. Invocacion maxValue(B.2, alfa=-inf, beta=3) -> que retorna valor terminal 12",
        ".. Invocacion maxValue(B3, alfa=-inf, beta=3):",
        "... Invocacion minValue(B3.1, alfa=-inf, beta=3) -> que retorna valor terminal 8",
        "... PODA en maxValue de B3 porque v=8 >= beta=3 -> le asigna valor 8",
        ".. minValue de B asigna valor 3",
        ". Invocacion minValue(C, alfa=3, beta=inf):",
        ".. Invocacion maxValue(C.1, alfa=3, beta=inf) -> que retorna valor terminal 2",
        ".. PODA en minValue de C porque v=2 <= alfa=3 -> le asigna valor 2",
        ". Invocacion minValue(D, alfa=3, beta=inf):",
        ".. Invocacion maxValue(D.1, alfa=3, beta=inf) -> que retorna valor terminal 14",
        ".. Invocacion maxValue(D.2, alfa=3, beta=14) -> que retorna valor terminal 5",
        ".. Invocacion maxValue(D.3, alfa=3, beta=5) -> que retorna valor terminal 1",
        ".. Cota alcanzada en el ultimo hijo en minValue de D porque v=1 <= alfa=3 -> le asigna valor 1",
        ". maxValue de A asigna valor 3",
        "valor encontrado: 3",
    ]
    assert lines[: len(expected)] == expected


def test_english_trace_is_the_default(runner) -> None:
    result = runner.invoke(app, ["solve", AIMA, "--trace"])
    assert result.exit_code == 0, result.output
    lines = collapse(result.stdout)
    assert lines[0] == "call maxValue(A, alpha=-inf, beta=inf)"
    assert "cut in minValue of C: v=2 <= alpha=3 -> returns 2" in lines
    assert "maxValue of A returns 3" in lines
    assert any(line.startswith("alphabeta: value 3") for line in lines)  # the summary follows


def test_trace_is_streamed_while_the_search_runs() -> None:
    class Stop(Exception):
        pass

    class FailingStream(io.StringIO):
        def write(self, text: str) -> int:
            raise Stop(text)

    tree = load_tree(AIMA)
    with pytest.raises(Stop, match="call maxValue"):
        solve(tree, "alphabeta", observer=StreamingTrace(tree, FailingStream()))


def test_json_trace_events(runner) -> None:
    result = runner.invoke(app, ["solve", AIMA, "--algo", "alphabeta", "--trace", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    trace = document["trace"]
    assert trace[0] == {"event": "call", "node": "A", "depth": 0, "alpha": "-inf", "beta": "inf"}
    cuts = [(event["node"], event["value"]) for event in trace if event["event"] == "cut"]
    assert cuts == [("C", 2), ("D", 2)]
    assert {event["event"] for event in trace} == {"call", "leaf", "cut", "return"}
    assert [event["node"] for event in trace if event["event"] in ("call", "leaf")] == document["visit_order"]


def test_json_is_the_contract_result(runner) -> None:
    result = runner.invoke(app, ["solve", "--tree", "[[3,12,8],[2,4,6],[14,5,2]]", "--algo", "minimax", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["algorithm"] == "minimax" and document["value"] == 3
    assert document["best_move"] == "1" and document["principal_variation"] == ["1", "1.1"]
    assert document["pruned"] == [] and len(document["nodes"]) == 13
    assert document["stats"] == {"nodes_visited": 13, "leaves_evaluated": 9, "cutoffs": 0}


def test_annotated_tree_marks_pruning_and_summary(runner) -> None:
    result = runner.invoke(app, ["solve", AIMA])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "A ▲ max = 3" in " ".join(out.split()) or "A ▲ max  = 3" in out
    assert "✂ cut: v=2 <= alpha=3" in out
    assert "C.2  ✂ pruned" in out
    assert "C.2  =" not in out  # pruned nodes get no value
    assert "alphabeta: value 3 · best move a1 · nodes visited 11 · leaves evaluated 7 · cut-offs 2" in out
    assert "\x1b[" not in out  # plain text when not a terminal


def test_big_tree_is_not_dumped_whole(runner) -> None:
    raw = [[[[[1, 2], [3, 4]]] * 4] * 5] * 6
    result = runner.invoke(app, ["solve", "--tree", json.dumps(raw), "--algo", "minimax"])
    assert result.exit_code == 0, result.output
    assert "more nodes below" in result.stdout and "--show-depth" in result.stdout
    full = runner.invoke(app, ["solve", "--tree", json.dumps(raw), "--algo", "minimax", "--show-all"])
    assert "more nodes below" not in full.stdout
    assert len(full.stdout.splitlines()) > len(result.stdout.splitlines())


def test_a_node_with_thousands_of_children_is_drawn_in_part(runner) -> None:
    """One wide level must not print a line per child (a 10^6-wide root took 146 s and 1.5 GB)."""
    raw = [1] * 999 + [9]  # the best move is the last child
    result = runner.invoke(app, ["solve", "--tree", json.dumps(raw), "--algo", "minimax"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) < 450
    assert "├── … 599 more children not drawn" in result.stdout
    assert lines[-3] == "└── ★ 1000  = 9"  # the principal variation is drawn, marked
    assert "999,599" not in result.stdout and "599 of them left out" in result.stdout
    full = runner.invoke(app, ["solve", "--tree", json.dumps(raw), "--algo", "minimax", "--show-all"])
    assert "not drawn" not in full.stdout and "├── 600 " in full.stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", AIMA, "--algo", "nosuch"], "unknown algorithm 'nosuch'"),
        (["solve", AIMA, "--nosuch"], "No such option"),
        (["solve"], "no tree given"),
        (["solve", AIMA, "--tree", "[1]"], "either a TREE file or --tree"),
        (["solve", "--tree", "[[1, [2, 3]"], "invalid"),
        (["solve", AIMA, "--depth", "-1"], "--depth must be 0 or more"),
    ],
)
def test_usage_errors_exit_2(runner, args, words) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert "Traceback" not in result.output


def test_a_huge_depth_solves(runner) -> None:
    """--depth 2**63 overflowed a C integer and exited 2 blaming a decimal's range."""
    result = runner.invoke(app, ["solve", "--tree", "[1, 2]", "--depth", str(2**63), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["value"] == 2


@pytest.mark.parametrize("command", [["solve"], ["solve", "-f", "json"], ["blank"], ["render", "-f", "dot"],
                                     ["render", "-f", "html", "-o", "page.html"]])
@pytest.mark.parametrize("levels", ["0", "-1", "-7"])
def test_show_depth_below_one_is_a_one_line_usage_error(runner, command, levels, tmp_path, monkeypatch) -> None:
    """``--show-depth 0`` drew the root and said it showed 0 levels: refused like ``--depth -1``, before any work."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [command[0], AIMA, *command[1:], "--show-depth", levels])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"--show-depth must be 1 or more, not {levels}\n"
    assert result.stdout == "" and not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("command", [["solve"], ["blank"], ["render", "-f", "dot"]])
def test_show_depth_one_draws_one_level(runner, command) -> None:
    result = runner.invoke(app, [command[0], AIMA, *command[1:], "--show-depth", "1"])
    assert result.exit_code == 0, result.output
    assert "B.1" not in result.stdout


def gametree_command() -> list[str]:
    script = Path(sys.executable).with_name("gametree")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gametree_cli"]


def test_installed_command_runs_as_a_real_process(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(gametree_command() + ["solve", AIMA, "--format", "json"], capture_output=True, text=True, env=env, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pruned"] == ["C.2", "C.3"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("root:\n  children:\n    - {id: X}\n")
    done = subprocess.run(gametree_command() + ["solve", str(bad)], capture_output=True, text=True, env=env, timeout=HANG_GUARD)
    assert done.returncode == 2
    assert done.stderr.strip() == f"{bad}:3:7: node X: leaf without a value (give value, or children)"
    piped = subprocess.run(gametree_command() + ["solve", COURSE], capture_output=True, text=True, env=env, timeout=HANG_GUARD)
    assert piped.returncode == 0 and "\x1b[" not in piped.stdout and "B3" in piped.stdout


def test_python_api_is_usable_without_the_cli() -> None:
    from gametree_cli import load_tree as load, solve as run

    answer = run(load(AIMA), "alphabeta")
    assert answer.value == 3 and answer.best_move == "a1"


def test_decimals_are_shown_as_a_course_writes_them(runner) -> None:
    """``0.000001`` was shown as ``1e-06`` (a float's repr) in the text tree and summary; JSON keeps its form."""
    tree = "[[0.000001, 2], [3, 0.0000001]]"
    result = runner.invoke(app, ["solve", "--tree", tree, "--algo", "minimax"])
    assert result.exit_code == 0, result.output
    assert "root ▲ max  = 0.000001" in result.stdout and "2.2  = 0.0000001" in result.stdout
    assert "minimax: value 0.000001 ·" in result.stdout and "e-0" not in result.stdout
    as_json = runner.invoke(app, ["solve", "--tree", tree, "--algo", "minimax", "--format", "json"])
    assert '"value": 1e-6' in as_json.stdout and json.loads(as_json.stdout)["value"] == 0.000001  # unchanged


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_decimal_text_reads_back_and_is_positional_in_its_range(number: float) -> None:
    from gametree_cli.core.numbers import format_number

    text = format_number(number)
    assert float(text) == number, text  # the same float
    if 1e-7 <= abs(number) < 1e21:
        assert "e" not in text and "." in text, text  # positional, and still shown as a decimal
    else:
        assert text == repr(number)
    if "e" not in repr(number):
        assert text == repr(number)  # what repr already writes positionally is left alone


@pytest.mark.parametrize("number, text", [(1e-6, "0.000001"), (1e-7, "0.0000001"), (1.5e-5, "0.000015"),
                                          (-2.5e-7, "-0.00000025"), (1e16, "10000000000000000.0"),
                                          (9.5e20, "950000000000000000000.0"), (1e21, "1e+21"), (9e-8, "9e-08"),
                                          (0.25, "0.25"), (0.0, "0.0"), (-0.0, "-0.0")])
def test_decimal_text_examples(number: float, text: str) -> None:
    from gametree_cli.core.numbers import format_number

    assert format_number(number) == text
