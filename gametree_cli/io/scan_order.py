# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The JSON tree scanner's entry, ``scan``: the depth-first pass, then the nodes numbered breadth-first.

``scan(text, max_nodes, mode=0)`` reads the JSON text (str, or its UTF-8
bytes) of a plain two-player tree file (:mod:`.scan_kernel`) and returns
either why it *bailed* (a str: the caller runs the json.loads path) or::

    kind     bytearray[n]     LEAF/MAX/MIN/CHANCE per node (model.py's codes)
    count    memoryview[n]    int64 children per node (the rest: memoryviews of NumPy arrays)
    first    memoryview[n]    int64 first child (0 for leaves)
    player   memoryview[n]    int16 0 (MAX), 1 (MIN), -1 (leaves, chance)
    leaf     memoryview[n]    int64 or float64's bits: leaf values (0 at inner nodes)
    is_float bool             the leaves are decimals
    prob     list[n] | None   edge probabilities (None under non-chance parents): int, Fraction,
                              or the float of a decimal written, one object per distinct share
    exact    (bytearray[8n], int, bytearray[n] | None) | None   the probabilities as int64
                              numerators over one denominator, and per node whether its p was
                              written as a decimal (numeric.Numeric); None: Python works it out
    evals    dict             node -> int | float, inner nodes only
    moves    dict             node -> str
    header   dict             top-level key -> JSON text of its value

with nodes numbered breadth-first (the children of a node are contiguous and
follow those of every node before it), dicts in node order. Mode 1 bails
with ``(why, offset, path)``: offset is where the scan stood (bytes of the
UTF-8 text, just past what it refused; -1 for a bail while numbering, e.g.
probabilities), path the child positions from the root to the node it was
reading (formats/partial.py words the error from the nodes on it). Mode 2
only checks: it reads on past ``id`` keys, lets integer and decimal leaves
mix, keeps no moves, and returns None when it finds nothing to bail at.

Cython's pure-Python mode, like :mod:`.scan_kernel` (``COMPILED``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

try:
    import cython
except ImportError:  # no Cython where this runs (it is a build tool): the stand-ins
    from ..core._no_cython import cython

from .scan_kernel import NODE_FLAGS, Scan

__all__ = ["scan", "BUILD", "WHERE", "CHECK", "COMPILED", "DENOMINATOR_REASON"]

#: True when this module runs compiled (setup.py's optional Cython extension)
COMPILED = cython.compiled

BUILD, WHERE, CHECK = 0, 1, 2  # scan's modes
_LEAF = cython.declare(cython.int, 0)
_MAX = cython.declare(cython.int, 1)
_MIN = cython.declare(cython.int, 2)
_CHANCE = cython.declare(cython.int, 3)
_TYPE = cython.declare(cython.ushort, NODE_FLAGS["type"])
_INNER = cython.declare(cython.ushort, NODE_FLAGS["inner"])
_HAS_P = cython.declare(cython.ushort, NODE_FLAGS["has_p"])
_P = cython.declare(cython.ushort, NODE_FLAGS["p"])
_P_FLOAT = cython.declare(cython.ushort, NODE_FLAGS["p_float"])
_EVAL = cython.declare(cython.ushort, NODE_FLAGS["eval"])
_MOVE = cython.declare(cython.ushort, NODE_FLAGS["move"])
_INT64_MAX = cython.declare(cython.ulonglong, (1 << 63) - 1)
_UINT64_MAX = cython.declare(cython.ulonglong, (1 << 64) - 1)
#: numerators of decimal shares stay below this (written.WRITTEN_LIMIT: the sweep's codes carry a flag bit)
_WRITTEN_LIMIT = cython.declare(cython.ulonglong, 1 << 61)
_SEEN = cython.declare(cython.Py_ssize_t, 16)  # distinct shares looked up in C arrays (the others in a dict)
#: a chance node whose shares' lcm outgrows int64: no rule is broken (jsonscan.NOT_MISTAKES)
DENOMINATOR_REASON = "probabilities over a common denominator beyond int64"


def scan(text: str | bytes, max_nodes: int, mode: int = BUILD) -> Any:
    """The arrays of a plain two-player JSON tree file, or why (and in modes 1/2 where) the
    scanner leaves it to the json.loads path; see the module docstring."""
    try:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    except UnicodeEncodeError:
        return "text that is not valid Unicode" if mode == BUILD else ("text that is not valid Unicode", 0, ())
    found = scan_depth_first(data, max_nodes, mode == CHECK)
    del data
    where = -1
    if not found["why"]:
        if mode == CHECK and not found["any_p"]:  # checked: numbering the nodes would find nothing more
            return None
        none = np.zeros(1, dtype=np.int64)
        views = [memoryview(found.get(name, none)) for name in ("size", "flags", "leaf", "pnum", "pden")]
        result = _number(*views, found["n"], found["root"], found["evals"], found["moves"], found["any_float"],
                         found["header"])
        del views
        if len(result) > 2:
            return None if mode == CHECK else result
        found["why"], where = result
    if mode == BUILD:
        return found["why"]
    if where < 0:
        return found["why"], found["pos"], found["path"]
    return found["why"], -1, _dfs_path(found["size"], found["root"], where)


def scan_depth_first(data: bytes, max_nodes: int, check: bool) -> dict:
    """Scan ``data`` (UTF-8, :mod:`.scan_kernel`): the depth-first arrays (``why`` empty: all was read)."""
    scan = Scan(data, max_nodes, check)
    scan.run()
    return scan.facts()


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _resolve(f: cython.ushort, inherited: cython.int) -> cython.int:
    """A node's kind: a leaf, as declared, or the opposite of the decision above it."""
    if not f & _INNER:
        return _LEAF
    if f & _TYPE:
        return f & _TYPE
    return _MIN if inherited == _MAX else _MAX


@cython.locals(n=cython.Py_ssize_t, b=cython.Py_ssize_t, tail=cython.Py_ssize_t, u=cython.Py_ssize_t,
               c=cython.Py_ssize_t, end=cython.Py_ssize_t, i=cython.Py_ssize_t, k=cython.Py_ssize_t,
               f=cython.ushort, kd=cython.int, below=cython.int)
def _number(size: cython.const[cython.int][::1], flags: cython.const[cython.ushort][::1],
            leaf: cython.const[cython.longlong][::1], pnum: cython.const[cython.longlong][::1],
            pden: cython.const[cython.longlong][::1], n_all: cython.Py_ssize_t, root: cython.Py_ssize_t,
            evals: dict, moves: dict, any_float: bool, header: dict) -> tuple:
    """Number the nodes breadth-first: the results, or (why, the depth-first node it is about).

    A node's children are found from the subtree sizes alone (the first at u + 1, each next one past
    the one before, up to u + size[u]). Until node b is numbered, first[b] holds its depth-first
    number and player[b] the decision kind above it, which its parent wrote there: no arrays of
    their own (fresh memory costs more than the writes here: docs/performance.md)."""
    n = n_all - root
    # np.empty, not bytearray: every slot is written below, and NumPy gets 2 MB pages where a bytearray
    # gets zero-filled 4 kB ones (~2 us a page fault: docs/performance.md); kind stays a bytearray (Tree's)
    kind_b = bytearray(n)
    count_a, first_a, player_a, leaf_a = np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int16), \
        np.empty(n, np.int64)
    # memoryviews: uncompiled, their items are Python ints and floats, as compiled
    kind: cython.uchar[::1] = memoryview(kind_b)
    count: cython.longlong[::1] = memoryview(count_a)
    first: cython.longlong[::1] = memoryview(first_a)
    player: cython.short[::1] = memoryview(player_a)
    leaf_out: cython.longlong[::1] = memoryview(leaf_a)
    shares = _Shares(n)
    evals_out: dict = {}
    moves_out: dict = {}
    if flags[root] & _HAS_P:
        return "p on the root", root
    first[0], player[0], kind[0] = root, 0, _resolve(flags[root], 0)
    tail = 1
    for b in range(n):
        if b >= tail:
            return "internal: sizes disagree", -1
        u, kd = first[b], kind[b]
        f, below = flags[u], player[b]
        player[b] = 0 if kd == _MAX else 1 if kd == _MIN else -1
        if f & _MOVE:
            moves_out[b] = moves[u]
        if size[u] == 1:  # a leaf
            count[b], first[b], leaf_out[b] = 0, 0, leaf[u]
            continue
        leaf_out[b] = 0
        if f & _EVAL:
            evals_out[b] = evals[u]
        below = kd if kd == _MAX or kd == _MIN else below
        c, end, i = u + 1, u + size[u], tail
        if end > n_all:
            return "internal: sizes disagree", -1
        while c < end:
            if i >= n:
                return "internal: sizes disagree", -1
            if flags[c] & _HAS_P and kd != _CHANCE:
                return "p under a node that is not a chance node", c
            first[i], kind[i], player[i] = c, _resolve(flags[c], below), below
            c += size[c]
            i += 1
        k = i - tail
        count[b], first[b] = k, tail
        if kd == _CHANCE:
            why = shares.chance(first, tail, k, flags, pnum, pden)
            if why:
                return why, u
        tail += k
    if tail != n:
        return "internal: sizes disagree", -1
    return (kind_b, memoryview(count_a), memoryview(first_a), memoryview(player_a), memoryview(leaf_a), any_float,
            shares.prob, shares.exact_numerators(), evals_out, moves_out, header)


