"""Exhaustive searches vectorised level by level with NumPy, keeping exact arithmetic.

Why: breadth-first numbering makes every depth level a contiguous block
whose children are the next block, in order (see :mod:`gametree_cli.core.model`),
so a whole level of max, min or expectation nodes is a few NumPy segment
reductions (``reduceat``) instead of a Python loop per node: ~10-30 ns a
node instead of ~300.

Exactness is kept, never traded for speed:

* integer and fraction values become int64 numerators over one common
  denominator (per level, since expectations multiply denominators); any
  risk of overflow is checked with Python integers before each level, and
  the levels from there up are computed by the Python search's own rules
  over the level below (:mod:`~gametree_cli.search.sweep_written`);
* decimal probabilities and decimal leaves under chance nodes are int64
  numerators of the decimals as written (:mod:`~gametree_cli.core.written`), with
  a per-node flag for values that are decimals: the record prints those as
  the float the Python search gives, the exact sum rounded once;
* decimal values of trees without chance nodes take a float64 path (max and
  min only pick values).

The values reach the record as a scaled :class:`~gametree_cli.core.columns.Column`
(a :class:`~gametree_cli.core.written_column.WrittenColumn` when some are decimals),
which turns a node's entry into a Python ``int`` / ``Fraction`` / ``float``
only when a view reads it: a million-node search does not pay for a million
Python numbers nobody prints.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.model import CHANCE, MAX, MIN, Tree
from ..core.numbers import Value
from ..core.numeric import LIMIT as _LIMIT
from ..core.buffers import aligned
from ..core.columns import Column
from ..core.numeric import Numeric, _scaled, int64_view, numeric_values
from ..core.progress import tick
from .record import SearchRecord, Stats
from ..core.levels import level_bounds
# core.written, core.written_column and .sweep_written are imported where they are needed: they load
# fractions and decimal (~1.5 ms), which a tree of integers without chance never uses

__all__ = ["sweep"]

def sweep(
    tree: Tree,
    depth_limit: int | None = None,
    *,
    name: str = "minimax",
    averaged_min: bool = False,
    min_width: int = 32,
) -> SearchRecord | None:
    """Exhaustive minimax / expectiminimax / expectimax over whole levels.

    Args:
        tree: a two-player tree (chance nodes allowed).
        depth_limit: stop this many plies below the root and use ``eval``.
        name: the algorithm's name for the record.
        averaged_min: expectimax: ``min`` nodes are uniform chance nodes.
        min_width: decline trees with fewer nodes than this per level on
            average (chains, tiny trees), where NumPy's per-call cost loses.

    Returns:
        The record the Python search gives (values, stats, horizon; ``best``
        left to :meth:`SearchRecord.best_child`, which picks the same first
        best child), or None when NumPy cannot hold the values exactly (the
        caller then runs the Python search). ``record.engine`` is
        ``"sweep"``; ``record.python_levels`` says how many top levels the
        Python rules computed (int64 would have overflowed there).
    """
    numeric = numeric_values(tree)
    if numeric is None or tree.extra or averaged_min:
        # (expectimax's record says its averaged min nodes chose no child: left to the Python path)
        return None
    kind = np.frombuffer(tree.kind, dtype=np.uint8)
    count = int64_view(tree.count)
    has_chance = tree.prob is not None and bool((kind == CHANCE).any())
    if has_chance and numeric.prob is None:
        return None
    leaf, denominator = numeric.leaf, numeric.denominator
    if has_chance and not numeric.exact:  # decimal leaves under chance nodes: the decimals as written
        from ..core.written import written_leaves

        written = written_leaves(leaf, count == 0)
        if written is None:
            return None
        leaf, denominator = written
    levels = level_bounds(tree, depth_limit)
    if len(levels) * min_width > levels[-1][1]:
        return None  # narrow and deep (a chain): a few NumPy calls per node would cost more than Python
    decimal: np.ndarray | None = None  # per node: the value is a decimal (a float in the record)
    if has_chance and (numeric.prob_decimal is not None or not numeric.exact):
        decimal = np.zeros(len(leaf), dtype=bool)
        if not numeric.exact:
            decimal[count == 0] = True
    horizon: set[int] = set()
    if depth_limit is not None and len(levels) - 1 == depth_limit:
        start, end = levels[-1]
        horizon = set((np.flatnonzero(count[start:end]) + start).tolist())
        merged = _with_evals(tree, horizon, leaf, denominator, decimal, has_chance)
        if merged is None:
            return None
        leaf, denominator, decimal = merged
    end = levels[-1][1]  # (the nonzero counts counted in place: ``== 0`` made n bools of fresh memory, ~1 ms)
    stats = Stats(nodes_visited=end, leaves_evaluated=end - int(np.count_nonzero(count[:end])) + len(horizon))
    values = aligned(len(leaf), leaf.dtype)  # (every entry written: from a big page, core/buffers.py)
    np.copyto(values, leaf)
    level_denominators, python_from = _levels(numeric, kind, count, levels, values, denominator, decimal)
    present = None
    if levels[-1][1] < len(values):
        present = np.zeros(len(values), dtype=bool)
        present[: levels[-1][1]] = True
    if python_from is not None:
        record_values = _python_top(tree, levels, values, level_denominators, decimal, python_from)
    else:
        record_values = _column(levels, values, level_denominators, decimal, present)
    record = SearchRecord(name, tree, record_values[0], record_values, stats=stats, horizon=horizon,
                          depth_limit=depth_limit)
    record.engine = "sweep"
    record.python_levels = 0 if python_from is None else python_from + 1
    return record


def _with_evals(tree: Tree, horizon: set[int], leaf: np.ndarray, denominator: int, decimal: np.ndarray | None,
                has_chance: bool) -> tuple[np.ndarray, int, np.ndarray | None] | None:
    """The leaf values with the horizon nodes' ``eval`` written in (None: no NumPy form)."""
    if not horizon:
        return leaf, denominator, decimal
    evals = {node: tree.evals[node] for node in horizon}
    if decimal is None and has_chance and float in set(map(type, evals.values())):
        decimal = np.zeros(len(leaf), dtype=bool)  # decimal evals under chance nodes
    if decimal is not None:
        from .sweep_written import merge_written_evals

        merged = merge_written_evals(leaf, denominator, decimal, evals)
    else:
        merged = _merge_evals(leaf, denominator, evals)
    return None if merged is None else (merged[0], merged[1], decimal)


