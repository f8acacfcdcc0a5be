"""A record column of exact numerators, some of them decimals: the sweep's values with real probabilities.

Why: an expectation over decimal probabilities is, by the contract, the exact
sum rounded once to a float, while an expectation over fractions stays exact.
The NumPy sweep (:mod:`~gametree_cli.search.sweep`) computes both exactly
as int64 numerators over one denominator; this column remembers per node
whether the value is a decimal, and prints it as the float the Python search
gives (``243.73035``), else as the exact number (``4874607/20000``).

Storage: one int64 code per node, ``2 * numerator + decimal``, so the
writers' "equal codes print alike" (:meth:`~gametree_cli.core.columns.Column.codes`)
holds unchanged: 5 and 5.0 get different codes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import numpy as np

from .columns import Column
from .numbers import Value, number_to_json
from .written import WRITTEN_LIMIT

__all__ = ["WrittenColumn", "written_column"]

#: float64 holds every integer below this exactly, so ``numerator / denominator`` in NumPy is
#: the correctly rounded quotient Python's ``int / int`` gives
_EXACT_FLOAT = 1 << 53


class WrittenColumn(Column):
    """Per node ``numerator / denominator``: a float where the value is a decimal, else exact."""

    __slots__ = ()

    def _decode(self) -> Callable[[Any], Value]:
        denominator = self.denominator

        def value_of(code: int) -> Value:
            numerator = code >> 1
            if code & 1:
                return numerator / denominator  # Python's int division: correctly rounded
            if denominator == 1:
                return numerator
            exact = Fraction(numerator, denominator)
            return exact.numerator if exact.denominator == 1 else exact

        return value_of

    @property
    def whole_step(self) -> int:
        """The codes of whole numbers (not decimals) are the multiples of this (0: too large for int64)."""
        step = 2 * self.denominator
        return step if step < 1 << 62 else 0

    def decode_many(self, codes: np.ndarray) -> list[Value]:
        codes = np.asarray(codes, dtype=np.int64)
        numerators = codes >> 1
        decimal = (codes & 1).astype(bool)
        if not decimal.any():
            return _exact_many(numerators, self.denominator) if self.denominator != 1 else numerators.tolist()
        floats = numerators[decimal]
        if int(np.abs(floats).max(initial=0)) >= _EXACT_FLOAT or self.denominator >= _EXACT_FLOAT:
            return list(map(self._decode(), codes.tolist()))
        floats = (floats / float(self.denominator)).tolist()  # correctly rounded: both operands exact
        if len(floats) == len(codes):
            return floats  # type: ignore[no-any-return]
        whole = numerators[~decimal]
        values = np.empty(len(codes), dtype=object)
        values[~decimal] = _exact_many(whole, self.denominator) if self.denominator != 1 else whole.tolist()
        values[decimal] = floats
        return values.tolist()  # type: ignore[no-any-return]


    def json_items(self, codes: np.ndarray) -> list[Any]:
        """The JSON forms of distinct codes (:meth:`codes`), in bulk: distinct codes print
        apart (a numerator and a kind each), so the writers need not merge them. Exact
        values print as ints or ``"a/b"`` reduced in NumPy: a Fraction per distinct value
        cost 2 us each (a fraction tree has a distinct value per chance node)."""
        codes = np.asarray(codes, dtype=np.int64)
        decimal = (codes & 1).astype(bool)
        if decimal.all() or (self.denominator == 1 and not decimal.any()):
            return self.decode_many(codes)
        if self.denominator >= 1 << 62:  # (np.gcd needs int64)
            values = self.decode_many(codes)
            return [number_to_json(value) if value.__class__ is Fraction else value for value in values]
        exact = _exact_json(codes[~decimal] >> 1, self.denominator)
        if not decimal.any():
            return exact
        items = np.empty(len(codes), dtype=object)
        items[~decimal] = exact
        items[decimal] = self.decode_many(codes[decimal])
        return items.tolist()  # type: ignore[no-any-return]


def _exact_json(numerators: np.ndarray, denominator: int) -> list[int | str]:
    """JSON forms of ``numerators / denominator`` (below 2**62): ints, or ``"a/b"`` in lowest terms
    (numbers.number_to_json's form)."""
    common = np.gcd(numerators, denominator)
    tops, bottoms = (numerators // common).tolist(), (denominator // common).tolist()
    return [top if bottom == 1 else f"{top}/{bottom}" for top, bottom in zip(tops, bottoms)]


def _exact_many(numerators: np.ndarray, denominator: int) -> list[Value]:
    """``numerators / denominator`` exactly: ints where it divides, else Fractions."""
    if denominator >= 1 << 62:
        return [Fraction(numerator, denominator) for numerator in numerators.tolist()]
    whole, rest = np.divmod(numerators, denominator)
    values: list[Value] = whole.tolist()
    for position in np.flatnonzero(rest).tolist():
        values[position] = Fraction(int(numerators[position]), denominator)
    return values


def written_column(numerators: np.ndarray, denominator: int, decimal: np.ndarray,
                   present: np.ndarray | None = None) -> Column | None:
    """The column of ``numerators / denominator`` (decimals where ``decimal``), or None when the
    numerators are too large for the codes (the caller keeps Python numbers instead)."""
    if len(numerators) and max(-int(numerators.min()), int(numerators.max())) >= WRITTEN_LIMIT:
        return None
    codes = numerators * 2 + decimal
    return WrittenColumn(len(codes), codes, present=present, denominator=denominator)
