"""The depth-first search: alpha-beta, and minimax as the same walk without pruning.

One loop, read as the course's pseudo-code (AIMA fig. 5.7, fail-soft):

    max-value(node, alpha, beta):             min-value is the mirror image:
        v = -inf                                  v = +inf, keep the lowest,
        for each child:                           prune when v <= alpha,
            v = max(v, min-value(child, alpha, beta))   beta = min(beta, v)
            if v >= beta: return v      # cut
            alpha = max(alpha, v)
        return v

Max and min are written once: a node has a ``sign`` (+1 at max, -1 at min)
and wants a high ``sign * value``; its ``own`` bound is the one it moves
(alpha at max, beta at min), its ``rival`` the one it must not reach (beta
at max, alpha at min). ``--variant hard`` moves ``own`` instead of ``v`` and
returns a bound (the rival one after a cut); ``--variant practical`` (the
notes' form) moves ``own`` too, but returns it also after a cut; ``--strict`` prunes only on ``>``/``<``; ``prune=False`` is
minimax. The recursion is an explicit stack of :class:`Frame`\\ s, so a
chain a million nodes deep needs no Python recursion.

Values are never computed, only compared, so the loop runs on **sources**:
a value is the number of the node it came from (a leaf, or a node at the
depth limit whose ``eval`` it is), or ``n`` (-inf) or ``n + 1`` (inf) for
a tree of ``n`` nodes; ``key[source]`` is an int64 that orders sources as
their values (:mod:`.keys`). The record keeps the sources and reads the
exact values from the tree (:class:`~gametree_cli.core.columns.Column`).

This file is Cython's "pure Python mode": when ``setup.py`` compiled it
(``COMPILED`` is True) the loop is C; otherwise ``import cython`` finds
Cython's shadow module (or, without Cython, :mod:`~gametree_cli.core._no_cython`) and the same
source runs as plain Python, about ten times slower (docs/performance.md).
Nothing here may depend on which one runs.
"""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the few stand-ins this file needs
    from ..core._no_cython import cython