@cython.cfunc
@cython.exceptval(check=False)
def _gcd(a: cython.ulonglong, b: cython.ulonglong) -> cython.ulonglong:
    while b:
        a, b = b, a % b
    return a


@cython.cclass
class _Shares:
    """The edge probabilities, breadth-first: per edge ``num / den`` (:mod:`.scan_share`) and whether
    its p was written as a decimal; the Python list of their values (one object per distinct share);
    and the running lcm of the denominators, to put the numerators over one denominator
    (numeric.Numeric). exact goes False when the lcm outgrows uint64 (Python then decides)."""

    __slots__ = ("n", "prob", "num_b", "num", "den", "dec_b", "dec", "lcm", "last_den", "exact", "decimals",
                 "uniform_k", "uniform", "seen", "seen_count", "seen_objects", "more")
    n: cython.Py_ssize_t
    prob: object  # list[n], once there is a chance node
    num_b: object
    num: cython.longlong[::1]
    den: cython.longlong[::1]  # 0 off chance edges
    dec_b: object
    dec: cython.uchar[::1]
    lcm: cython.ulonglong
    last_den: cython.ulonglong
    exact: cython.bint
    decimals: cython.bint  # some p was written as a decimal
    uniform_k: cython.Py_ssize_t  # the last uniform share made, reused: 1/k
    uniform: object
    seen: cython.longlong[:, ::1]  # num, den, decimal of the first _SEEN distinct shares made
    seen_count: cython.Py_ssize_t
    seen_objects: list  # their numbers
    more: dict  # the numbers of the others, by (num, den, decimal)

    def __init__(self, n: int) -> None:
        self.n, self.prob, self.lcm, self.last_den, self.exact, self.decimals = n, None, 1, 1, True, False
        self.uniform_k, self.uniform, self.seen_count, self.seen_objects, self.more = 0, None, 0, [], {}
        self.seen = memoryview(np.zeros((_SEEN, 3), dtype=np.int64))

    @cython.cfunc
    def start(self) -> cython.void:
        """The edge arrays, made at the first chance node."""
        self.prob, self.num_b, self.dec_b = [None] * self.n, bytearray(8 * self.n), bytearray(self.n)
        self.num, self.dec = memoryview(self.num_b).cast("q"), memoryview(self.dec_b)
        self.den = memoryview(bytearray(8 * self.n)).cast("q")

    @cython.cfunc
    def share(self, at: cython.Py_ssize_t, num: cython.longlong, den: cython.longlong,
              decimal: cython.bint) -> cython.void:
        self.num[at], self.den[at], self.dec[at] = num, den, decimal
        self.decimals = self.decimals or decimal
        if not self.exact or den == self.last_den:
            return
        self.last_den = den
        step: cython.ulonglong = den // _gcd(self.lcm, den)
        if self.lcm > _UINT64_MAX // step:
            self.exact = False
        else:
            self.lcm *= step

    @cython.cfunc
    @cython.locals(i=cython.Py_ssize_t)
    def value(self, num: cython.longlong, den: cython.longlong, decimal: cython.bint) -> object:
        """The Python number of a share, as the builders read it: the float of a decimal written
        (int / int rounds correctly), else an int or a Fraction; made once per distinct share."""
        for i in range(self.seen_count):
            if self.seen[i, 0] == num and self.seen[i, 1] == den and self.seen[i, 2] == decimal:
                return self.seen_objects[i]
        key = (num, den, decimal)
        number = self.more.get(key) if self.seen_count == _SEEN else None
        if number is not None:
            return number
        top: object = num
        bottom: object = den
        if decimal:
            number = top / bottom
        else:
            exact = Fraction(top, bottom)
            number = exact.numerator if exact.denominator == 1 else exact
        if self.seen_count < _SEEN:
            self.seen[self.seen_count, 0], self.seen[self.seen_count, 1] = num, den
            self.seen[self.seen_count, 2] = decimal
            self.seen_count += 1
            self.seen_objects.append(number)
        else:
            self.more[key] = number
        return number

    @cython.cfunc  # a C call per chance node: as a Python method, each call acquired its four memoryviews anew
    @cython.locals(i=cython.Py_ssize_t, o=cython.Py_ssize_t, given=cython.Py_ssize_t, decimals=cython.Py_ssize_t,
                   whole=cython.ulonglong, step=cython.ulonglong, total=cython.ulonglong, off=cython.ulonglong)
    def chance(self, order: cython.const[cython.longlong][::1], at: cython.Py_ssize_t, k: cython.Py_ssize_t,
               flags: cython.const[cython.ushort][::1], pnum: cython.const[cython.longlong][::1],
               pden: cython.const[cython.longlong][::1]) -> str:
        """The probabilities of one chance node's k children (breadth-first at..at+k, depth-first
        order[...]: _number's first column, before they are numbered): checked as the builders check
        them, in integers; why they are refused, or ''."""
        if self.prob is None:
            self.start()
        given = decimals = 0
        for i in range(at, at + k):
            given += (flags[order[i]] & _P) != 0
            decimals += (flags[order[i]] & _P_FLOAT) != 0
        prob: list = self.prob
        if given == 0:
            if self.uniform_k != k:
                self.uniform, self.uniform_k = 1 if k == 1 else Fraction(1, k), k
            for i in range(at, at + k):
                prob[i] = self.uniform
                self.share(i, 1, k, False)
            return ""
        if given != k:
            return "p given to some children of a chance node only"
        whole = 1  # the lcm of the k denominators; then the shares over it, which sum to at most k * whole
        for i in range(at, at + k):
            step = pden[order[i]] // _gcd(whole, pden[order[i]])
            if whole > _INT64_MAX // k // step:
                return DENOMINATOR_REASON
            whole *= step
        total = 0
        for i in range(at, at + k):
            total += pnum[order[i]] * (whole // pden[order[i]])
        if total != whole:  # decimals may miss 1 by 1e-9 (node_rules.py); fractions sum to it exactly
            off = total - whole if total > whole else whole - total
            if decimals == 0 or off > whole // 1000000000:
                return "probabilities that do not sum to 1"
        for i in range(at, at + k):
            o = order[i]
            self.share(i, pnum[o], pden[o], (flags[o] & _P_FLOAT) != 0)
            prob[i] = self.value(pnum[o], pden[o], (flags[o] & _P_FLOAT) != 0)
        return ""

    @cython.locals(i=cython.Py_ssize_t, common=cython.ulonglong, divisor=cython.ulonglong)
    def exact_numerators(self) -> Any:
        """(numerators as int64 bytes, the denominator, which p were decimals as bytes or None), or
        None (no chance node, or Python decides): the lcm of the shares' reduced denominators, as
        numeric._exact_probabilities and written.written_probabilities give it."""
        if self.prob is None or not self.exact or self.lcm > _INT64_MAX:
            return None
        common = divisor = self.lcm
        for i in range(self.n):  # p <= 1, so the numerators fit when the lcm does
            if self.den[i]:
                self.num[i] = self.num[i] * (common // self.den[i])
                if divisor != 1:
                    divisor = _gcd(divisor, self.num[i])
        if divisor > 1:  # denominators written unreduced ("2/4", 0.50): over the lcm of the reduced ones
            common //= divisor
            for i in range(self.n):
                self.num[i] = self.num[i] // divisor
        if self.decimals and common >= _WRITTEN_LIMIT:  # codes carry a numerator and a flag bit
            for i in range(self.n):
                if self.num[i] >= _WRITTEN_LIMIT:
                    return None
        return self.num_b, int(common), self.dec_b if self.decimals else None


def _dfs_path(size: Any, root: int, node: int) -> tuple:
    """Child positions from the root to depth-first ``node`` (every subtree size is known)."""
    path, at = [], root
    while at != node:
        if node <= at or node >= at + size[at]:
            break  # not below (an internal bail): stop
        child, index = at + 1, 0
        while child + size[child] <= node:
            child += size[child]
            index += 1
        path.append(index)
        at = child
    return tuple(path)
