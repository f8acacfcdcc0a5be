"""What ``gametree check`` shows: a table with one row per exercise, its JSON
form, and a JUnit XML report for CI systems. Views only: the outcomes come
from :mod:`gametree_cli.exercises.check`.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ElementTree
from fractions import Fraction
from typing import Any, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.printable import printable
from .check import ERROR, RIGHT, WRONG, Mismatch, Outcome
from ..views.words import translate_note, words

__all__ = ["check_report", "check_table", "check_summary", "check_document", "junit_report", "describe_mismatch", "show"]

_STATUS_STYLE = {RIGHT: "bold green", WRONG: "bold red", ERROR: "bold yellow"}
_STATUS_WORD = {RIGHT: "right", WRONG: "WRONG", ERROR: "error"}


def show(value: Any) -> str:
    """An answer or a result value in the form a student writes it: ``3``, ``7/3``, ``[C.2, C.3]``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {show(item)}" for key, item in value.items()) + "}"
    return str(value)


def describe_mismatch(mismatch: Mismatch, lang: str = "en") -> str:
    """``value: expected 999, got 3`` (plus the note, if any)."""
    w = words(lang)
    never = mismatch.actual is None and mismatch.note == "never visited"
    actual = w["never_visited"] if never else show(mismatch.actual)
    text = w["mismatch"].format(field=mismatch.field, expected=show(mismatch.expected), actual=actual)
    if mismatch.note and mismatch.note != "never visited":
        text += f" ({translate_note(mismatch.note, lang)})"
    return text


def _details(outcome: Outcome, lang: str) -> Text:
    if outcome.error is not None:
        return Text(printable(str(outcome.error)), style="yellow")
    if not outcome.mismatches:
        return Text(words(lang)["all_right"], style="green")
    return Text("\n".join(printable(describe_mismatch(mismatch, lang)) for mismatch in outcome.mismatches))


def check_table(outcomes: Sequence[Outcome], lang: str = "en") -> Table:
    """One row per exercise: name and file, tree, algorithm, result, and what is wrong.

    Every word from the files (names, paths, algorithms, answers) goes in as ``Text``, never as
    markup (a tree called ``x[/].yaml`` is a file name), with control characters shown escaped."""
    w = words(lang)
    table = Table(show_lines=True, header_style="bold", expand=False)
    table.add_column(w["exercise"], overflow="fold")
    table.add_column(w["tree"], overflow="fold")
    table.add_column(w["algorithm"])
    table.add_column(w["result"])
    table.add_column(w["expected_vs_actual"], overflow="fold")
    for outcome in outcomes:
        name = Text(printable(outcome.name), style="bold")
        name.append(f"\n{printable(str(outcome.file))}", style="dim")
        tree = outcome.exercise.tree_label if outcome.exercise is not None else ""
        status = outcome.status
        table.add_row(
            name,
            Text(printable(tree)),
            Text(printable(outcome.algorithm or "")),
            Text(w[_STATUS_WORD[status]], style=_STATUS_STYLE[status]),
            _details(outcome, lang),
        )
    return table


def check_summary(outcomes: Sequence[Outcome], lang: str = "en") -> Text:
    """``3 exercises: 2 right, 1 wrong, 0 not checked``."""
    w = words(lang)
    counts = {status: sum(1 for outcome in outcomes if outcome.status == status) for status in (RIGHT, WRONG, ERROR)}
    text = Text(w["exercises"].format(count=len(outcomes), s="s" if len(outcomes) != 1 else ""))
    text.append(w["n_right"].format(count=counts[RIGHT]), style="green" if counts[RIGHT] else "")
    text.append(", ")
    text.append(w["n_wrong"].format(count=counts[WRONG]), style="bold red" if counts[WRONG] else "")
    if counts[ERROR]:
        text.append(", ")
        text.append(w["n_error"].format(count=counts[ERROR]), style="bold yellow")
    return text


def check_report(outcomes: Sequence[Outcome], lang: str = "en") -> RenderableType:
    """The table and the summary line together, in ``lang`` (en, es)."""
    return Group(check_table(outcomes, lang), check_summary(outcomes, lang))


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, Fraction):
        return show(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    return value


def check_document(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The machine-readable report of ``check --format json``."""
    exercises = []
    for outcome in outcomes:
        exercises.append({
            "file": outcome.file,
            "name": outcome.name,
            "tree": outcome.exercise.tree_label if outcome.exercise is not None else None,
            "algorithm": outcome.algorithm,
            "status": outcome.status,
            "wrong": [
                {"field": mismatch.field, "expected": _jsonable(mismatch.expected),
                 "actual": _jsonable(mismatch.actual), "note": mismatch.note}
                for mismatch in outcome.mismatches
            ],
            "error": str(outcome.error) if outcome.error is not None else None,
        })
    return {
        "exercises": exercises,
        "summary": {
            "exercises": len(outcomes),
            "right": sum(1 for outcome in outcomes if outcome.status == RIGHT),
            "wrong": sum(1 for outcome in outcomes if outcome.status == WRONG),
            "errors": sum(1 for outcome in outcomes if outcome.status == ERROR),
        },
    }


def junit_report(outcomes: Sequence[Outcome]) -> str:
    """JUnit XML: a testsuite per answer file, a testcase per exercise, a
    ``failure`` per wrong exercise and an ``error`` per one that could not be checked."""
    root = ElementTree.Element("testsuites", name="gametree check")
    suites: dict[str, ElementTree.Element] = {}
    totals = {"tests": 0, "failures": 0, "errors": 0, "time": 0.0}
    for outcome in outcomes:
        file = printable(str(outcome.file))  # XML holds no control character, and no lone surrogate
        suite = suites.get(file)
        if suite is None:
            suite = suites[file] = ElementTree.SubElement(root, "testsuite", name=file)
            suite.attrib.update(tests="0", failures="0", errors="0", time="0")
        case = ElementTree.SubElement(
            suite,
            "testcase",
            name=printable(outcome.name),
            classname=file,
            file=file,
            time=f"{outcome.seconds:.3f}",
        )
        status = outcome.status
        if status == WRONG:
            lines = [printable(describe_mismatch(mismatch)) for mismatch in outcome.mismatches]
            failure = ElementTree.SubElement(case, "failure", message="; ".join(lines), type="WrongAnswer")
            failure.text = "\n".join(lines)
        elif status == ERROR:
            said = printable(str(outcome.error))
            error = ElementTree.SubElement(case, "error", message=said, type=type(outcome.error).__name__)
            error.text = said
        counts = {"tests": 1, "failures": int(status == WRONG), "errors": int(status == ERROR)}
        for key, amount in counts.items():
            suite.attrib[key] = str(int(suite.attrib[key]) + amount)
            totals[key] += amount
        suite.attrib["time"] = f"{float(suite.attrib['time']) + outcome.seconds:.3f}"
        totals["time"] += outcome.seconds
    root.attrib.update(tests=str(totals["tests"]), failures=str(totals["failures"]),
                       errors=str(totals["errors"]), time=f"{totals['time']:.3f}")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
