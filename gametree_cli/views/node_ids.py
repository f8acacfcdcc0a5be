"""Tree order and JSON-quoted node ids, made in NumPy a level at a time, for the result writer.

Why: the JSON result lists every node (``nodes``) and an exhaustive
search's ``visit_order`` in tree order (depth-first, left to right), while
nodes are numbered level by level; and it names each node by its id, which
for a node the file does not name is its parent's id and its 1-based
position (``B.3`` -> ``B.3.2``). A Python walk over a million nodes costs
more than the whole result may. So the levels are computed once (ranges of
node numbers, or arrays), the tree order from subtree sizes (bottom-up)
and places (top-down), and every node's line start (``,\\n    "B.3.2"``) as a NUL-padded byte row
(see :mod:`.json_text`): its parent's row up to the closing quote, ``.``
and its position's digits, a level at a time. The writer then takes one
row per line.

An unnamed row's ``.`` goes after the longest id among its own level's
parents *of unnamed nodes* (``_column``), and a level of named nodes only is
as wide as its own ids: a row's width is never the whole level above's plus
more, which made a 100,000-deep chain with ids of its own (10 MB of result)
need ~20 GB (docs/limits.md).

Rows are as wide as the widest of their *band* of levels. Usually one band
holds the whole tree (the deepest level is the widest and holds most
rows); a level that would waste more than it holds (a long chain under a
bushy tree) starts a new band, so memory stays near the ids' own size (a
few tens of bytes a node) whatever the shape.
"""

from __future__ import annotations

from typing import Any, Union

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.model import Tree
from ..core.numeric import int64_view
from .json_text import Piece, constant, dumps_each, lay_out, positive_numbers, widths

__all__ = ["NodeIds", "tree_order", "LINE"]

#: what starts each line of a list or object at depth 1 (the writer drops the first line's comma)
LINE = b",\n    "
#: a band of levels may waste this many bytes of padding beyond twice the bytes it holds
_SLACK = 1 << 20
#: rows of a level written at a time
_BLOCK = 1 << 16


#: a level's nodes: a range of node numbers (the loaders number level by level), or an array (int64)
Level = Union[slice, "np.ndarray"]  # (a string: NumPy is imported when first used, not here)


def _size(level: Level) -> int:
    return level.stop - level.start if isinstance(level, slice) else len(level)


def _nodes(level: Level) -> np.ndarray:
    return np.arange(level.start, level.stop, dtype=np.int64) if isinstance(level, slice) else level


def _levels(count: np.ndarray, first: np.ndarray) -> tuple[list[Level], bool]:
    """Per depth, its nodes, each level the children of the one above, in order; and whether that
    numbers the nodes 0, 1, 2, ... (the loaders' breadth-first numbering: then every level is a range)."""
    levels: list[Level] = [slice(0, 1)]
    in_order = True
    while True:
        above = levels[-1]
        here = count[above]
        inner_at = np.flatnonzero(here)
        if not len(inner_at):
            return levels, in_order
        inner = inner_at + above.start if isinstance(above, slice) else above[inner_at]
        sizes = here[inner_at]
        ends = np.cumsum(sizes)
        start = int(first[inner[0]])
        if (first[inner] == ends - sizes + start).all():  # the children follow each other: a range
            in_order = in_order and isinstance(above, slice) and start == above.stop
            levels.append(slice(start, start + int(ends[-1])))
        else:
            in_order = False
            levels.append(np.arange(int(ends[-1]), dtype=np.int64) + np.repeat(first[inner] - (ends - sizes), sizes))


