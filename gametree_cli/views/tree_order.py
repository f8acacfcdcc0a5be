"""Tree order (depth-first, left to right) of the nodes, and their JSON-quoted ids in that order.

Why: the JSON result lists ``nodes`` (every node) and an exhaustive search's
``visit_order`` in tree order, while nodes are numbered breadth-first. Small
trees are walked; from :data:`VECTOR_FROM` nodes the order is computed a
level at a time in NumPy. The quoted ids made here are the pure-Python path;
the compiled writer (``_resulttext``) makes them from the order alone.
"""

from __future__ import annotations

from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any, Iterator

import numpy as np

from ..algorithms.minimax import level_bounds
from ..model import Tree
from ..numeric import int64_view

__all__ = ["tree_order", "preorder_ids", "preorder_chunks", "forget", "CHUNK"]

#: nodes per chunk of text handed to the stream
CHUNK = 1 << 15
#: trees from this many nodes get their order and ids from NumPy (the tests lower it)
VECTOR_FROM = 4096

#: the orders of the result being written (a result reads one twice: visit order and nodes); see forget()
_CACHE: dict[tuple[int, int | None, str], Any] = {}


def forget() -> None:
    """Drop the cached orders (after each result: they hold a few bytes per node)."""
    _CACHE.clear()


def _cached(tree: Tree, depth_limit: int | None, what: str, make: Any) -> Any:
    key = (id(tree), depth_limit, what)
    held = _CACHE.get(key)
    if held is None or held[0] is not tree:
        held = _CACHE[key] = (tree, make())
    return held[1]


def tree_order(tree: Tree, depth_limit: int | None = None, compiled: Any = None) -> np.ndarray:
    """The nodes down to ``depth_limit`` in tree order (int64); ``compiled``: the
    optional ``_resulttext`` module, whose walk in C is faster still."""
    def make() -> np.ndarray:
        if compiled is not None:
            below = level_bounds(tree, depth_limit)[-1][1]  # breadth-first: the nodes within the limit
            first, count = (np.ascontiguousarray(int64_view(column)) for column in (tree.first, tree.count))
            return np.frombuffer(compiled.preorder(first, count, below), dtype=np.int64)
        if len(tree.kind) < VECTOR_FROM:
            return np.fromiter(tree.preorder(depth_limit), dtype=np.int64)
        return _levels(tree, depth_limit)[0]

    return _cached(tree, depth_limit, "order", make)


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
            if len(nodes) >= CHUNK:
                yield nodes, texts
                nodes, texts = [], []
                add_node, add_text = nodes.append, texts.append
    if nodes:
        yield nodes, texts


def preorder_chunks(tree: Tree, depth_limit: int | None = None) -> Iterator[tuple[list[int], list[str]]]:
    """Like :func:`preorder_ids` (down to ``depth_limit``), with the order and the ids
    computed a level at a time in NumPy on big trees; only inner nodes' ids are kept whole.
    """
    if len(tree.kind) < VECTOR_FROM:
        yield from _limited(preorder_ids(tree), tree, depth_limit)
        return
    order = tree_order(tree, depth_limit)
    prefix, root_text = _cached(tree, depth_limit, "prefixes", lambda: _prefixes(tree, depth_limit))
    yield from _order_chunks(tree, order, prefix, root_text)


def _levels(tree: Tree, depth_limit: int | None) -> tuple[np.ndarray, list[tuple[Any, ...]]]:
    """Tree order, and per level the inner nodes with their child counts and offsets.

    A node's position is its parent's + 1 + the sizes of the subtrees of its
    elder siblings, so subtree sizes (bottom-up) and positions (top-down) are
    a few segment sums per level.
    """
    def make() -> tuple[np.ndarray, list[tuple[Any, ...]]]:
        count = int64_view(tree.count)
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
        for inner, sizes, offsets, child_start, child_end in blocks:
            if not len(inner):
                continue
            block = size[child_start:child_end]
            before = np.cumsum(block) - block
            position[child_start:child_end] = (np.repeat(position[inner], sizes) + 1
                                               + before - np.repeat(before[offsets], sizes))
        order = np.empty(below, dtype=np.int64)
        order[position] = np.arange(below)
        return order, blocks

    return _cached(tree, depth_limit, "levels", make)


def _prefixes(tree: Tree, depth_limit: int | None) -> tuple[np.ndarray, str]:
    """Per inner node the opening quote, escaped id and "." its children's ids start with
    ('"' for an unnamed root); the root's quoted id."""
    count, first = int64_view(tree.count), int64_view(tree.first)
    order, blocks = _levels(tree, depth_limit)
    explicit = tree.explicit_ids
    root_name = explicit.get(0)
    prefix = np.empty(len(order), dtype=object)
    prefix[0] = '"' if root_name is None else encode_basestring(root_name)[:-1] + "."
    root_text = encode_basestring(root_name if root_name is not None else "root")
    named = np.array(sorted(explicit), dtype=np.int64)
    for inner, sizes, offsets, child_start, child_end in blocks:
        if not len(inner):
            continue
        children = np.arange(child_start, child_end)
        grand = count[child_start:child_end] > 0
        if grand.any():
            parents = np.repeat(inner, sizes)[grand]
            nodes = children[grand]
            text = prefix[parents] + _decimals(nodes - first[parents] + 1)
            prefix[nodes] = text + "."
        # named nodes of this level before the next level reads their prefixes
        for node in named[np.searchsorted(named, child_start):np.searchsorted(named, child_end)].tolist():
            if count[node]:
                prefix[node] = encode_basestring(explicit[node])[:-1] + "."
    return prefix, root_text


def _decimals(numbers: np.ndarray, suffix: str = "") -> np.ndarray:
    """``f"{k}{suffix}"`` for each of ``numbers``, as an object array.

    From a table when the numbers are not much larger than their count
    (positions of the children of narrow nodes); otherwise made one by one,
    so that a chunk of a root with 10^7 children never makes 10^7 numerals.
    """
    texts = np.empty(len(numbers), dtype=object)
    if not len(numbers):
        return texts
    largest = int(numbers.max())
    if int(numbers.min()) >= 0 and largest < 4 * len(numbers) + 1024:
        table = np.empty(largest + 1, dtype=object)
        table[:] = [f"{k}{suffix}" for k in range(largest + 1)]
        return table[numbers]
    texts[:] = [f"{k}{suffix}" for k in numbers.tolist()]
    return texts


def _order_chunks(tree: Tree, order: np.ndarray, prefix: np.ndarray, root_text: str
                  ) -> Iterator[tuple[list[int], list[str]]]:
    count, first = int64_view(tree.count), int64_view(tree.first)
    explicit = tree.explicit_ids
    parent = int64_view(tree.parents())
    for start in range(0, len(order), CHUNK):
        nodes = order[start : start + CHUNK]
        inner = count[nodes] > 0
        texts = np.empty(len(nodes), dtype=object)
        texts[inner] = [text[:-1] + '"' for text in prefix[nodes[inner]].tolist()]
        leaves = np.flatnonzero(~inner)
        ups = np.maximum(parent[nodes[leaves]], 0)
        texts[leaves] = prefix[ups] + _decimals(nodes[leaves] - first[ups] + 1, '"')
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
