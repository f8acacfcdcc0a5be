"""The entries of the JSON result's ``nodes``: what each holds, defined once, as columns.

Why columns: a million-node result has a million entries but few distinct
facts. Each key of an entry (``visited``, ``value``, ``alpha``...) is a
column: per node a code into a short list of distinct JSON values (-1: the
key is left out). The document (:func:`entry_dicts`, for ``check``, answer
keys and the Python API) and the writer (:func:`entry_pieces`, text pasted
in NumPy) both read the same columns, so they cannot disagree on what an
entry holds or in what order its keys come.

Keys, in order: ``visited``; for visited nodes ``value``, ``bound_kind``
where the value is a bound (``lower``: the true value is at least this;
``upper``: at most) and, where the search kept them, ``alpha``/``beta``
(the bounds it returned with);
``type`` (``leaf``, ``max``, ``min``, ``chance``, or the player's name);
``cut`` (why the remaining children were skipped); ``horizon`` (evaluated
by ``eval`` at the depth limit); ``bound`` (shallow pruning's Bound).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.model import KIND_NAMES, PLAYER, Tree
from ..core.numeric import int64_view
from .json_text import Piece, dumps, dumps_each, table
from .record_view import RecordView

__all__ = ["Column", "entry_columns", "entry_dicts", "entry_pieces", "visited_entry_pieces"]


class Column(NamedTuple):
    """One key of the entries of a chunk of nodes: per node an index into ``items`` (-1: no such key)."""

    key: str
    codes: np.ndarray
    items: list[Any]


def entry_columns(view: RecordView, nodes: np.ndarray) -> list[Column]:
    """The columns of the entries of ``nodes`` (int64), in the order their keys are written."""
    value_codes, value_items = view.values(nodes)
    visited = value_codes >= 0
    columns = [Column("visited", visited.astype(np.int64), [False, True]), Column("value", value_codes, value_items)]
    kinds = view.bound_kinds(nodes)
    if kinds is not None:
        columns.append(Column("bound_kind", *kinds))
    bounds = view.bounds(nodes, visited)
    if bounds is not None:
        columns += [Column("alpha", bounds[0], bounds[2]), Column("beta", bounds[1], bounds[2])]
    columns.append(Column("type", *_types(view.record.tree, nodes)))
    cuts = view.cuts(nodes)
    if cuts is not None:
        columns.append(Column("cut", *cuts))
    horizon = view.horizon(nodes)
    if horizon is not None:
        columns.append(Column("horizon", np.where(horizon, 0, -1), [True]))
    bound = view.shallow_bounds(nodes)
    if bound is not None:
        columns.append(Column("bound", *bound))
    return columns


def _types(tree: Tree, nodes: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Per node an index into the type names: its kind's, or for an n-player node its player's name."""
    kind = np.frombuffer(tree.kind, dtype=np.uint8)[nodes]
    codes = kind.astype(np.int64)
    players = kind == PLAYER
    if players.any():
        codes[players] = len(KIND_NAMES) + int64_view(tree.player)[nodes[players]]
    return codes, [*KIND_NAMES, *tree.players]


def entry_dicts(columns: list[Column]) -> list[dict[str, Any]]:
    """The entries as dicts, one per node (each its own dict: callers may change them)."""
    keyed = [(column.key, column.codes.tolist(), column.items) for column in columns]
    count = len(columns[0].codes)
    entries: list[dict[str, Any]] = [{} for _ in range(count)]
    for key, codes, items in keyed:
        for entry, code in zip(entries, codes):
            if code >= 0:
                item = items[code]
                entry[key] = item[:] if item.__class__ is list else item  # a payoff vector: a list of its own
    return entries


