"""Standard output for every command: whole writes, and rich's console with its colour rules."""

from __future__ import annotations

import functools
import os
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.console import Console

    from ..views.drawing import Drawing

__all__ = ["write_out", "stdout_console", "print_drawing", "rich_writes_plain"]


_OUT_CHUNK = 1 << 20


def write_out(data: str | bytes) -> None:
    """Write ``data`` to standard output: all of it, or BrokenPipeError.

    Why not ``sys.stdout.write``: when the reader goes away in the middle of
    one big write, Python's buffered stream reports the short write as a
    success and the rest is dropped without a word (exit 0, not 141). Writing
    in pieces and checking each count makes every command end the same way.
    """
    stream = sys.stdout
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text-only stream put in place by a caller
        stream.write(data if isinstance(data, str) else data.decode("utf-8"))
        return
    if isinstance(data, str):
        # what cannot be encoded (a lone surrogate from a JSON file's "\ud800") is written as its escape,
        # which is also the JSON escape: never an encoding error after the work is done
        data = data.encode(stream.encoding or "utf-8", "backslashreplace")
    stream.flush()
    rest = memoryview(data)
    while rest:
        piece = rest[:_OUT_CHUNK]
        written = binary.write(piece)
        rest = rest[len(piece) if written is None else written:]
    binary.flush()


class _WholeStdout:
    """Standard output for rich: each write goes through :func:`write_out`."""

    def write(self, text: str) -> int:
        write_out(text)
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(sys.stdout, name)


@functools.cache
def _console_class() -> type[Console]:
    """rich's console, but a reader that went away is left to :func:`reports_errors`
    (rich's own handling exits with status 1). Made on first use: rich costs start-up time."""
    from rich.console import Console

    class StdoutConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return StdoutConsole


def stdout_console() -> Console:
    """Colour on a terminal; plain text when piped or NO_COLOR is set (rich's rules).

    When piped, lines are neither wrapped nor cropped: a tree line is kept whole (rich crops
    each line of a tree at the console's width, even with ``soft_wrap``: hence the width).
    """
    from ..views.drawing import UNWRAPPED_WIDTH  # here: JSON output needs no drawing module

    console_class = _console_class()
    console = console_class(highlight=False, file=_WholeStdout())  # type: ignore[arg-type]
    if not console.is_terminal:
        console = console_class(highlight=False, file=_WholeStdout(), width=max(console.width, UNWRAPPED_WIDTH),  # type: ignore[arg-type]
                                soft_wrap=True)
    return console


def rich_writes_plain(stream: TextIO) -> bool:
    """True when rich's console would write ``stream`` as plain text: not a terminal
    by rich's rules (``TTY_COMPATIBLE``, ``FORCE_COLOR``, else ``isatty``) and UTF-8,
    so that its tree guides are the box-drawing ones. Asked without importing rich."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        terminal = compatible == "1"
    elif (force := os.environ.get("FORCE_COLOR")) is not None:
        terminal = force != ""
    else:
        try:
            terminal = stream.isatty()
        except (AttributeError, ValueError):
            terminal = False
    encoding = (getattr(stream, "encoding", None) or "utf-8").lower()
    return not terminal and encoding.startswith("utf")


def print_drawing(drawing: Drawing, *, blank_line_first: bool = False) -> None:
    """A text view on standard output: its plain characters when rich would print
    no colour and the drawing vouches for them (no rich import), else rich's console."""
    if rich_writes_plain(sys.stdout):
        text = drawing.plain_text()
        if text is not None:
            write_out("\n" + text if blank_line_first else text)
            return
    console = stdout_console()
    if blank_line_first:
        sys.stdout.flush()
        console.print()
    console.print(drawing)