def _column(parent: "_Level", sizes: np.ndarray, named: np.ndarray) -> int:
    """Where a level's unnamed rows put their ``.``: after the longest id among *their* parents.

    Why not after the level above's widest row: a named node's id may be
    long and its children named, or a long chain of named nodes may sit beside
    short unnamed ones; padding every row to the widest of the level above
    would carry that width down every level below (a deep chain with ids of
    its own then took memory quadratic in its depth).
    """
    rows = int(sizes.sum())
    if len(named) == rows:  # no unnamed row: nothing is taken from a parent
        return 0
    if not parent.named[0]:  # no named node above: every parent's id ends at the same column
        return parent.end
    ends = np.full(parent.rows, parent.end, dtype=np.int64)
    ends[parent.named[0]] = [len(text) for text in parent.named[1]]
    unnamed = np.ones(rows, dtype=np.int64)
    unnamed[named] = 0
    inner = np.flatnonzero(sizes)
    has_unnamed = np.add.reduceat(unnamed, np.cumsum(sizes[inner]) - sizes[inner]) > 0
    return int(ends[inner[has_unnamed]].max())


class _Level:
    """How one level's rows are made (see ``NodeIds``): its parent's row, ``prefix``, the position's digits.

    The level above's child ranges (``starts``, ``ends``: each node's children
    are rows ``starts[i]:ends[i]`` here) give each row its parent and
    position, a block of rows at a time, so that no array of the level's size
    is made besides its rows.
    """

    __slots__ = ("rows", "starts", "ends", "from_parent", "prefix", "above", "end", "width", "first_row", "named")

    def __init__(self, rows: int, prefix: bytes, above: int, sizes: np.ndarray | None, from_parent: bool) -> None:
        self.rows = rows
        self.prefix = prefix  # "." after the parent's id, or the whole start of the line
        self.above = above  # how many columns of the parent's row are taken (all but its closing quote)
        self.from_parent = from_parent
        self.ends = None if sizes is None else np.cumsum(sizes)
        self.starts = None if sizes is None else self.ends - sizes  # type: ignore[operator]
        digits = len(str(int(sizes.max()))) if sizes is not None and len(sizes) else 0
        self.end = above + len(prefix) + digits  # the columns an unnamed row's id may take
        self.width = self.end + 1  # the closing quote in the last column
        self.first_row = 0
        self.named: tuple[list[int], list[bytes]] = ([], [])

    def pieces(self, start: int, end: int) -> tuple[np.ndarray | None, list[Piece]]:
        """For rows ``start:end``: their parents' rows in the level above, and the pieces after them."""
        if self.ends is None:
            return None, [constant(self.prefix)]
        first, last = np.searchsorted(self.ends, [start, end - 1], side="right")  # the parents of this block
        counts = np.minimum(self.ends[first : last + 1], end) - np.maximum(self.starts[first : last + 1], start)
        parents = np.repeat(np.arange(first, last + 1, dtype=np.int64), counts)
        positions = np.arange(start, end, dtype=np.int64) - self.starts[parents] + 1
        return parents, [constant(self.prefix), *positive_numbers(positions)]


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
            self._row[np.concatenate([_nodes(level) for level in self._levels])] = np.arange(n)
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
            named = np.flatnonzero(named_mask[nodes]) if explicit else np.empty(0, dtype=np.int64)
            if depth == 0:
                level = _Level(1, LINE + self._quoted([0])[0][:-1], 0, None, False)
            elif depth == 1 and 0 not in explicit:  # children of an unnamed root: "1", "2", ...
                level = _Level(_size(nodes), LINE + b'"', 0, self._count[self._levels[0]], False)
            else:
                sizes = self._count[self._levels[depth - 1]]
                level = _Level(_size(nodes), b".", _column(plan[-1], sizes, named), sizes, True)
            level.first_row = rows
            if len(named):
                texts = [LINE + text[:-1] for text in self._quoted(_nodes(nodes)[named].tolist())]
                level.named = (named.tolist(), texts)
                longest = max(map(len, texts)) + 1
                level.width = longest if len(named) == level.rows else max(level.width, longest)
            plan.append(level)
            rows += _size(nodes)
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
        """Write each level's rows, a block at a time: the parent's row, then the level's own pieces."""
        above: np.ndarray | None = None
        above_width = 0
        for level, (band, row) in zip(plan, placed):
            rows = band[row : row + level.rows]  # whole rows of the band: one contiguous block
            own = level.rows if len(level.named[0]) < level.rows else 0  # rows made here, not named
            for start in range(0, own, _BLOCK):
                end = min(start + _BLOCK, level.rows)
                block = rows[start:end]
                parents, pieces = level.pieces(start, end)
                if above is not None and parents is not None and level.from_parent:
                    # the parent's whole row (its quote is then overwritten by "."): NumPy gathers whole
                    # rows into a contiguous block several times faster than into a slice of columns
                    if above.shape[1] == block.shape[1]:
                        np.take(above, parents, axis=0, out=block, mode="wrap")
                        if level.above < above_width - 1:  # the parents' quotes (and named ids) end further right
                            block[:, level.above : above_width] = 0
                    else:  # the level above is in another band
                        block[:, : level.above] = np.take(above[:, : level.above], parents, axis=0)
                sizes = widths(pieces, slice(0, end - start))
                lay_out(pieces, slice(0, end - start), block[:, level.above : level.above + sum(sizes)], sizes)
            for named, text in zip(*level.named):
                rows[named] = 0
                rows[named, : len(text)] = np.frombuffer(text, dtype=np.uint8)
            rows[:, level.width - 1] = ord('"')  # in one column for the whole level: children copy what is left of it
            above, above_width = rows, level.width

    def _quoted(self, nodes: list[int]) -> list[bytes]:
        """The quoted ids of nodes that have their own (the file's, or the root's ``root``)."""
        explicit = self.tree.explicit_ids
        return dumps_each(explicit.get(node, "root") if node == 0 else explicit[node] for node in nodes)

    def order(self, depth_limit: int | None = None) -> np.ndarray:
        """The nodes down to ``depth_limit`` in tree order (int32 below 2^31 nodes, else int64)."""
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
    """The nodes down to ``depth_limit`` in tree order (as ``NodeIds.order``), without the ids."""
    count = int64_view(tree.count)
    levels = _levels(count, int64_view(tree.first))[0]
    return _tree_order(levels if depth_limit is None else levels[: depth_limit + 1], count)


