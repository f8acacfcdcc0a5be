"""Names as a person can read them: control characters and lone surrogates shown escaped.

A tree file may name a node ``"c\\rd"``, ``"A\\u001b[31m"`` or ``"\\ud800"`` (JSON can write
all three). The data keeps them as written (the JSON result and answer files round-trip
them); every view meant for eyes shows them escaped, as Python writes them in a string
literal, so that a name cannot break a line of the tree or the trace, colour the terminal,
make an SVG file invalid XML or stop the output with an encoding error.
"""

from __future__ import annotations

__all__ = ["printable"]


def printable(text: str) -> str:
    """``text`` with each character that is neither printable nor a space written as its escape
    (``\\n``, ``\\r``, ``\\x1b``, ``\\ud800``); printable text (nearly always) comes back as it is."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char == " " else repr(char)[1:-1] for char in text)