def entry_pieces(columns: list[Column], before: bytes) -> tuple[list[Piece], np.ndarray]:
    """The entries as pieces of text for :func:`~.json_text.paste`: ``before`` + ``{"visited":true,...}``;
    and per line whether its whole entry is in the first piece.

    One piece per column (``visited`` and ``value`` share one), each a table
    of the column's distinct texts (``,"alpha":3``), empty where a node has
    no such key. The closing brace goes with ``type`` on lines where no key
    follows it, so the usual entry is three pieces. A node never visited
    that has no key but ``type`` (most lines of alpha-beta's result) has its
    whole entry, ``{"visited":false,"type":"leaf"}``, in the first piece, the
    others empty there: ``paste`` may then stop after it (its ``stops``).
    """
    value = columns[1]  # columns[0], visited, is value.codes >= 0
    later = np.zeros(len(value.codes), dtype=bool)  # a key follows type
    alone = value.codes < 0  # never visited, and (below) no key but type
    some_alone = bool(alone.any())  # (none in an exhaustive search's result: no per-line choice to make)
    after_type = False
    for column in columns[2:]:
        if column.key == "type":
            after_type = True
            kind = column
            continue
        present = column.codes >= 0
        if some_alone:
            alone &= ~present
        if after_type:
            later |= present
    some_alone = some_alone and bool(alone.any())
    first = value.codes + 1
    pieces = [_value_table(value.items, before, kind.items).at(
        np.where(alone, 1 + len(value.items) + kind.codes, first) if some_alone else first)]
    for column in columns[2:]:
        made = _key_table(column)
        if column.key == "type":  # with the closing brace, unless a key follows; nothing where alone
            rows = (len(made.table) - 1) // 2  # each type with the brace, then each without, then the empty row
            index = column.codes + later * rows
            pieces.append(made.at(np.where(alone, -1, index) if some_alone else index))
        else:
            pieces.append(made.at(column.codes))
    pieces.append(table([b"}"]).at(np.where(later, 0, -1)))
    return pieces, alone


def visited_entry_pieces(view: RecordView, nodes: np.ndarray, before: bytes) -> tuple[list[Piece], np.ndarray] | None:
    """:func:`entry_pieces` of ``entry_columns(view, nodes)``, the columns read for the visited nodes
    alone; None unless the record is coded once (:meth:`~.record_view.RecordView.coded_visits`).

    Why: in a big alpha-beta result ~94 % of the nodes were never visited,
    and their entries need nothing but their type; reading every column for
    them, a chunk at a time, cost more than writing their text.
    """
    visited = view.coded_visits(nodes)
    if visited is None:
        return None
    where = np.flatnonzero(visited)
    pieces, _ = entry_pieces(entry_columns(view, nodes[where]), before)
    kinds, names = _types(view.record.tree, nodes)
    value_rows = len(pieces[0].table) - 1 - len(names)  # the value table: "false", each value, each type
    first = kinds + value_rows  # never visited: the whole entry in the first piece
    first[where] = pieces[0].index
    spread = [pieces[0].at(first)]
    for piece in pieces[1:]:
        index = np.full(len(nodes), -1, dtype=np.int64)
        index[where] = piece.index
        spread.append(piece.at(index))
    return spread, ~visited


#: per key, the last table made for it: (items, table); chunks that share a key's list of items share it
_LAST_TABLES: dict[str, tuple[list[Any], Piece]] = {}


def _key_table(column: Column) -> Piece:
    """The texts ``,"key":item`` of the column's items as a table (for ``type``: first each with the
    closing brace, then each without)."""
    last = _LAST_TABLES.get(column.key)
    if last is not None and last[0] is column.items:
        return last[1]
    key = b"," + dumps(column.key) + b":"
    texts = [key + text for text in dumps_each(column.items)]
    made = table([text + b"}" for text in texts] + texts if column.key == "type" else texts)
    _LAST_TABLES[column.key] = (column.items, made)
    return made


#: the last value table made: (items, before, types, table); chunks that share their values' list share it
_LAST_VALUES: list[tuple[list[Any], bytes, list[Any], Piece]] = []


def _value_table(items: list[Any], before: bytes, types: list[Any]) -> Piece:
    """``before`` + ``{"visited":false``, then per value ``{"visited":true,"value":V``, then per type a
    whole entry of a node never visited, ``{"visited":false,"type":T}``, as a table."""
    if _LAST_VALUES:
        last_items, last_before, last_types, made = _LAST_VALUES[0]
        if last_items is items and last_before == before and last_types == types:
            return made
    start = before + b'{"visited":'
    made = table([start + b"false"] + [start + b'true,"value":' + text for text in dumps_each(items)]
                 + [start + b'false,"type":' + text + b"}" for text in dumps_each(types)])
    _LAST_VALUES[:] = [(items, before, types, made)]
    return made
