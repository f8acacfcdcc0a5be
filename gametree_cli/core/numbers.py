"""Numbers as the contract has them: integers, exact fractions, or decimals.

Integers and ``"a/b"`` strings become ``int`` / ``fractions.Fraction`` so that
arithmetic stays exact (an expectation of 7/3 is ``Fraction(7, 3)``); only a
decimal in the input brings floats in, and Python's own promotion rules
(``Fraction + float -> float``) keep them there.
"""

from __future__ import annotations

import math
import re
import sys
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "Number",
    "Value",
    "INF",
    "MAX_DIGITS",
    "INTEGER_BOUND",
    "NEG_INF",
    "parse_number",
    "normalize",
    "format_number",
    "integer_text",
    "format_value",
    "number_to_json",
    "value_to_json",
    "is_exact",
    "is_fraction",
    "fraction_type",
]

Number = Union[int, "Fraction", float]
#: A node's value: a number, or a tuple of numbers (one per player) in n-player trees.
Value = Union[Number, tuple[Number, ...]]

INF = math.inf
NEG_INF = -math.inf

#: Longest integer accepted (Python's own limit for converting digit strings):
#: a bigger utility is no exercise, and exact arithmetic on it could run away.
MAX_DIGITS = 4300
INTEGER_BOUND = 10**MAX_DIGITS
_FRACTION = re.compile(r"^\s*([-+]?\d+)\s*/\s*([-+]?\d+)\s*$")
_INTEGER = re.compile(r"^\s*[-+]?\d+\s*$")
_DECIMAL = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")


def fraction_type() -> type | None:
    """:class:`fractions.Fraction`, or None while :mod:`fractions` was never imported.

    Why: no value can be a Fraction before the module is imported, and a tree
    of integers never needs it (with :mod:`decimal`, which it imports, ~2 ms
    of a small solve's start-up; docs/performance.md). The one place that
    looks: modules build Fractions with a ``from fractions import Fraction``
    where they make one, and test for them with this or :func:`is_fraction`.
    """
    fractions = sys.modules.get("fractions")
    return None if fractions is None else fractions.Fraction  # type: ignore[no-any-return]


def is_fraction(number: object) -> bool:
    """``isinstance(number, Fraction)``, without importing :mod:`fractions` (:func:`fraction_type`)."""
    kind = fraction_type()
    return kind is not None and isinstance(number, kind)


def normalize(number: Number) -> Number:
    """Turn a whole-valued Fraction into an int, leave everything else alone."""
    if number.__class__ is fraction_type() and number.denominator == 1:  # type: ignore[union-attr]
        return number.numerator  # type: ignore[union-attr]
    return number


def parse_number(raw: object) -> Number:
    """Read one number of a tree file.

    Args:
        raw: what the YAML/JSON parser produced: int, float, or a string such as
            ``"7/3"``, ``"-2"`` or ``"0.25"``.

    Returns:
        ``int`` for integers, ``Fraction`` for exact non-integer fractions,
        ``float`` for decimals.

    Raises:
        ValueError: with a user-facing message when ``raw`` is not a finite number.
    """
    if isinstance(raw, bool) or raw is None:
        raise ValueError(f"{_show(raw)} is not a number")
    if isinstance(raw, int):
        if -INTEGER_BOUND < raw < INTEGER_BOUND:
            return raw
        raise ValueError(_too_big(raw.bit_length() * 0.30103))
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise ValueError(f"{_show(raw)} is not a finite number")
        return raw
    if is_fraction(raw):
        return normalize(raw)  # type: ignore[arg-type]
    if isinstance(raw, str):
        match = _FRACTION.match(raw)
        longest = max((len(run) for run in _DIGIT_RUN.findall(raw)), default=0)
        if longest > MAX_DIGITS and (match or _INTEGER.match(raw)):
            raise ValueError(_too_big(longest))
        if match:
            denominator = int(match.group(2))
            if denominator == 0:
                raise ValueError(f"{_show(raw)} divides by zero")
            from fractions import Fraction  # here, not at the top: a tree of integers never needs it

            return normalize(Fraction(int(match.group(1)), denominator))
        if _INTEGER.match(raw):
            return int(raw)
        if _DECIMAL.match(raw):
            number = float(raw)
            if not math.isfinite(number):  # "1e400" overflows to inf
                raise ValueError(f"{_show(raw)} is not a finite number (too large for a decimal)")
            return number
        lowered = raw.strip().lower()
        if lowered in {"inf", "+inf", "-inf", "infinity", "-infinity", "nan", ".inf", "-.inf", ".nan"}:
            raise ValueError(f"{_show(raw)} is not a finite number")
    raise ValueError(f"{_show(raw)} is not a number")


