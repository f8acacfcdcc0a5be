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

__all__ = ["Column", "entry_columns", "entry_dicts", "entry_pieces"]


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


def entry_pieces(columns: list[Column], before: bytes) -> list[Piece]:
    """The entries as pieces of text for :func:`~.json_text.paste`: ``before`` + ``{"visited":true,...}``.

    One piece per column (``visited`` and ``value`` share one), each a table
    of the column's distinct texts (``,"alpha":3``), empty where a node has
    no such key. The closing brace goes with ``type`` on lines where no key
    follows it, so the usual entry is three pieces; ``paste`` leaves out a
    piece entirely on lines where it is empty (most lines of alpha-beta's
    unvisited nodes).
    """
    value = columns[1]  # columns[0], visited, is value.codes >= 0
    pieces = [_value_table(value.items, before).at(value.codes + 1)]
    later = np.zeros(len(value.codes), dtype=bool)  # a key follows type
    after_type = False
    for column in columns[2:]:
        if column.key == "type":
            after_type = True
            continue
        if after_type:
            later |= column.codes >= 0
    for column in columns[2:]:
        key = b"," + dumps(column.key) + b":"
        texts = [key + text for text in dumps_each(column.items)]
        if column.key == "type":  # with the closing brace, unless a key follows
            pieces.append(table([text + b"}" for text in texts] + texts).at(column.codes + later * len(texts)))
        else:
            pieces.append(table(texts).at(column.codes))
    pieces.append(table([b"}"]).at(np.where(later, 0, -1)))
    return pieces


#: the last value table made: (items, before, table); chunks that share their values' list share it
_LAST_VALUES: list[tuple[list[Any], bytes, Piece]] = []


def _value_table(items: list[Any], before: bytes) -> Piece:
    """``before`` + ``{"visited":false``, then per value ``{"visited":true,"value":V``, as a table."""
    if _LAST_VALUES and _LAST_VALUES[0][0] is items and _LAST_VALUES[0][1] == before:
        return _LAST_VALUES[0][2]
    start = before + b'{"visited":'
    made = table([start + b"false"] + [start + b'true,"value":' + text for text in dumps_each(items)])
    _LAST_VALUES[:] = [(items, before, made)]
    return made
