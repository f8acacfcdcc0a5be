"""One fuzz target for every front end: load an input, solve it every way, render every view.

The property (issue 8): on any input gametree ends either with a result or
with a :class:`~gametree_cli.core.errors.GameTreeError` whose one-line message
names the file. Any other exception escaping these functions is a bug, and
so is a view or writer whose output gametree cannot read back. Both the
Hypothesis tests (``tests/test_fuzz.py``) and the atheris harness
(``fuzz/atheris_tree.py``) call :func:`run_tree_input` and
:func:`run_answer_input`; ``choices`` (a seeded :class:`random.Random`)
picks the search options, so a failing case replays exactly.
"""

from __future__ import annotations

import json
import os
import random
import re
from io import StringIO
from pathlib import Path

from rich.console import Console

from gametree_cli.search.registry import ALGORITHMS, Options, solve
from gametree_cli.exercises.answers import parse_answer_text
from gametree_cli.views.answer_key import answer_key, dump_answer_file
from gametree_cli.exercises.check import check_exercise, check_file
from gametree_cli.cli.commands.blank import blank_view
from gametree_cli.exercises.comparison import compare_algorithms
from gametree_cli.core.errors import GameTreeError
from gametree_cli.search.events import Event
from gametree_cli.io.binary import read_binary
from gametree_cli.io.binary_encode import encode_binary
from gametree_cli.io.document_writer import TEXT_WRITERS, tree_to_document
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.core.model import Tree
from gametree_cli.core.numbers import MAX_DIGITS
from gametree_cli.search.record import SearchRecord
from gametree_cli.views.annotated import render_result
from gametree_cli.exercises.check_report import check_document, check_report, junit_report
from gametree_cli.exercises.compare_table import comparison_document, comparison_table
from gametree_cli.views.dot import render_dot
from gametree_cli.views.latex import render_latex
from gametree_cli.views.result_json import result_document, write_record
from gametree_cli.views.trace import StreamingTrace

from .seeds import ROOT

__all__ = ["Workspace", "run_tree_input", "run_answer_input", "check_error", "FuzzFailure"]


_TOO_LONG = re.compile(r"\d{%d}" % (MAX_DIGITS + 1))


class FuzzFailure(AssertionError):
    """A property gametree breaks that is not an exception of its own (bad message, unreadable output)."""


