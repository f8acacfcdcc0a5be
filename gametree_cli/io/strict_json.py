"""JSON parsing that refuses what Python's ``json`` silently accepts.

``json.loads`` keeps the last of two equal keys (``{"children": [1],
"children": [2]}`` is a one-child tree, which the user did not mean) and
raises a bare ``ValueError`` without a position for an integer of more than
4,300 digits. This module keeps the C scanner's speed for good files and
spends time on positions only when something is wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..core.errors import TreeFormatError
from ..core.numbers import MAX_DIGITS

__all__ = ["loads_strict", "first_duplicate_key", "too_long_integer", "line_column", "not_utf8"]


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')
#: a run of digits, with the underscores YAML 1.1 allows between them (``1_000``)
_DIGITS = re.compile(r"\d[\d_]{%d,}" % MAX_DIGITS)


#: a text with fewer opening brackets than this cannot nest deeper than this thread's stack and recursion
#: limit take: it is parsed here, without deep_call's thread (~1 ms of a small run's start-up, with threading's import)
SHALLOW = 200


class _DuplicateKey(ValueError):
    """Raised from inside the scanner; located afterwards by :func:`first_duplicate_key`."""


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) != len(pairs):
        raise _DuplicateKey
    return document


def _loads_unique(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_unique_object)


def loads_strict(text: str, name: str) -> Any:
    """Parse JSON text; every problem is a located :class:`TreeFormatError`.

    Raises:
        json.JSONDecodeError: a syntax error (the caller words it).
        RecursionError: nesting beyond even the big parsing stack.
        TreeFormatError: a key given twice in one object, or an integer too
            long to convert.
    """
    try:
        if text.count("[") + text.count("{") < SHALLOW:  # (brackets in strings only raise the count)
            return _loads_unique(text)
        from .locate import deep_call  # here, not at the top: a small text needs neither it nor its module

        return deep_call(_loads_unique, text)
    except _DuplicateKey:
        found = first_duplicate_key(text)
        if found is None:  # pragma: no cover - the scanner and the tokenizer agree on JSON
            raise TreeFormatError("invalid JSON: a key is given twice in one object", file=name) from None
        key, line, column, first_line = found
        raise TreeFormatError(
            f"invalid JSON: the key {key!r} is given twice in one object (also at line {first_line})",
            file=name, line=line, column=column,
        ) from None
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError) or "digits" not in str(error):
            raise
        raise too_long_integer(text, name) from None


def too_long_integer(text: str, name: str) -> TreeFormatError:
    """The error for an integer the parser could not convert, at the first over-long digit run."""
    match = next((run for run in _DIGITS.finditer(text) if len(run.group().replace("_", "")) > MAX_DIGITS), None)
    line, column = line_column(text, match.start()) if match else (None, None)
    what = f"an integer of about {len(match.group().replace('_', ''))} digits" if match else "an integer"
    return TreeFormatError(f"{what} is too large (at most {MAX_DIGITS} digits)", file=name, line=line, column=column)


def first_duplicate_key(text: str) -> tuple[str, int, int, int] | None:
    """The first key given twice in one object: (key, line, column, line of the first).

    A small tokenizer over strings and punctuation; run only after the scanner
    has found a duplicate, so its speed does not matter.
    """
    stack: list[dict[str, int] | None] = []  # per open container: keys seen (objects) or None (arrays)
    expect_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "{":
            stack.append({})
            expect_key = True
        elif token == "[":
            stack.append(None)
            expect_key = False
        elif token in "}]":
            if stack:
                stack.pop()
            expect_key = False
        elif token == ",":
            expect_key = bool(stack) and stack[-1] is not None
        elif token == ":":
            expect_key = False
        elif expect_key and stack and stack[-1] is not None:
            key = json.loads(token)
            line, column = line_column(text, match.start())
            seen = stack[-1]
            if key in seen:
                return key, line, column, seen[key]
            seen[key] = line
            expect_key = False
    return None


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def not_utf8(error: UnicodeDecodeError, name: str, kind: type[TreeFormatError] = TreeFormatError) -> TreeFormatError:
    """The error for a file that is not UTF-8, at the line and column of the first bad byte."""
    data = error.object
    start = error.start
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return kind(f"not UTF-8 text (byte 0x{data[start]:02x} at offset {start})", file=name, line=line, column=column)
