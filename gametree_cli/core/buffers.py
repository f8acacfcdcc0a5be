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

__all__ = ["is_small", "new_array", "as_numpy", "typed_view", "slot_table", "flagged", "pick", "aligned", "HUGE_PAGE"]

#: the array typecodes used, as NumPy dtypes
_DTYPES = {"q": "int64", "B": "uint8", "i": "int32"}


def is_small(nodes: int) -> bool:
    """Whether a tree of ``nodes`` nodes is searched and shown without NumPy (read at each call: tests lower it)."""
    return nodes < lazy.SMALL_TREE


def new_array(length: int, typecode: str, nodes: int) -> Any:
    """``length`` entries of C type ``typecode`` (``q`` int64, ``B`` uint8, ``i`` int32) for a tree of
    ``nodes`` nodes: zeros in an ``array.array`` for a small tree, else ``np.empty`` (the pages a
    pruning search never writes cost no memory)."""
    if is_small(nodes):
        return array(typecode, bytes(length * array(typecode).itemsize))
    return np.empty(length, dtype=_DTYPES[typecode])


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


def slot_table(order: Any, nodes: int) -> Any:
    """Per node its position in ``order`` (-1: absent), int32 (int64 from 2^31 nodes), in the kind of
    array :func:`new_array` gives a tree of ``nodes`` nodes."""
    if is_small(nodes):
        table = array("i", [-1]) * nodes
        for slot, node in enumerate(order):
            table[node] = slot
        return table
    table = aligned(nodes, np.int32 if nodes < (1 << 31) else np.int64)
    table.fill(-1)
    table[order] = np.arange(len(order), dtype=table.dtype)
    return table


def flagged(flags: Any, bit: int) -> Any:
    """The positions of ``flags`` (uint8) that have ``bit`` set, int64, in the kind of array given."""
    if isinstance(flags, array):
        return array("q", [slot for slot, bits in enumerate(flags) if bits & bit])
    return np.flatnonzero(flags & bit)


def pick(data: Sequence[int], positions: Any) -> Any:
    """``data[positions]`` for int64 ``positions`` of either kind, in the same kind."""
    if isinstance(positions, array):
        return array("q", map(data.__getitem__, positions))
    return np.asarray(data)[positions]
