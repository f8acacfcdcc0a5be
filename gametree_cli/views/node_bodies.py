"""What follows each node's quoted id in the JSON result's ``nodes``: a table of texts.

Why a table: a million-node result has a million entries but few different
ones. Every unvisited leaf reads ``: {"visited": false, "type": "leaf"}``,
and visited nodes differ only by value and type, which take a few thousand
combinations in a typical tree. So each node gets the index of its text
(``body_of``, computed with NumPy), each text is made once, and the writer
pastes id + text per node. Only nodes with facts of their own (alpha/beta,
a cut, the horizon, shallow pruning's ``bound``) get a text each.

The texts are exactly those of ``json.dump(result_document(record), indent=1)``
(the tests compare the whole result byte for byte).
"""

from __future__ import annotations

import json
from fractions import Fraction
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any, Iterable

import numpy as np

from ..model import KIND_NAMES, PLAYER, Tree
from ..numbers import number_to_json
from ..numeric import int64_view
from ..record import SearchRecord
from .result_json import node_entry

__all__ = ["node_bodies", "number_text", "number_texts", "value_text"]


def node_bodies(record: SearchRecord, nodes: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """``(body_of, bodies)`` for ``nodes`` (int64; default: every node, in node order):
    the entry of ``nodes[i]`` is its quoted id + ``bodies[body_of[i]]`` (int32).

    The writer asks a chunk of nodes at a time, so that the texts held at
    once are bounded by the chunk, whatever the tree (alpha-beta gives every
    visited node a text of its own: its bounds).
    """
    tree = record.tree
    if nodes is None:
        nodes = np.arange(len(tree.kind), dtype=np.int64)
    if record.bound is not None:  # shallow pruning: per-node facts only node_entry knows
        return np.arange(len(nodes), dtype=np.int32), [_generic_body(record, node) for node in nodes.tolist()]
    type_of, type_texts = _types(tree, nodes)
    bodies = [f': {{\n   "visited": false,\n   "type": {text}\n  }}' for text in type_texts]
    body_of = type_of.copy()  # unvisited until said otherwise
    visited, value_index, value_texts = _value_codes(record, nodes)
    if not len(visited):
        return body_of, bodies
    special = _special_positions(record, nodes, visited)
    plain = np.ones(len(nodes), dtype=bool)
    plain[special] = False
    plain_index = plain[visited]
    common, common_index = visited[plain_index], value_index[plain_index]
    if len(common):
        width = len(type_texts)
        combos, inverse = _dense_codes(common_index * width + type_of[common])
        body_of[common] = len(bodies) + inverse.astype(np.int32)
        bodies.extend(f': {{\n   "visited": true,\n   "value": {value_texts[combo // width]},\n   "type": '
                      f'{type_texts[combo % width]}\n  }}' for combo in combos.tolist())
    if len(special):
        value_of = np.full(len(nodes), -1, dtype=np.int64)
        value_of[visited] = value_index
        texts = _special_bodies(record, nodes[special].tolist(),
                                [value_texts[index] for index in value_of[special].tolist()],
                                [type_texts[code] for code in type_of[special].tolist()])
        body_of[special] = np.arange(len(bodies), len(bodies) + len(texts), dtype=np.int32)
        bodies.extend(texts)
    return body_of, bodies


def _types(tree: Tree, nodes: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Per node of ``nodes`` an index into the quoted type names: a kind, or a player's name for PLAYER nodes."""
    kind = np.frombuffer(tree.kind, dtype=np.uint8)[nodes]
    type_of = kind.astype(np.int32)
    players = kind == PLAYER
    if players.any():
        type_of[players] = len(KIND_NAMES) + int64_view(tree.player)[nodes[players]].astype(np.int32)
    return type_of, [encode_basestring(name) for name in (*KIND_NAMES, *tree.players)]


def _value_codes(record: SearchRecord, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The positions in ``nodes`` of visited nodes, per such position an index into the JSON texts of the values,
    and the texts."""
    coded = record.value_codes(nodes)
    if coded is not None:  # values in arrays: each distinct one formatted once
        visited, raw = coded
        distinct, index = _dense_codes(raw)
        return visited, index, [value_text(value) for value in record.decode_values(distinct)]
    found = list(map(record.values.__getitem__, nodes.tolist()))
    positions = [position for position, value in enumerate(found) if value is not None]
    index, texts = _text_codes(list(map(found.__getitem__, positions)), value_text)
    return np.array(positions, dtype=np.int64), np.array(index, dtype=np.int64), texts


def _dense_codes(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct, index)`` with ``distinct[index] == keys``, distinct sorted: ``np.unique``,
    without a sort when the keys span a small range (one table lookup each)."""
    if not len(keys):
        return keys[:0], np.zeros(0, dtype=np.int64)
    low, high = int(keys.min()), int(keys.max())
    if high - low > 4 * len(keys) + 65536:
        distinct, index = np.unique(keys, return_inverse=True)
        return distinct, index.reshape(-1)
    shifted = keys - low
    seen = np.zeros(high - low + 1, dtype=bool)
    seen[shifted] = True
    present = np.flatnonzero(seen)
    rank = np.cumsum(seen) - 1
    return (present + low).astype(keys.dtype), rank[shifted]


def _special_positions(record: SearchRecord, nodes: np.ndarray, visited: np.ndarray) -> np.ndarray:
    """Positions in ``nodes`` of visited nodes whose entry says more than visited, value and type (sorted)."""
    return visited[record.marked_mask(nodes)[visited]]


def _special_bodies(record: SearchRecord, nodes: list[int], values: list[str], types: list[str]) -> list[str]:
    """Texts of entries with alpha/beta, a cut or the horizon (visited nodes only), a column at a time."""
    bounds = [""] * len(nodes)
    has, lows, highs = record.bounds_of(np.array(nodes, dtype=np.int64))
    if lows:
        texts = [f',\n   "alpha": {low},\n   "beta": {high}' for low, high in zip(number_texts(lows), number_texts(highs))]
        if len(texts) == len(nodes):  # usually: alpha-beta keeps the bounds of every visited node
            bounds = texts
        else:
            for position, text in zip(np.flatnonzero(has).tolist(), texts):
                bounds[position] = text
    tails = [""] * len(nodes)
    cuts, horizon = record.cuts, record.horizon
    if cuts or horizon:
        for position, node in enumerate(nodes):
            cut = cuts.get(node)
            if cut is not None:
                tails[position] = f',\n   "cut": {encode_basestring(cut.reason())}'
            if node in horizon:
                tails[position] += ',\n   "horizon": true'
    return [f': {{\n   "visited": true,\n   "value": {value}{bound},\n   "type": {kind_text}{tail}\n  }}'
            for value, bound, kind_text, tail in zip(values, bounds, types, tails)]


def _generic_body(record: SearchRecord, node: int) -> str:
    entry = node_entry(record, node, record.values[node])
    return ": " + json.dumps(entry, ensure_ascii=False, indent=1).replace("\n", "\n  ")


def number_text(number: Any) -> str:
    """A number as ``json.dumps`` writes its JSON form (fractions as "a/b", infinities as "inf")."""
    kind = type(number)
    if kind is int:
        try:
            return int.__repr__(number)
        except ValueError:  # over 4300 digits: number_to_json's string of digits
            return encode_basestring(number_to_json(number))
    if kind is float and number - number == 0:  # finite
        return float.__repr__(number)
    if kind is Fraction:
        return encode_basestring(number_to_json(number))
    return json.dumps(number_to_json(number), ensure_ascii=False)


def number_texts(numbers: Iterable[Any]) -> list[str]:
    """:func:`number_text` of each number, each distinct number formatted once."""
    index, texts = _text_codes(list(numbers), number_text)
    return list(map(texts.__getitem__, index))


def _text_codes(items: list[Any], text_of: Any) -> tuple[list[int], list[str]]:
    """Per item an index into ``texts``, which holds ``text_of`` of each distinct item.

    Distinct by equality, in bulk (a set and a dict), when equal items
    print alike: integers, and floats that equal no integer. Otherwise
    (0.0 and -0.0, 1 and 1.0, fractions, vectors) by class and value, one
    item at a time, signed zeros and vectors each formatted anew.
    """
    kinds = set(map(type, items))
    if kinds <= {int, float} and not (float in kinds and any(
            item.__class__ is float and item.is_integer() for item in items)):
        order = list(set(items))
        position = dict(zip(order, range(len(order))))
        return list(map(position.__getitem__, items)), [text_of(item) for item in order]
    texts: list[str] = []
    known: dict[tuple[type, Any], int] = {}
    index = []
    for item in items:
        key = (item.__class__, item)
        found = known.get(key)
        if found is None:
            found = len(texts)
            texts.append(text_of(item))
            kind = item.__class__
            if kind is not tuple and (kind is not float or item != 0):
                known[key] = found
        index.append(found)
    return index, texts


def value_text(value: Any) -> str:
    """A value (number or payoff vector) as it appears at depth 3 of the indented result."""
    if type(value) is int:
        return number_text(value)
    if isinstance(value, tuple):
        return json.dumps([number_to_json(part) for part in value], ensure_ascii=False, indent=1).replace("\n", "\n   ")
    return number_text(value)
