"""How a ``gametree`` process ends, whoever parsed its command line (typer, or the quick path).

Also what happens outside a command: Ctrl-C while starting or ending,
SIGTERM, standard output closed before the final flush.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Callable, NoReturn

from .closed_streams import stand_in_for_closed_streams
from .exits import Terminated, fail, interrupted, said_interrupted, silence_stdout
from ..core.errors import ExitCode, GameTreeError

__all__ = ["run_process"]


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def run_process(command: Callable[[], object]) -> NoReturn:
    """Run ``command`` (a whole command line's work) and end the process with the contract's exit status."""
    signal.signal(signal.SIGTERM, _terminate)
    stand_in_for_closed_streams()
    status: object = 0
    try:
        try:
            command()
        except SystemExit as done:
            status = done.code
        except GameTreeError as error:  # outside a command: a help page written to a closed standard output
            status = fail(error).code
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
