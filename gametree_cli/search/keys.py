"""Comparison keys: one int64 per value source, ordered as the values.

Why: alpha-beta and minimax only *compare* values, never add them, so the
depth-first search (:mod:`.search`) can run on int64 keys, in C when it is
compiled, and the exact values are read back from the tree only for what a
view shows. A key must order sources exactly as Python orders their values
(equal values, equal keys), whatever the numbers:

* integers and fractions: numerators over one common denominator (the
  tree's NumPy form, :func:`~gametree_cli.core.numeric.numeric_values`);
* decimals: the float's bits, turned so that integer order is float order
  (-0.0 counts as 0.0, which it equals);
* anything else (integers beyond int64, decimals mixed with fractions): the
  rank of the value among the distinct values, sorted by Python itself.

The sources are the leaves, the nodes at the depth limit (their ``eval``)
and two codes past the last node for -inf and inf.
"""

from __future__ import annotations

from array import array
from typing import Any

from ..core.buffers import is_small, plain_for
from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.model import Tree
from ..core.numeric import LIMIT, Numeric, _scaled, int64_view, numeric_values
from ..core.levels import level_bounds

__all__ = ["comparison_keys", "horizon_nodes", "INFINITE_KEY"]

#: the key of inf (and, negated, of -inf): beyond every value's key
INFINITE_KEY = (1 << 63) - 1
_LOW_BITS = (1 << 63) - 1


def horizon_nodes(tree: Tree, depth_limit: int | None) -> np.ndarray:
    """Inner nodes exactly at the depth limit (evaluated by ``eval``), int64."""
    if depth_limit is None:
        return np.zeros(0, dtype=np.int64)
    levels = level_bounds(tree, depth_limit)
    if len(levels) <= depth_limit:
        return np.zeros(0, dtype=np.int64)
    start, end = levels[depth_limit]
    return np.flatnonzero(int64_view(tree.count)[start:end]) + start


def comparison_keys(tree: Tree, depth_limit: int | None = None) -> Any:
    """Per source (every node, then -inf and inf) an int64 key; inner nodes above the horizon get 0 (never read).

    A small tree (:func:`~gametree_cli.core.buffers.is_small`) gets rank keys in an ``array('q')``,
    without NumPy: any keys that order the values as Python does make the same search.
    """
    n = len(tree.kind)
    if plain_for(tree):
        spare = None if is_small(n) else _plain_spare(tree, depth_limit)
        return _small_keys(tree, depth_limit) if spare is None else spare
    horizon = horizon_nodes(tree, depth_limit)
    numeric = numeric_values(tree)
    if not len(horizon) and numeric is not None and numeric.spare is not None:
        keys = numeric.spare  # the integer leaves are the keys: no copy, the sentinels in the spare slots
    else:
        keys = np.empty(n + 2, dtype=np.int64)
        if not _numeric_keys(tree, horizon, keys[:n]):
            _rank_keys(tree, horizon, keys[:n])
    keys[n], keys[n + 1] = -INFINITE_KEY, INFINITE_KEY
    return keys


def _plain_spare(tree: Tree, depth_limit: int | None) -> Any:
    """A big plain tree's keys without NumPy (:func:`~gametree_cli.core.buffers.plain_for`): its integer
    leaves, when it has them with two spare slots (the ``.gtb`` reader's) and no node is at a depth limit;
    else None."""
    numeric = tree._numeric
    if not isinstance(numeric, Numeric) or numeric.spare is None:
        return None
    if depth_limit is not None:
        levels = level_bounds(tree, depth_limit)
        if len(levels) > depth_limit:
            start, end = levels[depth_limit]
            if any(tree.count[node] for node in range(start, end)):
                return None
    keys = numeric.spare
    n = len(tree.kind)
    keys[n], keys[n + 1] = -INFINITE_KEY, INFINITE_KEY
    return keys


def _numeric_keys(tree: Tree, horizon: np.ndarray, out: np.ndarray) -> bool:
    """Fill ``out`` from the tree's NumPy form; False when there is none (or the evals do not fit it)."""
    numeric = numeric_values(tree)
    if numeric is None:
        return False
    evals = [tree.evals[node] for node in horizon.tolist()]
    if numeric.leaf.dtype.kind == "f":
        if not all(type(number) is float for number in evals):
            return False
        floats = numeric.leaf + 0.0  # a copy, with -0.0 made 0.0
        floats[horizon] = evals
        floats += 0.0
        bits = floats.view(np.int64)
        np.copyto(out, np.where(bits < 0, bits ^ _LOW_BITS, bits))
        return True
    if not evals:
        out[:] = numeric.leaf
        return True
    from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

    scaled = _scaled(evals + [Fraction(1, numeric.denominator)])  # the evals over a denominator the leaves share
    if scaled is None:
        return False
    data, denominator = scaled
    factor = denominator // numeric.denominator
    if factor != 1 and int(np.abs(numeric.leaf).max(initial=0)) * factor >= LIMIT:
        return False
    np.multiply(numeric.leaf, factor, out=out)
    out[horizon] = data[:-1]
    return True


def _rank_keys(tree: Tree, horizon: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` with each source's rank among the distinct values (Python's exact comparisons)."""
    out[:] = 0
    leaves = np.flatnonzero(int64_view(tree.count) == 0).tolist()
    sources = leaves + horizon.tolist()
    out[sources] = _ranks(tree, sources, len(leaves))


def _ranks(tree: Tree, sources: list[int], leaves: int) -> list[int]:
    """Per source (the first ``leaves`` leaves, then nodes at the horizon) its value's rank among the
    distinct values, by Python's exact comparisons."""
    values, evals = tree.value, tree.evals
    numbers = [values[node] for node in sources[:leaves]] + [evals[node] for node in sources[leaves:]]
    rank = {number: position for position, number in enumerate(sorted(set(numbers)))}  # equal values: one entry
    return [rank[number] for number in numbers]


def _small_keys(tree: Tree, depth_limit: int | None) -> array:
    """:func:`comparison_keys` of a small tree in plain Python: rank keys, as :func:`_rank_keys` makes them."""
    n = len(tree.kind)
    count, horizon = tree.count, []
    levels = level_bounds(tree, depth_limit)
    if depth_limit is not None and len(levels) > depth_limit:
        start, end = levels[depth_limit]
        horizon = [node for node in range(start, end) if count[node]]
    leaves = [node for node in range(n) if not count[node]]
    keys = array("q", bytes(8 * (n + 2)))
    for source, key in zip(leaves + horizon, _ranks(tree, leaves + horizon, len(leaves))):
        keys[source] = key
    keys[n], keys[n + 1] = -INFINITE_KEY, INFINITE_KEY
    return keys