def _levels(numeric: Numeric, kind: np.ndarray, count: np.ndarray, levels: list[tuple[int, int]],
            values: np.ndarray, denominator: int,
            decimal: np.ndarray | None) -> tuple[list[int], int | None]:
    """Fill ``values`` (and ``decimal``) bottom-up, level by level, in place.

    Returns each level's denominator and the lowest level NumPy could not compute (None:
    it computed all of them).
    """
    last = len(levels) - 1
    exact = values.dtype.kind == "i"
    level_denominators = [denominator] * (last + 1)
    below = denominator  # the denominator of the level under the current one
    for level in range(last - 1, -1, -1):
        tick("solve", last - level, last + 1)
        start, end = levels[level]
        block_count = count[start:end]
        whole = bool(block_count.all())  # every node of the level has children: views, not copies
        inner = None if whole else np.flatnonzero(block_count) + start  # (a whole level's: only if asked below)
        here = below
        if whole or len(inner):  # type: ignore[arg-type]
            child_start, child_end = levels[level + 1]
            children = values[child_start:child_end]
            sizes = block_count if whole else count[inner]
            inner_kind = kind[start:end] if whole else kind[inner]
            averaged = inner_kind == CHANCE
            if inner is None and (decimal is not None or averaged.any()):
                inner = np.arange(start, end)  # the nodes the chance and decimal steps index
            is_max = inner_kind == MAX
            is_min = (inner_kind == MIN) & ~averaged
            target = values[start:end] if whole else None  # a level of one kind is reduced into its place
            result, offsets = _max_min(children, sizes, is_max, is_min, target, exact and decimal is None)
            if decimal is not None and (is_max | is_min).any():
                child_decimal = decimal[child_start:child_end]
                decide = is_max | is_min
                if child_decimal.all():  # (issue 14's tree: every max/min node over chance nodes)
                    decimal[inner[decide]] = True
                elif child_decimal.any():
                    from .sweep_written import chosen_decimal

                    chosen = chosen_decimal(children, child_decimal, offsets, sizes, result, is_max, decide, below)
                    decimal[inner[decide]] = chosen[decide]
            if averaged.any():
                weights, scale = _weights(numeric, child_start, inner, sizes, inner_kind, averaged)
                largest = int(np.abs(children).max(initial=0))
                if largest * int(weights.max(initial=0)) * int(sizes.max()) >= _LIMIT or largest * scale >= _LIMIT:
                    return level_denominators, level  # int64 would overflow: the Python rules from here up
                if scale != 1:
                    result *= scale
                result[averaged] = np.add.reduceat(children * weights, offsets)[averaged]
                if decimal is not None:
                    child_decimal = decimal[child_start:child_end]
                    if numeric.prob_decimal is not None:
                        child_decimal = child_decimal | numeric.prob_decimal[child_start:child_end]
                    decimal[inner[averaged]] = np.logical_or.reduceat(child_decimal, offsets)[averaged]
                here = below * scale
            if whole:
                if result is not target:
                    values[start:end] = result
            else:
                values[inner] = result
        if exact and here != denominator:
            leaves = np.flatnonzero(block_count == 0) + start
            if len(leaves):
                factor = here // denominator
                if int(np.abs(values[leaves]).max()) * factor >= _LIMIT:
                    values[inner] = 0  # (recomputed by the Python rules)
                    return level_denominators, level
                values[leaves] *= factor
        level_denominators[level] = here
        below = here
        if decimal is not None and level:
            from ..core.written import exactly_decimal

            if not exactly_decimal(values[start:end][decimal[start:end]], here):
                return level_denominators, level - 1  # decimals a float no longer holds: the parents in Python
    return level_denominators, None


