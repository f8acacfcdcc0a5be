"""The record of one search: what every view (tree, JSON, stats, check) reads.

A search fills one :class:`SearchRecord`; nothing downstream searches again.
Per-node facts are kept in arrays/dicts indexed by node number so that a
million-node tree costs a few bytes per node, and the orders (visit order,
principal variation) are computed from the record only when a view asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, NamedTuple

from .model import CHANCE, Tree
from .numbers import Value, format_value

__all__ = ["Stats", "Cut", "SearchRecord", "PruningLog"]


@dataclass
class Stats:
    """Counters of a search (contract section 3, ``stats``)."""

    nodes_visited: int = 0
    leaves_evaluated: int = 0
    cutoffs: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "nodes_visited": self.nodes_visited,
            "leaves_evaluated": self.leaves_evaluated,
            "cutoffs": self.cutoffs,
        }


class Cut(NamedTuple):
    """Why the search stopped looking at a node's remaining children.

    ``value`` compared ``op`` against the bound ``bound_name`` = ``bound``;
    ``returns`` is what the node then returned. A named tuple, not a
    dataclass: alpha-beta makes one per cut-off, and a tuple is made fastest.
    """

    value: Value
    op: str
    bound_name: str
    bound: Value
    returns: Value
    value_name: str = "v"

    def reason(self) -> str:
        return f"{self.value_name}={format_value(self.value)} {self.op} {self.bound_name}={format_value(self.bound)}"


@dataclass(eq=False)
class SearchRecord:
    """Everything one run of an algorithm found out.

    Attributes:
        algorithm: the algorithm's name (``alphabeta``...).
        tree: the tree searched.
        value: the root's value.
        values: per node, the value the search gave it; None where it never went.
        best: decision node -> the child it chose (first on a tie); missing where
            the node has no choice (leaf, chance) or chose nothing (fail-low).
        pruned: topmost nodes never visited because of a cut, in tree order.
        stats: counters.
        alpha, beta: node -> bound in force when the node returned (pruning
            algorithms only): dicts, or read-only
            :class:`~gametree_cli.numeric.VisitBounds` from the compiled alpha-beta.
        cuts: node -> why its remaining children were skipped.
        horizon: nodes evaluated by ``eval`` because the depth limit stopped there.
        bound: shallow pruning only: inner node -> the Bound it was searched with.
        order: nodes in the order first entered; None for exhaustive searches,
            whose order is the tree order up to the depth limit.
        depth_limit: the ``--depth`` used, or None.
        options: options that shaped the search (variant, strict, order...).
    """

    algorithm: str
    tree: Tree
    value: Value | None
    values: list[Value | None]
    best: dict[int, int] | None = None
    pruned: list[int] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    alpha: Mapping[int, Value] | None = None
    beta: Mapping[int, Value] | None = None
    cuts: dict[int, Cut] = field(default_factory=dict)
    horizon: set[int] = field(default_factory=set)
    order: list[int] | None = None
    depth_limit: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    bound: dict[int, Value] | None = None

    def visit_order(self) -> list[int]:
        """Visited nodes, each once, in the order first entered."""
        if self.order is not None:
            return self.order
        return list(self.tree.preorder(self.depth_limit))

    def visited(self, node: int) -> bool:
        return self.values[node] is not None

    def best_child(self, node: int) -> int | None:
        """The child ``node`` chose, or None (leaf, chance node, horizon)."""
        tree = self.tree
        if tree.count[node] == 0 or node in self.horizon or tree.kind[node] == CHANCE:
            return None
        if self.best is not None:
            return self.best.get(node)
        target = self.values[node]
        for child in tree.children(node):
            if self.values[child] == target:
                return child
        return None

    def principal_variation(self) -> list[int]:
        """Nodes from the root's chosen child down, while there is a choice."""
        line: list[int] = []
        node = 0
        while True:
            child = self.best_child(node)
            if child is None:
                return line
            line.append(child)
            node = child

    def best_move(self) -> int | None:
        """The root's chosen child, or None when the root is a leaf."""
        return self.best_child(0)

    def _repr_svg_(self) -> str | None:
        """The annotated tree as SVG, so a notebook shows a record as a picture.

        None (IPython then shows the plain repr) when Graphviz is not installed.
        """
        from .views.dot import notebook_svg

        return notebook_svg(self)


@dataclass(eq=False)
class PruningLog:
    """What a pruning search (alpha-beta, Star1) fills in as it goes.

    The searches bind these containers to locals for their hot loops; the
    log then turns them into the :class:`SearchRecord` all views read, so the
    record's shape is written down once.
    """

    values: list[Value | None]
    alpha: dict[int, Value] = field(default_factory=dict)
    beta: dict[int, Value] = field(default_factory=dict)
    best: dict[int, int] = field(default_factory=dict)
    cuts: dict[int, Cut] = field(default_factory=dict)
    pruned: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    horizon: set[int] = field(default_factory=set)

    @classmethod
    def for_tree(cls, tree: Tree) -> "PruningLog":
        """Empty containers, and a value slot per node of ``tree``."""
        return cls([None] * len(tree.kind))

    def record(self, algorithm: str, tree: Tree, stats: Stats, depth_limit: int | None,
               options: dict[str, Any]) -> SearchRecord:
        return SearchRecord(
            algorithm,
            tree,
            self.values[0],
            self.values,
            best=self.best,
            pruned=self.pruned,
            stats=stats,
            alpha=self.alpha,
            beta=self.beta,
            cuts=self.cuts,
            horizon=self.horizon,
            order=self.order,
            depth_limit=depth_limit,
            options=options,
        )
