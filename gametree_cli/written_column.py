"""A record column of exact numerators, some of them decimals: the sweep's values with real probabilities.

Why: an expectation over decimal probabilities is, by the contract, the exact
sum rounded once to a float, while an expectation over fractions stays exact.
The NumPy sweep (:mod:`~gametree_cli.algorithms.sweep`) computes both exactly
as int64 numerators over one denominator; this column remembers per node
whether the value is a decimal, and prints it as the float the Python search
gives (``243.73035``), else as the exact number (``4874607/20000``).

Storage: one int64 code per node, ``2 * numerator + decimal``, so the
writers' "equal codes print alike" (:meth:`~gametree_cli.columns.Column.codes`)
holds unchanged: 5 and 5.0 get different codes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import numpy as np

from .columns import Column
from .numbers import Value
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

    def decode_many(self, codes: np.ndarray) -> list[Value]:
        codes = np.asarray(codes, dtype=np.int64)
        numerators = codes >> 1
        decimal = (codes & 1).astype(bool)
        if not decimal.any() and self.denominator == 1:
            return numerators.tolist()  # type: ignore[no-any-return]
        largest = int(np.abs(numerators).max(initial=0))
        if decimal.all() and largest < _EXACT_FLOAT and self.denominator < _EXACT_FLOAT:
            return (numerators / float(self.denominator)).tolist()  # type: ignore[no-any-return]
        return list(map(self._decode(), codes.tolist()))


def written_column(numerators: np.ndarray, denominator: int, decimal: np.ndarray,
                   present: np.ndarray | None = None) -> Column | None:
    """The column of ``numerators / denominator`` (decimals where ``decimal``), or None when the
    numerators are too large for the codes (the caller keeps Python numbers instead)."""
    if len(numerators) and max(-int(numerators.min()), int(numerators.max())) >= WRITTEN_LIMIT:
        return None
    codes = numerators * 2 + decimal
    return WrittenColumn(len(codes), codes, present=present, denominator=denominator)
