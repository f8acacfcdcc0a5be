"""How a command ends: the contract's one-line errors and exit statuses, Ctrl-C, SIGTERM, a closed pipe.

Without typer: a command ends by raising :class:`SystemExit`, which typer lets
through like its own ``typer.Exit`` and which the quick path (:mod:`.quick`),
running a command without typer, ends on too.
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Callable, ParamSpec

from ..core import progress
from ..core.errors import ExitCode, GameTreeError

__all__ = ["fail", "reports_errors", "interrupted", "Terminated", "silence_stdout", "said_interrupted"]

P = ParamSpec("P")


def fail(error: GameTreeError) -> SystemExit:
    """Print ``error`` as the contract's one line on stderr; the exit to raise."""
    sys.stderr.write(f"{error}\n")
    return SystemExit(ExitCode.BAD_INPUT)


def reports_errors(command: Callable[P, None]) -> Callable[P, None]:
    """Turn library errors into the contract's one line on stderr and exit 2;
    end quietly on Ctrl-C (130) and when standard output's reader went away (141)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            with progress.shown():  # a bar on a terminal's stderr after 1 s; nothing otherwise
                command(*args, **kwargs)
        except GameTreeError as error:
            if os.environ.get("GAMETREE_DEBUG"):
                raise
            raise fail(error) from None
        except BrokenPipeError:
            silence_stdout()
            raise SystemExit(ExitCode.BROKEN_PIPE) from None
        except KeyboardInterrupt as interrupt:
            raise SystemExit(interrupted(interrupt)) from None
        except (RecursionError, MemoryError) as error:
            if os.environ.get("GAMETREE_DEBUG"):
                raise
            sys.stderr.write(f"gametree: error: the tree is too big or too deep to handle ({type(error).__name__})\n")
            raise SystemExit(ExitCode.BAD_INPUT) from None

    return run


_said_interrupted = False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the same clean-up (no partial file) runs."""


def interrupted(interrupt: KeyboardInterrupt) -> int:
    """Say in one line that the run was stopped; the exit status (128 + the signal)."""
    global _said_interrupted
    _said_interrupted = True
    if isinstance(interrupt, Terminated):
        sys.stderr.write("gametree: terminated\n")
        return ExitCode.TERMINATED
    sys.stderr.write("gametree: interrupted\n")
    return ExitCode.INTERRUPTED


def silence_stdout() -> None:
    """After the reader of a pipe went away (``| head``): send what is still
    buffered for standard output to /dev/null, so nothing complains at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass



def said_interrupted() -> bool:
    """Whether :func:`interrupted` already told the user."""
    return _said_interrupted
