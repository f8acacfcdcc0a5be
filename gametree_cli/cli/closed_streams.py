"""Stand-ins for standard streams the parent closed (``gametree solve - <&-``, ``... >&-``).

Python then leaves ``sys.stdin`` or ``sys.stdout`` as None, and the first
read or write was an AttributeError traceback. A stand-in ends the command
with the contract's one line and exit 2 when it is used, and costs nothing
when it is not (``gametree convert t.yaml -o t.json >&-`` writes no output).
A closed standard error has nowhere to report to: its stand-in discards.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from ..core.errors import GameTreeError

__all__ = ["ClosedStream", "stand_in_for_closed_streams"]


class ClosedStream:
    """A closed standard stream: reading or writing it raises the one-line error (``discard``: writes vanish)."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, name: str, discard: bool = False) -> None:
        self.name, self.discard = name, discard

    def _closed(self) -> NoReturn:
        raise GameTreeError(f"standard {self.name} is closed")

    @property
    def buffer(self) -> NoReturn:
        self._closed()

    def read(self, size: int = -1) -> str:
        self._closed()

    readline = read

    def write(self, text: str) -> int:
        if self.discard:
            return len(text)
        self._closed()

    def flush(self) -> None:
        """Nothing to flush (the interpreter flushes ``sys.stdout`` at exit: never an error there)."""

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        self._closed()


def stand_in_for_closed_streams() -> None:
    """Put a :class:`ClosedStream` where the process has no standard input, output or error."""
    for name, discard in (("input", False), ("output", False), ("error", True)):
        attribute = {"input": "stdin", "output": "stdout", "error": "stderr"}[name]
        if getattr(sys, attribute) is None:
            setattr(sys, attribute, ClosedStream(name, discard))
