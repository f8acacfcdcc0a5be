"""``gametree check``: solve each exercise and compare the given answers.

Answers are a subset of the JSON result (contract sections 3 and 4); the
comparison reads them from the search record, key by key
(:class:`~gametree_cli.exercises.record_answers.RecordAnswers`: the nodes
asked about get the same entries ``solve --format json`` prints). Rules:

* numbers exactly while both sides are exact (``"7/3"`` equals 7/3); a
  decimal on either side within 1e-9; ``inf`` / ``-inf`` for the bounds;
* ``pruned`` and ``best_moves`` as sets, exactly: a node the solution visits
  but the answer marks pruned is as wrong as a missed cut;
* ``visit_order`` and ``principal_variation`` as ordered lists;
* ``nodes`` and ``stats`` entry by entry, only the entries given
  (``nodes: {B: 3}`` is short for ``nodes: {B: {value: 3}}``).

Nothing here prints: the library returns :class:`Outcome` objects and the
command and views decide how to show them.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..search.registry import solve
from .answer_shape import answer_id, expected_number, split_bound
from .answers import ANSWER_SUFFIXES, Exercise, read_answer_file
from ..core.errors import AlgorithmError, ExerciseError, GameTreeError
from ..core.model import Tree
from ..core.numbers import Number
from .record_answers import RecordAnswers

__all__ = [
    "RIGHT",
    "WRONG",
    "ERROR",
    "Mismatch",
    "Outcome",
    "find_answer_files",
    "check_file",
    "check_paths",
    "check_exercise",
    "compare_answers",
    "same_value",
    "same_number",
    "exit_code",
]

RIGHT = "right"
WRONG = "wrong"
ERROR = "error"
#: Floats (decimals in the tree or the answer) compare within this tolerance.
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Mismatch:
    """One wrong answer.

    Attributes:
        field: which answer, e.g. ``value``, ``pruned``, ``nodes[B].alpha``, ``stats.cutoffs``.
        expected: what the answer file says, as written.
        actual: the solution's value, in the JSON result's form (None: the node was never visited).
        note: a hint in words, e.g. ``missing: C.3; not pruned: D.2``.
    """

    field: str
    expected: Any
    actual: Any
    note: str | None = None


@dataclass
class Outcome:
    """The result of checking one exercise (or of failing to read its file).

    Attributes:
        file: the answer file, as named on the command line or found in a folder.
        name: the exercise's name.
        exercise: the validated exercise; None when the file itself is unreadable.
        mismatches: the wrong answers (empty: all right).
        error: why the exercise could not be checked (bad file, bad tree, unfit algorithm).
        seconds: time spent solving and comparing.
        algorithm: the algorithm used (once known).
    """

    file: str
    name: str
    exercise: Exercise | None = None
    mismatches: list[Mismatch] = field(default_factory=list)
    error: GameTreeError | None = None
    seconds: float = 0.0
    algorithm: str | None = None

    @property
    def status(self) -> str:
        if self.error is not None:
            return ERROR
        return WRONG if self.mismatches else RIGHT


def exit_code(outcomes: Iterable[Outcome]) -> int:
    """Contract section 5: 2 when anything could not be checked, else 1 when anything is wrong, else 0."""
    statuses = {outcome.status for outcome in outcomes}
    if ERROR in statuses:
        return 2
    return 1 if WRONG in statuses else 0


def find_answer_files(paths: Sequence[str | os.PathLike[str]]) -> list[tuple[str, ExerciseError | None]]:
    """The answer files named by ``paths``: files as given, folders searched
    recursively for ``*.answers.yaml|yml|json`` (hidden folders skipped), sorted.

    Returns ``(file, error)`` pairs; ``error`` says why a path cannot be used
    (missing, or a folder without answer files), so one bad path does not hide
    the others' results.
    """
    found: list[tuple[str, ExerciseError | None]] = []
    for given in paths:
        name = os.fspath(given)
        if os.path.isdir(name):
            matches: list[str] = []
            for directory, subdirectories, files in os.walk(name):
                subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
                matches.extend(os.path.join(directory, file) for file in sorted(files)
                               if file.lower().endswith(ANSWER_SUFFIXES))
            if not matches:
                found.append((name, ExerciseError(
                    f"no answer files in this folder (looked for *{', *'.join(ANSWER_SUFFIXES)})", file=name)))
            found.extend((match, None) for match in matches)
        elif os.path.exists(name):
            found.append((name, None))
        else:
            found.append((name, ExerciseError("no such file or folder", file=name)))
    return found


def check_paths(paths: Sequence[str | os.PathLike[str]]) -> list[Outcome]:
    """Check every exercise of every answer file under ``paths``."""
    outcomes: list[Outcome] = []
    for file, problem in find_answer_files(paths):
        if problem is not None:
            outcomes.append(Outcome(file, Path(file).name, error=problem))
        else:
            outcomes.extend(check_file(file))
    return outcomes


def check_file(path: str | os.PathLike[str]) -> list[Outcome]:
    """Check every exercise of one answer file; an unreadable file is one error outcome."""
    name = os.fspath(path)
    try:
        exercises = read_answer_file(name)
    except GameTreeError as error:
        return [Outcome(name, Path(name).name, error=error)]
    return [check_exercise(exercise) for exercise in exercises]


def check_exercise(exercise: Exercise) -> Outcome:
    """Solve one exercise and compare its answers."""
    started = time.perf_counter()
    outcome = Outcome(exercise.file, exercise.name, exercise, algorithm=exercise.algorithm)
    try:
        tree = exercise.load_tree()
        try:
            record = solve(tree, exercise.algorithm, options=exercise.options)
        except AlgorithmError as error:
            # the choice is the answer file's: point there, not at the tree
            raise exercise.error(error.message, "algorithm" if exercise.algorithm else "tree") from None
        outcome.algorithm = record.algorithm
        outcome.mismatches = compare_answers(exercise, RecordAnswers(record), tree)
    except GameTreeError as error:
        outcome.error = error
    outcome.seconds = time.perf_counter() - started
    return outcome


# -- comparing --------------------------------------------------------------------


def compare_answers(exercise: Exercise, result: RecordAnswers, tree: Tree) -> list[Mismatch]:
    """Every wrong answer of ``exercise`` against the search's answers ``result``.

    Raises:
        ExerciseError: an answer names a node the tree does not have.
    """
    known = set(tree.ids())

    def ids(key: str, items: list[Any], *path: Any) -> list[str]:
        names = [answer_id(item) for item in items]
        for index, node_id in enumerate(names):
            if node_id not in known:
                raise exercise.error(f"{key}: the tree has no node {node_id!r}", "answers", *path, index)
        return names

    wrong: list[Mismatch] = []
    for key, expected in exercise.answers.items():
        actual = result.get(key)
        if key == "value":
            if not same_value(expected, actual):
                wrong.append(Mismatch("value", expected, actual))
        elif key == "best_move":
            if (None if expected is None else answer_id(expected)) != actual:
                wrong.append(Mismatch("best_move", expected, actual))
        elif key == "best_moves":
            if not result.has_best_moves():  # the search's own values cannot tell (docs/solving.md)
                raise exercise.error(f"best_moves: this {result.algorithm} search cannot tell every equally good "
                                     "root move (its cut-offs leave bounds that may hide a tie); leave best_moves "
                                     "out, or ask it of the exhaustive algorithm", "answers", "best_moves")
            wrong.extend(_compare_sets("best_moves", [answer_id(item) for item in expected], actual))
        elif key == "pruned":
            wrong.extend(_compare_pruned(ids(key, expected, key), actual, tree))
        elif key == "visit_order":
            given = ids(key, expected, key)
            if given != actual:
                wrong.append(Mismatch(key, expected, actual, _first_difference(given, actual)))
        elif key == "principal_variation":
            given = [answer_id(item) for item in expected]
            if given != actual:
                wrong.append(Mismatch(key, expected, actual, _first_difference(given, actual)))
        elif key == "nodes":
            wrong.extend(_compare_nodes(exercise, expected, result, known))
        elif key == "stats":
            stats = result.get("stats")
            for stat, count in expected.items():
                if stats.get(stat) != count:
                    wrong.append(Mismatch(f"stats.{stat}", count, stats.get(stat)))
        elif not same_value(expected, actual):
            wrong.append(Mismatch(key, expected, actual))
    return wrong


def _compare_sets(key: str, given: list[str], actual: list[str]) -> list[Mismatch]:
    missing = [item for item in actual if item not in given]
    extra = [item for item in given if item not in actual]
    if not missing and not extra:
        return []
    parts = []
    if missing:
        parts.append(f"missing: {', '.join(missing)}")
    if extra:
        parts.append(f"not expected: {', '.join(extra)}")
    return [Mismatch(key, given, actual, "; ".join(parts))]


def _compare_pruned(given: list[str], actual: list[str], tree: Tree) -> list[Mismatch]:
    """Pruned sets compared exactly, with the difference said in words."""
    missing = [node_id for node_id in actual if node_id not in given]
    extra = [node_id for node_id in given if node_id not in actual]
    if not missing and not extra:
        return []
    parts = []
    if missing:
        parts.append(f"missed cut-off: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} never visited")
    if extra:
        pruned = {tree.index(node_id) for node_id in actual}
        parents = tree.parents()
        inside, visited = [], []
        for node_id in extra:
            node = parents[tree.index(node_id)]
            while node >= 0 and node not in pruned:
                node = parents[node]
            (inside if node >= 0 else visited).append(node_id)
        if visited:
            parts.append(f"not pruned: {', '.join(visited)} {'is' if len(visited) == 1 else 'are'} visited")
        if inside:
            parts.append(f"{', '.join(inside)} lie{'s' if len(inside) == 1 else ''} inside a pruned subtree: "
                         "list only the topmost pruned nodes")
    return [Mismatch("pruned", given, actual, "; ".join(parts))]


def _compare_nodes(exercise: Exercise, expected: dict[Any, Any], result: RecordAnswers, known: set[str]) -> list[Mismatch]:
    wrong: list[Mismatch] = []
    for raw_id in expected:
        node_id = answer_id(raw_id)
        if node_id not in known:
            raise exercise.error(f"nodes: the tree has no node {node_id!r}", "answers", "nodes", raw_id, key=True)
    nodes = result.nodes([answer_id(raw_id) for raw_id in expected])
    for raw_id, entry in expected.items():
        node_id = answer_id(raw_id)
        actual = nodes[node_id]
        wanted = _with_bound(entry if isinstance(entry, dict) else {"value": entry})
        for key, item in wanted.items():
            where = f"nodes[{node_id}].{key}"
            if key in ("value", "alpha", "beta"):
                if key not in actual:
                    note = "never visited" if not actual.get("visited") else f"the algorithm keeps no {key}"
                    wrong.append(Mismatch(where, item, None, note))
                elif not same_value(item, actual[key]):
                    wrong.append(Mismatch(where, item, actual[key]))
            elif key == "bound_kind":
                kind = actual.get("bound_kind", "exact") if "value" in actual else None
                if kind != item:
                    note = None if kind is not None else "never visited"
                    wrong.append(Mismatch(where, item, kind, note))
            elif key in ("visited", "horizon"):
                if bool(actual.get(key, False)) != item:
                    wrong.append(Mismatch(where, item, bool(actual.get(key, False))))
            elif str(item) != str(actual.get(key)):
                wrong.append(Mismatch(where, item, actual.get(key)))
    return wrong


def _with_bound(wanted: dict[str, Any]) -> dict[str, Any]:
    """A node's answer with a value written as a bound (``≤2``) split into its number and
    ``bound_kind``; a plain number leaves the kind unasked (``2`` is right for ``≤2`` too)."""
    value, kind = split_bound(wanted.get("value"))
    if kind is None:
        return wanted
    return {**wanted, "value": value, "bound_kind": kind}


def _first_difference(given: list[str], actual: list[str]) -> str:
    for index, (mine, theirs) in enumerate(zip(given, actual)):
        if mine != theirs:
            return f"first difference at position {index + 1}: {mine} instead of {theirs}"
    if len(given) < len(actual):
        return f"{len(actual) - len(given)} too few: the list goes on with {actual[len(given)]}"
    return f"{len(given) - len(actual)} too many: the list ends after {actual[-1] if actual else 'nothing'}"


def same_value(expected: Any, actual: Any) -> bool:
    """Answer ``expected`` (as written) against ``actual`` (JSON result form), by the number rules."""
    if isinstance(expected, list) or isinstance(actual, list):
        return (isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual)
                and all(same_value(mine, theirs) for mine, theirs in zip(expected, actual)))
    if isinstance(expected, dict) or isinstance(actual, dict):
        return (isinstance(expected, dict) and isinstance(actual, dict)
                and all(key in actual and same_value(item, actual[key]) for key, item in expected.items()))
    if expected is None or actual is None or isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or expected == actual and type(expected) is type(actual)
    mine, theirs = _as_number(expected), _as_number(actual)
    if mine is None or theirs is None:
        return str(expected) == str(actual)
    return same_number(mine, theirs)


def same_number(expected: Number, actual: Number) -> bool:
    """Exact numbers exactly; a float on either side within 1e-9 (relative, or absolute near 0)."""
    if isinstance(expected, float) or isinstance(actual, float):
        if math.isinf(expected) or math.isinf(actual):
            return expected == actual
        return math.isclose(float(expected), float(actual), rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return Fraction(expected) == Fraction(actual)


def _as_number(raw: Any) -> Number | None:
    try:
        return expected_number(raw)
    except ValueError:
        return None
