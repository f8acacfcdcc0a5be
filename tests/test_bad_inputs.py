"""The bad-input corpus: every malformed file gets its one-line error and exit 2.

``tests/data/bad/`` holds small hand-written bad tree and answer files;
``tests/data/bad.expected.yaml`` the exact line ``gametree`` prints for each.
Hostile inputs too big to keep in the repository (a 10^7-node file, a
100,000-deep chain, YAML nested past the parser's limit) are generated here.
Hang guards are generous subprocess timeouts, not timings: speed is measured
by ``make bench``.
"""

from __future__ import annotations

import builtins
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gametree_cli.cli.app import app
from gametree_cli.io.document import DEFAULT_MAX_NODES
from gametree_cli.io.loader import YAML_MAX_DEPTH
from gametree_cli.io.yaml_reader import YAML_MAX_PLIES

from .conftest import HANG_GUARD
from .test_loader import ERROR_LINE

DATA = Path(__file__).parent / "data"
BAD = DATA / "bad"
EXPECTED: dict[str, object] = yaml.safe_load((DATA / "bad.expected.yaml").read_text(encoding="utf-8"))
FIXTURES = {"good-tree.yaml"}  # not bad: the answer files point at it
GAMETREE = [sys.executable, "-m", "gametree_cli"]


def case(name: str) -> tuple[list[str], str, str | None]:
    """(command line, expected stderr line, why it names no line) of a corpus file."""
    entry = EXPECTED[name]
    if isinstance(entry, str):
        entry = {"error": entry}
    assert isinstance(entry, dict)
    command = "check" if ".answers." in name else "solve"
    return [command, name, *entry.get("args", [])], entry["error"], entry.get("unlocated")


def test_every_corpus_file_has_an_expected_error_and_the_corpus_is_big_enough() -> None:
    files = {path.name for path in BAD.iterdir()} - FIXTURES
    assert files == set(EXPECTED), "tests/data/bad/ and bad.expected.yaml must list the same files"
    located = [name for name in EXPECTED if case(name)[2] is None]
    assert len(located) >= 60
    answer_files = [name for name in EXPECTED if ".answers." in name]
    assert len(answer_files) >= 10


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file_gives_its_one_line_error(name: str, runner, monkeypatch) -> None:
    monkeypatch.chdir(BAD)  # messages name files as the user typed them
    argv, expected, unlocated = case(name)
    result = runner.invoke(app, argv)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)  # not an escaped exception (a traceback)
    if argv[0] == "solve":
        assert result.stdout == ""  # (check also prints its table of exercises)
    assert result.stderr == expected + "\n"
    if unlocated is None:
        match = ERROR_LINE.match(expected)
        assert match is not None and match.group("file") == name or ".answers." in name
    else:
        assert expected.startswith(f"{name}: ")


def test_the_real_program_prints_no_traceback_for_a_sample_of_the_corpus() -> None:
    """The CliRunner runs in-process; this runs the installed entry point for real."""
    for name in ("binary-garbage.yaml", "huge-integer.json", "python-object-tag.yaml", "nul-byte.yaml",
                 "missing-tree.answers.yaml", "alias-bomb.yaml"):
        argv, expected, _ = case(name)
        done = subprocess.run([*GAMETREE, *argv], cwd=BAD, capture_output=True, text=True, timeout=HANG_GUARD)
        assert (done.returncode, done.stderr) == (2, expected + "\n"), name
    assert not (BAD / "owned.txt").exists()  # the !!python tag ran nothing


# -- generated hostile inputs ---------------------------------------------------


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMETREE, *argv], cwd=cwd, capture_output=True, text=True, timeout=HANG_GUARD)


def test_a_100000_deep_json_chain_solves(tmp_path: Path) -> None:
    depth = 100_000
    (tmp_path / "chain.json").write_text('{"root": ' + '{"children": [' * depth + "7" + "]}" * depth + "}")
    done = run("solve", "chain.json", "--algo", "minimax", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "7" in done.stdout and "Traceback" not in done.stderr


def test_yaml_nested_past_the_limit_is_refused_cleanly(tmp_path: Path) -> None:
    levels = YAML_MAX_DEPTH // 2 + 10  # each tree level is a mapping and a list
    (tmp_path / "deep.yaml").write_text("root: " + "{children: [" * levels + "1" + "]}" * levels + "\n")
    done = run("solve", "deep.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("deep.yaml:1:")
    assert f"the YAML nests deeper than {YAML_MAX_DEPTH:,} levels (a tree {YAML_MAX_PLIES:,} plies deep); write deep trees in JSON" in done.stderr
    assert done.stderr.count("\n") == 1


def test_yaml_just_inside_the_depth_limit_still_solves(tmp_path: Path) -> None:
    levels = YAML_MAX_DEPTH // 2 - 1
    (tmp_path / "deep.yaml").write_text("root: " + "{children: [" * levels + "5" + "]}" * levels + "\n")
    done = run("solve", "deep.yaml", cwd=tmp_path)  # (the JSON result of a deep unnamed chain is quadratic in size)
    assert done.returncode == 0, done.stderr
    assert "alphabeta: value 5 " in done.stdout


def test_ten_million_nodes_against_the_node_limit(tmp_path: Path) -> None:
    """A 10^7-node file is refused by --max-nodes with one line; the default limit is documented."""
    leaves = 10_000_000 - 1
    path = tmp_path / "huge.json"
    with path.open("w") as out:
        out.write("[")
        out.write("1," * (leaves - 1))
        out.write("2]")
    done = run("solve", "huge.json", "--max-nodes", "1000000", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("huge.json:1:")
    assert "the tree has more than 1,000,000 nodes (the limit; raise it with --max-nodes)" in done.stderr
    assert done.stderr.count("\n") == 1
    limits = (Path(__file__).parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
    assert f"{DEFAULT_MAX_NODES:,}" in limits


def test_a_directory_a_missing_file_and_an_unreadable_file(tmp_path: Path, runner, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.yaml").mkdir()
    result = runner.invoke(app, ["solve", "folder.yaml"])
    assert (result.exit_code, result.stderr) == (2, "folder.yaml: is a directory, not a tree file\n")
    result = runner.invoke(app, ["solve", "absent.yaml"])
    assert (result.exit_code, result.stderr) == (2, "absent.yaml: no such file\n")

    locked = tmp_path / "locked.yaml"
    locked.write_text("root: {children: [1, 2]}\n")
    real_open = io.open

    def refuse(file: object, *args: object, **kwargs: object) -> object:
        if os.path.basename(os.fsdecode(file)) == "locked.yaml":  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(io, "open", refuse)  # whichever way the loader opens it (Path.open is io.open)
    monkeypatch.setattr(builtins, "open", refuse)
    result = runner.invoke(app, ["solve", "locked.yaml"])
    assert (result.exit_code, result.stderr) == (2, "locked.yaml: cannot read: Permission denied\n")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_unreadable_permissions_for_real(tmp_path: Path) -> None:
    locked = tmp_path / "locked.yaml"
    locked.write_text("root: {children: [1, 2]}\n")
    locked.chmod(0)
    done = run("solve", "locked.yaml", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, "locked.yaml: cannot read: Permission denied\n")


def test_the_error_catalogue_lists_every_corpus_file() -> None:
    catalogue = (Path(__file__).parents[1] / "docs" / "errors.md").read_text(encoding="utf-8")
    missing = [name for name in EXPECTED if f"`{name}`" not in catalogue]
    assert missing == []
