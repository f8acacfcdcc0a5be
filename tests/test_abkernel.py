"""The optional compiled alpha-beta kernel (gametree_cli._abkernel) against the
pure-Python loop of ``_alphabeta_quiet``: the same SearchRecord, field by field."""

from __future__ import annotations

import importlib
import json
import math
from array import array
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree_cli import parse_tree, solve
from gametree_cli.model import MAX, MIN, Tree
from gametree_cli.numeric import VisitBounds

pytest.importorskip(
    "gametree_cli._abkernel",
    reason="the C kernel is not built (no C compiler at install time); alpha-beta runs its Python loop",
)

minimax_module = importlib.import_module("gametree_cli.algorithms.minimax")


def python_record(tree: Tree, strict: bool):
    return minimax_module._alphabeta_quiet(tree, None, strict, use_kernel=False)


def kernel_record(tree: Tree, strict: bool):
    record = minimax_module._alphabeta_kernel(tree, strict)
    assert record is not None, "the kernel declined a tree with a numeric form"
    return record


def typed(value: Any) -> Any:
    """A value with its type, so 2 and 2.0 and Fraction(2) do not pass for each other."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    return (type(value).__name__, value)


def assert_same_record(got, expected) -> None:
    assert got.algorithm == expected.algorithm
    assert got.tree is expected.tree
    assert typed(got.value) == typed(expected.value)
    assert len(got.values) == len(expected.values)
    assert [typed(v) for v in got.values] == [typed(v) for v in expected.values]
    assert got.order == expected.order
    assert got.best == expected.best
    assert got.pruned == expected.pruned
    assert got.stats == expected.stats
    assert {k: typed(v) for k, v in got.alpha.items()} == {k: typed(v) for k, v in expected.alpha.items()}
    assert {k: typed(v) for k, v in got.beta.items()} == {k: typed(v) for k, v in expected.beta.items()}
    assert got.alpha.keys() == expected.alpha.keys() and got.beta.keys() == expected.beta.keys()
    if isinstance(got.alpha, VisitBounds):  # the kernel's compact bounds
        assert_bounds_read_alike(got.alpha, expected.alpha)
        assert_bounds_read_alike(got.beta, expected.beta)
    assert got.cuts.keys() == expected.cuts.keys()
    for node, cut in got.cuts.items():
        other = expected.cuts[node]
        assert type(cut) is type(other)
        assert [typed(part) for part in cut] == [typed(part) for part in other]
        assert cut.reason() == other.reason()
    assert got.horizon == expected.horizon
    assert got.depth_limit == expected.depth_limit
    assert got.options == expected.options
    assert got.principal_variation() == expected.principal_variation()


def assert_bounds_read_alike(got: Any, expected: dict) -> None:
    """The kernel's compact bounds answer every way a view asks, as the Python loop's dict does."""
    n = len(got.position)
    for node in (-1, 0, n - 1, n, "0", None):
        assert (node in got) == (node in expected)
        assert typed(got.get(node, "none")) == typed(expected.get(node, "none"))
    assert len(got) == len(expected) and bool(got) == bool(expected)
    nodes = np.arange(n, dtype=np.int64)
    has = got.has_each(nodes)
    assert has.tolist() == [node in expected for node in range(n)]
    assert [typed(v) for v in got.values_of(nodes[has])] == [typed(expected[node]) for node in np.flatnonzero(has)]
    if n not in expected:
        with pytest.raises(KeyError):
            got[n]


def compact_trees(leaves: st.SearchStrategy) -> st.SearchStrategy:
    """Nested lists (the root a list: a lone string is not a tree document)."""
    return st.lists(st.recursive(leaves, lambda inner: st.lists(inner, min_size=1, max_size=4), max_leaves=40),
                    min_size=1, max_size=4)


integers = st.integers(-4, 4)  # few distinct values: many ties
fractions = st.one_of(integers, st.builds(lambda a, b: f"{a}/{b}", st.integers(-9, 9), st.integers(1, 6)))
decimals = st.one_of(st.sampled_from([-1.5, 0.0, 0.25, 2.5, 1e300, -1e300]), st.floats(-10, 10, allow_nan=False))


def check(compact: Any, strict: bool) -> None:
    tree = parse_tree(json.dumps(compact))
    expected = python_record(tree, strict)
    assert_same_record(kernel_record(tree, strict), expected)
    assert_same_record(solve(tree, "alphabeta", strict=strict), solve_in_python(tree, strict))  # the public path


def solve_in_python(tree: Tree, strict: bool):
    minimax_module.USE_KERNEL = False
    try:
        return solve(tree, "alphabeta", strict=strict)
    finally:
        minimax_module.USE_KERNEL = True


@settings(max_examples=300, deadline=None)
@given(compact_trees(integers), st.booleans())
def test_integer_trees(compact: Any, strict: bool) -> None:
    check(compact, strict)


@settings(max_examples=200, deadline=None)
@given(compact_trees(fractions), st.booleans())
def test_fraction_trees(compact: Any, strict: bool) -> None:
    check(compact, strict)


@settings(max_examples=200, deadline=None)
@given(compact_trees(decimals), st.booleans())
def test_decimal_trees(compact: Any, strict: bool) -> None:
    check(compact, strict)


def test_fractions_come_back_as_fractions_and_whole_ones_as_ints() -> None:
    tree = parse_tree('[["7/3", "5/2"], ["1/3", "4/2"], [2]]')
    record = kernel_record(tree, False)
    assert record.value == Fraction(7, 3) and type(record.value) is Fraction
    assert_same_record(record, python_record(tree, False))


def test_no_numeric_form_falls_back_to_python() -> None:
    tree = parse_tree("[[1, 2.5], [3]]")  # decimals mixed with exact numbers: no NumPy form
    assert minimax_module._alphabeta_kernel(tree, False) is None
    assert_same_record(solve(tree, "alphabeta"), solve_in_python(tree, False))


def test_depth_limit_stays_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = parse_tree('{"root": {"eval": 1, "children": [{"eval": 2, "children": [1, 2]}, {"eval": 0, "children": [3]}]}}')

    def refuse(*args: Any) -> None:
        raise AssertionError("the kernel ran a depth-limited search")

    monkeypatch.setattr(minimax_module, "_alphabeta_kernel", refuse)
    record = solve(tree, "alphabeta", depth=1)
    assert record.horizon == {1, 2}


def test_flag_forces_the_python_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    tree = parse_tree("[[3, 5], [2, 9]]")
    monkeypatch.setattr(minimax_module, "USE_KERNEL", False)
    monkeypatch.setattr(minimax_module, "_alphabeta_kernel", lambda *args: pytest.fail("kernel used"))
    assert solve(tree, "alphabeta").value == 3


def chain(depth: int) -> Tree:
    """A comb ``depth`` levels deep: each inner node has an inner child, then a leaf.

    Breadth-first numbering: inner nodes 0, 1, 3, 5, ...; level L's inner node has children ``2L+1``, ``2L+2``.
    """
    n = 2 * depth + 1
    kind = bytearray(n)
    first = array("q", [0]) * n
    count = array("q", [0]) * n
    value: list[Any] = [None] * n
    inner = [0] + list(range(1, 2 * depth - 2, 2))  # levels 0 .. depth-1
    for level, node in enumerate(inner):
        kind[node] = MAX if level % 2 == 0 else MIN
        first[node] = 2 * level + 1
        count[node] = 2
    for node in range(n):
        if count[node] == 0:
            value[node] = (node * 7919) % 21 - 10
    player = array("q", [0 if kind[node] == MAX else 1 if kind[node] == MIN else -1 for node in range(n)])
    return Tree(kind, first, count, value, player)


@pytest.mark.parametrize("strict", [False, True])
def test_a_chain_100000_deep(strict: bool) -> None:
    tree = chain(100_000)
    expected = python_record(tree, strict)
    got = kernel_record(tree, strict)
    assert_same_record(got, expected)
    assert got.stats.nodes_visited > 100_000


def test_kernel_rejects_a_malformed_tree() -> None:
    from gametree_cli import _abkernel

    kind = bytearray([MAX, 0])
    first = array("q", [5, 0])  # a child range beyond the arrays
    count = array("q", [1, 0])
    with pytest.raises(ValueError):
        _abkernel.search(kind, first, count, array("q", [0, 0]), False, False)
