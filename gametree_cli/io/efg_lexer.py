"""Gambit .efg numbers and tokens: exact numbers as Gambit writes them, and the tokenizer (see efg.py)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..core.errors import TreeFormatError
from ..core.numbers import MAX_DIGITS, format_number


# -- numbers ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Num:
    """A number read from a file: exact value, plus whether a decimal was involved.

    Decimals are kept exact while summing (``2.30 + .90`` is exactly 16/5, so
    constant-sum checks don't suffer from rounding) and only become floats
    when written to the document, as the contract reports decimals as decimals.
    """

    exact: Fraction
    decimal: bool = False

    def __add__(self, other: _Num) -> _Num:
        return _Num(self.exact + other.exact, self.decimal or other.decimal)

    def __neg__(self) -> _Num:
        return _Num(-self.exact, self.decimal)

    def to_document(self) -> int | float | str:
        """The document form: int, float for decimals, ``"a/b"`` for fractions."""
        if self.decimal:
            return float(self.exact)
        if self.exact.denominator == 1:
            return self.exact.numerator
        return f"{self.exact.numerator}/{self.exact.denominator}"

    def to_efg(self) -> str:
        """The file form: ``3``, ``-7/3``, or a plain decimal ``0.25`` (never ``1e-05``)."""
        if self.decimal:
            text = format(Decimal(repr(float(self.exact))), "f")
            return text if "." in text else text + ".0"
        return format_number(self.exact)  # exact, however many digits (a sum of long fractions)

    def show(self) -> str:
        """For messages: a decimal input is reported as a decimal."""
        return repr(float(self.exact)) if self.decimal else self.to_efg()


_ZERO = _Num(Fraction(0))
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?"
_NUMBER_TEXT = re.compile(_NUMBER)
#: Refuse exponents beyond this: 1e-999999999 would take Fraction forever.
_MAX_EXPONENT = 400
_DIGIT_RUN = re.compile(r"\d+")


def _parse_number_text(text: str) -> _Num:
    """``3``, ``-7/3``, ``.90`` or ``1e-3`` as an exact number (decimals flagged).

    Raises:
        ValueError: with a user-facing message, for text that is not such a
            number or is out of range.
    """
    if not _NUMBER_TEXT.fullmatch(text):
        raise ValueError(f"{text!r} is not a number")
    if max(map(len, _DIGIT_RUN.findall(text))) > MAX_DIGITS:  # as in tree files (the writer writes theirs)
        raise ValueError(f"{text[:20]}... has too many digits")
    mantissa, _, denominator = text.partition("/")
    decimal = "." in mantissa or "e" in mantissa.lower()
    if decimal and denominator:
        raise ValueError(f"{text!r} is not a number (a fraction of decimals)")
    if denominator:
        if int(denominator) == 0:
            raise ValueError(f"{text!r} divides by zero")
        return _Num(Fraction(int(mantissa), int(denominator)))
    if not decimal:
        return _Num(Fraction(int(mantissa)))
    _, _, exponent = mantissa.lower().partition("e")
    if exponent and abs(int(exponent)) > _MAX_EXPONENT or not math.isfinite(float(mantissa)):
        raise ValueError(f"{text!r} is out of range")
    return _Num(Fraction(mantissa), decimal=True)


def _document_number(raw: Any) -> _Num | None:
    """A number as a tree document spells it; None when ``raw`` is not one."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return _Num(Fraction(raw))
    if isinstance(raw, Fraction):
        return _Num(raw)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            return None
        # repr() is the shortest text that reads back as this float: keep that
        # decimal, not the float's binary expansion.
        return _Num(Fraction(repr(raw)), decimal=True)
    if isinstance(raw, str):
        text = re.sub(r"\s*/\s*", "/", raw.strip())
        try:
            return _parse_number_text(text)
        except ValueError:
            return None
    return None


# -- reading: tokens ----------------------------------------------------------

_TOKEN = re.compile(
    r"""
      (?P<space>[ \t\r\f\v,]+)
    | (?P<newline>\n)
    | (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<number>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?(?![\w.]))  # as _NUMBER
    | (?P<word>[A-Za-z_]\w*)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


@dataclass(slots=True)
class _Token:
    kind: str  # "string", "open", "close", "number", "word"
    text: str  # strings: unquoted and unescaped
    line: int
    column: int


def _describe(token: _Token | None) -> str:
    if token is None:
        return "the end of the file"
    if token.kind == "string":
        return f"the text {token.text!r}"
    return repr(token.text)


def _tokenize(text: str, filename: str) -> list[_Token]:
    """Split the file into tokens; commas count as blanks (Gambit writes ``{ 1, -1 }``)."""
    tokens: list[_Token] = []
    position, line, line_start = 0, 1, 0
    length = len(text)
    while position < length:
        match = _TOKEN.match(text, position)
        column = position - line_start + 1
        if match is None:
            if text[position] == '"':
                raise TreeFormatError("unterminated quoted string", file=filename, line=line, column=column)
            raise TreeFormatError(
                f"unexpected character {text[position]!r}", file=filename, line=line, column=column
            )
        kind = match.lastgroup or ""
        raw = match.group()
        if kind == "newline":
            line += 1
            line_start = match.end()
        elif kind == "string":
            tokens.append(_Token(kind, _ESCAPE.sub(r"\1", raw[1:-1]), line, column))
            breaks = raw.count("\n")
            if breaks:
                line += breaks
                line_start = position + raw.rfind("\n") + 1
        elif kind != "space":
            tokens.append(_Token(kind, raw, line, column))
        position = match.end()
    return tokens


# -- reading: parser ----------------------------------------------------------
