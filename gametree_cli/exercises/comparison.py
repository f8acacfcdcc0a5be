"""``gametree compare``: run every algorithm that fits a tree on the same options.

What a course asks after teaching pruning: do all the algorithms agree on
the value, and how much of the tree did each one skip? The share pruned is
counted in nodes: the nodes inside pruned subtrees (down to the depth limit)
over all the nodes within the depth limit, the ones an exhaustive search visits.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..search.registry import Options, fitting_algorithms, solve
from ..core.levels import level_bounds
from ..core.errors import AlgorithmError, GameTreeError
from ..core.model import Tree
from ..search.record import SearchRecord

__all__ = ["Comparison", "compare_algorithms", "searchable_nodes", "pruned_nodes"]


@dataclass
class Comparison:
    """One algorithm's run.

    Attributes:
        algorithm: its name.
        record: what it found (None when it refused the options).
        error: why it could not run with these options (e.g. an order it does not take).
        searchable: nodes within the depth limit.
        pruned: nodes inside the subtrees it pruned.
    """

    algorithm: str
    record: SearchRecord | None
    error: GameTreeError | None = None
    searchable: int = 0
    pruned: int = 0

    @property
    def pruned_share(self) -> Fraction:
        """Pruned nodes over searchable nodes (0 for exhaustive algorithms)."""
        return Fraction(self.pruned, self.searchable) if self.searchable else Fraction(0)


def searchable_nodes(tree: Tree, depth: int | None) -> int:
    """Nodes at most ``depth`` plies below the root (all of them without a limit)."""
    return sum(end - start for start, end in level_bounds(tree, depth))


def pruned_nodes(record: SearchRecord) -> int:
    """Nodes inside ``record``'s pruned subtrees, down to its depth limit (no recursion)."""
    tree = record.tree
    limit = record.depth_limit
    depths = tree.depths() if limit is not None else None
    first, count = tree.first, tree.count
    total = 0
    stack = list(record.pruned)
    while stack:
        node = stack.pop()
        total += 1
        if depths is not None and depths[node] >= limit:  # type: ignore[operator]
            continue
        start = first[node]
        stack.extend(range(start, start + count[node]))
    return total


def compare_algorithms(tree: Tree, options: Options | None = None) -> list[Comparison]:
    """Every registered algorithm that fits ``tree``, each searching it once with ``options``.

    Raises:
        AlgorithmError: no algorithm fits the tree.
        IllegalTreeError: the depth limit lands on a node without ``eval``.
    """
    options = options or Options()
    searchable = searchable_nodes(tree, options.depth)
    names = fitting_algorithms(tree, options)
    if not names:
        raise AlgorithmError("no algorithm fits this tree", file=tree.source.name if tree.source else None)
    rows: list[Comparison] = []
    for name in names:
        try:
            record = solve(tree, name, options=options.copy())
        except AlgorithmError as error:  # refuses these options; bad trees still raise
            rows.append(Comparison(name, None, error, searchable))
            continue
        rows.append(Comparison(name, record, None, searchable, pruned_nodes(record)))
    return rows
