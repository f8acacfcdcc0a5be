"""The values of a search's options, checked once where they come in (:func:`~.registry.solve`).

Why here and not in each algorithm: the command line and answer files give
options already parsed, but the Python API takes whatever a caller passes
(``depth="2"``, ``bounds=(Decimal(0), Decimal(6))``, ``strict="no"``). A wrong
type used to surface deep in a search as a raw ``TypeError`` with an internal
message, or worse run silently (``depth=True`` as depth 1, ``strict="no"`` as
strict). Every refusal here is one :class:`AlgorithmError` line naming the
option and what it expects, as answer files word theirs.

Numbers are read as the command line reads them (:func:`parse_number`): ints,
Fractions, decimals (floats), and their texts (``"1/3"``, ``"0.5"``); a
``Decimal`` as the exact number it is (an int or a Fraction, never a float).
"""

from __future__ import annotations

import operator
import sys
from typing import Any

from ..core.errors import AlgorithmError
from ..core.numbers import Number, is_fraction, normalize, parse_number
from .options import VARIANTS, Options
from .ordering import ORDERS

__all__ = ["checked_options", "option_number"]


def checked_options(options: Options) -> Options:
    """``options`` with every value of the right type, or AlgorithmError naming the first that is not.

    Returns ``options`` itself when no value was read anew (texts, Decimals, bounds): else a copy, so the
    caller's stay as given."""
    depth = _depth(options.depth)
    _one_of("variant", options.variant, VARIANTS)
    if not isinstance(options.strict, bool):
        raise AlgorithmError(f"strict: expected True or False, not {options.strict!r}")
    _one_of("order", options.order, ORDERS)
    extra = options.extra
    ties = extra.get("ties")
    if ties is not None and not isinstance(ties, str):
        raise AlgorithmError(f"ties: expected a tie rule such as 'left' (left, right, paranoid, altruistic), "
                             f"not {ties!r}")
    read: dict[str, Any] = {}
    if extra.get("sum") is not None:
        read["sum"] = option_number("sum", extra["sum"])
    if extra.get("bounds") is not None:
        read["bounds"] = _bounds(extra["bounds"])
    if depth is options.depth and all(value is extra[key] for key, value in read.items()):
        return options
    options = options.copy()
    options.depth = depth
    options.extra.update(read)
    return options


def option_number(name: str, raw: object) -> Number:
    """One number given for option ``name``: as :func:`parse_number` reads it (texts too); a Decimal exactly."""
    decimal = sys.modules.get("decimal")  # no Decimal can reach here before the module was imported (start-up)
    is_decimal = decimal is not None and isinstance(raw, decimal.Decimal)
    if isinstance(raw, bool) or not (isinstance(raw, (int, float, str)) or is_decimal or is_fraction(raw)
                                     or hasattr(type(raw), "__index__")):
        raise AlgorithmError(f"{name}: expected a number such as 7, '1/3' or 0.5, not {raw!r}")
    try:
        if is_decimal:
            return _from_decimal(raw)
        if isinstance(raw, float) and raw.__class__ is not float:  # NumPy's floats: the searches test for float
            raw = float(raw)
        elif not isinstance(raw, (bool, float, str)) and hasattr(type(raw), "__index__"):  # NumPy's integers
            raw = operator.index(raw)
        return parse_number(raw)
    except ValueError as error:
        raise AlgorithmError(f"{name}: {error}") from None


def _from_decimal(raw: Any) -> Number:
    """A Decimal as the exact number it is (int or Fraction): a Python caller chose an exact type, so no
    float comes of it (the command line's ``0.5`` is a decimal as written, a float, by the contract)."""
    if not raw.is_finite():
        raise ValueError(f"{raw!r} is not a finite number")
    from fractions import Fraction

    number = normalize(Fraction(raw))
    return parse_number(number) if number.__class__ is int else number  # parse_number: at most 4300 digits


def _depth(raw: object) -> int | None:
    """A depth limit: a whole number of plies (negative ones are refused with the limit's own check)."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not hasattr(type(raw), "__index__"):
        raise AlgorithmError(f"depth: expected a whole number of plies, 0 or more, not {raw!r}")
    return raw if raw.__class__ is int else operator.index(raw)  # type: ignore[return-value,call-overload]


def _one_of(name: str, raw: object, choices: tuple[str, ...]) -> None:
    if not isinstance(raw, str) or raw not in choices:
        raise AlgorithmError(f"{name}: expected {', '.join(choices[:-1])} or {choices[-1]}, not {raw!r}")


def _bounds(raw: object) -> tuple[Number, Number]:
    """``(lowest, highest)``: two numbers, in a tuple or a list."""
    if not isinstance(raw, (tuple, list)) or len(raw) != 2:
        raise AlgorithmError(f"bounds: expected (lowest, highest), two numbers, not {raw!r}")
    return option_number("bounds", raw[0]), option_number("bounds", raw[1])
