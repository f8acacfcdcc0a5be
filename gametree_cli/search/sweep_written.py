"""The level sweep's exact helpers: which values are decimals, and the levels NumPy cannot hold.

Why a module of its own: :mod:`~gametree_cli.search.sweep` computes every
level in int64 numerators; two things need care beyond that, and live here.

* **Decimals.** With decimal probabilities (or leaves) an expectation is a
  float, the exact sum rounded once, while max and min nodes pass on the
  child they choose, float or exact. The sweep keeps a per-node flag
  ("this value is a decimal") next to the numerators: a chance node is a
  decimal when a child's ``p`` or value is; a max/min node when its chosen
  child is. The Python search compares a float with an exact number exactly
  (``0.3 < 3/10``, as the float 0.3 is 0.29999...), so where a decision
  node's best children tie in numerators but differ in kind,
  :func:`chosen_decimal` asks :func:`~gametree_cli.search.expecti.decide`,
  as the Python search does.
* **Levels NumPy cannot hold.** Where the next level would overflow int64,
  or a decimal no longer survives the trip through a float (more than 15
  significant digits, or no terminating decimal at all), the levels above
  are computed by the Python search's own rules from the Python numbers of
  the level below (:func:`python_levels`). Only those levels pay for Python
  numbers; they are a small share of a tree (a quarter at branching 4).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ..core.model import CHANCE, MAX, Tree
from ..core.numbers import Value
from ..core.numeric import LIMIT
from .expectation import expected_value

__all__ = ["chosen_decimal", "decode_block", "merge_written_evals", "python_levels"]


def chosen_decimal(children: np.ndarray, decimal: np.ndarray, offsets: np.ndarray, sizes: np.ndarray,
                   best: np.ndarray, maximizing: np.ndarray, deciding: np.ndarray, denominator: int) -> np.ndarray:
    """Per decision node, whether the child it chooses (the first best) holds a decimal.

    Args:
        children: the numerators of the next level's block (over ``denominator``).
        decimal: the same block's decimal flags.
        offsets, sizes: each node's children within the block.
        best: each node's best numerator (max or min, as its side says).
        maximizing: per node, whether it is a max node.
        deciding: per node, whether it is a max or min node (the others' flags are meaningless).
    """
    match = children == np.repeat(best, sizes)
    position = np.arange(len(children))
    first = np.minimum.reduceat(np.where(match, position, len(children)), offsets)
    flags = decimal[np.minimum(first, len(children) - 1)]  # (a chance node's "best" is not its value: no match)
    decimal_ties = np.add.reduceat(match & decimal, offsets)
    mixed = np.flatnonzero(deciding & (decimal_ties > 0) & (decimal_ties < np.add.reduceat(match, offsets)))
    for node in mixed.tolist():  # a float and an exact number tie in numerators: compare as Python does
        lo = int(offsets[node])
        block = slice(lo, lo + int(sizes[node]))
        values = decode_block(children[block], denominator, decimal[block])
        chosen = values.index(max(values) if maximizing[node] else min(values))
        flags[node] = decimal[lo + chosen]
    return flags


def merge_written_evals(leaf: np.ndarray, denominator: int, decimal: np.ndarray,
                        evals: dict[int, Value]) -> tuple[np.ndarray, int] | None:
    """The leaf numerators with the horizon nodes' evals written in (decimals as written,
    flagged in ``decimal``, in place), over a denominator both share; None when they do not
    fit int64."""
    nodes = list(evals)
    if any(value.__class__ is float and value == 0 and math.copysign(1, value) < 0 for value in evals.values()):
        return None  # -0.0 would come back as 0.0: the Python path keeps its sign
    exact = [Fraction(repr(value)) if value.__class__ is float else Fraction(value)  # type: ignore[arg-type]
             for value in evals.values()]
    common = denominator
    for number in exact:
        common = common * number.denominator // math.gcd(common, number.denominator)
    factor = common // denominator
    numerators = [number.numerator * (common // number.denominator) for number in exact]
    if max(map(abs, numerators), default=0) >= LIMIT or int(np.abs(leaf).max(initial=0)) * factor >= LIMIT:
        return None
    merged = leaf * factor
    merged[nodes] = numerators
    decimal[nodes] = [value.__class__ is float for value in evals.values()]
    return merged, common


def decode_block(numerators: np.ndarray, denominator: int, decimal: np.ndarray | None) -> list[Value]:
    """Python numbers of ``numerators / denominator``: floats (correctly rounded) where ``decimal``."""
    raw = numerators.tolist()
    if decimal is None or not decimal.any():
        if denominator == 1:
            return raw  # type: ignore[no-any-return]
        exact = [Fraction(numerator, denominator) for numerator in raw]
        return [number.numerator if number.denominator == 1 else number for number in exact]
    values: list[Value] = []
    for numerator, is_decimal in zip(raw, decimal.tolist()):
        if is_decimal:
            values.append(numerator / denominator)  # int / int: correctly rounded
        elif denominator == 1:
            values.append(numerator)
        else:
            exact = Fraction(numerator, denominator)
            values.append(exact.numerator if exact.denominator == 1 else exact)
    return values


def python_levels(tree: Tree, levels: Sequence[tuple[int, int]], top: int, below: list[Value]) -> list[Any]:
    """The values of every node in ``levels[0..top]``, by the Python search's rules.

    ``below`` holds the Python values of level ``top + 1``, in node order. Returns a list
    over the nodes ``0 .. levels[top + 1]`` end, the given level included.
    """
    start_below = levels[top + 1][0]
    values: list[Any] = [None] * start_below + below
    kind, first, count, prob, leaf = tree.kind, tree.first, tree.count, tree.prob, tree.value
    from .expectation import decide

    for level in range(top, -1, -1):
        start, end = levels[level]
        for node in range(start, end):
            size = count[node]
            if size == 0:
                values[node] = leaf[node]
                continue
            lo = first[node]
            children = values[lo : lo + size]
            if kind[node] == CHANCE:
                values[node] = expected_value(list(zip(prob[lo : lo + size], children)))  # type: ignore[index]
            else:
                values[node] = decide(kind[node] == MAX, None, children)[1]
    return values
