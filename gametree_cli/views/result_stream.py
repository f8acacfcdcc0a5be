"""The JSON result written as a stream: the same text as ``write_result``, a chunk at a time.

Why: the result of a million-node search has a million ``nodes`` entries.
Building them as dicts and handing them to ``json.dump(indent=1)`` (whose
indenting encoder is pure Python) takes minutes and gigabytes; here each
entry is formatted straight to text, in tree order, a chunk of nodes at a
time, so memory stays bounded and the time is a few string operations a node.

The text is byte-for-byte what ``write_result(result_document(record))``
prints (the test suite checks it on random trees of every algorithm): every
key but ``nodes``, ``visit_order`` and ``pruned`` still comes from
:func:`~gametree_cli.views.result_json.result_document`; entries of records
with per-node facts this writer does not know (e.g. shallow pruning's
``bound``) are built by :func:`~gametree_cli.views.result_json.node_entry`.
"""

from __future__ import annotations

import json
from fractions import Fraction
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any, Iterable, Iterator, TextIO

import numpy as np

from ..events import Event
from ..model import KIND_NAMES, Tree
from ..numbers import number_to_json
from ..numeric import LazyValues
from ..progress import tick
from ..record import SearchRecord
from .result_json import STREAMED, node_entry, result_document

__all__ = ["write_record", "preorder_ids"]

_CHUNK = 1 << 15


def write_record(
    record: SearchRecord,
    stream: TextIO,
    *,
    events: Iterable[Event] | None = None,
    exact: SearchRecord | None = None,
) -> None:
    """Write the contract's JSON result for ``record`` on ``stream``."""
    document = result_document(record, events=events, exact=exact, lazy=True)
    write = stream.write
    write("{")
    separator = "\n "
    for key, item in document.items():
        write(separator + encode_basestring(key) + ": ")
        separator = ",\n "
        if item is not STREAMED:
            write(json.dumps(item, ensure_ascii=False, indent=1).replace("\n", "\n "))
        elif key == "nodes":
            _write_nodes(record, write)
        elif key == "visit_order" and record.order is None:
            _write_preorder_ids(record.tree, record.depth_limit, write)
        else:
            nodes = record.pruned if key == "pruned" else record.visit_order()
            _write_ids(record.tree, nodes, write)
    write("\n}\n")


def _write_ids(tree: Tree, nodes: list[int], write: Any) -> None:
    """A JSON list of node ids at depth 1."""
    if not len(nodes):
        write("[]")
        return
    names = _ids_of(tree, nodes)
    write("[\n  ")
    for start in range(0, len(nodes), _CHUNK):
        if start:
            write(",\n  ")
        write(",\n  ".join(names[node] for node in nodes[start : start + _CHUNK]))
    write("\n ]")


def _write_preorder_ids(tree: Tree, depth_limit: int | None, write: Any) -> None:
    """An exhaustive search's visit order: the tree order, down to the depth limit."""
    if depth_limit is not None:
        _write_ids(tree, list(tree.preorder(depth_limit)), write)
        return
    write("[\n  ")
    separator = ""
    for _, texts in preorder_ids(tree):
        write(separator + ",\n  ".join(texts))
        separator = ",\n  "
    write("\n ]")


def _ids_of(tree: Tree, nodes: list[int]) -> Any:
    """JSON-quoted ids of ``nodes``: all of them in tree order when that is cheaper."""
    if len(nodes) * 4 >= len(tree.kind) or tree._ids is not None:
        ids = tree.ids()
        return _Quoted(ids)
    return _IdCache(tree)


class _IdCache:
    """Quoted ids derived from the parent's quoted id, remembered per node.

    Visit orders and pruned lists name each node after its parent (or the
    parent was named before), so each id costs one string concatenation
    instead of a walk to the root.
    """

    __slots__ = ("tree", "parent", "quoted")

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.parent = tree.parents()
        root = tree.explicit_ids.get(0)
        self.quoted: dict[int, str] = {0: encode_basestring(root if root is not None else "root")}

    def __getitem__(self, node: int) -> str:
        quoted = self.quoted
        text = quoted.get(node)
        if text is not None:
            return text
        tree, parent, explicit = self.tree, self.parent, self.tree.explicit_ids
        missing = []
        while node not in quoted:
            missing.append(node)
            node = parent[node]
        for child in reversed(missing):
            name = explicit.get(child)
            if name is not None:
                text = encode_basestring(name)
            else:
                up = parent[child]
                position = child - tree.first[up] + 1
                if up == 0 and 0 not in explicit:
                    text = f'"{position}"'
                else:
                    text = f"{quoted[up][:-1]}.{position}\""
            quoted[child] = text
        return text  # type: ignore[return-value]