def _max_min(children: np.ndarray, sizes: np.ndarray, is_max: np.ndarray, is_min: np.ndarray,
             target: np.ndarray | None, columns: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """A level's max and min nodes reduced over their ``children`` (``sizes`` each), into ``target`` (a
    whole level's slice of the values) when the level is of one kind, and the offsets of the children
    (None when not made: a uniform level reduced by :func:`_reduce_columns`, which ``columns`` allows).

    Temporaries in place, and a level of one kind without masks: each is fresh memory in a run that
    freed none before, a .gtb's (docs/performance.md, issue 14.3 and target 3b)."""
    pick = np.maximum if is_max.all() else np.minimum if is_min.all() else None
    width = _uniform_width(sizes) if pick is not None and target is not None and columns else 0
    if width:
        return _reduce_columns(pick, children, width, target), None  # type: ignore[arg-type]
    offsets = np.cumsum(sizes)
    offsets -= sizes
    if pick is not None:
        return pick.reduceat(children, offsets, out=target), offsets
    result = np.empty(len(is_max), dtype=children.dtype)
    if is_max.any():
        result[is_max] = np.maximum.reduceat(children, offsets)[is_max]
    if is_min.any():
        result[is_min] = np.minimum.reduceat(children, offsets)[is_min]
    return result, offsets


#: the widest uniform level reduced column by column (:func:`_reduce_columns`: a NumPy call per child position)
_COLUMNS_UP_TO = 32


def _uniform_width(sizes: np.ndarray) -> int:
    """The number of children every node of a level has, when they all have as many, and at most
    :data:`_COLUMNS_UP_TO`; else 0."""
    width = int(sizes[0])
    return width if width <= _COLUMNS_UP_TO and int(sizes.min()) == width == int(sizes.max()) else 0


def _reduce_columns(pick: np.ufunc, children: np.ndarray, width: int, out: np.ndarray) -> np.ndarray:
    """Max (or min: ``pick``) of every ``width`` consecutive integers of ``children`` into ``out``:
    ``width - 1`` element-wise steps over strided columns, ~7x faster than ``reduceat`` here and without
    its offsets (an int64 a node of fresh memory). Integers only: the order of the steps cannot matter."""
    grid = children.reshape(-1, width)
    np.copyto(out, grid[:, 0])
    for position in range(1, width):
        pick(out, grid[:, position], out=out)
    return out


def _column(levels: list[tuple[int, int]], values: np.ndarray, level_denominators: list[int],
            decimal: np.ndarray | None, present: np.ndarray | None) -> Sequence[Value | None]:
    """The record's values: every level over the root's denominator, as one array column when
    the numerators fit (else Python numbers, level by level)."""
    exact = values.dtype.kind == "i"
    top = level_denominators[0]
    scaled = list(level_denominators)  # each level's denominator as it is now: the loop rescales in place
    for level, level_denominator in enumerate(level_denominators):
        if level_denominator != top:
            start, end = levels[level]
            factor = top // level_denominator
            if int(np.abs(values[start:end]).max(initial=0)) * factor >= _LIMIT:
                return _decoded(levels, values, scaled, decimal)  # (the levels above are over ``top`` by now)
            values[start:end] *= factor
            scaled[level] = top
    if decimal is None and (not exact or top == 1):
        return Column.scaled(values, top if exact else 1, present)
    # exact fractions too: the written column prints them in bulk (json_items)
    from ..core.written_column import written_column

    flags = np.zeros(len(values), dtype=bool) if decimal is None else decimal
    column = written_column(values, top, flags, present)
    if column is None and decimal is None:
        return Column.scaled(values, top, present)
    return column if column is not None else _decoded(levels, values, [top] * len(levels), decimal)


def _decoded(levels: list[tuple[int, int]], values: np.ndarray, level_denominators: list[int],
             decimal: np.ndarray | None, upto: int | None = None) -> list[Value | None]:
    """Python numbers of the nodes of ``levels[upto:]`` (all by default), each level over its
    own denominator; None for the nodes above and past the last level."""
    from .sweep_written import decode_block

    upto = 0 if upto is None else upto
    found: list[Value | None] = [None] * levels[upto][0]
    for level in range(upto, len(levels)):
        start, end = levels[level]
        flags = None if decimal is None else decimal[start:end]
        found += decode_block(values[start:end], level_denominators[level], flags)
    return found + [None] * (len(values) - len(found))


def _python_top(tree: Tree, levels: list[tuple[int, int]], values: np.ndarray, level_denominators: list[int],
                decimal: np.ndarray | None, top: int) -> list[Value | None]:
    """Levels ``0..top`` by the Python search's rules over the Python numbers of the levels below."""
    lower = _decoded(levels, values, level_denominators, decimal, top + 1)
    start, end = levels[top + 1]
    from .sweep_written import python_levels

    upper = python_levels(tree, levels, top, lower[start:end])
    return upper + lower[end:]


def _weights(numeric: Numeric, child_start: int, inner: np.ndarray, sizes: np.ndarray, inner_kind: np.ndarray,
             averaged: np.ndarray) -> tuple[np.ndarray, int]:
    """Integer weights of the children of averaging nodes, over a common ``scale``.

    A chance child weighs its probability; a child of an expectimax ``min``
    node weighs 1/n. Children of max/min nodes weigh 0 (their sums are unused).
    """
    chance = averaged & (inner_kind == CHANCE)
    uniform = averaged & ~chance
    scale = numeric.prob_denominator if chance.any() else 1
    if uniform.any():  # (np.unique imports numpy.ma, ~10 ms, even for no sizes at all)
        for size in np.unique(sizes[uniform]).tolist():
            scale = scale * size // math.gcd(scale, size)
    segment = np.repeat(np.arange(len(inner)), sizes)
    weights = np.zeros(len(segment), dtype=np.int64)
    if chance.any():
        assert numeric.prob is not None
        own = numeric.prob[child_start : child_start + len(segment)] * (scale // numeric.prob_denominator)
        weights = np.where(chance[segment], own, weights)
    if uniform.any():
        weights = np.where(uniform[segment], scale // sizes[segment], weights)
    return weights, scale


def _merge_evals(leaf: np.ndarray, denominator: int, evals: dict[int, Value]) -> tuple[np.ndarray, int] | None:
    """Leaf array with the horizon nodes' evals written in (same number kind required)."""
    nodes = list(evals)
    numbers = [evals[node] for node in nodes]
    if leaf.dtype.kind == "f":
        if not all(type(number) is float for number in numbers):
            return None
        merged = leaf.copy()
        merged[nodes] = numbers
        return merged, 1
    from fractions import Fraction

    scaled = _scaled(numbers + [Fraction(1, denominator)])
    if scaled is None:
        return None
    data, new_denominator = scaled
    factor = new_denominator // denominator
    if factor != 1 and int(np.abs(leaf).max(initial=0)) * factor >= _LIMIT:
        return None
    merged = leaf * factor
    merged[nodes] = data[:-1]
    return merged, new_denominator
