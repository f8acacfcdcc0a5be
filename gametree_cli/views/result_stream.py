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
from ..model import KIND_NAMES, PLAYER, Tree
from ..numbers import number_to_json
from ..algorithms.minimax import level_bounds
from ..numeric import LazyValues, int64_view
from ..progress import tick
from ..record import SearchRecord
from .result_json import STREAMED, node_entry, result_document

__all__ = ["write_record", "preorder_ids", "preorder_chunks"]

_CHUNK = 1 << 15
#: trees from this many nodes get their order and ids from NumPy (the tests lower it)
VECTOR_FROM = 4096


def write_record(
    record: SearchRecord,
    stream: TextIO,
    *,
    events: Iterable[Event] | None = None,
    exact: SearchRecord | None = None,
) -> None:
    """Write the contract's JSON result for ``record`` on ``stream``."""
    try:
        _write_document(record, stream, events, exact)
    finally:
        _ORDER_CACHE.clear()


def _write_document(record: SearchRecord, stream: TextIO, events: Iterable[Event] | None,
                    exact: SearchRecord | None) -> None:
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
    write("[\n  ")
    separator = ""
    for _, texts in preorder_chunks(tree, depth_limit):
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


def preorder_chunks(tree: Tree, depth_limit: int | None = None) -> Iterator[tuple[list[int], list[str]]]:
    """Like :func:`preorder_ids` (down to ``depth_limit``), with the order and the ids
    computed a level at a time in NumPy; only inner nodes' ids are kept whole.

    Tree order: a node's position is its parent's + 1 + the sizes of the
    subtrees of its elder siblings, so subtree sizes (bottom-up) and positions
    (top-down) are a few segment sums per level.
    """
    n = len(tree.kind)
    if n < VECTOR_FROM:
        yield from _limited(preorder_ids(tree), tree, depth_limit)
        return
    if _ORDER_CACHE.get("tree") is not tree or _ORDER_CACHE.get("depth") != depth_limit:
        _ORDER_CACHE.clear()
        _ORDER_CACHE.update(tree=tree, depth=depth_limit, order=_tree_order(tree, depth_limit))
    yield from _order_chunks(tree, *_ORDER_CACHE["order"])


#: the tree order being written (a result reads it twice: visit order and nodes); emptied after each result
_ORDER_CACHE: dict[str, Any] = {}


def _tree_order(tree: Tree, depth_limit: int | None) -> tuple[Any, ...]:
    """Tree order, and the quoted ids and id prefixes of inner nodes, a level at a time."""
    n = len(tree.kind)
    count, first = int64_view(tree.count), int64_view(tree.first)
    levels = level_bounds(tree, depth_limit)
    below = levels[-1][1]  # nodes within the depth limit
    size = np.ones(below, dtype=np.int64)
    blocks = []
    for (start, end), (child_start, child_end) in zip(levels[:-1], levels[1:]):
        inner = np.flatnonzero(count[start:end]) + start
        sizes = count[inner]
        blocks.append((inner, sizes, np.cumsum(sizes) - sizes, child_start, child_end))
    for inner, sizes, offsets, child_start, child_end in reversed(blocks):
        if len(inner):
            size[inner] = 1 + np.add.reduceat(size[child_start:child_end], offsets)
    position = np.zeros(below, dtype=np.int64)
    explicit = tree.explicit_ids
    root_name = explicit.get(0)
    # escaped id + "." of each inner node ("" for an unnamed root), by level
    # prefix: opening quote, escaped id and "." of each inner node ('"' for an unnamed root)
    prefix = np.empty(below, dtype=object)
    prefix[0] = '"' if root_name is None else encode_basestring(root_name)[:-1] + "."
    root_text = encode_basestring(root_name if root_name is not None else "root")
    named = np.array(sorted(explicit), dtype=np.int64)
    largest = int(count.max()) if n else 0
    numerals = np.array([str(k) for k in range(largest + 2)], dtype=object)
    closing = np.array([f'{k}"' for k in range(largest + 2)], dtype=object)
    for inner, sizes, offsets, child_start, child_end in blocks:
        if not len(inner):
            continue
        block = size[child_start:child_end]
        before = np.cumsum(block) - block
        position[child_start:child_end] = (np.repeat(position[inner], sizes) + 1
                                           + before - np.repeat(before[offsets], sizes))
        children = np.arange(child_start, child_end)
        grand = count[child_start:child_end] > 0
        if grand.any():
            parents = np.repeat(inner, sizes)[grand]
            nodes = children[grand]
            text = prefix[parents] + numerals[nodes - first[parents] + 1]
            prefix[nodes] = text + "."
        # named nodes of this level before the next level reads their prefixes
        for node in named[np.searchsorted(named, child_start):np.searchsorted(named, child_end)].tolist():
            if count[node]:
                prefix[node] = encode_basestring(explicit[node])[:-1] + "."
    order = np.empty(below, dtype=np.int64)
    order[position] = np.arange(below)
    return order, prefix, closing, root_text


