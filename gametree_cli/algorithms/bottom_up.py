"""The skeleton every exhaustive Python search shares: children before parents.

Breadth-first numbering puts every child after its parent, so walking the
levels from the deepest up evaluates each node after all its children, with
no stack and no recursion. Leaves take their value, nodes at the depth limit
their ``eval``; every other node's value is what the algorithm's ``combine``
makes of its children's values. (Big trees take the NumPy path,
:mod:`gametree_cli.algorithms.sweep`; this one serves every tree.)
"""

from __future__ import annotations

from typing import Callable

from ..model import Tree
from ..numbers import Value
from ..record import Stats
from .minimax import level_bounds

__all__ = ["Combine", "evaluate_bottom_up"]

#: ``combine(node, first_child, children_values) -> value`` of an inner node.
Combine = Callable[[int, int, list], Value]


def evaluate_bottom_up(
    tree: Tree, depth_limit: int | None, combine: Combine
) -> tuple[list[Value | None], Stats, set[int]]:
    """Every node's value within the depth limit, children first.

    Returns:
        ``(values, stats, horizon)``: per node its value (None below the depth
        limit), the counters of an exhaustive search, and the nodes evaluated
        by ``eval`` at the limit.
    """
    first, count = tree.first, tree.count
    leaf_value, evals = tree.value, tree.evals
    values: list[Value | None] = [None] * len(count)
    horizon: set[int] = set()
    stats = Stats()
    levels = level_bounds(tree, depth_limit)
    for level in range(len(levels) - 1, -1, -1):
        start, end = levels[level]
        stats.nodes_visited += end - start
        at_horizon = depth_limit is not None and level == depth_limit
        for node in range(end - 1, start - 1, -1):
            n_children = count[node]
            if not n_children:
                values[node] = leaf_value[node]
                stats.leaves_evaluated += 1
            elif at_horizon:
                values[node] = evals[node]
                horizon.add(node)
                stats.leaves_evaluated += 1
            else:
                begin = first[node]
                values[node] = combine(node, begin, values[begin : begin + n_children])
    return values, stats, horizon
