"""The depth levels of a tree: breadth-first numbering makes each one a block of node numbers."""

from __future__ import annotations

from .model import Tree

__all__ = ["level_bounds"]


def level_bounds(tree: Tree, depth_limit: int | None = None) -> list[tuple[int, int]]:
    """``[(start, end), ...]``: the node numbers of each depth level.

    Breadth-first numbering makes every level a contiguous block, and the
    next level's size is the sum of this level's child counts.
    """
    levels = [(0, 1)]
    totals = tree._totals
    if totals is not None:  # the running sums a reader made (a .gtb file's): each level's size by a subtraction
        while depth_limit is None or len(levels) <= depth_limit:
            start, end = levels[-1]
            size = totals[end] - totals[start]
            if not size:
                break
            levels.append((end, end + size))
        return levels
    count = tree.count
    if len(count) > 4096:  # summing slices in NumPy: ~50x faster on big levels
        from .numeric import int64_view

        count = int64_view(count)
    while depth_limit is None or len(levels) <= depth_limit:
        start, end = levels[-1]
        size = int(count[start:end].sum() if end - start > 64 and hasattr(count, "sum") else sum(count[start:end]))
        if not size:
            break
        levels.append((end, end + size))
    return levels