_DIGIT_RUN = re.compile(r"\d+")


def _too_big(digits: float) -> str:
    return f"an integer of about {int(digits)} digits is too large (at most {MAX_DIGITS} digits)"


def _show(raw: object) -> str:
    if isinstance(raw, str):
        return repr(raw)
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, (dict, list)):
        return "a " + ("mapping" if isinstance(raw, dict) else "list")
    return str(raw)


def is_exact(number: Number) -> bool:
    """True for int and Fraction (exact), False for float."""
    return not isinstance(number, float)


#: integers of at most this many bits have at most MAX_DIGITS digits (a cheap first test)
_TEXT_BITS = int(MAX_DIGITS / math.log10(2))


def _printable(number: int) -> bool:
    """Python turns ``number`` into text: it has at most MAX_DIGITS (4300) digits."""
    return number.bit_length() <= _TEXT_BITS or -INTEGER_BOUND < number < INTEGER_BOUND


def integer_text(number: int) -> str:
    """An integer's decimal digits, however many.

    Python refuses to turn an int of more than 4300 digits into text (a guard
    for parsing); exact arithmetic can compute one from shorter inputs (five
    sevenths of a 4300-digit leaf), so those go through ``Decimal``, exact.
    """
    try:
        return int.__repr__(number)
    except ValueError:
        from decimal import Decimal  # here, not at the top: only an integer of over 4300 digits needs it

        return format(Decimal(number), "f")


def format_number(number: Number | None) -> str:
    """Human form: ``3``, ``7/3``, ``0.25``, ``0.000001``, ``inf``, ``-inf`` (the text views' one number format;
    the JSON result writes numbers its own way, :func:`number_to_json`)."""
    if number.__class__ is int:  # the common case first (isinstance on Fraction is an ABC check)
        try:
            return int.__repr__(number)
        except ValueError:  # over 4300 digits
            return integer_text(number)
    if number is None:
        return "?"
    if isinstance(number, float):
        if math.isinf(number):
            return "inf" if number > 0 else "-inf"
        return _decimal_text(number)
    if is_fraction(number):
        if number.denominator == 1:
            return integer_text(number.numerator)
        return f"{integer_text(number.numerator)}/{integer_text(number.denominator)}"
    return integer_text(number) if isinstance(number, int) else str(number)


#: decimals shown positionally in text views: as a course writes them, where repr would switch to an
#: exponent (below 1e-4, from 1e16); JavaScript's range, widened down to 1e-7 (JavaScript writes 1e-7)
_POSITIONAL = (1e-7, 1e21)


def _decimal_text(number: float) -> str:
    """A decimal's shortest text (repr's digits), positional within :data:`_POSITIONAL`:
    ``0.000001``, not ``1e-06``; ``1e+25`` and ``1e-08`` keep the exponent (too many zeros to count)."""
    text = repr(number)
    if "e" not in text or not _POSITIONAL[0] <= abs(number) < _POSITIONAL[1]:
        return text
    from decimal import Decimal  # here, not at the top: only a decimal past 1e16 or below 1e-4 needs it

    text = format(Decimal(text), "f")  # the same digits, exactly: repr's shortest form, zeros written out
    return text if "." in text else text + ".0"  # 1e+16 -> 10000000000000000.0: still a decimal, as 5.0 is


def format_value(value: Value | None) -> str:
    """Human form of a number or a payoff vector: ``(1, 2, 6)``."""
    if value.__class__ is int:  # the common case first
        try:
            return int.__repr__(value)
        except ValueError:  # over 4300 digits
            return integer_text(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(format_number(part) for part in value) + ")"
    return format_number(value)


def number_to_json(number: Number) -> int | float | str:
    """JSON form: ints and floats as numbers, non-integer fractions as ``"a/b"``,
    infinities as ``"inf"`` / ``"-inf"`` (contract section 3). An integer too
    long for Python's JSON writer (over 4300 digits, only ever computed) is a
    string of its digits, as a fraction is."""
    if number.__class__ is int:
        return number if _printable(number) else integer_text(number)
    if is_fraction(number):
        if number.denominator == 1:
            return number_to_json(number.numerator)
        return f"{integer_text(number.numerator)}/{integer_text(number.denominator)}"
    if isinstance(number, float) and math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return number


def value_to_json(value: Value) -> int | float | str | list[int | float | str]:
    """JSON form of a number or a payoff vector (a list)."""
    if isinstance(value, tuple):
        return [number_to_json(part) for part in value]
    return number_to_json(value)
