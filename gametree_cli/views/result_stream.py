"""The JSON result written as a stream: the same text as ``write_result``, a chunk at a time.

Why: the result of a million-node search has a million ``nodes`` entries.
Building them as dicts and handing them to ``json.dump(indent=1)`` (whose
indenting encoder is pure Python) takes minutes and gigabytes; here each
entry is its JSON-quoted id (:mod:`.tree_order`) followed by one of a few
shared texts (:mod:`.node_bodies`), a chunk of nodes at a time, in tree
order. When the optional compiled helper ``gametree_cli._resulttext`` is
built, it makes every id and pastes each chunk in C (a memcpy per node);
otherwise Python does, with the same texts.

The text is byte-for-byte what ``write_result(result_document(record))``
prints (the test suite checks it on random trees of every algorithm, with
and without the compiled helper): every key but ``nodes``, ``visit_order``
and ``pruned`` still comes from
:func:`~gametree_cli.views.result_json.result_document`.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from operator import add
from typing import Any, Iterable, TextIO

import numpy as np

from ..events import Event
from ..model import Tree
from ..numeric import int64_view
from ..progress import tick
from ..record import SearchRecord
from . import tree_order
from .node_bodies import node_bodies
from .result_json import STREAMED, result_document
from .tree_order import preorder_chunks

try:  # the optional compiled helper (setup.py builds it when a C compiler is there)
    from .. import _resulttext
except ImportError:  # pragma: no cover - depends on the install
    _resulttext = None
if getattr(_resulttext, "ABI", 1) < 2:  # pragma: no cover - a build older than its source: not trusted
    _resulttext = None

__all__ = ["write_record", "USE_KERNEL"]

#: use the compiled helper when it is built (the tests switch it off to check the Python path)
USE_KERNEL = True
#: the compiled ids may take up to this many bytes per node (beyond: very deep trees, Python path)
_ID_BYTES_PER_NODE = 256
_ITEM = ",\n  "  # between the items of a list or object at depth 1


def write_record(
    record: SearchRecord,
    stream: TextIO,
    *,
    events: Iterable[Event] | None = None,
) -> None:
    """Write the contract's JSON result for ``record`` on ``stream``."""
    try:
        _write_document(record, stream, events)
    finally:
        tree_order.forget()


def _write_document(record: SearchRecord, stream: TextIO, events: Iterable[Event] | None) -> None:
    document = result_document(record, events=events, lazy=True)
    ids = _compiled_ids(record.tree) if USE_KERNEL and _resulttext is not None else None
    write = stream.write
    write("{")
    separator = "\n "
    for key, item in document.items():
        write(separator + encode_basestring(key) + ": ")
        separator = ",\n "
        if item is not STREAMED:
            write(json.dumps(item, ensure_ascii=False, indent=1).replace("\n", "\n "))
        elif key == "nodes":
            _write_nodes(record, ids, write)
        else:
            if key == "pruned":
                nodes: Any = record.pruned
            elif record.order is None:  # exhaustive: tree order
                nodes = tree_order.tree_order(record.tree, record.depth_limit, _resulttext if ids is not None else None)
            else:
                nodes = record.order
            _write_ids(record, nodes, ids, write)
    write("\n}\n")


class _CompiledIds:
    """Every node's JSON-quoted id, UTF-8, one after another (``text[offsets[i]:offsets[i + 1]]``)."""

    __slots__ = ("text", "offsets")

    def __init__(self, text: bytes, offsets: bytes) -> None:
        self.text = text
        self.offsets = offsets

    def join(self, nodes: Any, body_of: np.ndarray | None = None, bodies: tuple[bytes, ...] | None = None) -> str:
        """The ids of ``nodes``, each followed by ``bodies[body_of[i]]``, separated as items at depth 1."""
        order = np.ascontiguousarray(nodes, dtype=np.int64)
        joined = _resulttext.join(order, self.text, self.offsets, _ITEM.encode(), body_of, bodies)
        return joined.decode("utf-8", "surrogatepass")


def _compiled_ids(tree: Tree) -> _CompiledIds | None:
    """The ids made by the compiled helper, or None when it declines (ids too long in all)."""
    explicit = tree.explicit_ids
    named = sorted(explicit)
    texts = tuple(_utf8(encode_basestring(explicit[node])) for node in named)
    first = np.ascontiguousarray(int64_view(tree.first))
    count = np.ascontiguousarray(int64_view(tree.count))
    n = len(tree.kind)
    made = _resulttext.quoted_ids(first, count, n, np.array(named, dtype=np.int64), texts, 0 not in explicit,
                                  _ID_BYTES_PER_NODE * n + (1 << 20))
    return _CompiledIds(*made) if made is not None else None


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # decoded back the same way: lone surrogates go through as they are


def _utf8_each(texts: list[str]) -> tuple[bytes, ...]:
    """Each text encoded, in one call: JSON text never holds a raw NUL, so NUL separates them."""
    parts = _utf8("\0".join(texts)).split(b"\0")
    return tuple(parts) if len(parts) == len(texts) else tuple(map(_utf8, texts))


def _write_ids(record: SearchRecord, nodes: Any, ids: _CompiledIds | None, write: Any) -> None:
    """A JSON list of node ids at depth 1."""
    if not len(nodes):
        write("[]")
        return
    write("[\n  ")
    chunk = tree_order.CHUNK
    if ids is not None:
        for start in range(0, len(nodes), chunk):
            if start:
                write(_ITEM)
            write(ids.join(nodes[start : start + chunk]))
    elif isinstance(nodes, np.ndarray):  # the tree order: ids made along it
        separator = ""
        for _, texts in preorder_chunks(record.tree, record.depth_limit):
            write(separator + _ITEM.join(texts))
            separator = _ITEM
    else:
        names = _ids_of(record.tree, nodes)
        for start in range(0, len(nodes), chunk):
            if start:
                write(_ITEM)
            write(_ITEM.join(names[node] for node in nodes[start : start + chunk]))
    write("\n ]")


def _write_nodes(record: SearchRecord, ids: _CompiledIds | None, write: Any) -> None:
    """The ``nodes`` object: every node's id and entry, in tree order, the entries made a chunk at a time."""
    tree = record.tree
    write("{\n  ")
    written, total = 0, len(tree.kind)
    if ids is not None:
        order = tree_order.tree_order(tree, None, _resulttext)
        chunk = tree_order.CHUNK
        for start in range(0, total, chunk):
            tick("write", start, total)
            if start:
                write(_ITEM)
            nodes = order[start : start + chunk]
            body_of, bodies = node_bodies(record, nodes)
            write(ids.join(nodes, body_of, _utf8_each(bodies)))
    else:
        for nodes, texts in preorder_chunks(tree):
            tick("write", written, total)
            if written:
                write(_ITEM)
            written += len(nodes)
            body_of, bodies = node_bodies(record, np.array(nodes, dtype=np.int64))
            write(_ITEM.join(map(add, texts, map(bodies.__getitem__, body_of.tolist()))))
    write("\n }")


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
