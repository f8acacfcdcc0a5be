"""The quick path (gametree_cli/cli/quick.py): command lines read without typer, exactly as click reads them.

Three things make it safe: its table is the typer app's (regenerated here and
compared with the file), it accepts a command line exactly when click does
(checked on many generated ones, values compared), and whatever it declines
typer reads as before (errors keep click's words).
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from enum import Enum
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gametree_cli.cli import quick, quick_table
from gametree_cli.cli.quick_table_write import TABLE, table_source
from gametree_cli.cli.solve_run import run_solve

from .conftest import ROOT

AIMA = str(ROOT / "trees" / "aima-5-2.yaml")


def test_the_table_is_the_typer_apps() -> None:
    assert TABLE.read_text(encoding="utf-8") == table_source(), "quick_table.py is out of date: run `make quick-table`"


def test_the_runner_takes_the_tables_parameters_with_the_same_defaults() -> None:
    """Library callers of run_solve get what a command line without options gets."""
    _, argument, _, defaults = quick_table.COMMANDS["solve"]
    parameters = inspect.signature(run_solve).parameters
    assert set(parameters) == {argument, *defaults}
    assert parameters[argument].default is None
    for name, (kind, default) in defaults.items():
        given = parameters[name].default
        assert (given.value if isinstance(given, Enum) else given) == default, name


# ---- the same reading as click's -------------------------------------------------------------------------------

def click_reading(args: list[str], environ: dict[str, str]) -> tuple[dict[str, Any], str, dict[str, Any]] | None:
    """The global options, command and command options click reads from ``args``; None where it refuses them."""
    import typer
    import typer.main
    from typer import _click as click

    from gametree_cli.cli.app import app

    group = typer.main.get_command(app)
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environ)
    try:
        context = group.make_context("gametree", list(args))
        words = [*getattr(context, "_protected_args", ()), *context.args]  # the command word, then its arguments
        if not words or words[0] not in group.commands:
            return None
        command = group.commands[words[0]]
        sub = command.make_context(words[0], words[1:], parent=context)
        return dict(context.params), words[0], dict(sub.params)
    except (click.exceptions.ClickException, typer.Exit):  # a usage error, or --help (printed, then Exit)
        return None
    finally:
        os.environ.clear()
        os.environ.update(saved)


def quick_reading(args: list[str], environ: dict[str, str]) -> tuple[dict[str, Any], str, dict[str, Any]] | None:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environ)
    try:
        global_values, rest, _ = quick.parse_global_options(args)
        if not rest or rest[0] not in quick_table.COMMANDS:
            return None
        _, values = quick.parse_command(rest[0], rest[1:])
    except quick.Declined:
        return None
    finally:
        os.environ.clear()
        os.environ.update(saved)
    plain = {name: value.value if isinstance(value, Enum) else value for name, value in values.items()}
    return global_values, rest[0], plain


OPTION_WORDS = sorted(quick_table.COMMANDS["solve"][2]) + ["--max-input-size", "--nope", "-x", "-ajson"]
VALUES = ["-", "", "x.json", "minimax", "alphabeta", "json", "text", "es", "en", "hard", "best", "3", "-1", " 7 ", "1_000",
          "0x10", "2.5", "1/3", "--tree", "-a", "5G", "=", "tree=[1,2]"]
WORDS = st.one_of(
    st.sampled_from(OPTION_WORDS),
    st.sampled_from(VALUES),
    st.builds(lambda flag, value: f"{flag}={value}", st.sampled_from(OPTION_WORDS), st.sampled_from(VALUES)),
    st.builds(lambda flag, value: flag + value, st.sampled_from(["-a", "-d", "-f"]), st.sampled_from(VALUES)),
    st.just("--"),
)


@settings(max_examples=400, deadline=None)
@given(before=st.lists(st.sampled_from(["--max-input-size", "1G", "--max-input-size=3M", "x", "--"]), max_size=3),
       after=st.lists(WORDS, max_size=7),
       environ=st.sampled_from([{}, {"GAMETREE_MAX_INPUT_SIZE": "5M"}, {"GAMETREE_MAX_INPUT_SIZE": ""}]))
@example(before=[], after=["x.json", "--bounds", "1", "2", "-d3", "--format=json", "-fjson", "--trace"], environ={})
@example(before=["--max-input-size", "--tree"], after=["--tree", "--algo", "--algo=", "-a", "-a"], environ={})
@example(before=[], after=["--", "-a", "x"], environ={})
def test_the_quick_path_reads_what_click_reads(before: list[str], after: list[str], environ: dict[str, str]) -> None:
    """Where the quick path accepts a command line, click reads the same values; where click accepts one (no --help,
    no ``--`` before the command), so does the quick path: it declines only what typer must answer."""
    args = [*before, "solve", *after]
    clicks = click_reading(args, environ)
    quicks = quick_reading(args, environ)
    if quicks is not None:
        assert clicks == quicks
    elif "--" not in before:
        assert clicks is None, f"the quick path declined a command line click reads: {args}"


def test_common_command_lines_are_quick() -> None:
    for args in (["solve", "t.yaml"], ["solve", "t.yaml", "--algo", "alphabeta", "--trace", "--lang", "es"],
                 ["solve", "-", "-f", "json"], ["--max-input-size", "8G", "solve", "--tree", "[[3,12],[2]]"]):
        assert quick.plan(args, program="gametree") is not None, args


@pytest.mark.parametrize("args", [[], ["solve", "--help"], ["solve", "t.yaml", "--help"], ["check", "a.yaml"],
                                  ["solve", "--algo"], ["solve", "t.yaml", "--depth", "two"], ["-h"], ["--", "solve"]])
def test_what_typer_must_answer_is_declined(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")  # also the help pages: typer lays them out narrower than the stored ones
    assert quick.plan(args, program="gametree") is None


def test_help_pages_are_quick_only_at_their_width_and_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("GAMETREE_MAX_INPUT_SIZE", raising=False)
    assert quick.plan(["--help"], program="gametree") is not None
    assert quick.plan(["solve", "--help"], program="/usr/bin/gametree") is not None
    assert quick.plan(["--help"], program="__main__.py") is None  # python -m gametree_cli: click names it otherwise
    monkeypatch.setenv("COLUMNS", "79")
    assert not quick.help_width_is_standard()
    monkeypatch.setenv("_GAMETREE_COMPLETE", "bash_source")
    assert quick.plan(["solve", "t.yaml"], program="gametree") is None


# ---- whole processes ------------------------------------------------------------------------------------------

def gametree(*args: str, through_typer: bool = False, **environ: str) -> subprocess.CompletedProcess[str]:
    """A ``gametree`` process (as the console script runs it, or, ``through_typer``, with typer reading the
    command line whatever it is); its standard error ends with whether typer was imported."""
    entry = "gametree_cli.cli.app" if through_typer else "gametree_cli.cli.entry"
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: sys.stderr.write('TYPER ' + str('typer' in sys.modules) + '\\n'))\n"
             f"sys.argv = ['gametree'] + {list(args)!r}\n"
             f"from {entry} import main\nmain()\n")
    env = {name: value for name, value in os.environ.items() if not name.startswith(("GAMETREE_", "COLUMNS"))}
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env | environ)


def test_solve_and_help_run_without_typer_and_print_what_typer_prints() -> None:
    quick_run, typer_run = gametree("solve", AIMA, "--algo", "alphabeta"), gametree("--max-input-size", "2G", "--", "solve", AIMA, "--algo", "alphabeta")
    assert quick_run.stderr.endswith("TYPER False\n") and typer_run.stderr.endswith("TYPER True\n")
    assert quick_run.returncode == typer_run.returncode == 0 and quick_run.stdout == typer_run.stdout
    helped = gametree("--help", COLUMNS="100")
    assert helped.returncode == 0 and helped.stderr == "TYPER False\n" and helped.stdout == quick_table.HELP[""]


@pytest.mark.parametrize("columns", ["80", "132"])
@pytest.mark.parametrize("command", ["", "solve", "check", "generate"])
def test_help_pages_are_what_typer_prints(command: str, columns: str) -> None:
    """Byte for byte what typer prints in a real process (its test runner lays pages out 2 columns wider)."""
    words = [command, "--help"] if command else ["--help"]
    quick_run, typer_run = gametree(*words, COLUMNS=columns), gametree(*words, through_typer=True, COLUMNS=columns)
    assert quick_run.stderr == "TYPER False\n" and typer_run.stderr == "TYPER True\n"
    assert quick_run.stdout == typer_run.stdout and quick_run.returncode == typer_run.returncode == 0


@pytest.mark.parametrize(("args", "words"), [
    (["solve", AIMA, "--algo"], "Option '--algo' requires an argument"),
    (["solve", AIMA, "--format", "yaml"], "Invalid value for '--format'"),
    (["solve", AIMA, "--algo", "nope"], "nope"),
    (["--max-input-size", "1x", "solve", AIMA], "--max-input-size: expected a size"),
    (["solve", AIMA, "--max-nodes", "0"], "--max-nodes must be 1 or more, not 0"),
])
@pytest.mark.parametrize("through_typer", [False, True])
def test_errors_keep_their_words_and_exit_status(args: list[str], words: str, through_typer: bool) -> None:
    done = gametree(*args, through_typer=through_typer)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("through_typer", [False, True])
def test_a_bad_size_in_the_environment_is_named_and_leaves_help_alone(through_typer: bool) -> None:
    solved = gametree("solve", AIMA, through_typer=through_typer, GAMETREE_MAX_INPUT_SIZE="bogus")
    assert solved.returncode == 2
    assert solved.stderr.startswith("GAMETREE_MAX_INPUT_SIZE: expected a size like 2G, 500M or 1048576, found 'bogus'\n")
    helped = gametree("solve", "--help", through_typer=through_typer, GAMETREE_MAX_INPUT_SIZE="bogus")
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: gametree solve")
    nothing_read = gametree("--max-input-size", "bogus", "schema", through_typer=through_typer)
    assert nothing_read.returncode == 0  # checked when an input is read: schema reads none
