"""``.gtb`` edge probabilities as integer columns: fractions and decimals alike, a byte or two an edge.

Why: a tree with decimal probabilities (``p: 0.1``) used to keep them in the
header as a JSON list, a million numbers parsed and checked one at a time
when the file is read (2.3x slower than the JSON file it came from). The
decimals as written are integers over a power of ten, so they go in the
``prob`` column like fractions (numerators over ``prob_denominator``), and a
``prob_decimal`` column (int8, 1 where ``p`` was written as a decimal) says
which to read back as the float the text file gives. Files with that column
are version 2: an older gametree refuses them ("unsupported .gtb version")
instead of reading 0.1 as the fraction 1/10.

The reader's checks are the tree builder's: probabilities not negative, each
chance node's summing to 1, exactly for fractions, within 1e-9 when a
decimal is among them (:meth:`~gametree_cli.io.document._Builder._probabilities`).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..core.lazy import lazy_module
np = lazy_module("numpy")  # not on a plain read (io/gtb_plain.py)

from ..core.buffers import sorted_distinct
from ..core.errors import TreeFormatError
from ..core.numbers import Number

__all__ = ["encode_probabilities", "decode_shares", "check_written_sums", "WRITTEN_VERSION"]

#: the version of files with a ``prob_decimal`` column
WRITTEN_VERSION = 2


def encode_probabilities(prob: Sequence[Number | None]) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
    """The arrays and header keys of probabilities with decimals among them, or None when
    their numerators do not fit (the writer keeps the JSON list)."""
    from ..core.written import written_probabilities

    written = written_probabilities(prob)
    if written is None:
        return None
    numerators, denominator, decimal = written
    arrays = {"prob": numerators, "prob_decimal": decimal.astype(np.int8)}
    return arrays, {"prob_denominator": str(denominator), "version": WRITTEN_VERSION}


def decode_shares(numerators: np.ndarray, denominator: int, decimal: np.ndarray | None,
                  under_chance: np.ndarray) -> list[Number | None]:
    """Per node its ``p`` (None off chance edges): an exact number, or where ``decimal`` says so,
    the float the decimal as written reads as (``1/10`` -> ``0.1``), one object per distinct share."""
    edges = np.flatnonzero(under_chance)
    keys = numerators[edges].astype(np.int64) * 2
    if decimal is not None:
        keys += decimal[edges].astype(np.int64)
    distinct = sorted_distinct(keys)
    table = np.empty(len(distinct), dtype=object)
    for position, key in enumerate(distinct.tolist()):
        numerator = key >> 1
        if key & 1:
            table[position] = numerator / denominator  # int / int: correctly rounded, the decimal's float
        else:
            from fractions import Fraction  # here, not at the top: a tree without chance needs no fractions

            share = Fraction(numerator, denominator)
            table[position] = share.numerator if share.denominator == 1 else share
    shares = np.full(len(numerators), None, dtype=object)
    shares[edges] = table[np.searchsorted(distinct, keys)]
    return shares.tolist()  # type: ignore[no-any-return]


def check_written_sums(numerators: np.ndarray, denominator: int, decimal: np.ndarray, chance: np.ndarray,
                       first: np.ndarray, count: np.ndarray, damaged: Callable[[str], TreeFormatError]) -> None:
    """No share negative, a flag is 0 or 1, and each chance node's shares sum to 1: exactly,
    or within 1e-9 where one of them is a decimal (as the tree builder allows)."""
    if ((decimal != 0) & (decimal != 1)).any():
        raise damaged("a probability's decimal flag is neither 0 nor 1")
    if not len(chance):
        return
    sizes = count[chance]
    starts = np.cumsum(sizes) - sizes
    edges = np.repeat(first[chance], sizes) + (np.arange(int(sizes.sum())) - np.repeat(starts, sizes))
    shares = numerators[edges].astype(np.int64)
    if (shares < 0).any():
        raise damaged("a probability is negative")
    exact = np.add.reduceat(shares, starts)  # (numerators are below 2**61: a wrapped sum shows in float64)
    approximate = np.add.reduceat(shares.astype(np.float64), starts)
    loose = np.logical_or.reduceat(decimal[edges].astype(bool), starts)
    wrapped = np.abs(approximate - denominator) > 1e-6 * denominator
    off = np.where(loose, np.abs(exact.astype(np.float64) - denominator) > denominator / 1e9, exact != denominator)
    if (wrapped | off).any():
        raise damaged("the probabilities of a chance node do not sum to 1")
