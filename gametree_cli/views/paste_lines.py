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

__all__ = ["COMPILED", "assemble"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled
_ONES = cython.declare(cython.ulonglong, 0x0101010101010101)  # a word has a NUL byte when
_HIGHS = cython.declare(cython.ulonglong, 0x8080808080808080)  # (word - ONES) & ~word & HIGHS


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.locals(pieces=cython.Py_ssize_t, lines=cython.Py_ssize_t, size=cython.Py_ssize_t, line=cython.Py_ssize_t,
               p=cython.Py_ssize_t, k=cython.Py_ssize_t, j=cython.Py_ssize_t, w=cython.Py_ssize_t, o=cython.Py_ssize_t,
               row=cython.longlong, src=cython.p_uchar, word=cython.ulonglong)
def assemble(out: cython.uchar[::1], addresses: cython.longlong[::1], widths: cython.longlong[::1],
             heights: cython.longlong[::1], spread: cython.uchar[::1], index: cython.longlong[:, ::1]) -> Any:
    """Write line after line into ``out``, piece after piece, and return the bytes written.

    Piece ``p`` is a C-contiguous uint8 table of ``heights[p]`` rows of
    ``widths[p]`` bytes at ``addresses[p]`` (the caller keeps it alive);
    ``index[p, line]`` is its row on ``line`` (-1: the last row). A row is
    copied up to its first NUL, or with ``spread[p]`` whole, without its NULs. A row out of range, or ``out`` too short,
    raises IndexError before anything is written past ``out``.
    """
    pieces = index.shape[0]
    lines = index.shape[1]
    size = out.shape[0]
    o = 0
    for line in range(lines):
        for p in range(pieces):
            row = index[p, line]
            if row < 0:
                row += heights[p]
            if row < 0 or row >= heights[p]:
                raise IndexError("paste: a row out of its table")
            w = widths[p]
            if o + w > size:
                raise IndexError("paste: the output buffer is too short")
            src = cython.cast(cython.p_uchar, cython.cast(cython.Py_ssize_t, addresses[p] + row * w))
            k = 0
            if spread[p]:  # NULs anywhere in the row (node_ids' bands): drop each one
                while k + 8 <= w:
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
            else:  # the text, then only NULs: stop at the first
                while k + 8 <= w:
                    memcpy(cython.address(word), src + k, 8)
                    if (word - _ONES) & ~word & _HIGHS:
                        break
                    memcpy(cython.address(out[o]), cython.address(word), 8)
                    o += 8
                    k += 8
            while k < w:
                if src[k] != 0:
                    out[o] = src[k]
                    o += 1
                elif not spread[p]:
                    break
                k += 1
    return o
