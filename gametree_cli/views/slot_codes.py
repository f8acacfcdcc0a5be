"""A big pruning search's per-node facts, coded once for the whole record, for the JSON result.

Why: the writer reads the record a chunk of nodes at a time, and a chunk
of alpha-beta's result holds a few thousand visited nodes among tens of
thousands never visited. Decoding each chunk's values, bounds and cut
reasons on its own (finding its distinct entries, turning them into Python
values, merging those that print alike, then building text tables for
them) repeats the same work for every chunk. The depth-first search keeps
its facts per *visit* (slot), so here every slot's value, alpha, beta and
bound kind becomes a code into one list of distinct JSON items, once; a
chunk is then a gather per column (``codes[slots]``), and its items are the
same list object every time, so the writer's text tables are made once too
(:func:`~.node_entries.entry_pieces` keeps the last table of each key).

Only for records whose columns are the depth-first search's source columns
(:meth:`~gametree_cli.core.columns.Column.sources` with visit slots), with
flags, on trees of at least :data:`BULK_FROM` nodes; every other record is
read a chunk at a time as before (:class:`~.record_view.RecordView`).
"""

from __future__ import annotations

from typing import Any

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.columns import Column
from ..core.numbers import INF, NEG_INF, number_to_json, value_to_json
from ..core.numeric import LazyValues, int64_view
from ..search.record import LOWER, UPPER, SearchRecord

__all__ = ["SlotCodes", "BULK_FROM", "same_value_sources"]

#: trees with fewer nodes are coded a chunk at a time (the tests lower this to reach small trees)
BULK_FROM = 1 << 12


class SlotCodes:
    """Per visit slot, codes of the value, alpha, beta and bound kind (each with a -1 appended at the
    end, so that slot -1, a node never visited, reads -1 with one gather)."""

    def __init__(self, record: SearchRecord, item_codes: Any, dense_codes: Any) -> None:
        values = record.values
        self.slot_of = values.slot_of
        self._last: tuple[np.ndarray, np.ndarray] | None = None  # see slots
        fast = _leaf_codes(record.tree, [values.data], dense_codes)
        if fast is None:
            fast = _coded(values.data, record.decode_values, item_codes, dense_codes, value_to_json)
        (self.value_codes,), self.value_items = fast
        self.alpha_codes = self.beta_codes = None
        self.bound_items: list[Any] = []
        alpha, beta = record._alpha, record._beta
        if alpha is not None and beta is not None:
            fast = _leaf_codes(record.tree, [alpha.data, beta.data], dense_codes)
            if fast is None:
                fast = _coded_bounds(record, item_codes, dense_codes)
            (self.alpha_codes, self.beta_codes), self.bound_items = fast
        kinds = np.asarray(record.flags) & (LOWER | UPPER)
        coded = np.where(kinds == LOWER, 0, np.where(kinds == UPPER, 1, -1)).astype(np.int64)
        self.kind_codes: np.ndarray | None = np.append(coded, -1) if (coded >= 0).any() else None

    @staticmethod
    def fits(record: SearchRecord) -> bool:
        """Whether ``record`` is a big depth-first search's: source columns by visit slot, and flags."""
        values = record.values
        if type(values) is not Column or len(values) < BULK_FROM or record.flags is None:
            return False
        if not isinstance(values.data, np.ndarray) or values.tree is None or values.slot_of is None:
            return False
        if values.present is not None or len(record.flags) != len(values.data):
            return False
        columns = [column for column in (record._alpha, record._beta) if column is not None]
        if len(columns) == 1:
            return False
        return all(type(column) is Column and column.slot_of is values.slot_of and column.present is None
                   and isinstance(column.data, np.ndarray) and len(column.data) == len(values.data)
                   for column in columns)

    def slots(self, nodes: np.ndarray) -> np.ndarray:
        """Per node of ``nodes`` (int64), its slot (-1: never visited); the last answer is kept, as the
        writer asks for the same chunk once per column."""
        last = self._last
        if last is not None and last[0] is nodes:
            return last[1]
        slots = self.slot_of[nodes].astype(np.int64, copy=False)
        self._last = (nodes, slots)
        return slots


