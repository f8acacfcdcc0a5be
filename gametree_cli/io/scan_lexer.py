# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The JSON tree scanner's tokens: numbers, strings, keys, and values read only to be skipped.

Why a lexer of our own: :mod:`.scan_kernel` reads a tree file's UTF-8 bytes
once, without a Python object per node, and must agree with ``json.loads``
on every byte it accepts (it leaves the rest to json.loads): numbers as
Python's json reads them (int64 here, or a float exactly as ``float()``
rounds it), strings checked as json checks them plus valid UTF-8, the keys
of the tree format by number. A token it does not accept sets ``why`` and
returns 1 (or -1 where the result is a number): a *bail*, never an error.

Cython's pure-Python mode (the C types are in scan_lexer.pxd, so that :mod:`.scan_kernel`
calls the methods as C): compiled by setup.py, or the same source as plain Python.
"""

from __future__ import annotations

import json
import re

import numpy as np

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ..core._no_cython import cython

__all__ = ["Lexer", "KEY_NAMES", "COMPILED"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled

#: key numbers: node keys, then those only the top-level mapping has, then id (which bails the build)
KEY_NAMES = ("type", "children", "value", "move", "p", "eval", "comment", "label", "root", "title", "description",
             "players", "sum", "bounds", "general_sum", "$schema", "id")
(_TYPE, _CHILDREN, _VALUE, _MOVE, _P, _EVAL, _COMMENT, _LABEL, _ROOT, _TITLE, _DESCRIPTION, _PLAYERS, _SUM,
 _BOUNDS, _GENERAL_SUM, _SCHEMA, _ID) = range(17)
_MAX, _MIN, _CHANCE = 1, 2, 3  # model.py's kinds
#: the words the lexer knows, one per row (zero-padded bytes), and their lengths: the keys, then the types
_WORDS = np.zeros((len(KEY_NAMES) + 3, 16), dtype=np.uint8)
for _row, _word in enumerate(KEY_NAMES + ("max", "min", "chance")):
    _WORDS[_row, : len(_word)] = list(_word.encode())
_WORD_LENGTH = np.array([len(word) for word in KEY_NAMES + ("max", "min", "chance")], dtype=np.uint8)
_W_MAX = len(KEY_NAMES)  # the row of "max"
_OK, _FAILED = 0, 1  # what the methods return (C constants when compiled)
#: Python's int() reads at most this many digits (numbers.MAX_DIGITS; sys.get_int_max_str_digits())
_MAX_DIGITS = cython.declare(cython.Py_ssize_t, 4300)
#: JSON nesting the scanner reads: deeper files go to json.loads, which stops at about 2,000,000
#: levels with its own message (docs/limits.md)
MAX_NESTING = 1_000_000
_MAX_NESTING = cython.declare(cython.Py_ssize_t, MAX_NESTING)
_INT64_MAX = cython.declare(cython.ulonglong, (1 << 63) - 1)
_SURROGATE = re.compile("[\ud800-\udfff]")


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _digit(c: cython.uchar) -> cython.bint:
    return 48 <= c <= 57


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _hex(c: cython.uchar) -> cython.bint:
    return 48 <= c <= 57 or 97 <= c <= 102 or 65 <= c <= 70


@cython.final
@cython.cclass
class Lexer:
    """The text (UTF-8 bytes), where the scan stands, why it bailed, and the last token read."""

    def __init__(self, data: bytes):
        self.data, self.s, self.length, self.pos, self.why = data, data, len(data), 0, ""
        self.words, self.word_length = _WORDS, _WORD_LENGTH
        self.decimal, self.int_value, self.float_value = False, 0, 0.0
        self.start = self.end = 0
        self.escaped = self.ascii = False
        self.label = None

    def fail(self, why: str):
        self.why = why
        return _FAILED

    # -- tokens ----------------------------------------------------------------------------

    def skip_ws(self):
        pos: cython.Py_ssize_t = self.pos
        while pos < self.length and (self.s[pos] == 32 or self.s[pos] == 10 or self.s[pos] == 13 or self.s[pos] == 9):
            pos += 1
        self.pos = pos

    def at(self, c: cython.uchar):
        return self.pos < self.length and self.s[self.pos] == c

    def literal(self):
        """true/false/null at pos: 1 true, 0 false, 2 null, -1 none of them."""
        for word, found in ((b"null", 2), (b"true", 1), (b"false", 0)):
            if self.data.startswith(word, self.pos):
                self.pos += len(word)
                return found
        return -1

    def read_number(self, convert: cython.bint):
        """A JSON number at pos, read as Python's json reads it: digits only -> int (here: int64 or
        bail), with a fraction or exponent -> float; into kind/int_value/float_value when converting."""
        start: cython.Py_ssize_t = self.pos
        pos: cython.Py_ssize_t = start
        negative: cython.bint = pos < self.length and self.s[pos] == 45
        pos += negative
        if pos >= self.length:
            return self.fail("not a value")
        acc: cython.ulonglong = 0  # the integer's value (wrapped, or big uncompiled, past 19 digits: unused then)
        if self.s[pos] == 48:
            pos += 1
        elif 49 <= self.s[pos] <= 57:
            while pos < self.length and _digit(self.s[pos]):
                acc = acc * 10 + (self.s[pos] - 48)
                pos += 1
        else:
            return self.fail("not a number (NaN, Infinity, a sign alone?)")
        int_end: cython.Py_ssize_t = pos
        self.decimal = False
        if pos + 1 < self.length and self.s[pos] == 46 and _digit(self.s[pos + 1]):
            self.decimal = True
            pos += 2
            while pos < self.length and _digit(self.s[pos]):
                pos += 1
        if pos < self.length and (self.s[pos] == 101 or self.s[pos] == 69):
            e: cython.Py_ssize_t = pos + 1
            if e < self.length and (self.s[e] == 43 or self.s[e] == 45):
                e += 1
            if not (e < self.length and _digit(self.s[e])):
                return self.fail("a number with an empty exponent")
            while e < self.length and _digit(self.s[e]):
                e += 1
            self.decimal, pos = True, e
        self.pos = pos
        if self.decimal:
            return self.read_decimal(start, pos) if convert else _OK
        if not convert:  # read and thrown away (or read again by Python): int() must take it
            return self.fail("an integer of more digits than int() reads") if int_end - start - negative > _MAX_DIGITS \
                else _OK
        if int_end - start - negative > 19:
            return self.fail("an integer beyond int64")
        if acc > _INT64_MAX + negative:
            return self.fail("an integer beyond int64")
        if negative:
            below: cython.longlong = acc - 1  # -2**63 without overflow
            self.int_value = -below - 1
        else:
            self.int_value = acc
        return _OK

    def read_decimal(self, start: cython.Py_ssize_t, end: cython.Py_ssize_t):
        """float() of the decimal at [start, end): exactly, in one IEEE operation, when the digits
        fit 15 and the power of ten 22 (Clinger's fast path: both operands are exact, so the result
        is the correctly rounded one float() gives); otherwise by float() itself."""
        mantissa: cython.longlong = 0
        digits: cython.int = 0
        scale: cython.int = 0
        exponent: cython.int = 0
        after_point: cython.bint = False
        negative: cython.bint = self.s[start] == 45
        i: cython.Py_ssize_t = start + negative
        while i < end and self.s[i] != 101 and self.s[i] != 69:
            c: cython.uchar = self.s[i]
            if c == 46:
                after_point = True
            else:
                if mantissa or c != 48:
                    digits += 1
                mantissa = mantissa * 10 + (c - 48) if digits <= 15 else mantissa
                scale += after_point
            i += 1
        if i < end:  # the exponent: at most 4 digits are worth reading here
            sign: cython.int = -1 if self.s[i + 1] == 45 else 1
            i += 1 + (self.s[i + 1] == 45 or self.s[i + 1] == 43)
            if end - i > 4:
                digits = 99
            while i < end and digits <= 15:
                exponent = exponent * 10 + (self.s[i] - 48)
                i += 1
            exponent *= sign
        exponent -= scale
        value: cython.double
        if digits <= 15 and -22 <= exponent <= 22:
            power: cython.double = 1.0
            for i in range(exponent if exponent > 0 else -exponent):
                power *= 10.0
            value = mantissa * power if exponent >= 0 else mantissa / power
            value = -value if negative else value
        else:
            value = float(self.data[start:end])
        if not value - value == 0.0:
            return self.fail("a decimal beyond float64")
        self.float_value = value
        return _OK

    def utf8_length(self, pos: cython.Py_ssize_t):
        """The length of the valid UTF-8 sequence at pos, or 0."""
        c: cython.uchar = self.s[pos]
        avail: cython.Py_ssize_t = self.length - pos
        low: cython.uchar = 0x80
        high: cython.uchar = 0xBF
        if c < 0xC2:
            return 0
        if c < 0xE0:
            return 2 if avail >= 2 and self.s[pos + 1] & 0xC0 == 0x80 else 0
        if c < 0xF0:
            if avail < 3 or self.s[pos + 2] & 0xC0 != 0x80:
                return 0
            low, high = (0xA0 if c == 0xE0 else 0x80), (0x9F if c == 0xED else 0xBF)
            return 3 if low <= self.s[pos + 1] <= high else 0
        if c < 0xF5:
            if avail < 4 or self.s[pos + 2] & 0xC0 != 0x80 or self.s[pos + 3] & 0xC0 != 0x80:
                return 0
            low, high = (0x90 if c == 0xF0 else 0x80), (0x8F if c == 0xF4 else 0xBF)
            return 4 if low <= self.s[pos + 1] <= high else 0
        return 0

    def read_string(self):
        """A JSON string at pos (a '"'), checked as json checks it (no control characters, known
        escapes) plus valid UTF-8: pos goes past it; start/end/escaped/ascii tell its contents."""
        pos: cython.Py_ssize_t = self.pos + 1
        self.start, self.escaped, self.ascii = pos, False, True
        while True:
            while pos < self.length and 0x20 <= self.s[pos] < 0x80 and self.s[pos] != 34 and self.s[pos] != 92:
                pos += 1
            if pos >= self.length:
                return self.fail("an unterminated string")
            c: cython.uchar = self.s[pos]
            if c == 34:
                break
            if c < 0x20:
                return self.fail("a control character in a string")
            if c == 92:
                self.escaped = True
                if pos + 1 >= self.length:
                    return self.fail("an unterminated string")
                e: cython.uchar = self.s[pos + 1]
                if e == 117:  # \uXXXX
                    if pos + 6 > self.length or not (_hex(self.s[pos + 2]) and _hex(self.s[pos + 3]) and
                                                     _hex(self.s[pos + 4]) and _hex(self.s[pos + 5])):
                        return self.fail("an invalid \\u escape")
                    pos += 6
                elif e in b'"\\/bfnrt':
                    pos += 2
                else:
                    return self.fail("an invalid escape")
                continue
            size: cython.Py_ssize_t = self.utf8_length(pos)
            if not size:
                return self.fail("invalid UTF-8")
            self.ascii = False
            pos += size
        self.end, self.pos = pos, pos + 1
        return _OK

    def decoded(self):
        """The str of the string just read; None for a lone surrogate (which UTF-8 cannot hold)."""
        if not self.escaped:
            return self.data[self.start : self.end].decode("utf-8")
        text: str = json.loads(self.data[self.start - 1 : self.end + 1])
        return None if not text.isascii() and _SURROGATE.search(text) else text

    def same_word(self, row: cython.int, fold: cython.bint):
        """Whether the string just read is word ``row`` of WORDS (ASCII letters in any case when folding)."""
        if self.end - self.start != self.word_length[row]:
            return False
        i: cython.Py_ssize_t
        for i in range(self.end - self.start):
            c: cython.uchar = self.s[self.start + i]
            if (c | 0x20 if fold and 65 <= c <= 90 else c) != self.words[row, i]:
                return False
        return True

    def read_key(self):
        """The key at pos: its number (KEY_NAMES), or -1: bail."""
        if not self.at(34):
            return -self.fail("expected a key")
        pos: cython.Py_ssize_t = self.pos + 1
        while pos < self.length and (97 <= self.s[pos] <= 122 or self.s[pos] == 95):
            pos += 1
        if pos < self.length and self.s[pos] == 34:  # the usual key: lower-case letters and _ only
            self.start, self.end, self.escaped, self.ascii, self.pos = self.pos + 1, pos, False, True, pos + 1
        elif self.read_string():
            return -1
        if self.escaped or not self.ascii:
            return -self.fail("a key with escapes or non-ASCII characters")
        length: cython.Py_ssize_t = self.end - self.start
        first: cython.uchar = self.s[self.start]
        k: cython.int = -1
        if length == 1:
            k = _P
        elif length == 2:
            k = _ID
        elif length == 3:
            k = _SUM
        elif length == 4:
            k = _TYPE if first == 116 else _MOVE if first == 109 else _EVAL if first == 101 else _ROOT
        elif length == 5:
            k = _VALUE if first == 118 else _LABEL if first == 108 else _TITLE
        elif length == 6:
            k = _BOUNDS
        elif length == 7:
            k = _COMMENT if first == 99 else _PLAYERS if first == 112 else _SCHEMA
        elif length == 8:
            k = _CHILDREN
        elif length == 11:
            k = _DESCRIPTION if first == 100 else _GENERAL_SUM
        if k < 0 or not self.same_word(k, False):
            return -self.fail("an unknown key")
        return k

    def read_type(self):
        """type: "max" / "min" / "chance" in any ASCII case (model.py's kind), or null (0); -1: bail."""
        if not self.at(34):
            return 0 if self.literal() == 2 else -self.fail("a type that is not a string")
        if self.read_string():
            return -1
        if self.escaped or not self.ascii:
            return -self.fail("a type with escapes")
        kind: cython.int = _MAX if self.same_word(_W_MAX, True) else _MIN if self.same_word(_W_MAX + 1, True) else \
            _CHANCE if self.same_word(_W_MAX + 2, True) else 0
        return kind if kind else -self.fail("an unknown type")

    def read_label(self, keep: cython.bint):
        """A move: a text, an integer (kept as str(int)) or null (label None); a decimal bails (the builder refuses it)."""
        self.label = None
        if self.at(110):  # n
            return _OK if self.literal() == 2 else self.fail("a move that is not a string or number")
        if self.at(34):
            if self.read_string():
                return _FAILED
            if keep:
                self.label = self.decoded()
                if self.label is None:
                    return self.fail("a lone surrogate in a string")
            return _OK
        if self.read_number(keep):
            return _FAILED
        if self.decimal:  # its text is lost (1.10 is 1.1): refused, as a decimal id is
            return self.fail("a move that is a decimal")
        self.label = str(self.int_value) if keep else None
        return _OK

    def read_id(self):
        """Check mode: an id, which the builder takes when it is a non-empty text or an integer."""
        if self.at(34):
            if self.read_string():
                return _FAILED
            return self.fail("an empty id") if self.end == self.start else _OK
        if not (self.at(45) or (self.pos < self.length and _digit(self.s[self.pos]))):
            return self.fail("an id that is not a text or number")
        if self.read_number(False):
            return _FAILED
        return self.fail("an id that is a decimal") if self.decimal else _OK

    def skip_value(self, used: cython.Py_ssize_t):
        """A value read and thrown away (comment, label, header values): a scalar, or arrays of them
        to any depth (a counter is all the stack they need; ``used``: the levels already open).
        Mappings bail: a repeated key in them would have to be found."""
        depth: cython.Py_ssize_t = 0
        while True:  # a value starts at pos
            c: cython.uchar = self.s[self.pos] if self.pos < self.length else 0
            if c == 91:  # [
                if used + depth >= _MAX_NESTING:
                    return self.fail("nested too deeply")
                self.pos += 1
                self.skip_ws()
                if not self.at(93):
                    depth += 1
                    continue
                self.pos += 1
            elif c == 34:
                if self.read_string():
                    return _FAILED
            elif c == 116 or c == 102 or c == 110:  # t f n
                if self.literal() < 0:
                    return self.fail("not a value")
            elif c == 45 or _digit(c):
                if self.read_number(False):
                    return _FAILED
            else:
                return self.fail("a mapping (or no value) where the scanner skips values")
            while True:  # a value ended
                if depth == 0:
                    return _OK
                self.skip_ws()
                if self.at(44):
                    self.pos += 1
                    self.skip_ws()
                    break
                if not self.at(93):
                    return self.fail("expected ',' or ']'")
                self.pos += 1
                depth -= 1
