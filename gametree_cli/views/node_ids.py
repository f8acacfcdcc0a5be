"""Tree order and JSON-quoted node ids, made in NumPy a level at a time, for the result writer.

Why: the JSON result lists every node (``nodes``) and an exhaustive
search's ``visit_order`` in tree order (depth-first, left to right), while
nodes are numbered level by level; and it names each node by its id, which
for a node the file does not name is its parent's id and its 1-based
position (``B.3`` -> ``B.3.2``). A Python walk over a million nodes costs
more than the whole result may. So the levels are computed once as arrays,
the tree order from subtree sizes (bottom-up) and places (top-down), and
every node's line start (``,\\n    "B.3.2"``) as a NUL-padded byte row
(see :mod:`.json_text`): its parent's row up to the closing quote, ``.``
and its position's digits, a level at a time. The writer then takes one
row per line.

Rows are as wide as the widest of their *band* of levels. Usually one band
holds the whole tree (the deepest level is the widest and holds most
rows); a level that would waste more than it holds (a long chain under a
bushy tree) starts a new band, so memory stays near the ids' own size (a
few tens of bytes a node) whatever the shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model import Tree
from ..numeric import int64_view
from .json_text import Piece, constant, dumps_each, lay_out, positive_numbers, widths

__all__ = ["NodeIds", "tree_order", "LINE"]

#: what starts each line of a list or object at depth 1 (the writer drops the first line's comma)
LINE = b",\n    "
#: a band of levels may waste this many bytes of padding beyond twice the bytes it holds
_SLACK = 1 << 20


def _levels(count: np.ndarray, first: np.ndarray) -> tuple[list[np.ndarray], bool]:
    """Per depth, its nodes (int64), each level the children of the one above, in order; and
    whether that numbers the nodes 0, 1, 2, ... (the loaders' breadth-first numbering)."""
    levels = [np.zeros(1, dtype=np.int64)]
    in_order = True
    while True:
        above = levels[-1]
        inner = above[count[above] > 0]
        if not len(inner):
            return levels, in_order
        sizes = count[inner]
        ends = np.cumsum(sizes)
        start = int(first[inner[0]])
        if (first[inner] == ends - sizes + start).all():  # the children follow each other: a range
            in_order = in_order and start == int(above[-1]) + 1
            levels.append(np.arange(start, start + int(ends[-1]), dtype=np.int64))
        else:
            in_order = False
            levels.append(np.arange(int(ends[-1]), dtype=np.int64) + np.repeat(first[inner] - (ends - sizes), sizes))


class _Level:
    """How one level's rows are made: the parent's row, then the pieces of ``numbers`` (see ``NodeIds``)."""

    __slots__ = ("rows", "parents", "numbers", "sizes", "above", "width", "first_row", "named")

    def __init__(self, rows: int, parents: np.ndarray | None, numbers: list[Piece], above: int) -> None:
        self.rows = rows
        self.parents = parents  # per row, its parent's row within the level above (None: not from the parent)
        self.numbers = numbers  # "." and the position's digits, or the whole line start
        self.sizes = widths(numbers)
        self.above = above  # how many columns of the parent's row are taken (all but its closing quote)
        self.width = above + sum(self.sizes) + 1  # the closing quote in the last column
        self.first_row = 0
        self.named: tuple[list[int], list[bytes]] = ([], [])


class NodeIds:
    """The tree order and every node's line start, for one tree (made for one result, then dropped)."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        count = int64_view(tree.count)
        self._count = count
        self._levels, in_order = _levels(count, int64_view(tree.first))
        n = len(count)
        #: per node its row, when the levels do not number the nodes in order (else None: row = node)
        self._row: np.ndarray | None = None
        if not in_order:
            self._row = np.empty(n, dtype=np.int64)
            self._row[np.concatenate(self._levels)] = np.arange(n)
        #: per band, its first row and its rows (the last one empty)
        self._band_start: list[int] = []
        self._bands: list[np.ndarray] = []
        self._make_rows()
        self._orders: dict[int | None, np.ndarray] = {}

    def _make_rows(self) -> None:
        """Plan every level's rows, gather the levels into bands, then write the rows."""
        explicit = self.tree.explicit_ids
        named_mask = np.zeros(len(self._count), dtype=bool)
        named_mask[np.fromiter(explicit, dtype=np.int64, count=len(explicit))] = True
        plan: list[_Level] = []
        rows = 0
        for depth, nodes in enumerate(self._levels):
            if depth == 0:
                level = _Level(1, None, [constant(LINE + self._quoted([0])[0][:-1])], 0)
            else:
                above = self._levels[depth - 1]
                sizes = self._count[above]
                ends = np.cumsum(sizes)
                positions = np.arange(len(nodes), dtype=np.int64) - np.repeat(ends - sizes, sizes) + 1
                if depth == 1 and 0 not in explicit:  # children of an unnamed root: "1", "2", ...
                    level = _Level(len(nodes), None, [constant(LINE + b'"'), *positive_numbers(positions)], 0)
                else:
                    parents = np.repeat(np.arange(len(above), dtype=np.int64), sizes)
                    level = _Level(len(nodes), parents, [constant(b"."), *positive_numbers(positions)],
                                   plan[-1].width - 1)
            level.first_row = rows
            if explicit:
                named = np.flatnonzero(named_mask[nodes])
                if len(named):
                    texts = [LINE + text[:-1] for text in self._quoted(nodes[named].tolist())]
                    level.named = (named.tolist(), texts)
                    level.width = max(level.width, max(map(len, texts)) + 1)
            plan.append(level)
            rows += len(nodes)
        self._write(plan, self._band(plan))

    def _band(self, plan: list[_Level]) -> list[tuple[np.ndarray, int]]:
        """Per level, its band and first row there: a new band where padding would exceed what a band holds."""
        placed: list[tuple[np.ndarray, int]] = []
        group: list[_Level] = []
        rows = held = width = 0
        for level in plan + [None]:  # type: ignore[list-item]
            if level is not None:
                wider = max(width, level.width)
                if not group or (rows + level.rows) * wider - held <= 2 * held + level.rows * level.width + _SLACK:
                    group.append(level)
                    rows, held, width = rows + level.rows, held + level.rows * level.width, wider
                    continue
            band = np.zeros((rows + 1, width), dtype=np.uint8)  # the last row stays empty (index -1)
            self._band_start.append(group[0].first_row)
            self._bands.append(band)
            placed.extend((band, member.first_row - group[0].first_row) for member in group)
            if level is not None:
                group, rows, held, width = [level], level.rows, level.rows * level.width, level.width
        return placed

    @staticmethod
    def _write(plan: list[_Level], placed: list[tuple[np.ndarray, int]]) -> None:
        """Write each level's rows: the parent's row (in the level above), then its own pieces."""
        above: np.ndarray | None = None
        for level, (band, row) in zip(plan, placed):
            rows = band[row : row + level.rows]  # whole rows of the band: one contiguous block
            if above is not None and level.parents is not None:
                # the parent's whole row (its quote is then overwritten by "."): NumPy gathers whole
                # rows into a contiguous block several times faster than into a slice of columns
                if above.shape[1] == rows.shape[1]:
                    np.take(above, level.parents, axis=0, out=rows, mode="wrap")
                else:  # the level above is in another band
                    shared = min(above.shape[1], rows.shape[1])
                    rows[:, :shared] = np.take(above[:, :shared], level.parents, axis=0)
            lay_out(level.numbers, slice(None), rows[:, level.above : level.above + sum(level.sizes)], level.sizes)
            for named, text in zip(*level.named):
                rows[named] = 0
                rows[named, : len(text)] = np.frombuffer(text, dtype=np.uint8)
            rows[:, level.width - 1] = ord('"')  # in one column for the whole level: children copy what is left of it
            above = rows

    def _quoted(self, nodes: list[int]) -> list[bytes]:
        """The quoted ids of nodes that have their own (the file's, or the root's ``root``)."""
        explicit = self.tree.explicit_ids
        return dumps_each(explicit.get(node, "root") if node == 0 else explicit[node] for node in nodes)

    def order(self, depth_limit: int | None = None) -> np.ndarray:
        """The nodes down to ``depth_limit`` in tree order (int64)."""
        key = None if depth_limit is None or depth_limit >= len(self._levels) - 1 else depth_limit
        if key not in self._orders:
            self._orders[key] = _tree_order(self._levels[: None if key is None else key + 1], self._count)
        return self._orders[key]

    def pieces(self, nodes: np.ndarray) -> list[Piece]:
        """The line starts of ``nodes`` (int64), :data:`LINE` and the quoted id, as pieces for ``paste``."""
        rows = nodes if self._row is None else self._row[nodes]
        if len(self._bands) == 1:
            return [Piece(self._bands[0], rows)]
        pieces = []
        for start, band in zip(self._band_start, self._bands):
            local = rows - start
            local[(local < 0) | (local >= len(band) - 1)] = -1
            pieces.append(Piece(band, local))
        return pieces


def tree_order(tree: Tree, depth_limit: int | None = None) -> np.ndarray:
    """The nodes down to ``depth_limit`` in tree order (int64), without the ids."""
    count = int64_view(tree.count)
    levels = _levels(count, int64_view(tree.first))[0]
    return _tree_order(levels if depth_limit is None else levels[: depth_limit + 1], count)


def _tree_order(levels: list[np.ndarray], count: np.ndarray) -> np.ndarray:
    """Depth-first order of the nodes of ``levels`` (those of the last one taken as leaves).

    A node's place is its parent's + 1 + the sizes of its elder siblings'
    subtrees: subtree sizes bottom-up, places top-down, a few segment sums a level.
    """
    groups: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per level but the last: inner mask, sizes, offsets
    for nodes in levels[:-1]:
        inner = count[nodes] > 0
        sizes = count[nodes[inner]]
        groups.append((inner, sizes, np.cumsum(sizes) - sizes))
    size: list[Any] = [None] * len(levels)
    size[-1] = np.ones(len(levels[-1]), dtype=np.int64)
    for depth in range(len(levels) - 2, -1, -1):
        inner, sizes, offsets = groups[depth]
        here = np.ones(len(levels[depth]), dtype=np.int64)
        here[inner] += np.add.reduceat(size[depth + 1], offsets)
        size[depth] = here
    place = np.zeros(1, dtype=np.int64)
    order = np.empty(sum(map(len, levels)), dtype=np.int64)
    order[0] = 0
    for depth in range(len(levels) - 1):
        inner, sizes, offsets = groups[depth]
        below = size[depth + 1]
        before = np.cumsum(below) - below  # elder siblings' subtrees, counted along the whole level
        place = np.repeat(place[inner] + 1 - before[offsets], sizes) + before
        order[place] = levels[depth + 1]
    return order