def _tree_order(levels: list[Level], count: np.ndarray) -> np.ndarray:
    """Depth-first order of the nodes of ``levels`` (those of the last one taken as leaves).

    A node's place is its parent's + 1 + the sizes of its elder siblings'
    subtrees: subtree sizes bottom-up, places top-down, a few segment sums a
    level (in int32 up to 2^31 nodes: half the memory a level's arrays take).
    """
    total = sum(map(_size, levels))
    small = np.int32 if total < (1 << 31) else np.int64
    groups: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per level but the last: inner mask, sizes, offsets
    for nodes in levels[:-1]:
        here = count[nodes]
        inner = here > 0
        sizes = here[inner]
        groups.append((inner, sizes, np.cumsum(sizes) - sizes))
    size: list[Any] = [None] * len(levels)
    size[-1] = np.ones(_size(levels[-1]), dtype=small)
    for depth in range(len(levels) - 2, -1, -1):
        inner, sizes, offsets = groups[depth]
        here = np.ones(_size(levels[depth]), dtype=small)
        here[inner] += np.add.reduceat(size[depth + 1], offsets, dtype=small)
        size[depth] = here
    place = np.zeros(1, dtype=small)
    order = np.empty(total, dtype=small)
    order[0] = 0
    for depth in range(len(levels) - 1):
        inner, sizes, offsets = groups[depth]
        before = np.cumsum(size[depth + 1], dtype=small)
        before -= size[depth + 1]  # elder siblings' subtrees, counted along the whole level
        size[depth + 1] = None
        place = np.repeat(place[inner] + 1 - before[offsets], sizes)
        place += before
        del before
        nodes = levels[depth + 1]
        for start in range(0, len(place), _BLOCK):  # a level's node numbers a block at a time
            part = place[start : start + _BLOCK]
            order[part] = _nodes(nodes[start : start + _BLOCK] if not isinstance(nodes, slice)
                                 else slice(nodes.start + start, nodes.start + start + len(part)))
    return order
