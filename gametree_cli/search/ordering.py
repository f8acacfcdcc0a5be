"""Children orders for pruning searches: ``--order given|best|worst``.

Alpha-beta's savings depend on the order it meets the children in. Two
orders show the extremes a course talks about:

* ``best``: each node's children sorted by their true (depth-limited)
  minimax value, best first for the player to move. Alpha-beta then
  searches exactly Knuth and Moore's minimal tree: on a uniform tree of
  branching ``b`` and depth ``d``, ``b**ceil(d/2) + b**floor(d/2) - 1`` leaves.
* ``worst``: the reverse preference, worst first; alpha-beta degrades
  towards plain minimax.

Both sorts are stable, so equal children keep their file order (and the
first of them stays the chosen one on a tie). The true values come from one
exhaustive minimax sweep; a node's permutation is built the first time the
search asks for it, so a search that prunes most of a huge tree sorts only
the nodes it enters.

Reference: Knuth & Moore, "An analysis of alpha-beta pruning", Artificial
Intelligence 6 (1975), section 6 (the minimal tree).
"""

from __future__ import annotations

from typing import Sequence

from ..core.errors import AlgorithmError
from ..core.model import MAX, MIN, Tree
from ..core.numbers import Value
from .minimax import minimax

__all__ = ["ORDERS", "ChildOrder", "child_order_for"]

ORDERS = ("given", "best", "worst")


class ChildOrder:
    """Per node, the positions of its children in the order to search them.

    ``order[node]`` is a list of 0-based child positions (a permutation of
    ``range(tree.count[node])``), what :func:`~.minimax.alphabeta` takes as
    ``child_order``.
    """

    __slots__ = ("kind", "first", "count", "values", "best_first", "_cache")

    def __init__(self, tree: Tree, values: Sequence[Value | None], best_first: bool) -> None:
        self.kind, self.first, self.count = tree.kind, tree.first, tree.count
        #: per node, its exhaustive (depth-limited) minimax value; None below the horizon.
        self.values = values
        self.best_first = best_first
        self._cache: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return len(self.kind)

    def __getitem__(self, node: int) -> list[int]:
        positions = self._cache.get(node)
        if positions is None:
            positions = self._cache[node] = self._sort(node)
        return positions

    def _sort(self, node: int) -> list[int]:
        start, n_children = self.first[node], self.count[node]
        children = list(self.values[start : start + n_children])
        kind = self.kind[node]
        if kind not in (MAX, MIN) or any(value is None for value in children):
            return list(range(n_children))
        # best first for MAX = highest first; for MIN = lowest first; worst: the reverse preference.
        highest_first = (kind == MAX) == self.best_first
        if highest_first:
            return sorted(range(n_children), key=lambda position: -children[position])  # type: ignore[operator]
        return sorted(range(n_children), key=lambda position: children[position])  # type: ignore[arg-type,return-value]


def child_order_for(tree: Tree, order: str, depth: int | None = None) -> ChildOrder | None:
    """The children order ``order`` asks for; None for ``given`` (file order).

    Args:
        tree: a two-player (max/min) tree.
        order: ``given``, ``best`` or ``worst``.
        depth: the search's depth limit: values below it are ``eval``s at the horizon.

    Raises:
        AlgorithmError: an unknown order.
    """
    if order == "given":
        return None
    if order not in ORDERS:
        raise AlgorithmError(f"unknown order {order!r} (expected given, best or worst)")
    values = minimax(tree, depth_limit=depth).values
    return ChildOrder(tree, values, best_first=order == "best")