def _leaf_entries(tree: Any, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(values, at_node, nodes)`` of source codes ``raw``: which codes are nodes (not the two
    infinities), those nodes and their leaf values (int64); None unless the tree's leaf values are
    plain integers in NumPy and every code is a leaf's or an infinity's (an ``eval`` at the depth
    limit, a fraction, a float: the general decoding)."""
    leaf_values = tree.value
    data = getattr(leaf_values, "data", None)
    if type(leaf_values) is not LazyValues or getattr(data, "dtype", None) != np.int64 or leaf_values.denominator != 1:
        return None
    n = len(tree.kind)
    if len(raw) and (int(raw.min()) < 0 or int(raw.max()) > n + 1):
        return None
    at_node = raw < n
    nodes = raw[at_node]
    if (int64_view(tree.count)[nodes] != 0).any():  # an inner node's eval (a depth limit)
        return None
    if leaf_values.present is not None and not leaf_values.present[nodes].all():
        return None
    return data[nodes], at_node, nodes


def _leaf_codes(tree: Any, columns: list[np.ndarray],
                dense_codes: Any) -> tuple[list[np.ndarray], list[Any]] | None:
    """Per entry of each column (source codes: a leaf's node number, or the two codes for -inf and
    inf) a code into one list of JSON items, each column with -1 appended; None where
    :func:`_leaf_entries` is.

    Why: equal leaf values print alike, so the distinct *values* are coded in
    NumPy (a few thousand) instead of the distinct sources (tens of
    thousands, each decoded to a Python number first).
    """
    joined = np.concatenate([np.asarray(column, dtype=np.int64) for column in columns])
    found = _leaf_entries(tree, joined)
    if found is None:
        return None
    values, at_node, _ = found
    distinct, index = dense_codes(values)
    items: list[Any] = distinct.tolist()  # (an int64 is its own JSON form)
    codes = np.empty(len(joined), dtype=np.int64)
    codes[at_node] = index
    n = len(tree.kind)
    for code, infinite in ((n, NEG_INF), (n + 1, INF)):
        here = joined == code
        if here.any():
            codes[here] = len(items)
            items.append(number_to_json(infinite))
    parts, start = [], 0
    for column in columns:
        parts.append(np.append(codes[start : start + len(column)], -1))
        start += len(column)
    return parts, items


def same_value_sources(tree: Any, raw: np.ndarray) -> np.ndarray | None:
    """``raw`` (source codes) with each leaf replaced by one leaf of the same value, so that the
    distinct codes are as few as the distinct values (a few thousand instead of tens of thousands
    to decode and word: the cut reasons); None where :func:`_leaf_entries` is."""
    raw = np.asarray(raw, dtype=np.int64)
    found = _leaf_entries(tree, raw)
    if found is None:
        return None
    values, at_node, nodes = found
    distinct, index = np.unique(values, return_inverse=True)
    chosen = np.empty(len(distinct), dtype=np.int64)
    chosen[index.reshape(-1)] = nodes  # one leaf per value (whichever comes last)
    same = raw.copy()
    same[at_node] = chosen[index.reshape(-1)]
    return same


def _coded(raw: np.ndarray, decode: Any, item_codes: Any, dense_codes: Any,
           to_json: Any) -> tuple[list[np.ndarray], list[Any]]:
    """Per entry of ``raw`` (source codes) a code into the distinct JSON items (merged by how they
    print), with -1 appended; and the items."""
    distinct, index = dense_codes(np.asarray(raw, dtype=np.int64))
    merged, items = item_codes(decode(distinct), to_json)
    return [np.append(merged[index], -1)], items


def _coded_bounds(record: SearchRecord, item_codes: Any,
                  dense_codes: Any) -> tuple[list[np.ndarray], list[Any]]:
    """Alpha and beta codes per slot (each with -1 appended) into one list of items."""
    assert record._alpha is not None and record._beta is not None
    low_distinct, low_index = dense_codes(np.asarray(record._alpha.data, dtype=np.int64))
    high_distinct, high_index = dense_codes(np.asarray(record._beta.data, dtype=np.int64))
    lows, highs = record.decode_bounds(low_distinct, high_distinct)
    merged, items = item_codes([*lows, *highs], number_to_json)
    return [np.append(merged[: len(lows)][low_index], -1), np.append(merged[len(lows) :][high_index], -1)], items
