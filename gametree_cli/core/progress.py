"""A progress bar on standard error for long loads and searches, free when not shown.

Why this shape: the loaders, searches and writers must not pay for a bar
nobody sees (a test or a pipe), and must not know about rich. So they only
call :func:`tick` now and then (every 65,536 nodes, every level); ``tick``
is one global read while no bar is wanted. The command line opens
:func:`shown` around a command: only when standard error is a terminal does
it arm a timer, and only if the command is still running after a second
does a rich progress bar appear (transient: it is erased when done). A
command that writes to a terminal's standard output stops the bar first,
so the two never interleave.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Any, Iterator, TextIO

__all__ = ["tick", "shown", "stop", "STAGES"]

#: what the bar says for each stage
STAGES = {
    "read": "reading the file",
    "parse": "parsing",
    "build": "checking and building the tree",
    "solve": "searching",
    "write": "writing the result",
}

# The latest (stage, done, total) reported; None while no bar is wanted.
_latest: list[Any] | None = None
_display: _Display | None = None


def tick(stage: str, done: int = 0, total: int | None = None) -> None:
    """Report progress (cheap; ignored unless a bar may be shown)."""
    latest = _latest
    if latest is not None:
        latest[0], latest[1], latest[2] = stage, done, total


class _Display:
    """The rich bar, fed from ``_latest`` by a thread of its own."""

    def __init__(self, stream: TextIO, delay: float) -> None:
        import threading  # here, not at the top: only a terminal's bar needs a thread (start-up)

        self.stream = stream
        self.delay = delay
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="gametree-progress", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        if self.stopped.wait(self.delay):
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        console = Console(file=self.stream, stderr=True)
        bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=console, transient=True, refresh_per_second=8,
                       redirect_stdout=False, redirect_stderr=False)
        task = bar.add_task(STAGES["read"], total=None)
        with bar:
            while not self.stopped.wait(0.125):
                latest = _latest
                if latest is None:
                    break
                stage, done, total = latest
                bar.update(task, description=STAGES.get(stage, stage), completed=done, total=total)

    def stop(self) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join()


class _StopOnWrite:
    """Standard output that erases the bar before its first write (terminal output only)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        stop()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":  # bytes written underneath also end the bar
            stop()
        return getattr(self._stream, name)


def stop() -> None:
    """Erase the bar now (and show none for the rest of the command)."""
    global _latest, _display
    _latest = None
    display, _display = _display, None
    if display is not None:
        display.stop()


@contextmanager
def shown(stream: TextIO | None = None, *, delay: float = 1.0) -> Iterator[None]:
    """Show a progress bar on ``stream`` (standard error) if the block runs longer than ``delay`` seconds.

    Nothing happens unless ``stream`` is a terminal (and ``GAMETREE_PROGRESS``
    is not ``0``); the bar is erased when the block ends.
    """
    global _latest, _display
    stream = stream or sys.stderr
    wanted = _display is None and os.environ.get("GAMETREE_PROGRESS", "1") != "0" and _is_terminal(stream)
    if not wanted:
        yield
        return
    _latest = ["read", 0, None]
    _display = _Display(stream, delay)
    _display.start()
    stdout = sys.stdout
    wrapped = _is_terminal(stdout)
    if wrapped:
        sys.stdout = _StopOnWrite(stdout)  # type: ignore[assignment]
    try:
        yield
    finally:
        stop()
        if wrapped and isinstance(sys.stdout, _StopOnWrite):
            sys.stdout = stdout


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
