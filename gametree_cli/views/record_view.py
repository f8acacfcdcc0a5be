"""Everything the JSON result reads from a :class:`~gametree_cli.search.record.SearchRecord`, in one place.

Why one place: the JSON result (document and writer alike) asks only the
questions below, for a chunk of nodes at a time, and gets NumPy arrays of
codes into small lists of distinct values. It reads the record through its
API (:meth:`~gametree_cli.search.record.SearchRecord.value_codes` and
:meth:`~gametree_cli.search.record.SearchRecord.decode_values`,
:meth:`~gametree_cli.search.record.SearchRecord.bounds_of`, ``cuts``, ``horizon``),
never through how a search stored its columns.

Values come back in their JSON form (:func:`~gametree_cli.core.numbers.value_to_json`):
exact fractions as ``"a/b"``, infinities as ``"inf"``. Two values are the
same item only when they print alike (``1`` and ``1.0``, ``0.0`` and
``-0.0`` stay apart).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Sequence

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.numbers import Value, number_to_json, value_to_json
from ..search.record import LOWER, UPPER, SearchRecord
from .cut_words import cut_codes
from .slot_codes import SlotCodes

__all__ = ["RecordView", "Codes", "dense_codes"]

#: integers below this size are their own JSON form (number_to_json)
_BIG = 1 << 63

#: (codes, items): per node an index into items (-1: the node has no such fact), and the distinct items
Codes = tuple["np.ndarray", list[Any]]  # (a string: NumPy is imported when first used, not here)


class RecordView:
    """The facts of one record that the JSON result shows, read a chunk of nodes at a time."""

    def __init__(self, record: SearchRecord) -> None:
        self.record = record
        self._cuts: tuple[np.ndarray, list[str]] | None = None
        self._last_decoded: tuple[np.ndarray, Codes] | None = None  # see _decoded
        self._slot_codes: SlotCodes | None | bool = None  # see _bulk (False: the record does not fit)

    @cached_property
    def _horizon(self) -> np.ndarray:
        return _sorted_nodes(self.record.horizon)

    @cached_property
    def _bound_nodes(self) -> np.ndarray:
        return _sorted_nodes(self.record.bound)

    # -- orders -------------------------------------------------------------------------

    def visit_order(self) -> Sequence[int] | None:
        """The visited nodes in the order first entered (a list or an array: the caller takes a chunk
        at a time); None for the tree order down to the depth limit."""
        order = self.record._order  # an array stays one (``record.order`` would make it a list for good)
        if isinstance(order, np.ndarray):
            return order
        return self.record.order

    def pruned(self) -> Sequence[int]:
        """The topmost nodes never visited, in tree order (a list or an array)."""
        return self.record.pruned

    def value(self, node: int) -> Value | None:
        """One node's value (None: never visited)."""
        return self.record.values[node]

    # -- per-node facts, for a chunk of nodes (int64) ------------------------------------

    def _bulk(self) -> SlotCodes | None:
        """The whole record's codes (:mod:`.slot_codes`) when it is a big depth-first search's, else None."""
        if self._slot_codes is None:
            fits = SlotCodes.fits(self.record)
            self._slot_codes = SlotCodes(self.record, _item_codes, dense_codes) if fits else False
        return self._slot_codes or None

    def coded_visits(self, nodes: np.ndarray) -> np.ndarray | None:
        """Per node of ``nodes`` whether the search visited it, when the record is coded once
        (:mod:`.slot_codes`: then a node never visited has no key but ``type``); else None."""
        bulk = self._bulk()
        return None if bulk is None else bulk.slots(nodes) >= 0

    def values(self, nodes: np.ndarray) -> Codes:
        """The values of ``nodes`` (code -1: not visited)."""
        bulk = self._bulk()
        if bulk is not None:
            return bulk.value_codes[bulk.slots(nodes)], bulk.value_items
        record = self.record
        coded = record.value_codes(nodes)
        if coded is None:  # values kept as Python items
            return _item_codes(list(map(record.values.__getitem__, nodes.tolist())), value_to_json)
        visited, raw = coded  # values in arrays: each distinct entry decoded once, then merged by how it prints
        distinct, index = dense_codes(raw, getattr(record.values, "whole_step", 0))
        codes = np.full(len(nodes), -1, dtype=np.int64)
        json_items = getattr(record.values, "json_items", None)  # codes that print apart already (written_column.py)
        if json_items is not None:
            codes[visited] = index
            return codes, json_items(distinct)
        merged, items = self._decoded(distinct, lambda: _item_codes(record.decode_values(distinct), value_to_json))
        codes[visited] = merged[index]
        return codes, items

    def _decoded(self, distinct: np.ndarray, decode: Callable[[], Codes]) -> Codes:
        """``decode()``, or what it gave for the last chunk when that chunk had the same distinct entries
        (minimax's values: every chunk holds the same few hundred leaf values)."""
        last = self._last_decoded
        if last is not None and np.array_equal(last[0], distinct):
            return last[1]
        found = decode()
        self._last_decoded = (distinct, found)
        return found

    def bounds(self, nodes: np.ndarray, visited: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[Any]] | None:
        """Alpha and beta codes (into one list of items) of the visited ``nodes`` the search kept bounds for."""
        bulk = self._bulk()
        if bulk is not None:
            if bulk.alpha_codes is None or bulk.beta_codes is None or not visited.any():
                return None
            slots = bulk.slots(nodes)
            return bulk.alpha_codes[slots], bulk.beta_codes[slots], bulk.bound_items
        coded = self.record.bound_codes(nodes)
        if coded is not None:  # bounds in arrays: each distinct one decoded once, then merged by how it prints
            positions, low_raw, high_raw = coded
            positions = positions[visited[positions]]  # bounds of nodes never visited are not shown
            if not len(positions):
                return None
            return self._coded_bounds(nodes, positions, low_raw[visited[coded[0]]], high_raw[visited[coded[0]]])
        has, lows, highs = self.record.bounds_of(nodes)
        if not lows:
            return None
        kept = visited[has]
        if not kept.all():  # bounds of nodes never visited are not shown
            lows = [low for low, keep in zip(lows, kept.tolist()) if keep]
            highs = [high for high, keep in zip(highs, kept.tolist()) if keep]
            has = has & visited
        codes, items = _item_codes([*lows, *highs], number_to_json)
        count = len(codes) // 2
        low_codes = np.full(len(nodes), -1, dtype=np.int64)
        high_codes = np.full(len(nodes), -1, dtype=np.int64)
        low_codes[has] = codes[:count]
        high_codes[has] = codes[count:]
        return low_codes, high_codes, items

    def _coded_bounds(self, nodes: np.ndarray, positions: np.ndarray, low_raw: np.ndarray,
                      high_raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        low_distinct, low_index = dense_codes(low_raw)
        high_distinct, high_index = dense_codes(high_raw)
        lows, highs = self.record.decode_bounds(low_distinct, high_distinct)
        merged, items = _item_codes([*lows, *highs], number_to_json)
        low_codes = np.full(len(nodes), -1, dtype=np.int64)
        high_codes = np.full(len(nodes), -1, dtype=np.int64)
        low_codes[positions] = merged[: len(lows)][low_index]
        high_codes[positions] = merged[len(lows) :][high_index]
        return low_codes, high_codes, items

    def bound_kinds(self, nodes: np.ndarray) -> Codes | None:
        """Per node of ``nodes`` whether its value is a lower or an upper bound (code -1: exact, never
        visited, or the side unknown); None when the record keeps no bound kinds or has no bound here."""
        kinds = self.record.bound_kinds(nodes)
        if kinds is None or not kinds.any():
            return None
        codes = np.where(kinds == LOWER, 0, np.where(kinds == UPPER, 1, -1)).astype(np.int64)
        return codes, ["lower", "upper"]

    def cuts(self, nodes: np.ndarray) -> Codes | None:
        """Why each of ``nodes`` that had a cut-off skipped its remaining children (its reason)."""
        if self._cuts is None:
            self._cuts = self._cut_table()
        table, reasons = self._cuts
        if not reasons:
            return None
        if self._bulk() is not None:  # every chunk with the one list of reasons (one text table for all)
            return table[nodes].astype(np.int64), reasons
        found = table[nodes].astype(np.int64)
        present = found >= 0
        distinct, index = dense_codes(found[present])  # only this chunk's reasons
        found[present] = index
        return found, [reasons[code] for code in distinct.tolist()]

    def _cut_table(self) -> tuple[np.ndarray, list[str]]:
        """Per node of the tree the code of its cut's reason (-1: none), and the distinct reasons."""
        record = self.record
        coded = cut_codes(record)
        if coded is None:
            cuts = record.cuts
            where = np.fromiter(cuts, dtype=np.int64, count=len(cuts))
            codes, reasons = _item_codes([cut.reason() for cut in cuts.values()], str)
        else:
            where, raw, worded = coded
            codes, reasons = _item_codes(worded, str)  # one code per distinct sentence
            codes = codes[raw]
        table = np.full(len(record.tree.kind), -1, dtype=np.int32)
        table[where] = codes
        return table, reasons

    def horizon(self, nodes: np.ndarray) -> np.ndarray | None:
        """Per node, whether ``eval`` gave its value because the depth limit stopped there (None: no such node)."""
        return _member(self._horizon, nodes) if len(self._horizon) else None

    def shallow_bounds(self, nodes: np.ndarray) -> Codes | None:
        """The Bound shallow pruning searched each of ``nodes`` with (None: not shallow pruning)."""
        bound = self.record.bound
        if not bound:
            return None
        has = _member(self._bound_nodes, nodes)
        codes, items = _item_codes([bound[node] for node in nodes[has].tolist()], value_to_json)
        full = np.full(len(nodes), -1, dtype=np.int64)
        full[has] = codes
        return full, items


def _sorted_nodes(nodes: Any) -> np.ndarray:
    """The node numbers of a set or a dict's keys, sorted (int64)."""
    return np.sort(np.fromiter(nodes, dtype=np.int64, count=len(nodes)))


def _member(sorted_nodes: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Per node of ``nodes``, whether it is in ``sorted_nodes``."""
    if not len(sorted_nodes):
        return np.zeros(len(nodes), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_nodes, nodes), len(sorted_nodes) - 1)
    return sorted_nodes[at] == nodes


def dense_codes(keys: np.ndarray, step: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct, index)`` with ``distinct[index] == keys``, distinct sorted: ``np.unique``,
    without a sort when the keys span a small range (one table lookup each).

    ``step`` (optional, > 1): many keys are multiples of it (a chance tree's whole leaf
    values among its expectations, :attr:`.WrittenColumn.whole_step`); those then take the
    table lookup and only the others are sorted, and ``distinct`` is sorted in two runs,
    the multiples first (a sort of all cost ~3.7 ms a chunk, this ~2.4).
    """
    if not len(keys):
        return keys[:0], np.zeros(0, dtype=np.int64)
    low, high = int(keys.min()), int(keys.max())
    if high - low > 4 * len(keys) + 65536:
        on_step = keys % step == 0 if step > 1 else None
        if on_step is not None and on_step.any() and not on_step.all():
            whole, whole_index = dense_codes(keys[on_step] // step)
            rest, rest_index = dense_codes(keys[~on_step])
            index = np.empty(len(keys), dtype=np.int64)
            index[on_step], index[~on_step] = whole_index, rest_index + len(whole)
            return np.concatenate([whole * step, rest]), index
        distinct, index = np.unique(keys, return_inverse=True)
        return distinct, index.reshape(-1)
    shifted = keys - low
    seen = np.zeros(high - low + 1, dtype=bool)
    seen[shifted] = True
    rank = np.cumsum(seen) - 1
    return (np.flatnonzero(seen) + low).astype(keys.dtype), rank[shifted]


def _item_codes(found: Sequence[Any], to_json: Any) -> Codes:
    """Codes of Python values (None: no value), each distinct value's JSON form once.

    Distinct by equality, in bulk (a set and a dict), when equal values
    print alike: strings, integers, and floats that equal no integer. Otherwise (0.0
    and -0.0, 1 and 1.0, fractions, vectors) by class and value, one at a
    time, signed zeros and vectors each taken anew.
    """
    present = [position for position, item in enumerate(found) if item is not None]
    items = found if len(present) == len(found) else [found[position] for position in present]
    kinds = set(map(type, items))
    if kinds == {str} or kinds <= {int, float} and not (float in kinds and any(
            item.__class__ is float and item.is_integer() for item in items)):
        distinct = list(set(items))
        position_of = dict(zip(distinct, range(len(distinct))))
        index = list(map(position_of.__getitem__, items))
    else:
        distinct, index = [], []
        known: dict[tuple[type, Any], int] = {}
        for item in items:
            key = (item.__class__, item)
            at = known.get(key)
            if at is None:
                at = len(distinct)
                distinct.append(item)
                kind = item.__class__
                if kind is not tuple and (kind is not float or item != 0):
                    known[key] = at
            index.append(at)
    codes = np.full(len(found), -1, dtype=np.int64)
    codes[present] = index
    if kinds == {int} and to_json in (value_to_json, number_to_json) and -_BIG < min(distinct) and max(distinct) < _BIG:
        return codes, distinct  # (an int of JSON is itself)
    return codes, [to_json(item) for item in distinct]
