# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The JSON scanner's probabilities: each ``p`` read as an exact numerator and denominator, no float.

Why: the contract reads ``p: 0.1`` as the decimal written (1/10, not the
binary float) and ``p: "1/10"`` as the fraction; the builders check the
shares of a chance node in exact arithmetic. Keeping a Python number per
edge cost the scanner most of its time on a tree of a million decimal
``p``, and fraction strings sent the whole file to json.loads. Here every
``p`` becomes two int64s, ``num / den``, straight from its text:

* an integer: ``n / 1``;
* a decimal of at most 15 significant digits: its digits over a power of
  ten (such a decimal is what ``repr(float(text))`` prints again, so it is
  the number the builders read, :func:`~gametree_cli.core.written.written_probabilities`);
  a longer one through ``Fraction(repr(float))`` once per distinct float;
* a string ``"a/b"`` of digits only (the fraction; ``"a"`` alone an integer).

:mod:`.scan_order` then checks each chance node's sum exactly in integers
and puts the numerators over one denominator for the NumPy sweep. Anything
else bails (the lexer's ``why``): a negative ``p``, one above 1, ``-0.0``,
signs, spaces or escapes in a fraction (the builders read those), numbers
beyond int64, ...; the json.loads path then decides, as for every bail.

Cython's pure-Python mode (the C types are in scan_share.pxd): compiled by
setup.py, or the same source as plain Python; nothing here may depend on
which one runs (no arithmetic here can overflow int64).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ..core._no_cython import cython

if not cython.compiled:  # compiled, scan_share.pxd cimports the lexer's C type
    from .scan_lexer import Lexer

__all__ = ["ShareReader", "BAIL", "EXACT", "DECIMAL", "COMPILED", "LONG_REASONS"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled
#: what :meth:`ShareReader.read` gives: a bail (the lexer's why says why), an exact share, a decimal
BAIL, EXACT, DECIMAL = 0, 1, 2
_BAIL = cython.declare(cython.int, BAIL)
_EXACT = cython.declare(cython.int, EXACT)
_DECIMAL = cython.declare(cython.int, DECIMAL)
#: digits of a numerator or denominator written in a fraction: int64 holds 18
_FRACTION_DIGITS = cython.declare(cython.int, 18)
#: significant digits of a decimal read here exactly (beyond, Python reads the float once)
_SHORT_DIGITS = cython.declare(cython.int, 15)
#: decimal places kept: the denominator 10**18 is the largest power of ten below 2**61 (written.WRITTEN_LIMIT)
_MAX_PLACES = cython.declare(cython.int, 18)
_MAX_DENOMINATOR = cython.declare(cython.longlong, 10**18)
#: bails where no rule is broken (the json.loads path reads such a file): for jsonscan.NOT_MISTAKES
LONG_REASONS = ("a p of more decimal places than int64 holds", "a fraction p of more than 18 digits", "a p of -0.0")


@cython.cfunc
def _bail(lex: Lexer, why: str) -> cython.int:
    lex.fail(why)
    return _BAIL


@cython.final
@cython.cclass
class ShareReader:
    """Per depth-first node its ``p`` as ``num / den`` (int64 arrays, grown with the scanner's), and
    the shares of long decimals already worked out."""

    def __init__(self) -> None:
        self.cap, self.arrays, self.long_decimals = 0, {}, {}

    def grow(self, cap: cython.Py_ssize_t, n: cython.Py_ssize_t):
        """Arrays of ``cap`` items, the first ``n`` kept (every other item is written before it is read)."""
        if cap == self.cap:
            return 0
        for name in ("pnum", "pden"):
            grown = np.empty(cap, dtype=np.int64)
            if name in self.arrays:
                grown[:n] = self.arrays[name][:n]
            self.arrays[name] = grown
        self.num, self.den = memoryview(self.arrays["pnum"]), memoryview(self.arrays["pden"])
        self.cap = cap
        return 0

    def read(self, lex: Lexer, d: cython.Py_ssize_t):
        """The ``p`` at ``lex.pos`` (not null) into node ``d``: EXACT, DECIMAL, or BAIL."""
        if lex.at(34):
            return self.read_fraction(lex, d)
        start: cython.Py_ssize_t = lex.pos
        if lex.read_number(True):
            return _BAIL
        if not lex.decimal:
            if lex.int_value < 0:
                return _bail(lex, "a negative p")
            if lex.int_value > 1:
                return _bail(lex, "a p above 1")
            self.num[d], self.den[d] = lex.int_value, 1
            return _EXACT
        if lex.float_value < 0:
            return _bail(lex, "a negative p")
        if lex.float_value > 1.0:  # (the decimal written is above 1 exactly when its float is)
            return _bail(lex, "a p above 1")
        if lex.float_value == 0.0:
            if lex.s[start] == 45:  # -0.0: the builders keep its sign
                return _bail(lex, "a p of -0.0")
            self.num[d], self.den[d] = 0, 1
            return _DECIMAL
        if self.read_short(lex, start, d):
            return _DECIMAL
        return self.read_long(lex, d)

    @cython.locals(i=cython.Py_ssize_t, end=cython.Py_ssize_t, c=cython.uchar, mantissa=cython.longlong,
                   digits=cython.int, places=cython.int, exponent=cython.int, sign=cython.int, k=cython.int)
    def read_short(self, lex: Lexer, start: cython.Py_ssize_t, d: cython.Py_ssize_t):
        """A positive decimal at [start, lex.pos) of at most 15 significant digits and 18 places
        as ``mantissa / 10**places``: True, or False (too long: Python reads it)."""
        i, end, mantissa, digits, places, exponent, sign = start, lex.pos, 0, 0, 0, 0, 1
        point: cython.bint = False
        while i < end:
            c = lex.s[i]
            if c == 101 or c == 69:  # e E
                break
            if c == 46:
                point = True
            else:
                if mantissa or c != 48:
                    digits += 1
                if digits > _SHORT_DIGITS:
                    return False
                mantissa = mantissa * 10 + (c - 48)
                places += point
            i += 1
        if i < end:  # the exponent: four digits at most are worth reading here
            i += 1
            if lex.s[i] == 45 or lex.s[i] == 43:
                sign = -1 if lex.s[i] == 45 else 1
                i += 1
            if end - i > 4:
                return False
            while i < end:
                exponent = exponent * 10 + (lex.s[i] - 48)
                i += 1
        places -= sign * exponent
        if places < 0 or places > _MAX_PLACES:  # (places < 0: above 1, which read() refused)
            return False
        den: cython.longlong = 1
        for k in range(places):
            den *= 10
        self.num[d], self.den[d] = mantissa, den
        return True

    def read_long(self, lex: Lexer, d: cython.Py_ssize_t):
        """A decimal of more digits: the decimal its float prints as (Python, once per distinct float)."""
        key: object = lex.float_value
        share = self.long_decimals.get(key)
        if share is None:
            exact = Fraction(repr(lex.float_value))
            share = (exact.numerator, exact.denominator) if exact.denominator <= _MAX_DENOMINATOR else ()
            self.long_decimals[key] = share
        if not share:
            return _bail(lex, LONG_REASONS[0])
        self.num[d], self.den[d] = share[0], share[1]
        return _DECIMAL

    @cython.locals(i=cython.Py_ssize_t, slash=cython.Py_ssize_t, c=cython.uchar, num=cython.longlong,
                   den=cython.longlong)
    def read_fraction(self, lex: Lexer, d: cython.Py_ssize_t):
        """A string ``"a/b"`` (or ``"a"``) of ASCII digits only, each at most 18 of them."""
        if lex.read_string():
            return _BAIL
        if lex.escaped or lex.end == lex.start:
            return _bail(lex, "a p text with escapes, or empty")
        num, den, slash = 0, 0, -1
        for i in range(lex.start, lex.end):
            c = lex.s[i]
            if c == 47 and slash < 0 and i > lex.start and i + 1 < lex.end:
                slash = i
            elif not 48 <= c <= 57:
                return _bail(lex, "a p text that is not a plain fraction")
            elif (i - lex.start + 1 if slash < 0 else i - slash) > _FRACTION_DIGITS:
                return _bail(lex, LONG_REASONS[1])
            elif slash < 0:
                num = num * 10 + (c - 48)
            else:
                den = den * 10 + (c - 48)
        if slash < 0:
            den = 1
        if den == 0:
            return _bail(lex, "a p that divides by zero")
        if num > den:
            return _bail(lex, "a p above 1")
        self.num[d], self.den[d] = num, den
        return _EXACT
