"""``gametree check ANSWERS...``: is every answer right? (contract sections 4 and 5)."""

import json
import os
import sys
from typing import Annotated, Optional

import typer

from ..output import stdout_console, write_out
from ..exits import reports_errors
from ..options import Language, OutputFormat
from ...core.errors import GameTreeError


@reports_errors
def check_command(
    answers: Annotated[list[str], typer.Argument(metavar="ANSWERS...", help="Answer files, or folders searched for *.answers.yaml / *.answers.json.")],
    junit: Annotated[Optional[str], typer.Option("--junit", metavar="REPORT.xml", help="Also write a JUnit XML report (one testcase per exercise) for CI.")] = None,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (a table) or json.")] = OutputFormat.text,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the table: en or es (JSON and JUnit stay as they are).")] = Language.en,
) -> None:
    """Solve each exercise and compare the given answers: exit 0 all right, 1 some wrong, 2 unreadable or invalid."""
    from ...io.files import write_atomically  # here, not at the top: --help's start-up time
    from ...exercises.check import ERROR, check_paths, exit_code  # imported when run: start-up time of the others
    from ...exercises.check_report import check_document, check_report, junit_report  # rich: only this command's cost

    if junit == "-":
        raise GameTreeError("--junit: name a file ('-' is not possible: standard output carries the table)")
    outcomes = check_paths(answers)
    for outcome in outcomes:
        if outcome.status == ERROR:
            sys.stderr.write(f"{outcome.error}\n")
    if junit is not None:
        inputs = tuple(outcome.file for outcome in outcomes) + tuple(
            outcome.exercise.tree for outcome in outcomes
            if outcome.exercise is not None and isinstance(outcome.exercise.tree, str)
        )
        try:
            os.makedirs(os.path.dirname(junit) or ".", exist_ok=True)  # CI jobs like reports/gametree.xml
        except OSError as error:
            raise GameTreeError(f"cannot write: {error.strerror or error}", file=junit) from None
        # A regenerated report (CI rewrites it on every run): replaced without
        # --force, but still atomically and never over an input (docs/safety.md).
        write_atomically(junit, junit_report(outcomes), force=True, protect=inputs)
    if output is OutputFormat.json:
        write_out(json.dumps(check_document(outcomes), ensure_ascii=False, indent=1) + "\n")  # a lone surrogate: escaped
    else:
        stdout_console().print(check_report(outcomes, lang.value))
    raise typer.Exit(exit_code(outcomes))