def _order_chunks(tree: Tree, order: np.ndarray, prefix: np.ndarray, closing: np.ndarray,
                  root_text: str) -> Iterator[tuple[list[int], list[str]]]:
    count, first = int64_view(tree.count), int64_view(tree.first)
    explicit = tree.explicit_ids
    parent = int64_view(tree.parents())
    for start in range(0, len(order), _CHUNK):
        nodes = order[start : start + _CHUNK]
        inner = count[nodes] > 0
        texts = np.empty(len(nodes), dtype=object)
        texts[inner] = [text[:-1] + '"' for text in prefix[nodes[inner]].tolist()]
        leaves = np.flatnonzero(~inner)
        ups = np.maximum(parent[nodes[leaves]], 0)
        texts[leaves] = prefix[ups] + closing[nodes[leaves] - first[ups] + 1]
        quoted = texts.tolist()
        node_list = nodes.tolist()
        if start == 0:
            quoted[0] = root_text
        if explicit:
            for index, node in enumerate(node_list):
                name = explicit.get(node)
                if name is not None:
                    quoted[index] = encode_basestring(name)
        yield node_list, quoted


def _limited(chunks: Iterator[tuple[list[int], list[str]]], tree: Tree, depth_limit: int | None
             ) -> Iterator[tuple[list[int], list[str]]]:
    """Chunks without the nodes below ``depth_limit``."""
    if depth_limit is None:
        yield from chunks
        return
    depth = tree.depths()
    for nodes, texts in chunks:
        kept = [(node, text) for node, text in zip(nodes, texts) if depth[node] <= depth_limit]
        if kept:
            yield [node for node, _ in kept], [text for _, text in kept]


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
    kind = np.frombuffer(tree.kind, dtype=np.uint8)
    player = np.asarray(tree.player, dtype=np.int64) if PLAYER in tree.kind else None
    type_table = np.array([encode_basestring(name) for name in KIND_NAMES], dtype=object)
    player_table = np.array([encode_basestring(name) for name in tree.players], dtype=object)
    unvisited = {text: f'"visited": false,\n   "type": {text}' for text in list(type_table) + list(player_table)}
    alpha, beta, cuts, horizon = record.alpha, record.beta, record.cuts, record.horizon
    values = record.values
    write("{\n  ")
    written, total = 0, len(tree.kind)
    for nodes, texts in preorder_chunks(tree):
        tick("write", written, total)
        index = np.array(nodes, dtype=np.int64)
        types = type_table[kind[index]]
        if player is not None:
            players = kind[index] == PLAYER
            types[players] = player_table[player[index[players]]]
        type_list = types.tolist()
        value_texts = _values_text(values, nodes)
        entries = [f"{text}: {{\n   {unvisited[kind_text]}\n  }}" if value is None else
                   f'{text}: {{\n   "visited": true,\n   "value": {value},\n   "type": {kind_text}\n  }}'
                   for text, value, kind_text in zip(texts, value_texts, type_list)]
        if alpha or cuts or horizon:
            for position, node in enumerate(nodes):
                value = value_texts[position]
                if value is None:
                    continue
                body = f'"visited": true,\n   "value": {value}'
                if alpha is not None and node in alpha:
                    body += (f',\n   "alpha": {_number_text(alpha[node])},\n'
                             f'   "beta": {_number_text(beta[node])}')  # type: ignore[index]
                body += f',\n   "type": {type_list[position]}'
                cut = cuts.get(node)
                if cut is not None:
                    body += f',\n   "cut": {encode_basestring(cut.reason())}'
                if node in horizon:
                    body += ',\n   "horizon": true'
                entries[position] = f"{texts[position]}: {{\n   {body}\n  }}"
        if written:
            write(",\n  ")
        written += len(nodes)
        write(",\n  ".join(entries))
    write("\n }")


def _write_nodes_generic(record: SearchRecord, write: Any) -> None:
    """Entries built by ``node_entry`` (records with facts the fast path does not know)."""
    values = record.values
    separator = "\n  "
    write("{")
    for nodes, texts in preorder_chunks(record.tree):
        parts = []
        for node, text in zip(nodes, texts):
            entry = node_entry(record, node, values[node])
            body = json.dumps(entry, ensure_ascii=False, indent=1).replace("\n", "\n  ")
            parts.append(f"{separator}{text}: {body}")
            separator = ",\n  "
        write("".join(parts))
    write("\n }")
