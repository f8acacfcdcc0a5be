"""Per-node columns of a search record: values, alpha and beta, one reading API.

Why a class of its own: a record must cost a few bytes per node on a
million-node tree, yet every view reads it the same way, whatever search
made it. A column keeps its entries in the cheapest form its search has,
and converts to Python numbers only what a view reads:

* **sources** (the depth-first search of :mod:`gametree_cli.search.depth_first`):
  each entry is the number of the node whose leaf value or ``eval`` it is
  (alpha-beta and minimax only pick values, never make new ones), or one of
  two codes past the last node for -inf and inf. Exact for any numbers,
  8 bytes an entry, and the node number tells where the value came from;
* **scaled** (the NumPy sweeps of :mod:`gametree_cli.search.sweep`):
  int64 numerators over one common denominator, or float64 decimals;
* **items** (searches that build Python values as they go: chance nodes,
  n-player vectors): a list, or a dict for a few nodes.

Array entries are stored by *slot*: the node itself, or its visit position
(``slot_of[node]``, -1 where the search never went), so a pruning search
pays for the nodes it visited, not for the tree. The arrays are NumPy's for
a big tree; ``array.array`` for a small one and memoryviews for a plain one
(:func:`~gametree_cli.core.buffers.plain_for`), which are read node by node
(:func:`_read_by_node`) and never given to NumPy.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Sequence

from .lazy import lazy_module
np = lazy_module("numpy")

from .buffers import as_numpy, is_small
from .numbers import INF, NEG_INF, Value

__all__ = ["Column", "BoundMap"]


class Column(Sequence):
    """Per node of a tree, a value or None (see the module docstring for the storages).

    Reads like a ``list[Value | None]`` (index, slice, iterate, compare); the
    bulk methods :meth:`has`, :meth:`take` and :meth:`codes` serve writers
    that handle a chunk of nodes at a time.
    """

    __slots__ = ("size", "data", "slot_of", "present", "tree", "denominator", "_reader")

    def __init__(self, size: int, data: Any, *, slot_of: np.ndarray | None = None, present: np.ndarray | None = None,
                 tree: Any = None, denominator: int = 1) -> None:
        self.size = size
        #: entries by slot (ndarray), or by node (list, dict)
        self.data = data
        #: per node its slot (-1: no entry); None: the slot is the node
        self.slot_of = slot_of
        #: per slot, whether it holds an entry (None: all do)
        self.present = present
        #: sources: the tree whose leaf values and evals the codes point at
        self.tree = tree
        #: scaled int64: the common denominator
        self.denominator = denominator
        #: :meth:`_decode`'s reader, made at the first entry read (a text view reads a few thousand)
        self._reader: Callable[[Any], Value] | None = None

    @classmethod
    def items(cls, size: int, data: list | Mapping) -> "Column":
        """A column over a Python list (one entry per node, None where absent) or dict."""
        return cls(size, data)

    @classmethod
    def sources(cls, tree: Any, codes: np.ndarray, slot_of: np.ndarray | None) -> "Column":
        """Entries that are node numbers of ``tree`` (``len(tree)``: -inf, ``len(tree) + 1``: inf)."""
        return cls(len(tree.kind), codes, slot_of=slot_of, tree=tree)

    @classmethod
    def scaled(cls, data: np.ndarray, denominator: int = 1, present: np.ndarray | None = None) -> "Column":
        """Numerators over ``denominator`` (int64) or decimals (float64), one per node."""
        return cls(len(data), data, present=present, denominator=denominator if data.dtype.kind == "i" else 1)

    # -- reading one node ------------------------------------------------------------

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[node] for node in range(*index.indices(self.size))]
        data = self.data
        if not _arrayed(data):
            if isinstance(data, Mapping):
                return data.get(index)
            return data[index]
        if index < 0:
            index += self.size
        slot = index if self.slot_of is None else int(self.slot_of[index])
        if slot < 0 or (self.present is not None and not self.present[slot]):
            return None
        reader = self._reader
        if reader is None:
            reader = self._reader = self._decode()
        return reader(data[slot] if isinstance(data, (array, memoryview)) else data.item(slot))

    def __setitem__(self, node: int, value: Value | None) -> None:
        """Writable (Star1 reports its bounds as decimals afterwards): array storage becomes a list once."""
        if _arrayed(self.data):
            self.data, self.slot_of, self.present, self.tree, self._reader = list(self), None, None, None, None
        self.data[node] = value

    def __iter__(self) -> Iterator[Value | None]:
        if _read_by_node(self):  # (no NumPy for a small tree, or a plain one)
            yield from map(self.__getitem__, range(self.size))
            return
        step = 1 << 16
        for start in range(0, self.size, step):
            nodes = np.arange(start, min(self.size, start + step), dtype=np.int64)
            here = self.has(nodes)
            found = iter(self.take(nodes[here]))
            for present in here.tolist():
                yield next(found) if present else None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, Column)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "items" if not _arrayed(self.data) else "sources" if self.tree is not None else "scaled"
        return f"Column({self.size} nodes, {kind})"

    # -- reading many nodes --------------------------------------------------------------

    def slots(self, nodes: np.ndarray) -> np.ndarray:
        """Per node of ``nodes`` (int64) its slot, -1 where it has no entry (array storage only)."""
        slots = nodes if self.slot_of is None else as_numpy(self.slot_of)[nodes].astype(np.int64, copy=False)
        if self.present is not None:
            slots = np.where(self.present[np.maximum(slots, 0)] & (slots >= 0), slots, -1)
        return slots

    def has(self, nodes: np.ndarray) -> np.ndarray:
        """Per node of ``nodes`` (int64), whether it has an entry."""
        data = self.data
        if _arrayed(data):
            return self.slots(nodes) >= 0
        if isinstance(data, Mapping):
            return np.fromiter(map(data.__contains__, nodes.tolist()), dtype=bool, count=len(nodes))
        return np.fromiter((data[node] is not None for node in nodes.tolist()), dtype=bool, count=len(nodes))

    def take(self, nodes: np.ndarray) -> list[Value]:
        """The entries of ``nodes`` (each must have one), converted in bulk (an ``array`` of nodes: one by one)."""
        data = self.data
        if not _arrayed(data):
            return list(map(data.__getitem__, nodes.tolist()))
        if isinstance(nodes, array):  # a small tree's nodes (record.py's _flagged)
            return list(map(self.__getitem__, nodes))
        return self.decode_many(as_numpy(data)[self.slots(nodes)])

    def codes(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """``(positions, codes)`` for writers that format each distinct entry once: the positions in
        ``nodes`` of those with an entry, and per such node an int64 code, equal codes meaning the same
        entry printed alike (:meth:`decode_many` turns codes back). None for list and dict storage."""
        data = self.data
        if not _arrayed(data):
            return None
        slots = self.slots(nodes)
        positions = np.flatnonzero(slots >= 0)
        raw = as_numpy(data)[slots[positions]]
        if raw.dtype.kind == "f":  # by their bits: -0.0 and 0.0 are equal but print differently
            return positions, np.ascontiguousarray(raw).view(np.int64)
        return positions, raw.astype(np.int64, copy=False)

    def decode_many(self, codes: np.ndarray) -> list[Value]:
        """Python values of raw entries (or of :meth:`codes`' codes)."""
        if self.tree is not None:
            return _source_values(self.tree, codes)
        if self.data.dtype.kind == "f":
            return np.asarray(codes).view(np.float64).tolist() if codes.dtype.kind == "i" else codes.tolist()
        if self.denominator == 1:
            return codes.tolist()  # type: ignore[no-any-return]
        return list(map(self._decode(), codes.tolist()))

    def _decode(self) -> Callable[[Any], Value]:
        if self.tree is not None:
            return _source_reader(self.tree)
        if self.denominator == 1 or self.data.dtype.kind == "f":
            return _same
        denominator = self.denominator
        from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

        def exact(numerator: int) -> Value:
            value = Fraction(numerator, denominator)
            return value.numerator if value.denominator == 1 else value

        return exact


def _arrayed(data: Any) -> bool:
    """Whether ``data`` is array storage (an ``array.array``, a plain tree's memoryview or a NumPy array), not a
    list or a dict."""
    return isinstance(data, (array, memoryview)) or (not isinstance(data, (list, Mapping)) and isinstance(data, np.ndarray))


def _read_by_node(column: Column) -> bool:
    """Whether ``column`` is read node by node, without NumPy: a small record's, or a plain one's (its
    arrays are memoryviews: core/buffers.plain_for)."""
    return is_small(column.size) or isinstance(column.data, memoryview)


def _same(raw: Any) -> Any:
    return raw


def _source_reader(tree: Any) -> Callable[[int], Value]:
    """node number -> that node's leaf value, or its eval when it is an inner node; the two codes
    past the last node are -inf and inf."""
    count, leaf_value, evals, n = tree.count, tree.value, tree.evals, len(tree.kind)

    def value_of(source: int) -> Value:
        if source >= n:
            return NEG_INF if source == n else INF
        return leaf_value[source] if count[source] == 0 else evals[source]  # type: ignore[no-any-return]

    return value_of


def _source_values(tree: Any, codes: np.ndarray) -> list[Value]:
    """:func:`_source_reader` of many codes: each distinct source read once, leaf values in bulk when
    the tree keeps them in NumPy (a loaded JSON or .gtb file)."""
    from .numeric import LazyValues, int64_view

    if len(codes) and bool((codes[1:] > codes[:-1]).all()):  # already distinct and sorted (a writer's codes)
        distinct, inverse = codes, None
    else:
        distinct, inverse = np.unique(codes, return_inverse=True)
    leaf_values, n = tree.value, len(tree.kind)
    if type(leaf_values) is LazyValues:
        found: list[Any] = [None] * len(distinct)
        is_leaf = distinct < n
        is_leaf[is_leaf] = int64_view(tree.count)[distinct[is_leaf]] == 0
        leaves = distinct[is_leaf]
        for position, value in zip(np.flatnonzero(is_leaf).tolist(), leaf_values.take(leaves)):
            found[position] = value
        value_of = _source_reader(tree)
        others = np.flatnonzero(~is_leaf)
        for position, source in zip(others.tolist(), distinct[others].tolist()):
            found[position] = value_of(source)
    else:
        found = list(map(_source_reader(tree), distinct.tolist()))
    return found if inverse is None else list(map(found.__getitem__, inverse.reshape(-1).tolist()))


class BoundMap(Mapping):
    """node -> its alpha (or beta) at return, for the nodes that have one: a dict-like view of a Column."""

    __slots__ = ("column",)

    def __init__(self, column: Column) -> None:
        self.column = column

    def __getitem__(self, node: int) -> Value:
        value = self.column[node] if node.__class__ is int and 0 <= node < len(self.column) else None
        if value is None:
            raise KeyError(node)
        return value  # type: ignore[no-any-return]

    def __contains__(self, node: object) -> bool:
        return node.__class__ is int and 0 <= node < len(self.column) and self.column[node] is not None  # type: ignore[operator]

    def __iter__(self) -> Iterator[int]:
        column = self.column
        if _read_by_node(column):
            return (node for node, value in enumerate(column) if value is not None)
        nodes = np.arange(len(column), dtype=np.int64)
        return iter(nodes[column.has(nodes)].tolist())

    def __len__(self) -> int:
        if _read_by_node(self.column):
            return sum(value is not None for value in self.column)
        return int(self.column.has(np.arange(len(self.column), dtype=np.int64)).sum())

    def __setitem__(self, node: int, value: Value) -> None:
        self.column[node] = value
