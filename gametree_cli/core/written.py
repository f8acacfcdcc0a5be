"""Decimals as written, in NumPy: probabilities and leaf values as scaled integers.

Why: the contract reads a decimal as the decimal it is written as (``0.1`` is
1/10, not the binary float), and an expectation over decimals is that exact
sum rounded once to a float (:mod:`~gametree_cli.search.expectation`).
Written decimals are integers over a power of ten, so a whole tree of them
fits int64 numerators over one common denominator, exactly as fractions do
(:mod:`~gametree_cli.core.numeric`); a per-node mask remembers which numbers were
decimals, because a decimal makes its expectation a float while a fraction
keeps it exact.

Preconditions: floats here are finite (the loaders refuse the others).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from .numbers import Number

__all__ = ["written_probabilities", "written_leaves", "power_of_ten_scale", "exactly_decimal", "WRITTEN_LIMIT"]

#: codes carry a numerator and one flag bit (``2 * numerator + decimal``): numerators stay below this
WRITTEN_LIMIT = 1 << 61


def _as_written(number: Number) -> Fraction:
    return Fraction(repr(number)) if number.__class__ is float else Fraction(number)


def written_probabilities(prob: Sequence[Number | None],
                          kinds: set[type] | None = None) -> tuple[np.ndarray, int, np.ndarray] | None:
    """``(numerators, denominator, decimal)``: every edge probability as an int64 numerator over
    one common denominator, and per node whether its ``p`` was written as a decimal.

    None when the numerators do not fit (then the searches keep their Python path). Each
    distinct number is converted once: all decimals (a generated file's usual case) in
    NumPy, else per distinct number object (loaders share them). ``kinds``: the types
    in ``prob``, when the caller has them.
    """
    kinds = kinds or set(map(type, prob))
    if kinds <= {float, type(None)}:
        return _decimal_probabilities(prob)
    objects: dict[int, Number] = {id(p): p for p in prob if p is not None}
    exact_of: dict[tuple[type, Number], Fraction] = {}
    for p in objects.values():
        if p.__class__ is float and p == 0 and math.copysign(1, p) < 0:
            return None  # -0.0 (see _decimal_probabilities)
        key = (p.__class__, p)
        if key not in exact_of:
            exact_of[key] = _as_written(p)
    denominator = 1
    for share in exact_of.values():
        denominator = denominator * share.denominator // math.gcd(denominator, share.denominator)
    code_of: dict[int, int] = {id(None): 0}
    for key, p in objects.items():
        share = exact_of[(p.__class__, p)]
        numerator = share.numerator * (denominator // share.denominator)
        if not -WRITTEN_LIMIT < numerator < WRITTEN_LIMIT:
            return None
        code_of[key] = 2 * numerator + (p.__class__ is float)
    codes = np.fromiter(map(code_of.__getitem__, map(id, prob)), dtype=np.int64, count=len(prob))
    return codes >> 1, denominator, (codes & 1).astype(bool)


def _decimal_probabilities(prob: Sequence[float | None]) -> tuple[np.ndarray, int, np.ndarray] | None:
    """:func:`written_probabilities` when every ``p`` is a decimal (None where there is none)."""
    shares = np.array(prob, dtype=np.float64)  # None becomes NaN
    given = ~np.isnan(shares)
    if bool(np.any(np.signbit(shares[given]) & (shares[given] == 0))):
        return None  # a p of -0.0 would come back as 0.0: kept as written elsewhere
    found = _over_one_denominator(shares[given])
    if found is None:
        return None
    scaled = np.zeros(len(shares), dtype=np.int64)
    scaled[given], denominator = found
    return scaled, denominator, given


def written_leaves(leaf: np.ndarray, leaves: np.ndarray) -> tuple[np.ndarray, int] | None:
    """Decimal (float64) leaf values as int64 numerators over one power-of-ten denominator.

    None when they do not fit int64, or when a leaf is ``-0.0`` (its sign would be lost and
    the Python path keeps it).
    """
    picked = leaf[leaves]
    if bool(np.any(np.signbit(picked) & (picked == 0))):
        return None
    found = _over_one_denominator(picked)
    if found is None:
        return None
    scaled = np.zeros(len(leaf), dtype=np.int64)
    scaled[leaves], denominator = found
    return scaled, denominator


def _over_one_denominator(values: np.ndarray) -> tuple[np.ndarray, int] | None:
    """Decimals (float64) as the int64 numerators of the decimals they print as, over their
    least common denominator; None when a numerator would reach :data:`WRITTEN_LIMIT`.

    Each distinct value is converted once (a generated tree repeats a handful of values).
    """
    distinct = np.unique(values)  # (with return_inverse it would sort indices: 8x slower)
    exact = [_as_written(number) for number in distinct.tolist()]
    denominator = 1
    for number in exact:
        denominator = denominator * number.denominator // math.gcd(denominator, number.denominator)
    numerators = [number.numerator * (denominator // number.denominator) for number in exact]
    if max(map(abs, numerators), default=0) >= WRITTEN_LIMIT:
        return None
    return np.array(numerators, dtype=np.int64)[np.searchsorted(distinct, values)], denominator


def power_of_ten_scale(denominator: int) -> int | None:
    """``10**k // denominator`` for the smallest ``k`` it divides, or None when it divides no
    power of ten (it has a prime factor other than 2 and 5)."""
    twos = (denominator & -denominator).bit_length() - 1
    rest = denominator >> twos
    fives = 0
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        return None
    return 10 ** max(twos, fives) // denominator


def exactly_decimal(numerators: Any, denominator: int) -> bool:
    """Whether every ``numerator / denominator`` is a decimal of at most 15 significant digits.

    Such a decimal survives the trip through a float: ``repr(float(x))`` is ``x`` again
    (IEEE 754 doubles keep 15 decimal digits), so a search that rounds it to a float and
    reads the float back as written (the Python path) computes with ``x`` itself.
    Conservative: a ``False`` may be wrong, a ``True`` never is.
    """
    if not len(numerators):
        return True
    scale = power_of_ten_scale(denominator)
    if scale is None:
        return False
    largest = max(-int(numerators.min()), int(numerators.max()))
    return largest * scale < 10**15
