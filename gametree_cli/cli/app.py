"""The ``gametree`` command: the typer app, its commands, and how a run ends.

The only place that prints for the user or picks exit codes. Library errors
(:class:`~gametree_cli.core.errors.GameTreeError`) become one line on stderr and
exit status 2; ``GAMETREE_DEBUG=1`` shows the traceback instead. Ctrl-C ends
a command with one line and status 130 (SIGTERM: 143), a reader that went
away (``| head``) with no message and status 141 (docs/safety.md).

Each command is a function in a module of :mod:`gametree_cli.cli.commands`; this
module registers them. Views are imported where a command uses them: rich
and NumPy cost start-up time that `gametree check` need not pay.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Annotated

import typer

from .exits import Terminated, fail, interrupted, said_interrupted, silence_stdout
from .commands import blank, check, compare, convert, generate, handout, random_tree, render, schema, solve
from ..core.errors import ExitCode, GameTreeError
from ..io.files import parse_size, set_input_limit

__all__ = ["app", "main"]

app = typer.Typer(
    name="gametree",
    help="Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and show the answer the way a course does.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def commands(
    max_input_size: Annotated[str, typer.Option(
        "--max-input-size", metavar="SIZE", envvar="GAMETREE_MAX_INPUT_SIZE",
        help="Refuse input files bigger than this, e.g. 500M or 8G (docs/safety.md).")] = "2G",
) -> None:
    """Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and show the answer the way a course does."""
    try:
        set_input_limit(parse_size(max_input_size))
    except GameTreeError as error:
        raise fail(error) from None


app.command("solve")(solve.solve_command)
app.command("check")(check.check_command)
app.command("convert")(convert.convert_command)
app.add_typer(generate.generate_app, name="generate")
app.command("render")(render.render_command)
app.command("schema")(schema.schema_command)
app.command("random")(random_tree.random_command)
app.command("compare")(compare.compare_command)
app.command("blank")(blank.blank_command)
app.command("handout")(handout.handout_command)


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def main() -> None:
    """Console-script entry point: also catches what happens outside a command
    (Ctrl-C while starting or ending, standard output closed before the final flush)."""
    signal.signal(signal.SIGTERM, _terminate)
    status: object = 0
    try:
        try:
            app()
        except SystemExit as done:
            status = done.code
        if status == ExitCode.INTERRUPTED and not said_interrupted():  # typer's own: while reading the options
            sys.stderr.write("gametree: interrupted\n")
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            silence_stdout()
            status = ExitCode.BROKEN_PIPE
        except (OSError, ValueError):
            pass
        _ignore_signals_from_now_on()
    except KeyboardInterrupt as interrupt:  # also in the last moments, after the command
        status = interrupted(interrupt)
        _ignore_signals_from_now_on()
    if status in (ExitCode.INTERRUPTED, ExitCode.TERMINATED):
        # Stopped: any partial file is already removed (atomic writes clean up on
        # the way out). Skip the interpreter's teardown, which frees a big tree
        # object by object (seconds), and a parsing thread that may still run.
        sys.stderr.flush()
        os._exit(status)  # type: ignore[arg-type]
    raise SystemExit(status)


def _ignore_signals_from_now_on() -> None:
    """The run is over, its files are whole: ignore Ctrl-C and SIGTERM.

    Python gives signals their default action back while it shuts down, so
    without this a Ctrl-C during the teardown of a big tree killed the
    process silently (status -2) after a successful run. Ignoring (not
    blocking) covers every thread, also NumPy's BLAS workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


if __name__ == "__main__":  # pragma: no cover
    main()
