"""The cyclic collector of a ``gametree`` process (cli/collector.py): off while it starts, on for the work.

Not a timer: a probe runs ``gametree`` in a fresh interpreter and reports the
collector's state where it matters (while the search runs; at exit), and the
in-process cases check that only the command line's entry point changes it.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gametree_cli.cli import collector
from gametree_cli.cli.inputs import read_tree

PROBE = """
import atexit, gc, sys
import gametree_cli.search.registry as registry

seen = []
solve = registry.solve

def watched(*args, **kwargs):
    seen.append((gc.isenabled(), gc.get_freeze_count()))
    return solve(*args, **kwargs)

registry.solve = watched
atexit.register(lambda: sys.stderr.write(f"SEARCH {{seen}} EXIT {{gc.get_freeze_count()}}\\n"))
sys.argv = ["gametree"] + {args!r}
from gametree_cli.cli.entry import main
main()
"""

AIMA = {"root": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}


def _probe(args: list[str]) -> tuple[list[tuple[bool, int]], int, str]:
    """What the search saw of the collector (enabled, frozen objects), the objects frozen at exit, and the
    standard output of one run."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    line = [text for text in done.stderr.splitlines() if text.startswith("SEARCH ")][-1]
    seen, _, exit_state = line[len("SEARCH "):].partition(" EXIT ")
    return eval(seen), int(exit_state), done.stdout  # noqa: S307 (our own probe's repr of a list of tuples)


@pytest.mark.parametrize("options", [[], ["--format", "json"], ["--tree-text"]], ids=["text", "json", "tree-text"])
def test_the_search_of_a_command_line_run_has_the_collector_on(tmp_path: Path, options: list[str]) -> None:
    """Start-up ran without it (its objects frozen, so many), the search with it, as any long run did before."""
    path = tmp_path / "aima.json"
    path.write_text(json.dumps(AIMA), encoding="utf-8")
    args = ["solve", "--tree", json.dumps(AIMA)] if options == ["--tree-text"] else ["solve", str(path), *options]
    seen, frozen_at_exit, output = _probe(args)
    assert ("value 3" in output) if options != ["--format", "json"] else json.loads(output)["value"] == 3
    assert len(seen) == 1 and seen[0][0] is True and seen[0][1] > 1000, seen
    assert frozen_at_exit > seen[0][1], "at exit everything alive is frozen: the last collection scans nothing"


def test_a_run_through_typer_also_searches_with_the_collector_on(tmp_path: Path) -> None:
    """``render`` is not on the quick path: typer's imports end the start-up (cli/entry.py)."""
    path = tmp_path / "aima.json"
    path.write_text(json.dumps(AIMA), encoding="utf-8")
    seen, _, output = _probe(["render", str(path), "--format", "dot"])
    assert "digraph" in output
    assert seen and all(enabled and frozen > 1000 for enabled, frozen in seen), seen


def test_in_process_reading_leaves_the_collector_as_it_was(tmp_path: Path) -> None:
    """The library, the tests and CliRunner runs never pass through cli/entry.py: nothing is frozen for them."""
    path = tmp_path / "aima.json"
    path.write_text(json.dumps(AIMA), encoding="utf-8")
    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    read_tree(str(path), None)
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        read_tree(str(path), None)
        assert not gc.isenabled(), "a caller's own pause is left alone"
    finally:
        gc.enable()


def test_start_up_over_ends_only_the_pause_it_began() -> None:
    gc.disable()
    try:
        collector.pause_for_start_up()  # already off: not its pause
        collector.start_up_over()
        assert not gc.isenabled()
    finally:
        gc.enable()
    frozen = gc.get_freeze_count()
    collector.pause_for_start_up()
    assert not gc.isenabled()
    collector.start_up_over()
    assert gc.isenabled() and gc.get_freeze_count() >= frozen
    gc.unfreeze()  # this test process must not keep the objects it froze out of later collections
    collector.start_up_over()  # a second call does nothing
    assert gc.isenabled() and gc.get_freeze_count() == 0
