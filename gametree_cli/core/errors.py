"""Exceptions raised by the library; only the CLI turns them into exit codes.

Every error that concerns a user's file carries where it happened (file, line,
column, node id) so the CLI can print the one-line form the contract asks for::

    trees/bad.yaml:14:9: node B.2: probabilities sum to 9/10, not 1
"""

from __future__ import annotations

from enum import IntEnum

from .printable import printable

__all__ = [
    "ExitCode",
    "GameTreeError",
    "TreeFormatError",
    "IllegalTreeError",
    "AlgorithmError",
    "ExerciseError",
]


class ExitCode(IntEnum):
    """Exit statuses of every command (contract section 5)."""

    OK = 0
    WRONG_ANSWER = 1
    BAD_INPUT = 2
    #: Ctrl-C (128 + SIGINT), after removing any partly written file
    INTERRUPTED = 130
    #: standard output's reader went away, e.g. ``| head`` (128 + SIGPIPE, as a shell reports a killed writer)
    BROKEN_PIPE = 141
    #: SIGTERM (128 + 15), after the same clean-up as Ctrl-C
    TERMINATED = 143


class GameTreeError(ValueError):
    """Base class of every error gametree reports to its user.

    Attributes:
        message: what is wrong, lower-case, without location.
        file: the file name as the user gave it, or None.
        line: 1-based line number, or None when unknown.
        column: 1-based column, or None when unknown.
        node: the id of the node concerned, or None.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        node: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.node = node

    def located(
        self,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> "GameTreeError":
        """Fill in location fields that are still unknown; returns self."""
        if self.file is None:
            self.file = file
        if self.line is None:
            self.line = line
            if self.column is None:
                self.column = column
        return self

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        node = f"node {self.node}: " if self.node is not None else ""
        # on one line whatever names it quotes (a player called "A\\nB")
        return printable(f"{where}{node}{self.message}")


class TreeFormatError(GameTreeError):
    """The file is not well-formed YAML/JSON/EFG, or not shaped like a tree file."""


class IllegalTreeError(GameTreeError):
    """The file parses but breaks a rule of the tree format (duplicate id, bad p, ...)."""


class AlgorithmError(GameTreeError):
    """The chosen algorithm or option does not fit the tree (contract: exit 2)."""


class ExerciseError(GameTreeError):
    """An answer file is unreadable or malformed (not: a wrong answer)."""
