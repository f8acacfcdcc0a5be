"""A standard stream the parent closed (``<&-``, ``>&-``): one line and exit 2, never a traceback (cli/closed_streams.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT

AIMA = str(ROOT / "trees" / "aima-5-2.yaml")
#: the console script's entry in this interpreter; "gametree" as the program name (the quick path's)
ENTRY = "import sys; sys.argv[0] = 'gametree'; from gametree_cli.cli.entry import main; main()"


def run_closed(closing: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``gametree ARGS`` with ``closing`` (``<&-``, ``>&-`` or ``2>&-``) applied by a shell."""
    script = f'exec "$@" {closing}'
    return subprocess.run(["sh", "-c", script, "sh", sys.executable, "-c", ENTRY, *args],
                           capture_output=True, text=True)


@pytest.mark.parametrize(("closing", "args", "message"), [
    ("<&-", ["solve", "-"], "standard input is closed"),
    ("<&-", ["--", "solve", "-"], "standard input is closed"),  # typer reads the command line
    (">&-", ["solve", AIMA], "standard output is closed"),
    (">&-", ["solve", AIMA, "--format", "json"], "standard output is closed"),
    (">&-", ["--help"], "standard output is closed"),
    (">&-", ["--", "--help"], "standard output is closed"),
])
def test_a_closed_stream_used_is_one_line_and_exit_2(closing: str, args: list[str], message: str) -> None:
    done = run_closed(closing, *args)
    assert (done.returncode, done.stderr) == (2, message + "\n")


def test_a_closed_stream_not_used_costs_nothing(tmp_path) -> None:
    target = tmp_path / "t.json"
    done = run_closed(">&-", "convert", AIMA, "-o", str(target))
    assert done.returncode == 0 and target.exists() and "Traceback" not in done.stderr
    quiet = run_closed("2>&-", "solve", "-", "--tree", "[1]")  # standard error closed: an error has nowhere to go
    assert quiet.returncode == 2 and quiet.stdout == ""