class Workspace:
    """A folder for the fuzzed files: ``case.EXT`` for trees, ``exercises/`` beside a link to ``trees/``.

    Answer files name their trees relative to themselves (``../trees/dice.yaml``),
    so the shipped exercise files are fuzzed from a folder laid out like the repository's.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        (self.directory / "exercises").mkdir(parents=True, exist_ok=True)
        trees = self.directory / "trees"
        if not trees.exists():
            trees.symlink_to(ROOT / "trees", target_is_directory=True)

    def tree_file(self, data: bytes, extension: str) -> Path:
        path = self.directory / f"case{extension}"
        path.write_bytes(data)
        return path

    def answer_file(self, data: bytes) -> Path:
        path = self.directory / "exercises" / "case.answers.yaml"
        path.write_bytes(data)
        return path


def check_error(error: GameTreeError, file: str | None, *, located: bool = False) -> None:
    """The contract's error: one line, starting with the file's name (when it concerns a file),
    and for a text file ``located``: ``FILE:LINE[:COL]: ...``."""
    text = str(error)
    if "\n" in text or "\r" in text:
        raise FuzzFailure(f"error message is not one line: {text!r}")
    if file is not None and not text.startswith(f"{file}"):
        raise FuzzFailure(f"error message does not name the file {file!r}: {text!r}")
    if located and error.line is None:
        raise FuzzFailure(f"error message of a text file without a line: {text!r}")


def run_tree_input(data: bytes, extension: str, choices: random.Random, workspace: Workspace) -> str:
    """Load ``data`` as a tree file with ``extension``; solve and render it. Returns "solved" or "error"."""
    if extension != ".gtb":  # the same bytes on standard input or in --tree: decoded, then sniffed
        try:
            parse_tree(data.decode("utf-8", "surrogateescape"), name="<stdin>")
        except GameTreeError as error:
            check_error(error, "<stdin>", located=True)
    path = workspace.tree_file(data, extension)
    # a .gtb file half the time as the text view reads it (io/gtb_plain.py), without NumPy: then every view
    # below meets a plain tree too
    plain = extension == ".gtb" and choices.random() < 0.5
    try:
        tree = load_tree(path, plain=plain)
    except GameTreeError as error:
        check_error(error, str(path), located=extension != ".gtb")
        return "error"
    try:
        exercise_tree(tree, choices, workspace)
    except GameTreeError as error:  # a view refusing the tree: the CLI prints it as any error
        check_error(error, None)
        return "error"
    return "solved"


def run_answer_input(data: bytes, workspace: Workspace) -> str:
    """Check ``data`` as an answer file (as ``gametree check`` does) and render the report."""
    path = workspace.answer_file(data)
    outcomes = check_file(path)
    for outcome in outcomes:
        if outcome.error is not None:
            check_error(outcome.error, None)
    _print(check_report(outcomes))
    json.dumps(check_document(outcomes), allow_nan=False)
    junit_report(outcomes)
    return "error" if any(outcome.error for outcome in outcomes) else "solved"


def random_options(tree: Tree, choices: random.Random) -> Options:
    """Search options as the command line could give them, valid or not."""
    options = Options(
        depth=choices.choice((None, None, None, 0, 1, 2, 3)),
        variant=choices.choice(("soft", "hard")),
        strict=choices.random() < 0.3,
        order=choices.choice(("given", "given", "best", "worst")),
    )
    if choices.random() < 0.2:
        options.extra["ties"] = choices.choice(("left", "right", "paranoid", "altruistic", "bogus"))
    if choices.random() < 0.2:
        options.extra["sum"] = choices.choice((0, 9, 10, -1, 1))
    if choices.random() < 0.2:
        options.extra["bounds"] = choices.choice(((0, 10), (-10, 10), (5, 1), (0, 0)))
    return options


def exercise_tree(tree: Tree, choices: random.Random, workspace: Workspace) -> None:
    """Every algorithm with random options, every view of each record, every writer."""
    checked = False
    for name in ALGORITHMS:
        options = random_options(tree, choices)
        events: list[Event] = []
        try:
            record = solve(tree, name, options=options, observer=events.append)
        except GameTreeError as error:
            check_error(error, None)
            continue
        render_record(record, events)
        if not checked and choices.random() < 0.5:
            check_answer_key(record, options)
            checked = True
    _print(blank_view(tree))
    try:
        rows = compare_algorithms(tree, Options(depth=choices.choice((None, 1))))
    except GameTreeError as error:
        check_error(error, None)
    else:
        _print(comparison_table(rows, title=tree.title))
        json.dumps(comparison_document(rows), allow_nan=False)
    rewrite(tree, workspace)


def render_record(record: SearchRecord, events: list[Event]) -> None:
    """The annotated tree, both traces, the JSON result (written, and as a document), DOT and LaTeX."""
    tree = record.tree
    _print(render_result(record))
    _print(render_result(record, max_nodes=len(tree), depth=None))
    for lang in ("en", "es"):
        trace = StreamingTrace(tree, StringIO(), lang)
        for event in events:
            trace(event)
    streamed = StringIO()
    write_record(record, streamed, events=events)
    _strict_json(streamed.getvalue(), "the written JSON result")
    if json.dumps(json.loads(streamed.getvalue())) != json.dumps(result_document(record, events=events)):
        raise FuzzFailure("the written JSON result differs from result_document's")
    render_dot(record)
    render_latex(record)


def check_answer_key(record: SearchRecord, options: Options) -> None:
    """The answer key ``solve --answers`` would write must check as all right."""
    key = answer_key(record, tree=tree_to_document(record.tree), options=options)
    text = dump_answer_file(key)
    if _TOO_LONG.search(text):
        return  # a computed number past the 4300 digits answer files (like tree files) take: a documented limit
    try:
        (exercise,) = parse_answer_text(text, "key.answers.yaml")
    except GameTreeError as error:
        raise FuzzFailure(f"an answer key gametree wrote does not read back: {error}\n{text}") from None
    outcome = check_exercise(exercise)
    if outcome.error is not None or outcome.mismatches:
        raise FuzzFailure(f"an answer key gametree wrote does not check: {outcome.error or outcome.mismatches}\n{text}")


def rewrite(tree: Tree, workspace: Workspace) -> None:
    """Every writer's output must read back (a writer may refuse a tree it cannot express)."""
    for name, render in TEXT_WRITERS.items():
        try:
            text = render(tree)
        except GameTreeError as error:
            check_error(error, None)
            continue
        try:
            parse_tree(text, name=f"rewritten.{name}", fmt=None if name == "compact" else name)
        except GameTreeError as error:
            raise FuzzFailure(f"the {name} writer wrote a file gametree cannot read: {error}\n{text[:2000]}") from None
    path = workspace.directory / "rewritten.gtb"
    path.write_bytes(encode_binary(tree))
    try:
        read_binary(path, str(path))
    except GameTreeError as error:
        raise FuzzFailure(f"the .gtb writer wrote a file gametree cannot read: {error}") from None


def _print(renderable: object) -> str:
    console = Console(file=StringIO(), width=100, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _strict_json(text: str, what: str) -> None:
    def refuse(constant: str) -> None:
        raise FuzzFailure(f"{what} holds {constant}, which is not JSON")

    try:
        json.loads(text, parse_constant=refuse)
    except ValueError as error:
        raise FuzzFailure(f"{what} is not valid JSON: {error}") from None
