"""Names from the files are text, shown as written, on their own line, whatever they hold.

A QA pass found: titles, moves and paths read as rich markup by ``compare``
and ``check`` (``[/x]`` stopped them with a traceback, ``[b]`` vanished); a
lone surrogate (``"\\ud800"`` in a JSON file) stopped every text view with an
encoding error; control characters broke the tree's and the trace's lines
and reached the terminal; a long tree line was cropped at 240 columns.
Each case runs the real command in a fresh process, standard output a pipe.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ENTRY = "import sys; from gametree_cli.cli.entry import main; sys.argv = ['gametree'] + sys.argv[1:]; main()"


def gametree(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {name: value for name, value in os.environ.items() if name not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    return subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, cwd=cwd, env=env)


def write(path: Path, document: object) -> str:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path.name


@pytest.mark.parametrize("title, move", [("Exercise 3 [variant b]", "[red]m[/red]"), ("Ex [/variant]", "a[/]"),
                                          ("[bold]", "a\\[b]")])
def test_compare_shows_titles_and_moves_as_written(tmp_path: Path, title: str, move: str) -> None:
    name = write(tmp_path / "t.json", {"title": title, "root": {"children": [
        {"move": move, "children": [3, 4]}, {"move": "b", "children": [1, 2]}]}})
    done = gametree("compare", name, cwd=tmp_path)
    text = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert text.splitlines()[0].strip() == title and f"│ {move} " in text


def test_check_shows_a_tree_path_with_brackets_as_written(tmp_path: Path) -> None:
    (tmp_path / "d.answers.yaml").write_text('tree: "x[/].yaml"\nanswers: {value: 3}\n', encoding="utf-8")
    done = gametree("check", "d.answers.yaml", cwd=tmp_path)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert "│ x[/].yaml │" in done.stdout.decode() and "no such file x[/].yaml" in done.stdout.decode()
    write(tmp_path / "w[b]1.json", [[3, 12, 8], [2, 4, 6]])
    (tmp_path / "e.answers.yaml").write_text('tree: "w[b]1.json"\nanswers: {value: 3}\n', encoding="utf-8")
    done = gametree("check", "e.answers.yaml", cwd=tmp_path)
    assert done.returncode == 0 and "│ w[b]1.json │" in done.stdout.decode()


SURROGATE = {"root": {"id": "\ud800", "children": [1, 2]}}


@pytest.mark.parametrize("args", [["solve"], ["solve", "--trace"], ["solve", "--trace", "--lang", "es"], ["blank"],
                                  ["compare"]])
def test_a_lone_surrogate_is_shown_escaped(tmp_path: Path, args: list[str]) -> None:
    name = write(tmp_path / "y.json", SURROGATE)
    done = gametree(*args, name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert "\\ud800.2" in done.stdout.decode("utf-8")  # valid UTF-8, the name escaped


@pytest.mark.parametrize("args", [["solve", "--format", "json"], ["compare", "--format", "json"]])
def test_a_lone_surrogate_round_trips_in_json(tmp_path: Path, args: list[str]) -> None:
    name = write(tmp_path / "y.json", SURROGATE)
    done = gametree(*args, name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    document = json.loads(done.stdout.decode("utf-8"))
    best = document["best_move"] if "best_move" in document else document["algorithms"][0]["best_move"]
    assert best == "\ud800.2"


def test_control_characters_do_not_break_lines_or_reach_the_terminal(tmp_path: Path) -> None:
    name = write(tmp_path / "n.json", {"root": {"id": "R\nX", "children": [
        {"id": "a\u001b[31mred", "children": [1, 2]}, {"id": "c\rd", "move": "m\tv", "children": [3, 4]}]}})
    tree = gametree("solve", name, cwd=tmp_path).stdout.decode()
    lines = tree.splitlines()
    assert len(lines) == 8 and "\x1b" not in tree and "\r" not in tree and "\t" not in tree  # 7 nodes, summary
    assert lines[0].startswith("★ R\\nX ▲ max") and "m\\tv → c\\rd" in tree
    trace = gametree("solve", name, "--trace", cwd=tmp_path).stdout.decode()
    assert "\x1b" not in trace and "\r" not in trace
    assert "  call minValue(a\\x1b[31mred, alpha=-inf, beta=inf)" in trace.splitlines()


def test_a_long_tree_line_is_kept_whole_when_piped(tmp_path: Path) -> None:
    """Piped output is never wrapped or cropped: all of a 300-character name, and the value after it."""
    long = "x" * 300
    for other in ("y", "中"):  # the plain drawer, and rich (a wide character it leaves to rich)
        name = write(tmp_path / "l.json", {"root": {"id": "R", "children": [
            {"id": long, "children": [1, 2]}, {"id": other, "children": [3, 4]}]}})
        text = gametree("solve", name, cwd=tmp_path).stdout.decode()
        assert f"├── {long} ▼ min  = 1  [α=-inf, β=1]\n" in text
        assert f"│   ├── {long}.1  = 1\n" in text


@pytest.mark.parametrize("node, shown", [("\ud800.1", "\\ud800.1"), ("a\u001b[31m", "a\\x1b[31m"), ("c\rd", "c\\rd")])
def test_check_reports_odd_node_names_in_the_table_and_junit(tmp_path: Path, node: str, shown: str) -> None:
    """A wrong answer naming an odd node: the table shows it escaped, and the JUnit file is valid XML."""
    import xml.etree.ElementTree as ElementTree

    parent = node.split(".")[0]
    write(tmp_path / "t.json", {"root": {"id": parent, "children": [1, 2]}} if node.endswith(".1") else
          {"root": {"id": "R", "children": [{"id": node, "children": [1, 2]}, 3]}})
    write(tmp_path / "k.answers.json", {"tree": "t.json", "answers": {"nodes": {node: 7}}})
    done = gametree("check", "k.answers.json", "--junit", "report.xml", cwd=tmp_path)
    assert done.returncode == 1, done.stderr.decode()
    assert f"nodes[{shown}].value: expected 7" in done.stdout.decode("utf-8")
    failure = next(ElementTree.parse(tmp_path / "report.xml").iter("failure"))
    assert f"nodes[{shown}].value: expected 7" in failure.get("message", "")
