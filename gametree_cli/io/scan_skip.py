# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Skip one JSON value of a big text: for Python code that reads a small part of it.

Why: formats/partial.py words the error of a bad big file from the nodes on
one path, and formats/locate.py names a node's line; both must step over
the other values (a 40 MB subtree, a flat node of a million children)
without decoding them. ``skip(text, index, check=True)`` is the index just
past the JSON value that starts at ``index`` (after any whitespace), or -1
when ``json.loads`` would refuse it, or might: the grammar as json.loads
reads it (strings with valid escapes and no control characters, numbers,
true/false/null, NaN/Infinity/-Infinity, arrays, objects with text keys),
no key twice in one object (keys with escapes, and objects of more than
``SKIP_KEYS`` keys, are json.loads' to judge: -1), no integer of more than
4300 digits (``check`` False: the grammar only, for a locator in a text
json.loads has read). So a file whose every part is skipped or decoded
without a -1 is one json.loads reads. Indexes are the str's own (characters).

``skip_items(text, index, limit)`` skips up to ``limit`` elements (all if
limit < 0) of the array whose element starts at ``index``: ``(count, next,
closed)``: how many, where the next one starts (closed False) or the index
just past ``]`` (closed True); count -1 when the array is not JSON as skip
checks it.

Cython's pure-Python mode (``COMPILED``): compiled, no Python object is made
while skipping; uncompiled, the same answers, slowly (callers then use
their own regular-expression search).
"""

from __future__ import annotations

from ..core.lazy import lazy_module

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ..core._no_cython import cython

__all__ = ["skip", "skip_items", "Skipper", "COMPILED", "SKIP_KEYS"]

np = lazy_module("numpy")  # only a Skipper's buffers: the locator imports this module for every file

COMPILED = cython.compiled
SKIP_KEYS = 256
_KEYS = cython.declare(cython.Py_ssize_t, SKIP_KEYS)
_WINDOW = cython.declare(cython.Py_ssize_t, 1 << 16)
_MAX_DIGITS = cython.declare(cython.Py_ssize_t, 4300)
_VALUE = cython.declare(cython.int, 0)
_KEY = cython.declare(cython.int, 1)
_AFTER = cython.declare(cython.int, 2)


def skip(text: str, index: int, check: bool = True) -> int:
    """The index just past the JSON value at ``index``, or -1 (see the module docstring)."""
    return Skipper(text).skip(index, check)


def skip_items(text: str, index: int, limit: int) -> tuple[int, int, bool]:
    """Skip elements of an array: (count, next, closed); see the module docstring."""
    return Skipper(text).skip_items(index, limit)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _hex(c: cython.Py_UCS4) -> cython.bint:
    return "0" <= c <= "9" or "a" <= c <= "f" or "A" <= c <= "F"


@cython.final
@cython.cclass
class Skipper:
    """One text, for many calls: per open container its bracket and where its keys start; the
    keys of the open objects as (start, length). Compiled, the text is read through a window
    of ``_WINDOW`` characters copied as Latin-1 bytes when they all are (one byte a character:
    the same indexes), which is three times faster than reading the str a character at a
    time; a window of other characters is read from the str."""

    __slots__ = ("text", "window", "low", "high", "narrow", "length", "lenient", "escaped", "opened", "base",
                 "keys")
    text: str
    window: cython.const[cython.uchar][::1]  # text[low:high] as Latin-1, when narrow
    low: cython.Py_ssize_t
    high: cython.Py_ssize_t
    narrow: cython.bint
    length: cython.Py_ssize_t
    lenient: cython.bint  # keys and integer lengths are not checked (a locator's skip)
    escaped: cython.bint  # the last string had a backslash
    opened: cython.longlong[::1]
    base: cython.longlong[::1]
    keys: cython.longlong[::1]

    def __init__(self, text: str) -> None:
        self.text, self.length, self.lenient, self.escaped = text, len(text), False, False
        self.window, self.low, self.high, self.narrow = b"", 0, 0, False
        # memoryviews: uncompiled, their items are Python ints, as compiled
        self.opened, self.base, self.keys = (memoryview(np.zeros(size, np.int64)) for size in (16, 16, 64))

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def at(self, i: cython.Py_ssize_t) -> cython.Py_UCS4:
        """The character at i: the one place that reads the text (small, so that it is inlined)."""
        if self.low <= i < self.high and self.narrow:
            return self.window[i - self.low]
        return self.at_moved(i)

    @cython.cfunc
    @cython.exceptval(check=False)
    def at_moved(self, i: cython.Py_ssize_t) -> cython.Py_UCS4:
        """The character at i, outside the window or in a wide one."""
        if i < self.low or i >= self.high:
            self.move(i)
        if self.narrow:
            return self.window[i - self.low]
        return self.text[i]

    @cython.cfunc
    @cython.exceptval(check=False)
    def move(self, i: cython.Py_ssize_t) -> cython.void:
        """Move the window to start at i (uncompiled, the str is read: its items are characters).
        It raises nothing: without memory for a window, the str is read."""
        self.low, self.high, self.narrow = i, min(i + _WINDOW, self.length), False
        try:
            self.window = self.text[self.low : self.high].encode("latin-1")
            self.narrow = cython.compiled
        except (UnicodeEncodeError, MemoryError):
            pass

    def skip(self, index: int, check: bool = True) -> int:
        """:func:`skip` in this text."""
        self.lenient = not check
        return self.value_end(index)

    def skip_items(self, index: int, limit: int) -> tuple[int, int, bool]:
        """:func:`skip_items` in this text."""
        self.lenient = False
        count: cython.Py_ssize_t = 0
        end: cython.Py_ssize_t
        while limit < 0 or count < limit:
            end = self.value_end(index)
            if end < 0:
                return -1, index, False
            count += 1
            end = self.space(end)
            if self.char(end) == "]":
                return count, end + 1, True
            if self.char(end) != ",":
                return -1, index, False
            index = self.space(end + 1)
        return count, index, False

    @cython.cfunc
    @cython.exceptval(check=False)
    def char(self, i: cython.Py_ssize_t) -> cython.Py_UCS4:
        if i < self.length:
            return self.at(i)
        return 0  # type: ignore[return-value]

    @cython.cfunc
    @cython.exceptval(check=False)
    def space(self, i: cython.Py_ssize_t) -> cython.Py_ssize_t:
        c: cython.Py_UCS4
        while i < self.length:
            c = self.at(i)
            if c != " " and c != "\n" and c != "\t" and c != "\r":
                break
            i += 1
        return i

    @cython.cfunc
    def string_end(self, pos: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Past the string whose opening quote is at pos, or -1."""
        self.escaped = False
        pos += 1
        c: cython.Py_UCS4
        while True:
            while pos < self.length:
                c = self.at(pos)
                if c == '"' or c == "\\" or c < " ":
                    break
                pos += 1
            if pos >= self.length or c < " ":
                return -1
            if c == '"':
                return pos + 1
            self.escaped = True
            if pos + 1 >= self.length:
                return -1
            e: cython.Py_UCS4 = self.at(pos + 1)
            if e == "u":
                if pos + 6 > self.length or not (_hex(self.at(pos + 2)) and _hex(self.at(pos + 3)) and
                                                 _hex(self.at(pos + 4)) and _hex(self.at(pos + 5))):
                    return -1
                pos += 6
            elif e in '"\\/bfnrt':
                pos += 2
            else:
                return -1

    @cython.cfunc
    def number_end(self, pos: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Past the number at pos: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)?, or -1."""
        pos += self.at(pos) == "-"
        digits: cython.Py_ssize_t = pos
        if pos >= self.length or not "0" <= self.at(pos) <= "9":
            return -1
        if self.at(pos) == "0":
            pos += 1
        else:
            pos = self.digits_end(pos)
        digits = pos - digits
        integer: cython.bint = True
        if pos + 1 < self.length and self.at(pos) == "." and "0" <= self.at(pos + 1) <= "9":
            pos, integer = self.digits_end(pos + 2), False
        if pos < self.length and self.at(pos) in "eE":
            e: cython.Py_ssize_t = pos + 1
            e += e < self.length and self.at(e) in "+-"
            if e < self.length and "0" <= self.at(e) <= "9":
                pos, integer = self.digits_end(e), False
        return -1 if integer and digits > _MAX_DIGITS and not self.lenient else pos

    @cython.cfunc
    @cython.exceptval(check=False)
    def digits_end(self, pos: cython.Py_ssize_t) -> cython.Py_ssize_t:
        c: cython.Py_UCS4
        while pos < self.length:
            c = self.at(pos)
            if not "0" <= c <= "9":
                break
            pos += 1
        return pos

    @cython.cfunc
    def grow(self) -> cython.int:
        """Double the arrays (on their own here: where memoryviews are made, Cython clears them
        on every call of the function)."""
        self.opened = memoryview(np.concatenate([self.opened, np.zeros(self.opened.shape[0], np.int64)]))
        self.base = memoryview(np.concatenate([self.base, np.zeros(self.base.shape[0], np.int64)]))
        self.keys = memoryview(np.concatenate([self.keys, np.zeros(self.keys.shape[0], np.int64)]))
        return 0

    @cython.cfunc
    def new_key(self, start: cython.Py_ssize_t, end: cython.Py_ssize_t, low: cython.Py_ssize_t,
                n_keys: cython.Py_ssize_t) -> cython.bint:
        """Keep the key text[start:end] of the innermost object (its keys from ``low``); False:
        it was given before there, or json.loads must judge (escapes, too many keys)."""
        if self.escaped or n_keys - low >= 2 * _KEYS:
            return False
        i: cython.Py_ssize_t
        j: cython.Py_ssize_t
        for i in range(low, n_keys, 2):
            if self.keys[i + 1] == end - start:
                j = 0
                while j < end - start and self.at(self.keys[i] + j) == self.at(start + j):
                    j += 1
                if j == end - start:
                    return False
        if n_keys + 2 > self.keys.shape[0]:
            self.grow()
        self.keys[n_keys], self.keys[n_keys + 1] = start, end - start
        return True

    @cython.locals(depth=cython.Py_ssize_t, n_keys=cython.Py_ssize_t, state=cython.int, c=cython.Py_UCS4,
                   start=cython.Py_ssize_t)
    @cython.cfunc
    def value_end(self, pos: cython.Py_ssize_t) -> cython.Py_ssize_t:
        """Past the value at pos, or -1."""
        if pos < 0 or pos > self.length:
            return -1
        depth, n_keys, state = 0, 0, _VALUE
        while True:
            if state == _AFTER:  # a value ended at pos
                if depth == 0:
                    return pos
                pos = self.space(pos)
                if pos >= self.length:
                    return -1
                c = self.at(pos)
                pos += 1
                if c == ",":
                    state = _KEY if self.opened[depth - 1] == 123 else _VALUE
                    continue
                if c != "]" and c != "}" or (c == "]") != (self.opened[depth - 1] == 91):
                    return -1
                depth -= 1
                n_keys = self.base[depth]  # its keys are done with
                continue
            pos = self.space(pos)
            if pos >= self.length:
                return -1
            c = self.at(pos)
            if state == _KEY:  # "key" : value
                if c != '"':
                    return -1
                start = pos + 1
                pos = self.string_end(pos)
                if pos < 0:
                    return -1
                if not self.lenient:
                    if not self.new_key(start, pos - 1, self.base[depth - 1], n_keys):
                        return -1
                    n_keys += 2
                pos = self.space(pos)
                if pos >= self.length or self.at(pos) != ":":
                    return -1
                pos, state = pos + 1, _VALUE
            elif c == "[" or c == "{":
                if depth == self.opened.shape[0]:
                    self.grow()
                self.opened[depth], self.base[depth] = ord(c), n_keys
                depth += 1
                pos = self.space(pos + 1)
                state = _KEY if c == "{" else _VALUE
                if pos < self.length and (self.at(pos) == "]" if c == "[" else self.at(pos) == "}"):
                    pos, depth, state = pos + 1, depth - 1, _AFTER
            elif c == '"':
                pos, state = self.string_end(pos), _AFTER
            elif c == "-" and pos + 1 < self.length and self.at(pos + 1) == "I" or c in "tfnNI":
                word = ("true" if c == "t" else "false" if c == "f" else "null" if c == "n" else "NaN" if c == "N"
                        else "Infinity" if c == "I" else "-Infinity")
                if not self.text.startswith(word, pos):
                    return -1
                pos, state = pos + len(word), _AFTER
            elif c == "-" or "0" <= c <= "9":
                pos, state = self.number_end(pos), _AFTER
            else:
                return -1
            if pos < 0:
                return -1
