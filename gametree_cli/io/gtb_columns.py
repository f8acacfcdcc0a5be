# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""A ``.gtb`` tree's per-node columns made, and checked, in one pass over the stored arrays.

Why: reading a 1.4-million-node ``.gtb`` file was about ten NumPy passes
(the counts widened, two running sums, the leaves, the kind and numbering
checks, ``first``, the players, the values scattered), each a sweep over
fresh memory: ~12 ms of a ~100 ms solve (docs/performance.md, issue 14,
target 3b). :func:`structure` reads ``kind`` and ``count`` once and writes
every column, checking on the way what :meth:`io.binary._Reader.structure`
checks with NumPy; :func:`scatter` puts the stored leaf values at their
nodes.

Cython's pure-Python mode, like :mod:`.scan_order` (``COMPILED``). The
reader runs these only compiled: from this source a 1.4-million-node tree
takes about half a second, so uncompiled it keeps its NumPy passes (the
tests check both against these loops, compiled and from this source).
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ..core._no_cython import cython

__all__ = ["structure", "scatter", "COMPILED", "FINE", "BAD_COUNTS", "BAD_KINDS", "BAD_ORDER"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled

#: what :func:`structure` found: nothing wrong, or the first of the reader's checks that fails
FINE, BAD_COUNTS, BAD_KINDS, BAD_ORDER = 0, 1, 2, 3
_LEAF = cython.declare(cython.uchar, 0)  # core.model's kinds
_CHANCE = cython.declare(cython.uchar, 3)
_PLAYER = cython.declare(cython.uchar, 4)

#: the stored integer arrays' element types (a float64 value array is read as its int64 bits)
Stored = cython.fused_type(cython.schar, cython.short, cython.int, cython.longlong)


def structure(kind: cython.const[cython.uchar][::1], raw: cython.const[Stored][::1], count: cython.longlong[::1], totals: cython.int[::1],
              first: cython.longlong[::1], leaves: cython.uchar[::1], player: cython.short[::1]) -> tuple:
    """Fill ``count`` (the stored child counts ``raw`` widened), ``totals`` (their running sums, ``n + 1``
    of them from 0), ``first`` (a node's first child, 0 at a leaf), ``leaves`` (1 where a node has no
    children) and, when ``player`` is not empty, the players that follow from the kinds (-1 at leaves
    and chance nodes); all of ``n = len(kind)`` nodes (``len(raw) == n`` is the caller's check).

    Returns ``(problem, leaves)``: :data:`FINE`, or the first that fails of the reader's checks in
    its order (:data:`BAD_COUNTS`: a count outside ``[0, n)`` or counts not adding up to ``n - 1``;
    :data:`BAD_KINDS`: a kind above PLAYER, or a leaf kind where there are children or none where
    there are none; :data:`BAD_ORDER`: a node numbered before its parent); and the number of leaves.
    After a problem the columns hold nothing to trust."""
    # (declared here, not by cython.locals, which a fused function ignores)
    n: cython.Py_ssize_t = kind.shape[0]
    j: cython.Py_ssize_t
    c: cython.longlong
    k: cython.uchar
    players: cython.bint = player.shape[0] != 0
    running: cython.longlong = 0
    n_leaves: cython.Py_ssize_t = 0
    bad_counts: cython.bint = False
    bad_kinds: cython.bint = False
    bad_order: cython.bint = False
    totals[0] = 0
    for j in range(n):
        c = raw[j]
        k = kind[j]
        if c < 0 or c >= n:  # the first check there is: nothing else matters
            bad_counts = True
            break
        if c == 0:  # count and first stay 0: zeros the kernel gives, pages never touched where leaves run
            leaves[j] = 1
            n_leaves += 1
            bad_kinds |= k != _LEAF
        else:
            count[j] = c
            first[j] = running + 1  # the children of the nodes before come first
            leaves[j] = 0
            bad_kinds |= k == _LEAF
        bad_kinds |= k > _PLAYER
        running += c
        totals[j + 1] = running  # (narrowed to int32 as C does: wrapped only where the counts are wrong)
        # nodes 0..j have at least j + 1 children between them, for every j < n - 1
        bad_order |= (running <= j) & (j < n - 1)
        if players:
            player[j] = k - 1 if k < _CHANCE else -1
    if bad_counts or running != n - 1:
        return BAD_COUNTS, n_leaves
    if bad_kinds:
        return BAD_KINDS, n_leaves
    return (BAD_ORDER if bad_order else FINE), n_leaves


def scatter(leaves: cython.const[cython.uchar][::1], stored: cython.const[Stored][::1], values: cython.longlong[::1]) -> None:
    """``values``: the ``stored`` leaf values at the leaves, in node order (``len(stored)`` is the number
    of leaves: the caller's check). Inner nodes are left as they are: zeros the kernel gives, and the
    pages of a run of inner nodes (a quarter of a 4-ary tree, at its start) are never touched."""
    n: cython.Py_ssize_t = leaves.shape[0]
    i: cython.Py_ssize_t = 0
    j: cython.Py_ssize_t
    for j in range(n):
        if leaves[j]:
            values[j] = stored[i]
            i += 1