class _Quoted:
    """``ids[node]`` JSON-quoted, on demand."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids

    def __getitem__(self, node: int) -> str:
        return encode_basestring(self.ids[node])


def preorder_ids(tree: Tree) -> Iterator[tuple[list[int], list[str]]]:
    """Chunks of (node numbers, JSON-quoted ids) in tree order, without storing every id.

    A child's id is its parent's plus ``.k`` unless the file names it, so the
    quoted id is built from the parent's quoted id (escaping is per character).
    """
    first, count, explicit = tree.first, tree.count, tree.explicit_ids
    root_name = explicit.get(0)
    stack: list[tuple[int, str]] = [(0, encode_basestring(root_name if root_name is not None else "root"))]
    nodes: list[int] = []
    texts: list[str] = []
    pop, extend = stack.pop, stack.extend
    add_node, add_text = nodes.append, texts.append
    while stack:
        node, text = pop()
        add_node(node)
        add_text(text)
        n_children = count[node]
        if n_children:
            start = first[node]
            base = '"' if node == 0 and root_name is None else text[:-1] + "."
            children = range(start + n_children - 1, start - 1, -1)
            names = [f'{base}{position}"' for position in range(n_children, 0, -1)]
            if explicit:
                names = [encode_basestring(explicit[child]) if child in explicit else name
                         for child, name in zip(children, names)]
            extend(zip(children, names))
            if len(nodes) >= _CHUNK:
                yield nodes, texts
                nodes, texts = [], []
                add_node, add_text = nodes.append, texts.append
    if nodes:
        yield nodes, texts


def _number_text(number: Any) -> str:
    kind = type(number)
    if kind is int:
        return int.__repr__(number)
    if kind is float and number - number == 0:  # finite
        return float.__repr__(number)
    if kind is Fraction:
        return encode_basestring(number_to_json(number))
    return json.dumps(number_to_json(number), ensure_ascii=False)


def _values_text(values: Any, nodes: list[int]) -> list[str | None]:
    """JSON text of each node's value (None where unvisited), in bulk for NumPy-backed values."""
    if isinstance(values, LazyValues) and values._list is None:
        index = np.array(nodes, dtype=np.int64)
        raw = values.data[index]
        present = values.present[index].tolist() if values.present is not None else None
        if raw.dtype.kind == "i" and values.denominator == 1:
            texts: list[str | None] = list(map(int.__repr__, raw.tolist()))
        else:
            texts = [_number_text(values._convert(item)) for item in raw]
        if present is not None:
            texts = [text if here else None for text, here in zip(texts, present)]
        return texts
    out: list[str | None] = []
    for node in nodes:
        value = values[node]
        if value is None:
            out.append(None)
        elif type(value) is int:
            out.append(int.__repr__(value))
        elif isinstance(value, tuple):
            out.append(json.dumps([number_to_json(part) for part in value], ensure_ascii=False, indent=1).replace("\n", "\n   "))
        else:
            out.append(_number_text(value))
    return out


def _write_nodes(record: SearchRecord, write: Any) -> None:
    tree = record.tree
    if getattr(record, "bound", None) is not None:
        _write_nodes_generic(record, write)
        return
    kind, player, names = tree.kind, tree.player, tree.players
    type_text = [encode_basestring(name) for name in KIND_NAMES]
    player_text = [encode_basestring(name) for name in names]
    alpha, beta, cuts, horizon = record.alpha, record.beta, record.cuts, record.horizon
    values = record.values
    separator = "\n  "
    write("{")
    written, total = 0, len(tree.kind)
    for nodes, texts in preorder_ids(tree):
        tick("write", written, total)
        written += len(nodes)
        value_texts = _values_text(values, nodes)
        parts: list[str] = []
        add = parts.append
        for node, text, value_text in zip(nodes, texts, value_texts):
            node_kind = kind[node]
            type_name = type_text[node_kind] if node_kind != 4 else player_text[player[node]]
            if value_text is None:
                body = f'"visited": false,\n   "type": {type_name}'
            elif alpha is not None and node in alpha:
                body = (f'"visited": true,\n   "value": {value_text},\n   "alpha": {_number_text(alpha[node])},\n'
                        f'   "beta": {_number_text(beta[node])},\n   "type": {type_name}')  # type: ignore[index]
            else:
                body = f'"visited": true,\n   "value": {value_text},\n   "type": {type_name}'
            if cuts:
                cut = cuts.get(node)
                if cut is not None:
                    body += f',\n   "cut": {encode_basestring(cut.reason())}'
            if horizon and node in horizon:
                body += ',\n   "horizon": true'
            add(f"{separator}{text}: {{\n   {body}\n  }}")
            separator = ",\n  "
        write("".join(parts))
    write("\n }")


def _write_nodes_generic(record: SearchRecord, write: Any) -> None:
    """Entries built by ``node_entry`` (records with facts the fast path does not know)."""
    values = record.values
    separator = "\n  "
    write("{")
    for nodes, texts in preorder_ids(record.tree):
        parts = []
        for node, text in zip(nodes, texts):
            entry = node_entry(record, node, values[node])
            body = json.dumps(entry, ensure_ascii=False, indent=1).replace("\n", "\n  ")
            parts.append(f"{separator}{text}: {body}")
            separator = ",\n  "
        write("".join(parts))
    write("\n }")
