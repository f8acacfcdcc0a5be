"""orjson's JSON text, written with the standard library: the result of a small tree without orjson.

Why: importing orjson costs more than a small solve's whole search and
writing (it imports ``dataclasses`` and with it ``inspect``, ``ast`` and
``dis``, plus ``uuid``, ``datetime`` and ``platform``: ~13 ms of CPU in a
run whose textbook peer takes ~23 ms; docs/performance.md, "the library's
imports on a small solve"). The result's text is fixed by orjson's form
(two-space indentation, compact lines per node), so :func:`dumps` writes
exactly orjson's bytes: strings through the standard library's C encoder
(the same escapes: ``tests/test_plain_json.py`` compares every code point),
integers as Python writes them, floats in orjson's shortest form (``1e-7``
and ``0.00001`` where Python writes ``1e-07`` and ``1e-05``), NaN and
infinities as ``null``. The big writer (:mod:`.json_text`) keeps orjson,
which a million lines need.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

__all__ = ["dumps", "Raw"]

_STRING = json.JSONEncoder(ensure_ascii=False).encode  # a str alone: the C encoder's escapes, nothing else
_ASCII_STRING = json.JSONEncoder().encode  # a lone surrogate: \\uXXXX escapes keep it in valid UTF-8
_WORDS = {True: "true", False: "false", None: "null"}


class Raw(NamedTuple):
    """JSON text put into the output as it is (orjson's ``Fragment``): a writer's mark."""

    text: str


def dumps(item: Any, *, indent: bool = False) -> bytes:
    """``orjson.dumps(item, option=OPT_INDENT_2 if indent else 0)``, as UTF-8 bytes.

    Raises:
        TypeError: a value JSON has no form for (orjson refuses it too).
    """
    out: list[str] = []
    _write(item, "\n" if indent else "", out)
    return "".join(out).encode("utf-8")


def _write(item: Any, newline: str, out: list[str]) -> None:
    """Append the text of ``item`` to ``out``; ``newline`` is the line break and indentation before
    its members (empty: compact). Appending, not generating: a small result calls this per node."""
    kind = type(item)
    if kind is str:
        out.append(_text(item))
    elif kind is int:
        out.append(int.__repr__(item))
    elif kind is dict or kind is list or kind is tuple:
        if not item:
            out.append("{}" if kind is dict else "[]")
            return
        inner = newline + "  " if newline else ""
        lead = "{" + inner if kind is dict else "[" + inner
        if kind is dict:
            colon = ": " if newline else ":"
            for key, member in item.items():
                if type(key) is not str:
                    raise TypeError("Dict key must be str")
                out += (lead, _text(key), colon)
                _write(member, inner, out)
                lead = "," + inner
        else:
            for member in item:
                out.append(lead)
                _write(member, inner, out)
                lead = "," + inner
        out.append(newline + ("}" if kind is dict else "]"))
    elif kind is float:
        out.append(float_text(item))
    elif kind is Raw:
        out.append(item.text)
    elif item is None or kind is bool:
        out.append(_WORDS[item])
    else:
        _write(_base_form(item), newline, out)


def _base_form(item: Any) -> Any:
    """A subclass of str, int, dict or list as its base type, as orjson writes it (an IntEnum: its number)."""
    for base in (str, int, dict, list):
        if isinstance(item, base):
            return base(item)
    raise TypeError(f"Type is not JSON serializable: {type(item).__name__}")


def _text(string: str) -> str:
    """A JSON string: non-ASCII as it is, as orjson writes it; one with a lone surrogate (no UTF-8 form)
    all escaped, as :func:`.json_text.dumps` writes it."""
    text = _STRING(string)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return _ASCII_STRING(string)
    return text


def float_text(number: float) -> str:
    """orjson's text of a float: Python's shortest digits, laid out as Ryu's ``format64`` lays them.

    With ``digits`` the significant digits and the value ``0.digits × 10**point``: plain
    decimals for ``-5 < point <= 16`` (``12.5``, ``0.00001``, ``1e15`` as ``1000000000000000.0``),
    else ``d.ddde+x`` or ``d.ddde-x``, without leading zeros in the exponent.
    """
    if number != number or number in (float("inf"), float("-inf")):
        return "null"
    text = repr(number)
    sign = "-" if text[0] == "-" else ""
    mantissa, _, exponent = text.lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    all_digits = whole + fraction
    digits = all_digits.lstrip("0").rstrip("0")
    if not digits:
        return sign + "0.0"
    point = len(whole) + int(exponent or 0) - (len(all_digits) - len(all_digits.lstrip("0")))
    if 0 <= point - len(digits) and point <= 16:
        return f"{sign}{digits}{'0' * (point - len(digits))}.0"
    if 0 < point <= 16:
        return f"{sign}{digits[:point]}.{digits[point:]}"
    if -5 < point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    tail = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{tail}e{point - 1:+d}"