__all__ = ["Frame", "Visits", "walk", "COMPILED", "CUT", "HORIZON", "LOWER", "UPPER"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled

# bits of a visit's flags (the same as gametree_cli.search.record's), as C constants for the loop
_LOWER = cython.declare(cython.uchar, 1)  # the value is a lower bound: the true value is at least this
_UPPER = cython.declare(cython.uchar, 2)  # an upper bound: at most this
_CUT = cython.declare(cython.uchar, 4)  # the pruning condition held here
_HORIZON = cython.declare(cython.uchar, 8)  # evaluated by eval at the depth limit
_MAX = cython.declare(cython.uchar, 1)  # gametree_cli.core.model.MAX
LOWER, UPPER, CUT, HORIZON = 1, 2, 4, 8  # the same, for Python


@cython.cclass
class Frame:
    """An inner node on the way down: what max-value/min-value keep in their locals.

    Bounds and values are sources (see the module docstring).
    """

    __slots__ = ("node", "slot", "depth", "sign", "own", "rival", "entry", "v", "position")
    node: cython.longlong
    slot: cython.longlong  # its visit position: where its facts are written
    depth: cython.longlong
    sign: cython.longlong  # +1 at a max node, -1 at a min node
    own: cython.longlong  # the bound it moves: alpha at max, beta at min
    rival: cython.longlong  # the bound it prunes on: beta at max, alpha at min
    entry: cython.longlong  # ``own`` when the node was entered (tells an exact value from a bound)
    v: cython.longlong  # the best child value so far (fail-soft)
    position: cython.longlong  # children entered so far

    def __init__(self) -> None:
        self.node = self.slot = self.depth = self.own = self.rival = self.entry = self.v = self.position = 0
        self.sign = 1


@cython.final  # its methods called directly, not through a table: the C compiler can inline them
@cython.cclass
class Visits:
    """What the walk writes: per visit position (a node's slot) its node, value, alpha and beta at
    return (sources; the bounds only when pruning) and flags; per cut the node and how many of its
    children it had entered. The arrays are the caller's (NumPy, or any int64/uint8 buffer)."""

    __slots__ = ("order", "value", "alpha", "beta", "flags", "cut_at", "visits", "cutoffs", "prune")
    order: cython.longlong[::1]
    value: cython.longlong[::1]
    alpha: cython.longlong[::1]
    beta: cython.longlong[::1]
    flags: cython.uchar[::1]
    cut_at: cython.longlong[::1]  # two entries a cut: the node, the children it had entered
    visits: cython.longlong
    cutoffs: cython.longlong
    prune: cython.bint

    def __init__(self, order: Any, value: Any, alpha: Any, beta: Any, flags: Any, cut_at: Any, prune: bool) -> None:
        self.order, self.value, self.alpha, self.beta, self.flags, self.cut_at = order, value, alpha, beta, flags, cut_at
        self.visits = self.cutoffs = 0
        self.prune = prune

    @cython.cfunc
    @cython.exceptval(check=False)  # raises nothing: no error check after each call
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def enter(self, node: cython.longlong) -> cython.longlong:
        """A node is entered: its slot."""
        self.order[self.visits] = node
        self.visits += 1
        return self.visits - 1

    @cython.cfunc
    @cython.exceptval(check=False)  # raises nothing: no error check after each call
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def leave(self, slot: cython.longlong, result: cython.longlong, alpha: cython.longlong, beta: cython.longlong,
              bits: cython.uchar) -> cython.void:
        """A node returns ``result`` with the window (alpha, beta)."""
        self.value[slot] = result
        if self.prune:
            self.alpha[slot], self.beta[slot] = alpha, beta
        self.flags[slot] = bits

    @cython.cfunc
    @cython.exceptval(check=False)  # raises nothing: no error check after each call
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def cut(self, node: cython.longlong, position: cython.longlong) -> cython.void:
        self.cut_at[2 * self.cutoffs], self.cut_at[2 * self.cutoffs + 1] = node, position
        self.cutoffs += 1


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.locals(n=cython.longlong, top=cython.Py_ssize_t, node=cython.longlong, depth=cython.longlong, slot=cython.longlong,
               alpha=cython.longlong, beta=cython.longlong, leaves=cython.longlong, result=cython.longlong,
               s=cython.longlong, best=cython.longlong, bar=cython.longlong, bits=cython.uchar, cut=cython.bint)
def walk(kind: cython.const[cython.uchar][::1], first: cython.const[cython.longlong][::1],
         count: cython.const[cython.longlong][::1], key: cython.const[cython.longlong][::1],
         depth_limit: cython.longlong, prune: cython.bint, hard: cython.bint, strict: cython.bint,
         child_order: Any, report: Any, buffers: tuple, practical: cython.bint = False) -> tuple:
    """Search the tree (``kind``, ``first``, ``count``) from node 0, writing :class:`Visits`
    into ``buffers`` (its arrays: order, value, alpha, beta, flags, cut_at).

    ``key`` orders the sources (``len(kind) + 2`` entries); ``depth_limit`` -1 is
    none; ``prune`` False is minimax; ``hard``/``strict`` the variants
    (``hard`` with ``practical``: the notes' form, which returns its own bound after a cut);
    ``child_order`` None (file order) or per node its child positions in search
    order; ``report`` None or what turns steps into events (``call``, ``leaf``,
    ``cut``, ``ret``). Returns ``(visits, leaves, cutoffs)``.
    """
    n = len(kind)
    out: Visits = Visits(*buffers, prune)
    frames: list = []
    f: Frame
    top, node, depth, alpha, beta, leaves = -1, 0, 0, n, n + 1, 0  # the sources n, n + 1 are -inf, inf
    while True:
        # enter `node`, searched with the window (alpha, beta)
        slot = out.enter(node)
        if count[node] > 0 and depth != depth_limit:
            top += 1
            if top == len(frames):
                frames.append(Frame())
            f = frames[top]
            f.node, f.slot, f.depth, f.position = node, slot, depth, 1
            if kind[node] == _MAX:
                f.sign, f.own, f.rival, f.v = 1, alpha, beta, n
            else:
                f.sign, f.own, f.rival, f.v = -1, beta, alpha, n + 1
            f.entry = f.own
            if report is not None:
                report.call(node, depth, alpha, beta)
            # the offset apart: one branch a Python object would make the whole sum one (two objects a visit)
            node = first[node] if child_order is None else first[node] + child_order[node][0]
            depth += 1
            continue
        # a leaf, or a node at the depth limit: its value is its own
        result = node
        leaves += 1
        out.leave(slot, result, alpha, beta, _HORIZON if count[node] > 0 else 0)
        if report is not None:
            report.leaf(node, depth, alpha, beta)
        # hand `result` up until a node has a child left to enter
        while top >= 0:
            f = frames[top]
            s = f.sign
            cut = False
            if hard:  # own = max(own, result); prune when own >= rival (at a max node; min mirrored)
                if s * key[result] > s * key[f.own]:
                    f.own = result
                best = f.own
            else:  # v = max(v, result); prune when v >= rival, else own = max(own, v)
                if s * key[result] > s * key[f.v]:
                    f.v = result
                best = f.v
            if prune:
                bar = s * key[f.rival]
                cut = s * key[best] > bar or (not strict and s * key[best] == bar)
                if not cut and not hard and s * key[best] > s * key[f.own]:
                    f.own = best
            if s > 0:
                alpha, beta = f.own, f.rival
            else:
                alpha, beta = f.rival, f.own
            if not cut and f.position < count[f.node]:  # enter the next child
                if child_order is None:
                    node = first[f.node] + f.position
                else:
                    node = first[f.node] + child_order[f.node][f.position]
                f.position += 1
                depth = f.depth + 1
                break
            # the node returns: fail-soft v; fail-hard the rival bound after a cut, else its own;
            # the notes' practical form its own bound always
            result = (f.rival if cut and not practical else f.own) if hard else f.v
            bits = _CUT if cut else 0
            if prune:  # outside the window it was entered with, a value is a bound
                if s * key[result] <= s * key[f.entry]:
                    bits |= _UPPER if s > 0 else _LOWER
                if s * key[result] >= s * key[f.rival]:
                    bits |= _LOWER if s > 0 else _UPPER
            out.leave(f.slot, result, alpha, beta, bits)
            if cut:
                out.cut(f.node, f.position)
                if report is not None:
                    report.cut(f.node, f.depth, alpha, beta, best, result, f.position)
            if report is not None:
                report.ret(f.node, f.depth, alpha, beta, result)
            top -= 1
        else:
            return out.visits, leaves, out.cutoffs
