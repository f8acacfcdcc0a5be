"""Where no thread can start (a tight memory limit cannot reserve the parser's 512 MB stack), files are
read in the main thread: a tree solves, a too-deep one is the usual one-line error, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import HANG_GUARD

#: the command line in a process where starting a thread fails as it does under `ulimit -v`
NO_THREADS = """
import sys, threading
def refuse(self):
    raise RuntimeError("can't start new thread")
threading.Thread.start = refuse
sys.argv = ["gametree"] + sys.argv[1:]
from gametree_cli.cli.entry import main
main()
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NO_THREADS, *args], capture_output=True, text=True,
                          timeout=HANG_GUARD, check=False)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_tree_solves_without_a_parsing_thread(tmp_path: Path, suffix: str) -> None:
    tree = {"root": {"type": "max", "children": [{"type": "min", "children": [3, 12, 8]},
                                                  {"type": "min", "children": [2, 4, 6]}]}}
    path = tmp_path / f"tree{suffix}"
    path.write_text(json.dumps(tree, indent=2))  # indented: a small file read by the parser, not the scanner
    done = run("solve", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 3


def test_a_too_deep_tree_without_a_parsing_thread_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("[" * 20_000 + "1" + "]" * 20_000)
    done = run("solve", str(path))
    assert "Traceback" not in done.stderr
    if done.returncode:  # the main thread's stack may not hold it: the one line of docs/errors.md
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
