"""Nothing the user gave is lost or overwritten; no input makes gametree touch
other files; Ctrl-C, SIGTERM and closed pipes end quietly (issue 8, docs/safety.md).

Signals and pipes are tested on real processes: ``python -m gametree_cli``
started with ``subprocess``, sent a real SIGINT, or given a pipe whose reader
has gone. To interrupt a given phase (the parse thread, building, solving,
writing) or moment (an audit event) exactly, a small bootstrap makes the child
announce it on a pipe and wait there; the test then sends the signal. Nothing
is timed, so the tests hold on a busy machine (docs/testing.md).
"""

from __future__ import annotations

import builtins
import errno
import json
import os
import select
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from gametree_cli.io import files
from gametree_cli.cli.app import app
from gametree_cli.core.errors import ExitCode, GameTreeError
from gametree_cli.io.files import atomic_output, check_target, parse_size, same_file, write_atomically

from .conftest import HANG_GUARD, TREES

GAMETREE = [sys.executable, "-m", "gametree_cli"]
AIMA = TREES / "aima-5-2.yaml"
SMALL = "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"

posix_only = pytest.mark.skipif(os.name != "posix", reason="signals, FIFOs and /dev need a POSIX system")


def run(args: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None,
        stdin: Any = None, input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(GAMETREE + args, cwd=cwd, env=env, stdin=stdin, input=input_text, capture_output=True,
                          text=True, timeout=HANG_GUARD, check=False)


@pytest.fixture
def here(runner: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``here(folder, args)``: run gametree in-process with ``folder`` as the working directory."""

    def invoke(folder: Path, args: list[str], **kwargs: Any) -> Any:
        monkeypatch.chdir(folder)
        return runner.invoke(app, args, **kwargs)

    return invoke


def one_line_error(done: subprocess.CompletedProcess[str] | Any, *parts: str) -> str:
    """Exit 2, exactly one line on stderr, no traceback, naming every part."""
    stderr = done.stderr
    assert done.returncode == 2 if hasattr(done, "returncode") else done.exit_code == 2, stderr
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


def listing(folder: Path) -> set[str]:
    """Every path under ``folder`` (relative), hidden ones included."""
    return {str(path.relative_to(folder)) for path in folder.rglob("*")}


def random_tree_file(folder: Path, depth: int) -> Path:
    done = run(["random", "--depth", str(depth), "--branching", "3", "--seed", "8", "-o", "tree.json"], cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "tree.json"


@pytest.fixture(scope="module")
def medium_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """9,841 nodes (made once per worker): every view of it is far bigger than a pipe's 64 KiB buffer."""
    return random_tree_file(tmp_path_factory.mktemp("medium"), 8)


# -- YAML is loaded safely only --------------------------------------------------

#: YAML that an unsafe loader would turn into a call (each would create MARK).
UNSAFE_YAML = [
    "root: !!python/object/apply:os.system ['touch MARK']\n",
    "!!python/object/apply:os.system ['touch MARK']\n",
    "root: !!python/object/new:os.system ['touch MARK']\n",
    "root:\n  children: [!!python/name:os.system , 1]\n",
    "title: !!python/module:os\nroot: [1, 2]\n",
    "title: !!python/object:builtins.object {}\nroot: [1, 2]\n",
    "root: !!python/object/apply:subprocess.check_call [[touch, MARK]]\n",
    "root: !!python/object/apply:builtins.exec ['open(\"MARK\", \"w\")']\n",
]


def test_python_tags_are_refused_and_nothing_runs(tmp_path: Path) -> None:
    """In a real process, through every way a tree comes in."""
    text = UNSAFE_YAML[0]
    (tmp_path / "evil.yaml").write_text(text)
    one_line_error(run(["solve", "evil.yaml"], cwd=tmp_path), "evil.yaml:1:7:", "tag")
    one_line_error(run(["solve", "-"], cwd=tmp_path, input_text=text), "<stdin>:1:7:", "tag")
    one_line_error(run(["solve", "--tree", text], cwd=tmp_path), "--tree:1:7:", "tag")
    assert listing(tmp_path) == {"evil.yaml"}


@pytest.mark.parametrize("text", UNSAFE_YAML)
def test_every_python_tag_is_refused(here: Any, tmp_path: Path, text: str) -> None:
    (tmp_path / "evil.yaml").write_text(text)
    for args in (["solve", "evil.yaml"], ["convert", "evil.yaml", "-o", "out.json"], ["render", "evil.yaml", "-o", "out.dot"],
                 ["solve", "--tree", text]):
        one_line_error(here(tmp_path, args), "tag")
    one_line_error(here(tmp_path, ["solve", "-"], input=text), "<stdin>:", "tag")
    answers = tmp_path / "evil.answers.yaml"
    answers.write_text("name: x\ntree:\n  " + text.replace("\n", "\n  ") + "\nanswers: {value: 3}\n")
    result = here(tmp_path, ["check", "evil.answers.yaml", "--junit", "report.xml"])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0].startswith("evil.answers.yaml:") and "tag" in result.stderr
    assert listing(tmp_path) == {"evil.yaml", "evil.answers.yaml", "report.xml"}  # no MARK, no output


def test_the_yaml_loaders_are_the_safe_ones() -> None:
    """Every YAML entry point refuses Python tags, in-process too."""
    from gametree_cli.exercises.answers import parse_answer_text
    from gametree_cli.io.loader import parse_tree

    for text in UNSAFE_YAML:
        with pytest.raises(GameTreeError, match="tag"):
            parse_tree(text, name="t.yaml", fmt="yaml")
        with pytest.raises(GameTreeError):
            parse_answer_text("tree: " + text.replace("\n", "\n  ") + "\nanswers: {value: 1}\n", "a.answers.yaml")


# -- inputs that are not regular files ---------------------------------------------


def test_a_directory_a_missing_file_and_non_utf8_bytes(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    one_line_error(run(["solve", "folder"], cwd=tmp_path), "folder: is a directory, not a tree file")
    one_line_error(run(["solve", "missing.yaml"], cwd=tmp_path), "missing.yaml: no such file")
    (tmp_path / "latin1.yaml").write_bytes(b"title: x\nroot:\n  children: [1, 2] # caf\xe9\n")
    one_line_error(run(["solve", "latin1.yaml"], cwd=tmp_path),
                   "latin1.yaml:3:25: not UTF-8 text (byte 0xe9 at offset 39)")


def test_bad_inputs_in_every_reader(here: Any, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    one_line_error(here(tmp_path, ["convert", "folder", "-o", "x.json"]), "folder: is a directory, not a tree file")
    one_line_error(here(tmp_path, ["solve", "folder/t.gtb"]), "folder/t.gtb: no such file")
    one_line_error(here(tmp_path, ["blank", "folder"]), "folder: is a directory")
    (tmp_path / "latin1.gtb").write_bytes(b"\xff" * 10)
    one_line_error(here(tmp_path, ["solve", "latin1.gtb"]), "latin1.gtb: not a gametree binary (.gtb) file")
    (tmp_path / "latin1.yaml").write_bytes(b"title: x\nroot:\n  children: [1, 2] # caf\xe9\n")
    one_line_error(here(tmp_path, ["solve", "-"], input=b"\xef\xbb\xbf[[1, 2],\n [3, \xff]]"),
                   "<stdin>:2:6: not UTF-8 text (byte 0xff at offset 14)")
    (tmp_path / "x.answers.yaml").write_bytes(b"tree: [[1, 2]]\n\xff\n")
    result = here(tmp_path, ["check", "x.answers.yaml"])
    assert result.exit_code == 2 and "x.answers.yaml:2:1: not UTF-8 text (byte 0xff at offset 15)" in result.stderr
    (tmp_path / "y.answers.yaml").write_text("tree: folder\nanswers: {value: 3}\n")
    result = here(tmp_path, ["check", "y.answers.yaml"])
    assert result.exit_code == 2 and "folder: is a directory, not a tree file" in result.stderr
    assert listing(tmp_path) == {"folder", "latin1.gtb", "latin1.yaml", "x.answers.yaml", "y.answers.yaml"}


@posix_only
def test_devices_are_refused_without_reading(here: Any, tmp_path: Path) -> None:
    for device in ("/dev/zero", "/dev/urandom", "/dev/null"):
        if not os.path.exists(device):
            continue
        one_line_error(here(tmp_path, ["solve", device]), f"{device}: is a device, not a tree file")
        one_line_error(here(tmp_path, ["convert", device, "-o", "x.json"]), f"{device}: is a device")
        result = here(tmp_path, ["check", device])
        assert result.exit_code == 2 and f"{device}: is a device, not an answer file" in result.stderr
    assert listing(tmp_path) == set()


@posix_only
def test_a_pipe_is_read_and_an_endless_one_is_cut_at_the_limit(tmp_path: Path) -> None:
    fifo = tmp_path / "tree.fifo"
    os.mkfifo(fifo)

    def feed(data: bytes, repeat: bool) -> None:
        try:
            with open(fifo, "wb") as stream:
                stream.write(data)
                while repeat:
                    stream.write(b" " * 65536)
        except BrokenPipeError:
            pass  # the reader stopped: what gametree must do with an endless pipe

    writer = threading.Thread(target=feed, args=(SMALL.encode(), False), daemon=True)
    writer.start()
    done = run(["solve", str(fifo), "--format", "json"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["value"] == 3
    writer = threading.Thread(target=feed, args=(b"[", True), daemon=True)
    writer.start()
    one_line_error(run(["--max-input-size", "1M", "solve", str(fifo)]),
                   f"{fifo}: bigger than the input limit of 1 MiB (raise it with --max-input-size)")
    writer.join(HANG_GUARD)
    assert not writer.is_alive()


@posix_only
def test_endless_standard_input_is_cut_at_the_limit() -> None:
    source = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE)
    try:
        done = run(["--max-input-size", "2M", "solve", "-"], stdin=source.stdout)
    finally:
        source.kill()
        source.wait()
    one_line_error(done, "<stdin>: bigger than the input limit of 2 MiB")


def test_the_input_limit_is_checked_before_reading(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tmp_path / "t.json"
    tree.write_text(SMALL)
    real_open = builtins.open

    def no_reading(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        stream = real_open(file, mode, *args, **kwargs)
        if os.fspath(file) == str(tree):
            stream.close()
            pytest.fail("opened a file bigger than the limit")
        return stream

    monkeypatch.setattr(files, "open", no_reading, raising=False)
    result = runner.invoke(app, ["--max-input-size", "10", "solve", str(tree)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{tree}: bigger than the input limit of 10 bytes (raise it with --max-input-size)"
    monkeypatch.undo()
    result = runner.invoke(app, ["solve", str(tree)], env={"GAMETREE_MAX_INPUT_SIZE": "1k"})
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["--max-input-size", "lots", "solve", str(tree)])
    assert result.exit_code == 2 and "--max-input-size: expected a size like 2G" in result.stderr
    result = runner.invoke(app, ["solve", str(tree)])
    assert result.exit_code == 0 and files.input_limit() == files.DEFAULT_MAX_INPUT_BYTES


def test_sizes() -> None:
    assert parse_size("2G") == 2 * 1024**3 == files.DEFAULT_MAX_INPUT_BYTES
    assert parse_size("500M") == 500 * 1024**2 and parse_size("64k") == 65536 and parse_size("1048576") == 1048576
    assert parse_size("1.5 GiB") == 3 * 1024**3 // 2
    for bad in ("", "G", "-1", "2X", "1e9"):
        with pytest.raises(GameTreeError):
            parse_size(bad)


@pytest.mark.parametrize("suffix", [".yaml", ".json", ".gtb", ".efg"])
def test_unreadable_files_in_process(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    """Permission denied, simulated (the tests may run as root, who reads anything)."""
    tree = tmp_path / f"t{suffix}"
    tree.write_text(SMALL)
    answers = tmp_path / "t.answers.yaml"
    answers.write_text(f"tree: t{suffix}\nanswers: {{value: 3}}\n")
    real_open = builtins.open

    def denied(file: Any, *args: Any, **kwargs: Any) -> Any:
        if os.fspath(file) in (str(tree), str(answers)):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(files, "open", denied, raising=False)
    result = runner.invoke(app, ["solve", str(tree)])
    assert result.exit_code == 2 and result.stderr == f"{tree}: cannot read: Permission denied\n"
    result = runner.invoke(app, ["check", str(answers)])
    assert result.exit_code == 2 and f"{answers}: cannot read: Permission denied" in result.stderr


@posix_only
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_unreadable_files_for_real(tmp_path: Path) -> None:
    tree = tmp_path / "t.yaml"
    tree.write_text(SMALL)
    tree.chmod(0)
    one_line_error(run(["solve", str(tree)]), f"{tree}: cannot read: Permission denied")


# -- writers: atomic, never over an input, never over a file without --force ---------


def test_every_command_creates_exactly_the_files_it_names(here: Any, tmp_path: Path) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "t.yaml").write_text(AIMA.read_text())
    (inputs / "decoy.yaml").write_text("never read, never written\n")
    (inputs / "t.answers.yaml").write_text("tree: t.yaml\nalgorithm: alphabeta\nanswers: {value: 3}\n")
    before_inputs = {path: path.read_bytes() for path in inputs.iterdir()}
    tree = str(inputs / "t.yaml")
    commands: list[tuple[list[str], set[str]]] = [
        (["solve", tree], set()),
        (["solve", tree, "--trace", "--format", "json"], set()),
        (["solve", tree, "--answers", "key.answers.yaml"], {"key.answers.yaml"}),
        (["check", str(inputs / "t.answers.yaml")], set()),
        (["check", str(inputs), "--junit", "reports/junit.xml"], {"reports", "reports/junit.xml"}),
        (["compare", tree], set()),
        (["blank", tree], set()),
        (["render", tree, "-o", "t.dot"], {"t.dot"}),
        (["render", tree, "-o", "t.tex", "--blank"], {"t.tex"}),
        (["convert", tree, "-o", "t.json"], {"t.json"}),
        (["convert", tree, "-o", "t.gtb"], {"t.gtb"}),
        (["convert", tree, "-o", "-", "--to", "yaml"], set()),
        (["random", "-d", "3", "-b", "2", "--seed", "1", "-o", "r.yaml"], {"r.yaml"}),
        (["random", "-d", "3", "-b", "2", "--seed", "1"], set()),
        (["generate", "tictactoe", "-p", "XOX.O....", "-o", "ttt.efg"], {"ttt.efg"}),
        (["generate", "backgammon-mini", "--plies", "2", "-o", "bg.json"], {"bg.json"}),
        (["schema", "-o", "schema.json"], {"schema.json"}),
        (["schema"], set()),
    ]
    for args, made in commands:
        folder = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        result = here(folder, args)
        assert result.exit_code == 0, (args, result.output)
        assert listing(folder) == made, args
        assert {path: path.read_bytes() for path in inputs.iterdir()} == before_inputs, args


AUDIT_BOOT = r"""
import os, sys
log = open(sys.argv[1], "w")
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        log.write(os.path.abspath(os.fsdecode(args[0])) + "\n")
        log.flush()
sys.addaudithook(hook)
sys.argv = ["gametree"] + sys.argv[2:]
from gametree_cli.cli.entry import main
main()
"""


def opened_files(tmp_path: Path, args: list[str], cwd: Path) -> set[str]:
    """The files under ``tmp_path`` the command opened (Python's audit hook sees every open)."""
    log = tmp_path / "audit.log"
    done = subprocess.run([sys.executable, "-c", AUDIT_BOOT, str(log)] + args, cwd=cwd, capture_output=True,
                          text=True, timeout=HANG_GUARD, check=False)
    assert done.returncode in (0, 1), done.stderr
    root = str(tmp_path.resolve())
    return {os.path.relpath(line, root) for line in log.read_text().splitlines()
            if line.startswith(root + os.sep) and line != str(log)}


def test_only_the_named_files_are_opened(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "t.yaml").write_text(AIMA.read_text())
    (work / "other.yaml").write_text(AIMA.read_text())
    (work / "t.answers.yaml").write_text("tree: t.yaml\nanswers: {value: 3}\n")
    assert opened_files(tmp_path, ["solve", "t.yaml", "--format", "json"], work) == {"work/t.yaml"}
    opened = opened_files(tmp_path, ["convert", "t.yaml", "-o", "t.json"], work)
    assert "work/t.yaml" in opened and "work/other.yaml" not in opened
    assert all(name == "work/t.yaml" or name.startswith("work/.t.json.")
               for name in opened), opened  # the output is written in a private folder, then renamed
    # an answer file's tree: the one file read that is not on the command line (relative to the answer file)
    assert opened_files(tmp_path, ["check", "work/t.answers.yaml"], tmp_path) == {"work/t.answers.yaml", "work/t.yaml"}


def test_no_output_over_an_input_even_through_links(here: Any, tmp_path: Path) -> None:
    tree = tmp_path / "t.yaml"
    tree.write_text(SMALL)
    (tmp_path / "link.yaml").symlink_to(tree)
    os.link(tree, tmp_path / "hard.yaml")
    (tmp_path / "sub").mkdir()
    (tmp_path / "t.answers.yaml").write_text("tree: t.yaml\nanswers: {value: 3}\n")
    for output in ("t.yaml", "link.yaml", "hard.yaml", "./sub/../t.yaml"):
        for args in (["convert", "t.yaml", "-o", output, "--to", "yaml", "--force"],
                     ["convert", "link.yaml", "-o", output, "--to", "json", "--force"],
                     ["render", "t.yaml", "-o", output, "--format", "dot", "--force"],
                     ["solve", "t.yaml", "--answers", output, "--force"]):
            one_line_error(here(tmp_path, args), f"{output}: refusing to overwrite an input file")
        result = here(tmp_path, ["check", "t.answers.yaml", "--junit", output])
        assert result.exit_code == 2 and f"{output}: refusing to overwrite an input file" in result.stderr
    assert tree.read_text() == SMALL and (tmp_path / "hard.yaml").read_text() == SMALL
    assert (tmp_path / "link.yaml").is_symlink()
    assert listing(tmp_path) == {"t.yaml", "link.yaml", "hard.yaml", "sub", "t.answers.yaml"}


@pytest.mark.parametrize("args", [
    ["convert", "IN", "-o", "out.json"],
    ["render", "IN", "-o", "out.dot"],
    ["solve", "IN", "--answers", "out.yaml"],
    ["random", "-d", "2", "-b", "2", "--seed", "3", "-o", "out.yaml"],
    ["generate", "tictactoe", "-p", "XOX.O....", "-o", "out.yaml"],
    ["generate", "backgammon-mini", "--plies", "1", "-o", "out.yaml"],
    ["schema", "-o", "out.json"],
])
def test_an_existing_output_needs_force(here: Any, tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "t.yaml").write_text(SMALL)
    args = [str(tmp_path / "t.yaml") if arg == "IN" else arg for arg in args]
    target = tmp_path / args[args.index("-o" if "-o" in args else "--answers") + 1]
    target.write_text("the user's file\n")
    target.chmod(0o640)
    one_line_error(here(tmp_path, args), f"{target.name}: already exists (use --force to replace it)")
    assert target.read_text() == "the user's file\n"
    result = here(tmp_path, args + ["--force"])
    assert result.exit_code == 0, result.output
    assert target.read_text() != "the user's file\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # a replaced file keeps its permissions
    assert listing(tmp_path) == {"t.yaml", target.name}


def test_the_junit_report_is_replaced_without_force(here: Any, tmp_path: Path) -> None:
    """The documented exception: a regenerated CI report (still atomic, still never over an input)."""
    (tmp_path / "t.answers.yaml").write_text("tree: [[1, 2], [3]]\nanswers: {value: 3}\n")
    report = tmp_path / "report.xml"
    report.write_text("last run\n")
    result = here(tmp_path, ["check", "t.answers.yaml", "--junit", "report.xml"])
    assert result.exit_code == 0, result.output
    assert report.read_text().startswith("<?xml")
    assert listing(tmp_path) == {"t.answers.yaml", "report.xml"}


def test_dash_is_standard_output_where_it_can_be(here: Any, tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(SMALL)
    assert json.loads(here(tmp_path, ["convert", "t.yaml", "-o", "-", "--to", "json"]).stdout)["root"]
    assert here(tmp_path, ["render", "t.yaml", "-o", "-"]).stdout.startswith("digraph")
    assert json.loads(here(tmp_path, ["schema", "-o", "-"]).stdout)["$schema"]
    assert yaml.safe_load(here(tmp_path, ["random", "-d", "2", "-b", "2", "--seed", "1", "-o", "-"]).stdout)["root"]
    one_line_error(here(tmp_path, ["solve", "t.yaml", "--answers", "-"]), "--answers: name a file")
    (tmp_path / "t.answers.yaml").write_text("tree: t.yaml\nanswers: {value: 3}\n")
    one_line_error(here(tmp_path, ["check", "t.answers.yaml", "--junit", "-"]), "--junit: name a file")
    assert listing(tmp_path) == {"t.yaml", "t.answers.yaml"}


@posix_only
def test_an_existing_pipe_or_device_is_written_not_replaced(here: Any, tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(SMALL)
    result = here(tmp_path, ["convert", "t.yaml", "-o", "/dev/null", "--to", "json"])
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = here(tmp_path, ["convert", "t.yaml", "-o", str(fifo), "--to", "json"])
    reader.join(HANG_GUARD)
    assert result.exit_code == 0, result.output
    assert json.loads(received[0])["root"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert listing(tmp_path) == {"t.yaml", "out.fifo"}


def test_a_symbolic_link_output_replaces_its_file_not_the_link(here: Any, tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "out.json"
    real.write_text("old\n")
    link = tmp_path / "out.json"
    link.symlink_to(real)
    (tmp_path / "t.yaml").write_text(SMALL)
    result = here(tmp_path, ["convert", "t.yaml", "-o", "out.json", "--force"])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads(real.read_text())["root"]
    assert listing(tmp_path) == {"t.yaml", "out.json", "real", "real/out.json"}


def test_same_file_sees_links(tmp_path: Path) -> None:
    first = tmp_path / "a"
    first.write_text("x")
    (tmp_path / "s").symlink_to(first)
    os.link(first, tmp_path / "h")
    (tmp_path / "b").write_text("x")
    assert same_file(first, tmp_path / "s") and same_file(first, tmp_path / "h")
    assert not same_file(first, tmp_path / "b") and not same_file(first, tmp_path / "missing")


def test_check_target_rules(tmp_path: Path) -> None:
    (tmp_path / "in.yaml").write_text(SMALL)
    with pytest.raises(GameTreeError, match="refusing to overwrite an input file"):
        check_target(tmp_path / "in.yaml", force=True, protect=(str(tmp_path / "in.yaml"),))
    with pytest.raises(GameTreeError, match="already exists"):
        check_target(tmp_path / "in.yaml", protect=(None, "-"))
    with pytest.raises(GameTreeError, match="is a directory"):
        check_target(tmp_path, force=True)
    check_target(tmp_path / "new.yaml")
    check_target(tmp_path / "in.yaml", force=True, protect=("-",))


class Boom(Exception):
    pass


@pytest.mark.parametrize("failure", [KeyboardInterrupt, Boom, OSError])
def test_a_failed_write_leaves_nothing(tmp_path: Path, failure: type[BaseException]) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(GameTreeError if failure is OSError else failure):
        with atomic_output(target) as written:
            written.write_text("half of it")
            assert written.parent.parent == tmp_path and written.exists()
            raise failure(errno.EIO, "disk on fire") if failure is OSError else failure()
    assert listing(tmp_path) == set()
    target.write_text("the user's file")
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(target, force=True) as written:
            written.write_text("new")
            raise KeyboardInterrupt
    assert target.read_text() == "the user's file" and listing(tmp_path) == {"out.txt"}


def test_a_file_that_appears_during_the_write_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(GameTreeError, match="already exists"):
        with atomic_output(target) as written:
            written.write_text("mine")
            target.write_text("someone else's")  # e.g. another run finishing first
    assert target.read_text() == "someone else's" and listing(tmp_path) == {"out.txt"}


def test_write_atomically_text_and_bytes(tmp_path: Path) -> None:
    write_atomically(tmp_path / "a.txt", "é\n")
    write_atomically(tmp_path / "b.bin", b"\x00\xff")
    assert (tmp_path / "a.txt").read_bytes() == "é\n".encode() and (tmp_path / "b.bin").read_bytes() == b"\x00\xff"
    mode = stat.S_IMODE((tmp_path / "a.txt").stat().st_mode)
    assert mode & 0o044, oct(mode)  # a normal file, not a private temporary one
    with pytest.raises(GameTreeError, match="cannot write"):
        write_atomically(tmp_path / "no" / "such" / "folder.txt", "x")
    assert listing(tmp_path) == {"a.txt", "b.bin"}


# -- Ctrl-C, SIGTERM ------------------------------------------------------------------
#
# Nothing here is timed (docs/testing.md). A child process tells the test where
# it is by writing a line to a pipe, and where it must wait it reads from a
# second pipe that only the test closes; the test blocks on the first pipe, sends
# the signal, and waits for the exit. HANG_GUARD only ends a child that never
# speaks or never ends.

#: The first lines of every child of the signal tests: SIGINT and SIGTERM at
#: their defaults, as a terminal's shell starts a program. Ignored signals are
#: inherited through exec, so a test run started in the background of a
#: non-interactive shell (``make test &``, ``nohup``) would pass SIGINT on
#: ignored, and the child would never see the test's Ctrl-C (issue 12: the
#: phase tests each waited out their pause, then their timeout).
SIGNALS_AS_FROM_A_SHELL = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
"""

#: Runs gametree with one phase made to announce itself and wait, so that a test
#: can send a real signal while the process is in it. The wait ends only when the
#: test closes its end of the ``held`` pipe, which it does once the process has
#: ended: a run that exits 130 did not wait for the paused phase.
PAUSE_BOOT = SIGNALS_AS_FROM_A_SHELL + r"""
import os, sys
said, held, phase = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sys.argv = ["gametree"] + sys.argv[4:]

def announce():
    os.write(said, phase.encode() + b"\n")
    os.read(held, 1)

def pausing(function, before=True):
    def wrapper(*args, **kwargs):
        if before:
            announce()
        return function(*args, **kwargs)
    return wrapper

if phase == "parse-thread":  # the JSON parser runs in a worker thread; the main thread waits for it
    from gametree_cli.io import strict_json
    strict_json._loads_unique = pausing(strict_json._loads_unique)
elif phase == "build":
    from gametree_cli.io import loader
    loader.build_tree = pausing(loader.build_tree)
elif phase == "solve":
    from gametree_cli.search import registry  # the commands import solve from it when they run
    registry.solve = pausing(registry.solve)
elif phase == "write":  # the new file is complete in its private folder, not yet renamed
    from gametree_cli.io import files
    files._publish = pausing(files._publish)
elif phase == "write-data":  # half of the data written
    from gametree_cli.io import files
    real_open = open
    class Slow:
        def __init__(self, stream): self.stream = stream
        def __enter__(self): return self
        def __exit__(self, *exc): return self.stream.__exit__(*exc)
        def write(self, data):
            self.stream.write(data[: len(data) // 2]); self.stream.flush(); announce(); return self.stream.write(data)
    files.open = lambda file, mode="r", *a, **k: Slow(real_open(file, mode, *a, **k)) if "w" in mode else real_open(file, mode, *a, **k)
from gametree_cli.cli.entry import main
main()
"""

#: Runs gametree unchanged, watched through Python's audit events (PEP 578): at
#: the first event of the chosen moment it announces the moment and is held there
#: until the test, having sent its signal, closes its end of ``held``. The moments:
#: ``loading`` (gametree.entry imports the command line: typer's, or the quick path's), ``reading`` (the input is
#: opened), ``writing`` (the new file is opened in its private folder), ``placing``
#: (about to rename it into place), ``cleaning`` (the file is in place; its private folder is
#: about to be removed).
WATCH_BOOT = SIGNALS_AS_FROM_A_SHELL + r"""
import os, sys
said, held, moment, source, target = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
sys.argv = ["gametree"] + sys.argv[6:]

def path(argument):
    return os.path.abspath(os.fsdecode(argument)) if isinstance(argument, (str, bytes, os.PathLike)) else ""

def seen(event, args):
    if moment == "loading":
        return event == "import" and args[0] == "gametree_cli.cli.process"
    if moment == "reading":
        return event == "open" and path(args[0]) == source
    if moment == "writing":
        folder, name = os.path.split(path(args[0])) if event == "open" else ("", "")
        folder = os.path.basename(folder)
        return name == target and folder.startswith("." + target + ".") and folder.endswith(".tmp")
    if moment == "placing":
        return event in ("os.link", "os.rename", "os.replace") and os.path.basename(path(args[1])) == target
    if moment == "cleaning":
        folder = os.path.basename(path(args[0])) if event == "shutil.rmtree" else ""
        return folder.startswith("." + target + ".") and folder.endswith(".tmp")
    raise SystemExit(f"unknown moment {moment}")

armed = True

def hook(event, args):
    global armed
    if armed and seen(event, args):
        armed = False
        os.write(said, moment.encode() + b"\n")
        os.read(held, 1)

sys.addaudithook(hook)
from gametree_cli.cli.entry import main
main()
"""


#: Runs gametree unchanged (the pipes are given but not used).
RUN_BOOT = SIGNALS_AS_FROM_A_SHELL + r"""
import sys
sys.argv = ["gametree"] + sys.argv[3:]
from gametree_cli.cli.entry import main
main()
"""


class Child:
    """A child Python process with two pipes: it announces moments on one (``said``)
    and is held on the other (``held``) until the test closes its end.

    Every child is also listed in ``_CHILDREN``, so that one left held by a test
    that failed half-way is ended with that test (``_no_child_left``).
    """

    def __init__(self, boot: str, boot_args: list[str], args: list[str], cwd: Path, *,
                 stdout: Any = subprocess.DEVNULL) -> None:
        self._said, said = os.pipe()
        held, self._held = os.pipe()
        try:
            self.process = subprocess.Popen([sys.executable, "-c", boot, str(said), str(held), *boot_args, *args],
                                            cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, pass_fds=(said, held))
        except BaseException:
            self.close()
            raise
        finally:
            os.close(said)
            os.close(held)
        _CHILDREN.append(self)

    def announcement(self) -> str | None:
        """The next moment the child announces; None if it ended first (its end of the pipe closed)."""
        line = b""
        while not line.endswith(b"\n"):
            self._wait_readable(self._said)
            chunk = os.read(self._said, 1)
            if not chunk:
                return None
            line += chunk
        return line.decode().strip()

    def first_output(self) -> bytes:
        """The first byte the child writes to its standard output (a pipe); the rest is left unread."""
        assert self.process.stdout is not None
        self._wait_readable(self.process.stdout.fileno())
        return os.read(self.process.stdout.fileno(), 1)

    def release(self) -> None:
        """Let a held child go on."""
        if self._held >= 0:
            os.close(self._held)
            self._held = -1

    def stop(self, sig: int = signal.SIGINT, *, release: bool = False) -> tuple[int, str]:
        """Send ``sig`` (then release the child if asked); its exit status and standard error.

        Without ``release`` a held child stays held: only the signal can end it."""
        self.process.send_signal(sig)
        if release:
            self.release()
        try:
            _, stderr = self.process.communicate(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"still running {HANG_GUARD} s after signal {sig}: the signal did not end the run")
        self.close()
        return self.process.returncode, stderr.decode()

    def failure(self, what: str) -> str:
        """Why a child that did not announce what was expected fails the test: ``what`` and its stderr."""
        self.close()
        _, stderr = self.process.communicate(timeout=HANG_GUARD)
        return f"{what}; exit status {self.process.returncode}: {stderr.decode()}"

    def kill(self) -> None:
        """End the child if it still runs, and close everything."""
        if self.process.poll() is None:
            self.process.kill()
        self.close()
        self.process.communicate()

    def close(self) -> None:
        """Close the test's ends of the pipes (which releases a held child)."""
        self.release()
        if self._said >= 0:
            os.close(self._said)
            self._said = -1

    def _wait_readable(self, fd: int) -> None:
        if not select.select([fd], [], [], HANG_GUARD)[0]:
            self.kill()
            pytest.fail(f"the child said nothing for {HANG_GUARD} s: a hang")


_CHILDREN: list[Child] = []


@pytest.fixture(autouse=True)
def _no_child_left() -> Iterator[None]:
    """A test that failed half-way may leave a child held: end it with the test."""
    yield
    while _CHILDREN:
        _CHILDREN.pop().kill()


def paused(phase: str, args: list[str], cwd: Path) -> Child:
    """gametree running ``args`` in ``cwd``, held at the start of ``phase`` (see PAUSE_BOOT)."""
    child = Child(PAUSE_BOOT, [phase], args, cwd)
    if child.announcement() != phase:
        pytest.fail(child.failure(f"ended before reaching {phase}"))
    return child


CASES = [
    ("parse-thread", ["solve", "IN", "--answers", "OUT.answers.yaml"]),
    ("parse-thread", ["convert", "IN", "-o", "OUT.yaml"]),
    ("build", ["render", "IN", "-o", "OUT.dot"]),
    ("solve", ["solve", "IN", "--answers", "OUT.answers.yaml", "--trace"]),
    ("write", ["convert", "IN", "-o", "OUT.gtb"]),
    ("write", ["solve", "IN", "--answers", "OUT.answers.yaml"]),
    ("write", ["random", "-d", "3", "-b", "3", "--seed", "1", "-o", "OUT.yaml"]),
    ("write-data", ["convert", "IN", "-o", "OUT.json"]),
    ("write-data", ["generate", "tictactoe", "-p", "XOX.O....", "-o", "OUT.json"]),
]


@posix_only
@pytest.mark.parametrize("phase,args", CASES, ids=[f"{phase}-{args[0]}-{args[-1]}" for phase, args in CASES])
def test_ctrl_c_in_every_phase_ends_at_once_and_leaves_nothing(tmp_path: Path, phase: str, args: list[str]) -> None:
    """The paused phase never resumes while the process lives, so exit 130 means
    the run ended on the signal alone, without waiting for that phase."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "t.json").write_text(json.dumps({"root": {"id": "A", "children": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}}))
    work = tmp_path / "work"
    work.mkdir()
    args = [str(inputs / "t.json") if arg == "IN" else arg for arg in args]
    status, stderr = paused(phase, args, work).stop()
    assert status == ExitCode.INTERRUPTED == 130, stderr
    assert stderr == "gametree: interrupted\n"
    assert listing(work) == set()  # no target, no temporary file
    assert listing(inputs) == {"t.json"}


@posix_only
def test_sigterm_cleans_up_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(SMALL)
    status, stderr = paused("write", ["convert", "t.yaml", "-o", "out.json"], tmp_path).stop(signal.SIGTERM)
    assert status == ExitCode.TERMINATED == 143 and stderr == "gametree: terminated\n"
    assert listing(tmp_path) == {"t.yaml"}


@posix_only
def test_the_children_get_ctrl_c_even_when_the_test_run_ignores_it(tmp_path: Path) -> None:
    """The harness itself (issue 12): a test run started as a background job has
    SIGINT ignored, and its children inherit that; they must still be interrupted."""
    (tmp_path / "t.yaml").write_text(SMALL)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        child = paused("write", ["convert", "t.yaml", "-o", "out.json"], tmp_path)
    finally:
        signal.signal(signal.SIGINT, previous)
    status, stderr = child.stop()
    assert status == 130 and stderr == "gametree: interrupted\n", stderr
    assert listing(tmp_path) == {"t.yaml"}


#: The moments of WATCH_BOOT: each is before the new file is in place, so the run
#: must leave nothing. At ``loading`` the signal is only noted (gametree.entry
#: acts on it once the imports are done), so the child is let go after it.
MOMENTS = ["loading", "reading", "writing", "placing"]


@posix_only
@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("args,target", [
    (["solve", "IN", "--answers", "key.answers.yaml", "--trace"], "key.answers.yaml"),
    (["convert", "IN", "-o", "tree.yaml"], "tree.yaml"),
])
def test_ctrl_c_at_each_moment_of_a_real_run(tmp_path: Path, medium_tree: Path, args: list[str], target: str,
                                             moment: str) -> None:
    """No gametree function replaced: the run is watched through Python's audit
    events and held at the moment's first event while the signal is sent."""
    args = [str(medium_tree) if arg == "IN" else arg for arg in args]
    child = Child(WATCH_BOOT, [moment, os.path.abspath(medium_tree), target], args, tmp_path)
    if child.announcement() != moment:
        pytest.fail(child.failure(f"ended without reaching the moment {moment}"))
    status, stderr = child.stop(release=moment == "loading")
    assert (status, stderr) == (130, "gametree: interrupted\n"), (moment, status, stderr)
    assert listing(tmp_path) == set(), moment  # no target, no temporary file


@posix_only
def test_ctrl_c_ignored_by_the_parent_stays_ignored_while_loading(tmp_path: Path, medium_tree: Path) -> None:
    """``nohup gametree ...`` or a background job: SIGINT is ignored before gametree starts,
    and the handler that notes Ctrl-C while the command line loads must not undo that."""
    ignoring = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    boot = WATCH_BOOT.replace(SIGNALS_AS_FROM_A_SHELL, ignoring, 1)
    assert boot != WATCH_BOOT
    child = Child(boot, ["loading", os.path.abspath(medium_tree), "tree.yaml"],
                  ["convert", str(medium_tree), "-o", "tree.yaml"], tmp_path)
    if child.announcement() != "loading":
        pytest.fail(child.failure("ended without reaching the moment loading"))
    status, stderr = child.stop(release=True)
    assert (status, stderr) == (0, ""), stderr
    assert listing(tmp_path) == {"tree.yaml"}


@posix_only
def test_ctrl_c_while_the_private_folder_is_removed_leaves_no_hidden_folder(tmp_path: Path, medium_tree: Path) -> None:
    """The file is already in place when the signal lands: it stays, whole, and the removal of
    the private ``.NAME.xxxx.tmp`` folder finishes before the run ends on the signal."""
    reference = tmp_path / "reference"
    reference.mkdir()
    args = ["convert", str(medium_tree), "-o", "tree.yaml"]
    done = subprocess.run(GAMETREE + args, cwd=reference, capture_output=True, timeout=HANG_GUARD, check=False)
    assert done.returncode == 0, done.stderr
    work = tmp_path / "work"
    work.mkdir()
    child = Child(WATCH_BOOT, ["cleaning", os.path.abspath(medium_tree), "tree.yaml"], args, work)
    if child.announcement() != "cleaning":
        pytest.fail(child.failure("ended without reaching the moment cleaning"))
    status, stderr = child.stop(release=True)
    assert (status, stderr) == (130, "gametree: interrupted\n")
    assert listing(work) == {"tree.yaml"}
    assert (work / "tree.yaml").read_bytes() == (reference / "tree.yaml").read_bytes()


@posix_only
def test_ctrl_c_after_the_file_is_in_place_keeps_it_whole(tmp_path: Path, medium_tree: Path) -> None:
    """`solve --answers --format json` writes the answer file, then the result: the
    signal lands while the result fills the pipe the test has stopped reading."""
    args = ["solve", str(medium_tree), "--answers", "key.answers.yaml", "--format", "json"]
    reference = tmp_path / "reference"
    reference.mkdir()
    done = subprocess.run(GAMETREE + args, cwd=reference, capture_output=True, timeout=HANG_GUARD, check=False)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > 1 << 18  # far more than a pipe holds (64 KiB): the run cannot end unread
    work = tmp_path / "work"
    work.mkdir()
    child = Child(RUN_BOOT, [], args, work, stdout=subprocess.PIPE)
    assert child.first_output() == done.stdout[:1]
    status, stderr = child.stop()
    assert (status, stderr) == (130, "wrote the answer key key.answers.yaml\ngametree: interrupted\n")
    assert listing(work) == {"key.answers.yaml"}
    assert (work / "key.answers.yaml").read_bytes() == (reference / "key.answers.yaml").read_bytes()


# -- closed pipes ----------------------------------------------------------------------


PIPED = [
    ["solve", "TREE", "--trace"],
    ["solve", "TREE", "--format", "json"],
    ["solve", "TREE", "--format", "json", "--trace"],
    ["solve", "TREE", "--show-all"],
    ["blank", "TREE", "--show-all"],
    ["render", "TREE", "--show-all"],
    ["convert", "TREE", "-o", "-", "--to", "yaml"],
    ["compare", "TREE", "--format", "json"],
    ["check", "MANY"],
    ["check", "MANY", "--format", "json"],
    ["generate", "tictactoe", "-p", "X........"],
    ["schema"],
]


@pytest.fixture(scope="module")
def many_exercises(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An answer file whose check table is far bigger than a pipe's buffer."""
    path = tmp_path_factory.mktemp("many") / "many.answers.yaml"
    exercises = [{"name": f"exercise {index}", "tree": [[index, 2], [3]], "answers": {"value": 3}} for index in range(1500)]
    path.write_text(yaml.safe_dump({"exercises": exercises}))
    return path


def piped_args(args: list[str], tree: Path, many: Path) -> list[str]:
    return [str(tree) if arg == "TREE" else str(many) if arg == "MANY" else arg for arg in args]


def assert_quiet_end(status: int, stderr: str, args: list[str]) -> None:
    assert status == ExitCode.BROKEN_PIPE == 141, (args, status, stderr)
    assert "Traceback" not in stderr and "Exception ignored" not in stderr and "BrokenPipe" not in stderr, stderr
    assert stderr.strip() == "", stderr


@posix_only
@pytest.mark.parametrize("args", PIPED[:7] + PIPED[8:9], ids=[" ".join(args) for args in PIPED[:7] + PIPED[8:9]])
def test_a_reader_that_leaves_early_ends_the_run_quietly(medium_tree: Path, many_exercises: Path, args: list[str]) -> None:
    """`gametree ... | head -c 100`: read a little, then close the pipe."""
    args = piped_args(args, medium_tree, many_exercises)
    process = subprocess.Popen(GAMETREE + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.read(100)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    status = process.wait(HANG_GUARD)
    assert first
    if status == 0 and args[0] in ("schema", "check", "compare"):
        # small outputs fit in the pipe's buffer: all was written before the reader left
        return
    assert_quiet_end(status, stderr, args)


@posix_only
@pytest.mark.parametrize("args", PIPED, ids=[" ".join(args) for args in PIPED])
def test_a_reader_that_is_gone_from_the_start(medium_tree: Path, many_exercises: Path, args: list[str]) -> None:
    """Standard output is a pipe nobody reads any more: even one byte cannot be written."""
    args = piped_args(args, medium_tree, many_exercises)
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(GAMETREE + args, stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=HANG_GUARD, check=False)
    finally:
        os.close(write_end)
    assert_quiet_end(done.returncode, done.stderr, args)


@posix_only
def test_a_closed_pipe_does_not_stop_an_output_file(tmp_path: Path) -> None:
    """--answers is written before the result goes to the closed pipe; it stays whole."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(GAMETREE + ["solve", str(AIMA), "--answers", "key.answers.yaml"], cwd=tmp_path,
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD, check=False)
    finally:
        os.close(write_end)
    assert done.returncode == 141 and "Traceback" not in done.stderr
    assert yaml.safe_load((tmp_path / "key.answers.yaml").read_text())["answers"]["value"] == 3
