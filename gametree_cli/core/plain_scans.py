# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The whole-array steps of a search record, for plain buffers: what NumPy does for its arrays.

Why: a big tree read from ``.gtb`` for the text view is searched and shown
without importing NumPy (its import is ~45 ms of CPU, half of that run:
docs/performance.md, issue 14, target 3b). Its search record is the one a
small tree gets (``array``/``memoryview`` buffers, read by indexing), and
three of its steps read every visited node: which nodes carry a flag, the
visit order inverted into a slot table, and the lowest and highest stored
value. For 1.4 million visits those are ~0.1-0.2 s each as Python loops and
~1-2 ms here.

Cython's pure-Python mode, like :mod:`gametree_cli.io.gtb_columns`
(``COMPILED``); uncompiled, the same loops run as Python (right, slower).
"""

from __future__ import annotations

from array import array

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ._no_cython import cython

__all__ = ["positions_with", "fill_slots", "extremes", "COMPILED"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled

#: the stored integer arrays' element types (io/gtb_columns.py)
Stored = cython.fused_type(cython.schar, cython.short, cython.int, cython.longlong)


def positions_with(flags: cython.const[cython.uchar][::1], mask: cython.uchar, every: cython.bint) -> array:
    """The positions of ``flags`` holding any bit of ``mask`` (``every``: all of them), ascending, in an
    ``array('q')``."""
    n: cython.Py_ssize_t = len(flags)
    j: cython.Py_ssize_t
    found: cython.Py_ssize_t = 0
    bits: cython.uchar
    for j in range(n):
        bits = flags[j] & mask
        if (bits == mask) if every else (bits != 0):
            found += 1
    out = array("q", bytes(8 * found))
    into: cython.longlong[::1] = out
    found = 0
    for j in range(n):
        bits = flags[j] & mask
        if (bits == mask) if every else (bits != 0):
            into[found] = j
            found += 1
    return out


def fill_slots(order: cython.const[cython.longlong][::1], table: cython.int[::1]) -> None:
    """``table[order[slot]] = slot`` for every slot, -1 for the nodes not in ``order``: the visit order
    inverted."""
    n: cython.Py_ssize_t = len(order)
    slot: cython.Py_ssize_t
    for slot in range(len(table)):
        table[slot] = -1
    for slot in range(n):
        table[order[slot]] = slot


def extremes(values: cython.const[Stored][::1]) -> tuple:
    """``(lowest, highest)`` of a non-empty buffer of integers."""
    # (declared here, not by cython.locals, which a fused function ignores)
    n: cython.Py_ssize_t = len(values)
    j: cython.Py_ssize_t
    low: cython.longlong = values[0]
    high: cython.longlong = values[0]
    for j in range(1, n):
        if values[j] < low:
            low = values[j]
        if values[j] > high:
            high = values[j]
    return low, high
