"""The game tree as flat parallel arrays, with thin accessors for the views.

Why flat arrays and not one object per node: trees generated from real games
have millions of nodes; a Python object per node costs ~10x the memory and
time of a few arrays indexed by node number. Nodes are numbered in
breadth-first order, so

* the children of node ``i`` are the contiguous range
  ``first[i] .. first[i] + count[i] - 1``;
* every child has a larger number than its parent (a reverse sweep over the
  numbers sees children before parents: exhaustive evaluation needs no stack);
* each depth level is a contiguous block (level-by-level vectorisation).

Ids, moves and probabilities that the file does not give are not stored:
they are derived on demand by the contract's default rules.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate
from typing import Any, Callable, Iterator, NamedTuple, Sequence

from .buffers import is_small, typed_view
from .numbers import Number, Value

__all__ = [
    "LEAF",
    "MAX",
    "MIN",
    "CHANCE",
    "PLAYER",
    "KIND_NAMES",
    "Tree",
    "Source",
    "default_id",
]

LEAF = 0
MAX = 1
MIN = 2
CHANCE = 3
#: a decision node of an n-player tree; ``Tree.player[i]`` says whose.
PLAYER = 4

KIND_NAMES = ("leaf", "max", "min", "chance", "player")


def default_id(node: int, explicit: dict[int, str], parent: Sequence[int], first: Sequence[int],
               known: dict[int, str] | None = None) -> str:
    """A node's id by the contract's rule, walking up (no recursion) to a named ancestor, or to
    one whose id is ``known`` (never the root: an unnamed root is "root" but gives its children no prefix)."""
    positions: list[int] = []
    while True:
        name = explicit.get(node)
        if name is None and known and positions:
            name = known.get(node)
        if name is not None:
            break
        if node == 0:
            if not positions:
                return "root"
            name = ""
            break
        up = parent[node]
        positions.append(node - first[up] + 1)
        node = up
    tail = ".".join(str(position) for position in reversed(positions))
    if not name:
        return tail
    return f"{name}.{tail}" if tail else name


class Source(NamedTuple):
    """Where a tree came from, so that late errors can still name file:line.

    Attributes:
        name: the file name as the user gave it (``-`` / ``<stdin>`` / ``<tree>``).
        locate: maps a node's path (child positions from the root) to
            ``(line, column)``, 1-based; parses the text again, so only error
            paths call it.
    """

    name: str
    locate: Callable[[tuple[int, ...]], tuple[int | None, int | None]] | None = None


class Tree:
    """An explicit game tree.

    A plain class, not a dataclass: ``dataclasses`` imports ``inspect``
    (with ``ast``, ``dis``, ``tokenize``: ~8 ms, a third of a small solve's
    whole budget; docs/performance.md, "the library's imports on a small solve").

    Attributes:
        kind: per node, one of LEAF, MAX, MIN, CHANCE, PLAYER.
        first: per node, the number of its first child (0 for leaves).
        count: per node, how many children it has.
        value: per node, the leaf utility (number, or tuple in n-player trees); None for inner nodes.
        player: per node, the 0-based player to move (MAX=0/MIN=1 in two-player
            trees); -1 for leaves and chance nodes.
        prob: per node, the probability of the edge from a chance parent
            (uniform ones filled in); None when the tree has no chance node.
        evals: inner node -> heuristic value for depth-limited search.
        explicit_ids: node -> id, only for ids written in the file.
        moves: node -> move label, only for labels written in the file.
        extra: node -> dict of further per-node keys (e.g. an opponent model).
        players: player names, in order.
        vector_payoffs: leaves hold one payoff per player (n-player or general-sum trees).
        total: the constant sum of leaf vectors (``sum`` in the file), or None.
        bounds: ``(lowest, highest)`` possible leaf value, or None.
        title: the file's title, or None.
        source: where the tree was read from.

    ``first``, ``count`` and ``player`` are ``array.array`` columns, or, in a tree read from ``.gtb``,
    memoryviews of the same C type over NumPy's memory (no copy; io/binary.py ``_column``): read
    them by index, slice, iteration or :func:`~gametree_cli.core.numeric.int64_view`, never by
    ``array`` methods.
    """

    __slots__ = ("kind", "first", "count", "value", "player", "prob", "evals", "explicit_ids", "moves", "extra", "players",
                 "vector_payoffs", "total", "bounds", "title", "source", "_ids", "_index", "_parent", "_depth",
                 "_numeric", "_totals", "_recent_ids", "plain")

    def __init__(self, kind: bytearray, first: array, count: array, value: list[Value | None], player: array,
                 prob: list[Number | None] | None = None, evals: dict[int, Value] | None = None,
                 explicit_ids: dict[int, str] | None = None, moves: dict[int, str] | None = None,
                 extra: dict[int, dict[str, object]] | None = None, players: tuple[str, ...] = ("MAX", "MIN"),
                 vector_payoffs: bool = False, total: Number | None = None,
                 bounds: tuple[Number, Number] | None = None, title: str | None = None,
                 source: Source | None = None) -> None:
        self.kind, self.first, self.count, self.value, self.player, self.prob = kind, first, count, value, player, prob
        self.evals: dict[int, Value] = {} if evals is None else evals
        self.explicit_ids: dict[int, str] = {} if explicit_ids is None else explicit_ids
        self.moves: dict[int, str] = {} if moves is None else moves
        self.extra: dict[int, dict[str, object]] = {} if extra is None else extra
        self.players, self.vector_payoffs, self.total, self.bounds = players, vector_payoffs, total, bounds
        self.title, self.source = title, source
        self._ids: list[str] | None = None
        self._index: dict[str, int] | None = None
        self._parent: array | None = None
        self._depth: array | None = None
        #: NumPy forms of the values for vectorised searches (see algorithms/sweep.py)
        self._numeric: object | None = None
        #: running sums of the child counts (subtree_size), made on first use
        self._totals: Sequence[int] | None = None
        self._recent_ids: dict[int, str] = {}
        #: searched and shown with plain buffers whatever its size, never NumPy (core/buffers.plain_for): set by
        #: the ``.gtb`` reader when asked, for a view that reads a few nodes of a big tree (io/gtb_plain.py)
        self.plain = False

    # -- shape ---------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.kind)

    def __repr__(self) -> str:
        """One line (the arrays are not shown): title, size, and what kind of game."""
        kind = (f"{len(self.players)} players" if self.is_nplayer else "max/min") + (", chance" if self.has_chance else "")
        title = f"{self.title!r}: " if self.title else ""
        return f"<Tree {title}{len(self.kind):,} nodes, {kind}, root {self.node_id(0)!r}>"

    @property
    def size(self) -> int:
        """Number of nodes."""
        return len(self.kind)

    @property
    def is_nplayer(self) -> bool:
        """True when leaves are payoff vectors: three or more players, or a
        two-player general-sum game (``general_sum: true``)."""
        return self.vector_payoffs or len(self.players) > 2

    @property
    def has_chance(self) -> bool:
        return CHANCE in self.kind

    def children(self, node: int) -> range:
        """The numbers of ``node``'s children, in file order."""
        start = self.first[node]
        return range(start, start + self.count[node])

    def is_leaf(self, node: int) -> bool:
        return self.count[node] == 0

    def parents(self) -> array:
        """Per node, its parent's number (-1 for the root); computed once."""
        if self._parent is None and is_small(len(self.kind)):  # no NumPy to load (core/buffers.py)
            parent = self._parent = array("q", [-1]) * len(self.kind)
            for node in range(len(self.kind)):
                for child in self.children(node):
                    parent[child] = node
        if self._parent is None:
            import numpy as np

            count = np.frombuffer(self.count, dtype=np.int64) if self.count.itemsize == 8 else np.array(self.count)
            first = np.frombuffer(self.first, dtype=np.int64) if self.first.itemsize == 8 else np.array(self.first)
            inner = np.flatnonzero(count)
            sizes = count[inner]
            parent = np.full(len(self.kind), -1, dtype=np.int64)
            ends = np.cumsum(sizes)
            if len(inner) and np.array_equal(first[inner], ends - sizes + 1):
                # breadth-first numbering: the children of the inner nodes, in turn, are nodes 1, 2, ...
                parent[1 : 1 + int(ends[-1])] = np.repeat(inner, sizes)
            else:
                # each child's offset within its parent's range, then its number
                offsets = np.arange(int(sizes.sum())) - np.repeat(ends - sizes, sizes)
                parent[np.repeat(first[inner], sizes) + offsets] = np.repeat(inner, sizes)
            self._parent = array("q")
            self._parent.frombytes(memoryview(parent).cast("B"))  # one copy (tobytes() and array() made two)
        return self._parent

    def parent_lookup(self) -> Sequence[int]:
        """Parents read node by node (``lookup[node]``): the whole array when it is made, else
        found in the running sums of the child counts, as :meth:`subtree_size` does. Why: the
        text view and the principal variation ask for a few hundred parents, and the whole
        array of a 1.4-million-node tree costs ~18 ms to make."""
        return self._parent if self._parent is not None else _ParentLookup(self)

    def depths(self) -> array:
        """Per node, its depth (root 0); computed once."""
        if self._depth is None:
            parent = self.parents()
            depth = array("q", [0]) * len(self.kind)
            for node in range(1, len(self.kind)):
                depth[node] = depth[parent[node]] + 1
            self._depth = depth
        return self._depth

    def path(self, node: int) -> tuple[int, ...]:
        """Child positions (0-based) leading from the root to ``node``."""
        parent = self.parent_lookup()
        steps: list[int] = []
        while node > 0:
            up = parent[node]
            steps.append(node - self.first[up])
            node = up
        return tuple(reversed(steps))

    def running_sums(self) -> Sequence[int]:
        """``[0, c0, c0 + c1, ...]`` of the child counts, made once: in breadth-first numbering the
        children of node ``i`` are the nodes ``1 + S[i]`` to ``S[i + 1]``."""
        if self._totals is None:
            self._totals = _running_sums(self.count)
        return self._totals

    def subtree_size(self, node: int) -> int:
        """How many nodes the subtree under ``node`` holds, ``node`` included.

        Breadth-first numbering keeps each level of a subtree one block of node numbers, and
        the children of the block ``[lo, hi)`` are the block ``[1 + C[lo], 1 + C[hi])``, ``C``
        the running sum of the child counts: a step per level, however big the subtree (the
        text view asks this of every node it leaves out: a node-by-node walk took 0.4 s on a
        1.4-million-node tree).
        """
        totals = self.running_sums()
        size, low, high = 0, node, node + 1
        while low < high:
            size += high - low
            low, high = 1 + totals[low], 1 + totals[high]
        return size

    def preorder(self, limit_depth: int | None = None) -> Iterator[int]:
        """Node numbers in depth-first, left-to-right order (tree order)."""
        first, count = self.first, self.count
        stack: list[tuple[int, int]] = [(0, 0)]
        while stack:
            node, depth = stack.pop()
            yield node
            if limit_depth is not None and depth >= limit_depth:
                continue
            start = first[node]
            for child in range(start + count[node] - 1, start - 1, -1):
                stack.append((child, depth + 1))

    # -- names ---------------------------------------------------------------

    def ids(self) -> list[str]:
        """Every node's id, by the contract's default rule where the file gives none."""
        if self._ids is None:
            explicit = self.explicit_ids
            ids = [""] * len(self.kind)
            ids[0] = explicit.get(0, "root")
            unnamed_root = 0 not in explicit
            first, count = self.first, self.count
            for node in range(len(self.kind)):
                start = first[node]
                n_children = count[node]
                if not n_children:
                    continue
                prefix = "" if (node == 0 and unnamed_root) else ids[node] + "."
                for position in range(n_children):
                    child = start + position
                    name = explicit.get(child)
                    ids[child] = name if name is not None else f"{prefix}{position + 1}"
            self._ids = ids
        return self._ids

    def node_id(self, node: int) -> str:
        """One node's id (cheap when the whole list was already built)."""
        if self._ids is not None:
            return self._ids[node]
        recent = self._recent_ids  # the last few ids made: a path walked down (the principal variation,
        name = recent.get(node)    # the text view) finds its parent's id there, not by a walk to the root
        if name is None:
            name = default_id(node, self.explicit_ids, self.parent_lookup(), self.first, recent)
            if node:
                recent[node] = name
                if len(recent) > _RECENT_IDS:
                    del recent[next(iter(recent))]
        return name

    def index(self, node_id: str) -> int:
        """The number of the node called ``node_id``; KeyError when none is."""
        if self._index is None:
            self._index = {name: number for number, name in enumerate(self.ids())}
        return self._index[node_id]

    def move(self, node: int) -> str:
        """The label of the edge into ``node`` (default: its id)."""
        label = self.moves.get(node)
        return label if label is not None else self.node_id(node)

    def player_name(self, node: int) -> str | None:
        """Name of the player to move at ``node`` (None for leaves and chance nodes)."""
        who = self.player[node]
        return self.players[who] if who >= 0 else None

    def locate(self, node: int) -> tuple[int | None, int | None]:
        """``(line, column)`` of ``node`` in its file, or ``(None, None)``."""
        if self.source is None or self.source.locate is None:
            return None, None
        try:
            return self.source.locate(self.path(node))
        except (LookupError, TypeError, ValueError):
            return None, None

    def error(self, cls: type, message: str, node: int) -> Exception:
        """An error of class ``cls`` located at ``node`` (file, line, column, id)."""
        line, column = self.locate(node)
        return cls(
            message,
            file=self.source.name if self.source else None,
            line=line,
            column=column,
            node=self.node_id(node),
        )

    def leaf_values(self) -> Sequence[Value | None]:
        return self.value


