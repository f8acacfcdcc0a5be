"""A search's per-node arrays: ``array.array`` for a small tree, NumPy for a big one.

Why: importing NumPy costs about 0.06-0.1 s of CPU, twice a textbook
script's whole solve of a ten-node tree, while a search of a few thousand
nodes gains nothing from it. The depth-first search writes into any buffer
(typed memoryviews), and the record reads one node at a time by indexing,
which both kinds of array do alike; so a small search gets ``array.array``\\ s
from :func:`new_array` and never loads NumPy. Bulk readers (the writers of
big results) take :func:`as_numpy` views of either kind, which copy nothing.
"""

from __future__ import annotations

from array import array
from typing import Any, Sequence

from . import lazy

np = lazy.lazy_module("numpy")

__all__ = ["is_small", "plain_for", "plain_block", "new_array", "as_numpy", "typed_view", "slot_table", "SlotTable", "flagged", "flagged_all", "pick", "sorted_distinct", "aligned", "HUGE_PAGE"]

#: the array typecodes used, as NumPy dtypes
_DTYPES = {"q": "int64", "B": "uint8", "i": "int32"}


def is_small(nodes: int) -> bool:
    """Whether a tree of ``nodes`` nodes is searched and shown without NumPy (read at each call: tests lower it)."""
    return nodes < lazy.SMALL_TREE


def plain_for(tree: Any) -> bool:
    """Whether ``tree`` is searched and shown with plain buffers, without NumPy: a small tree, or one read
    for a view that reads a few of its nodes (``Tree.plain``: io/gtb_plain.py)."""
    return tree.plain or is_small(len(tree.kind))


