"""The compiled inner loop of :func:`~.json_text.paste`: each line's pieces copied into one buffer.

Why: the JSON result of a million nodes is a million lines, each a few
texts taken from small NUL-padded tables (:class:`~.json_text.Piece`). NumPy
pastes them as a padded matrix and then drops the NULs, three passes over
more bytes than the result holds; this loop makes one pass, line by line,
copying each piece's row without its NULs (JSON text never holds a raw NUL),
eight bytes at a time where none is NUL. Same bytes, several times faster.

This file is Cython's "pure Python mode", compiled by ``setup.py`` when
Cython and a C compiler are there (``COMPILED``). It reads the tables by
address, which only compiled code can do, so :mod:`.json_text` calls it
only when ``COMPILED`` is True and pastes with NumPy otherwise; the tests
compare the two on random pieces.
"""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool)
    from ..search._no_cython import cython
try:
    from cython.cimports.libc.string import memcpy
except (ImportError, AttributeError):  # running as Python: ``assemble``, which needs it, is not called then
    pass

__all__ = ["COMPILED", "assemble", "ROWS", "FIRST", "SAME"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled
_ONES = cython.declare(cython.ulonglong, 0x0101010101010101)  # a word has a NUL byte when
_HIGHS = cython.declare(cython.ulonglong, 0x8080808080808080)  # (word - ONES) & ~word & HIGHS


#: how piece ``p`` picks its row on each line
ROWS, FIRST, SAME = 0, 1, 2  # the row in its index array; row 0 on every line; row ``line`` on line ``line``


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.locals(pieces=cython.Py_ssize_t, size=cython.Py_ssize_t, line=cython.Py_ssize_t, p=cython.Py_ssize_t,
               k=cython.Py_ssize_t, j=cython.Py_ssize_t, w=cython.Py_ssize_t, o=cython.Py_ssize_t,
               n=cython.Py_ssize_t, row=cython.longlong, src=cython.p_uchar, word=cython.ulonglong,
               rows=cython.p_longlong, lengths=cython.p_longlong, stops=cython.p_longlong,
               last=cython.Py_ssize_t)
def assemble(out: cython.uchar[::1], lines: cython.Py_ssize_t, addresses: cython.longlong[::1],
             widths: cython.longlong[::1], heights: cython.longlong[::1], kinds: cython.uchar[::1],
             index_at: cython.longlong[::1], lengths_at: cython.longlong[::1], stops_at: cython.longlong = 0) -> Any:
    """Write line after line into ``out``, piece after piece, and return the bytes written.

    Piece ``p`` is a C-contiguous uint8 table of ``heights[p]`` rows of
    ``widths[p]`` bytes at ``addresses[p]``; ``kinds[p]`` says which row it
    gives each line (:data:`ROWS`: ``index_at[p]`` is the address of
    ``lines`` int64 rows, -1 meaning the last). ``lengths_at[p]``: the address
    of the int64 length of each row's text (the rest of the row is NULs), or
    0 when NULs may be anywhere in a row (each is dropped). The caller keeps
    every array alive. A row out of range, or ``out`` too short, raises
    IndexError before anything is written past ``out``. ``stops_at``: the
    address of ``lines`` int64 counts, line ``line`` taking only its first
    ``stops[line]`` pieces (the caller knows the rest are empty there:
    alpha-beta's never-visited nodes), or 0 for every piece on every line.
    """
    pieces = addresses.shape[0]
    size = out.shape[0]
    stops = cython.cast(cython.p_longlong, cython.cast(cython.Py_ssize_t, stops_at))
    o = 0
    for line in range(lines):
        last = pieces
        if stops_at:
            last = stops[line]
            if last < 0 or last > pieces:
                raise IndexError("paste: a line's stop out of its pieces")
        for p in range(last):
            if kinds[p] == ROWS:
                rows = cython.cast(cython.p_longlong, cython.cast(cython.Py_ssize_t, index_at[p]))
                row = rows[line]
                if row < 0:
                    row += heights[p]
            else:
                row = 0 if kinds[p] == FIRST else line
            if row < 0 or row >= heights[p]:
                raise IndexError("paste: a row out of its table")
            w = widths[p]
            if o + w + 8 > size:
                raise IndexError("paste: the output buffer is too short")
            src = cython.cast(cython.p_uchar, cython.cast(cython.Py_ssize_t, addresses[p] + row * w))
            if lengths_at[p]:  # the text, then NULs: copied eight bytes at a time (the excess is overwritten)
                lengths = cython.cast(cython.p_longlong, cython.cast(cython.Py_ssize_t, lengths_at[p]))
                n = lengths[row]
                if row * w + n + 8 <= heights[p] * w:  # the last word stays inside the table
                    k = 0
                    while k < n:
                        memcpy(cython.address(out[o + k]), src + k, 8)
                        k += 8
                    o += n
                    continue
            k = 0
            while k + 8 <= w:  # eight bytes at a time where none of them is NUL
                memcpy(cython.address(word), src + k, 8)
                if not (word - _ONES) & ~word & _HIGHS:
                    memcpy(cython.address(out[o]), cython.address(word), 8)
                    o += 8
                elif word:
                    for j in range(k, k + 8):
                        if src[j] != 0:
                            out[o] = src[j]
                            o += 1
                k += 8
            while k < w:
                if src[k] != 0:
                    out[o] = src[k]
                    o += 1
                k += 1
    return o