#: how many recently made ids :meth:`Tree.node_id` keeps (a deep chain's ids are long: keep few)
_RECENT_IDS = 64


def _running_sums(count: Any) -> Sequence[int]:
    """``[0, c0, c0 + c1, ...]``: NumPy's cumsum for a big tree (NumPy is loaded by then), seen as
    int64s without a copy (:func:`.buffers.typed_view`), else Python's."""
    if len(count) < 4096:
        return array("q", accumulate(count, initial=0))
    import numpy as np

    sums = np.zeros(len(count) + 1, dtype=np.int64)
    np.cumsum(np.asarray(count, dtype=np.int64), out=sums[1:])
    return typed_view(sums, "q")


class _ParentLookup:
    """``lookup[node]``: the parent of ``node`` by a binary search in the running sums (node
    ``c > 0`` is a child of the last ``i`` with ``S[i] <= c - 1``), checked against ``first``
    and ``count``; a tree not numbered breadth first falls back to the whole parent array."""

    __slots__ = ("tree", "totals")

    def __init__(self, tree: Tree) -> None:
        self.tree, self.totals = tree, tree.running_sums()

    def __getitem__(self, node: int) -> int:
        if node == 0:
            return -1
        tree = self.tree
        up = bisect_right(self.totals, node - 1) - 1
        if 0 <= up < len(tree.count) and tree.first[up] <= node < tree.first[up] + tree.count[up]:
            return up
        return tree.parents()[node]

    def __len__(self) -> int:
        return len(self.tree.count)