def plain_block(size: int) -> memoryview:
    """``size`` bytes of zeros without NumPy: a ``bytearray``, or from 4 MB anonymous memory in 2 MB pages.

    Why: fresh memory is a large part of a big ``.gtb`` run (the kernel zeroes each page as it is first
    written); in 2 MB pages that is ~500 times fewer page faults than ``bytearray``'s 4 kB ones, and the
    pages never written (a pruning search's, a run of leaves') cost nothing (docs/performance.md, issue 14,
    target 3b). The mapping is a whole number of 2 MB pages, which the kernel places on a 2 MB boundary."""
    if size < 2 * HUGE_PAGE:
        return memoryview(bytearray(size))
    import mmap

    length = -(-size // HUGE_PAGE) * HUGE_PAGE
    if not hasattr(mmap, "MAP_PRIVATE"):  # (Windows: anonymous memory, its own pages)
        return memoryview(mmap.mmap(-1, length))[:size]
    # private: a shared anonymous mapping is shared memory, which the kernel gives no big pages
    block = mmap.mmap(-1, length, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        block.madvise(mmap.MADV_HUGEPAGE)
    return memoryview(block)[:size]


def new_array(length: int, typecode: str, nodes: int, plain: bool = False) -> Any:
    """``length`` entries of C type ``typecode`` (``q`` int64, ``B`` uint8, ``i`` int32) for a tree of
    ``nodes`` nodes: zeros in an ``array.array`` for a small tree, zeros in a :func:`plain_block` for a
    big ``plain`` one (:func:`plain_for`), else uninitialised NumPy (the pages a pruning search never
    writes cost no memory)."""
    if is_small(nodes):
        return array(typecode, bytes(length * array(typecode).itemsize))
    if plain:
        return plain_block(length * array(typecode).itemsize).cast(typecode)
    # from a 2 MB boundary: a search writes the start of each, in one big page (~0.15 ms) rather than
    # ~160 4 kB ones (~2 µs each) per 81,000 visits (docs/performance.md, issue 14, target 3b)
    return aligned(length, _DTYPES[typecode])


#: the kernel's big pages (x86-64, and arm64 with 4 kB pages), which NumPy asks for from 4 MB on
HUGE_PAGE = 2 << 20


def aligned(length: int, dtype: Any = "uint8", *, zeros: bool = False) -> Any:
    """``length`` entries of ``dtype`` (NumPy), zeros or not, from a 2 MB boundary with room for whole 2 MB
    pages to their end, for a big array that will be written throughout.

    Why: NumPy asks for big pages, but an allocation does not start on one, so its first and last
    2 MB came in ~500 4 kB page faults (~2 µs each here; fresh memory is most of a big ``.gtb`` run:
    docs/performance.md, issue 14, target 3b). The pages of the allocation outside the array are never
    touched, so they cost nothing. Under 4 MB, a plain array."""
    make = np.zeros if zeros else np.empty
    size = length * np.dtype(dtype).itemsize
    if size < 2 * HUGE_PAGE:
        return make(length, dtype=dtype)
    whole = -(-size // HUGE_PAGE) * HUGE_PAGE
    block = make(whole + HUGE_PAGE, dtype=np.uint8)
    start = -block.ctypes.data % HUGE_PAGE
    return block[start : start + size].view(dtype)


def as_numpy(data: Any) -> Any:
    """A NumPy view (no copy) of an ``array.array``; anything else as it is."""
    if isinstance(data, array):
        return np.frombuffer(data, dtype=_DTYPES[data.typecode])
    return data


def typed_view(data: Any, typecode: str) -> memoryview:
    """A NumPy array's memory as a typed view, indexed, sliced and iterated like ``array(typecode)``
    (Python ints) and given to the compiled search and to NumPy without a copy.

    Why not copy into an ``array.array``: a big tree's columns are fresh memory, and NumPy asks for
    2 MB pages where ``array.array`` gets 4 kB ones; filling one cost ~2 µs a page fault, ~12 ms
    for a 1.4-million-node tree's ``count`` and ``first`` (docs/performance.md, issue 14.3)."""
    return memoryview(np.ascontiguousarray(data)).cast("B").cast(typecode)


def slot_table(order: Any, nodes: int, plain: bool = False) -> Any:
    """Per node its position in ``order`` (-1: absent), int32 (int64 from 2^31 nodes): an ``array``
    for a small tree or a ``plain`` one (:func:`plain_for`; below 2^31 nodes), else a :class:`SlotTable`
    (read like the NumPy array it replaces)."""
    if is_small(nodes):
        table = array("i", [-1]) * nodes
        for slot, node in enumerate(order):
            table[node] = slot
        return table
    if plain and nodes < (1 << 31):
        from .plain_scans import fill_slots

        table = plain_block(4 * nodes).cast("i")  # (2 MB pages: ~1,400 fewer page faults than an array)
        fill_slots(order, table)
        return table
    return SlotTable(order, nodes)


#: a :class:`SlotTable` first covers this many nodes; a read of more nodes at once makes it whole
_FIRST_COVER = 4096


class SlotTable:
    """node -> its position in a search's visit order (-1: not visited), made as far as it is read.

    Why: a table of every node is 4 bytes a node of fresh memory (~1 ms for 1.4 million nodes here,
    where a pruning search visits 6% of them), while a text view reads the top thousand or so nodes of
    a tree numbered level by level. So it covers nodes ``0 .. covered - 1`` and grows on a read past
    them: fourfold, and to the whole tree once that is more than 1/16 of it or a read asks for more than
    :data:`_FIRST_COVER` nodes at once (a writer of all nodes). Indexed by a node (a NumPy scalar, as
    before) or an int64 array of nodes >= 0 (an array); ``order`` is an int64 NumPy array.
    """

    __slots__ = ("order", "size", "table", "covered")

    def __init__(self, order: Any, nodes: int) -> None:
        self.order, self.size = order, nodes
        self.table = np.empty(0, dtype=np.int32 if nodes < (1 << 31) else np.int64)
        self.covered = 0

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, nodes: Any) -> Any:
        if nodes.__class__ is int and 0 <= nodes < self.covered:  # the view's reads, one node at a time
            return self.table[nodes]
        if isinstance(nodes, (int, np.integer)):
            node = int(nodes)
            if not -self.size <= node < self.size:
                raise IndexError(f"node {node} of a tree of {self.size} nodes")
            self._cover(self.size if node < 0 else node + 1, 1)
            return self.table[node]
        nodes = np.asarray(nodes)
        if nodes.dtype.kind not in "iu":
            raise TypeError(f"nodes of dtype {nodes.dtype}: int64 node numbers expected")
        if nodes.size:
            low, high = int(nodes.min()), int(nodes.max())
            if low < -self.size or high >= self.size:
                raise IndexError(f"nodes {low}..{high} of a tree of {self.size} nodes")
            self._cover(self.size if low < 0 else high + 1, nodes.size)
        return self.table[nodes]

    def _cover(self, upto: int, asked: int) -> None:
        """Cover at least nodes ``0 .. upto - 1`` (the whole tree for a read of ``asked`` > _FIRST_COVER nodes)."""
        if upto <= self.covered and asked <= _FIRST_COVER:
            return
        size, order, dtype = self.size, self.order, self.table.dtype
        want = max(upto, 4 * self.covered, _FIRST_COVER)
        if want > size // 16 or asked > _FIRST_COVER:
            want = size
        if want == self.covered:
            return
        if want == size:
            table = aligned(size, dtype)
            table.fill(-1)
            table[order] = np.arange(len(order), dtype=dtype)
        else:
            table = np.full(want, -1, dtype=dtype)
            slots = np.flatnonzero(order < want)
            table[order[slots]] = slots
        self.table, self.covered = table, want


def flagged(flags: Any, bit: int) -> Any:
    """The positions of ``flags`` (uint8) that have ``bit`` set, int64, in the kind of array given."""
    if isinstance(flags, array) or (isinstance(flags, memoryview) and is_small(len(flags))):
        return array("q", [slot for slot, bits in enumerate(flags) if bits & bit])
    if isinstance(flags, memoryview):  # a big plain record's (plain_for)
        from .plain_scans import positions_with

        return positions_with(flags, bit, False)
    return np.flatnonzero(flags & bit)


def flagged_all(flags: Any, bits: int) -> list[int]:
    """The positions of ``flags`` (uint8) that have all of ``bits`` set, of either kind of array."""
    if hasattr(flags, "dtype"):  # NumPy
        return (((flags & bits) == bits).nonzero()[0]).tolist()  # type: ignore[no-any-return]
    if is_small(len(flags)):
        return [slot for slot, each in enumerate(flags) if each & bits == bits]
    from .plain_scans import positions_with

    return positions_with(flags, bits, True).tolist()


def pick(data: Sequence[int], positions: Any) -> Any:
    """``data[positions]`` for int64 ``positions`` of either kind, in the same kind."""
    if isinstance(positions, array):
        return array("q", map(data.__getitem__, positions))
    return np.asarray(data)[positions]


def sorted_distinct(values: Any) -> Any:
    """The distinct entries of a NumPy array, sorted: ``np.unique(values)`` by a sort.

    Why not ``np.unique``: without ``return_inverse`` it asks ``np.ma.is_masked`` first, which imports
    ``numpy.ma`` (~7-10 ms, once per process, for nothing here); and on a million keys with a few
    distinct ones the sort is faster than its hash table (18 against 23 ms with the ``searchsorted``
    that follows; docs/performance.md, issue 14)."""
    ordered = np.sort(values)
    if not len(ordered):
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]
