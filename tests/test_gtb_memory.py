"""The ``.gtb`` reader's memory: columns from a 2 MB boundary, int32 running sums, checks kept.

Why: fresh memory is most of a big ``.gtb`` read (the kernel zeroes every page
first touched), so ``io/binary.py`` reads the file and cuts the Tree's columns
from blocks that start on a 2 MB page (``core/buffers.aligned``) and keeps the running sums
in int32 below 2^31 nodes (docs/performance.md, issue 14, target 3b). These
tests hold the big-tree layout to the text reader, and the int32 sums to a
sum check that cannot wrap.
"""

from __future__ import annotations

import random
from itertools import accumulate

import numpy as np
import pytest

from gametree_cli import GameTreeError
from gametree_cli.core.buffers import HUGE_PAGE as _HUGE, aligned
from gametree_cli.io.binary import binary_tree
from gametree_cli.io.binary_encode import _pack, encode_binary
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.views.annotated import render_result


@pytest.mark.parametrize("zeros", [True, False], ids=["zeros", "empty"])
@pytest.mark.parametrize("dtype", ["uint8", "int32", "int64"])
@pytest.mark.parametrize("length", [0, 1, 4095, 2 * _HUGE // 8 - 1, 2 * _HUGE // 8, 2 * _HUGE + 1, 5 * _HUGE + 12345])
def test_aligned_arrays_start_on_a_big_page_with_whole_pages_after(zeros: bool, dtype: str, length: int) -> None:
    array = aligned(length, dtype, zeros=zeros)
    size = length * np.dtype(dtype).itemsize
    assert array.dtype == np.dtype(dtype) and array.shape == (length,) and array.flags.c_contiguous
    if zeros:
        assert not array.any()
    if size >= 2 * _HUGE:  # NumPy's own threshold for big pages: below it, a plain array
        owner = array
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        assert array.ctypes.data % _HUGE == 0
        room = owner.ctypes.data + owner.nbytes - array.ctypes.data  # whole 2 MB pages fit before its end
        assert room >= -(-size // _HUGE) * _HUGE


def _uniform_text(branching: int, depth: int, seed: int) -> str:
    """A uniform tree as nested lists (the text reader's shorthand), random leaves."""
    rng = random.Random(seed)
    text = None
    for level in range(depth):
        width = branching ** (depth - level - 1)
        if text is None:
            parts = [", ".join(str(rng.randint(-999, 999)) for _ in range(branching)) for _ in range(width)]
        else:
            parts = [", ".join(text[i * branching:(i + 1) * branching]) for i in range(width)]
        text = [f"[{part}]" for part in parts]
    assert text is not None and len(text) == 1
    return text[0]


def test_a_big_gtb_tree_reads_as_the_text_tree() -> None:
    """349,525 nodes (a block past 4 MB: the aligned path): count, first, the int32 running sums,
    parents and subtree sizes as the text reader makes them; the same drawings, minimax and alpha-beta."""
    expected = parse_tree(_uniform_text(4, 9, 314))
    read = binary_tree(encode_binary(expected), "big.gtb")
    n = len(read)
    assert n == 349_525 and np.asarray(read.count).ctypes.data % _HUGE == 0  # the block's start
    assert read.running_sums().format == "i"
    assert list(read.running_sums()) == list(accumulate(expected.count, initial=0))
    for column in ("count", "first"):
        assert np.array_equal(np.asarray(getattr(read, column)), np.asarray(getattr(expected, column))), column
    for node in (0, 1, 5, 87_380, 87_381, 200_000, n - 1):
        assert read.parent_lookup()[node] == expected.parents()[node]
        assert read.subtree_size(node) == expected.subtree_size(node)
    for algorithm in ("minimax", "alphabeta"):
        drawn = [render_result(solve(tree, algorithm)).plain_text() for tree in (read, expected)]
        assert drawn[0] is not None and drawn[0] == drawn[1], algorithm


def test_child_counts_whose_sum_wraps_int32_are_refused() -> None:
    """Counts adding up to ``n - 1 + 2^32`` (each below ``n``): an int32 running sum would end on
    ``n - 1``; the sum is checked in int64 first, so the file is refused as damaged, in one line."""
    n = 70_000
    full, rest = divmod(n - 1 + (1 << 32), n - 1)
    counts = [n - 1] * full + [rest] + [0] * (n - full - 1)
    assert len(counts) == n and 0 < rest < n and sum(counts) % (1 << 32) == n - 1
    kinds = [1 if count else 0 for count in counts]
    header = {"version": 1, "nodes": n, "players": ["MAX", "MIN"], "vector_payoffs": False, "title": None,
              "sum": None, "bounds": None, "values_json": [0] * counts.count(0)}
    data = _pack(header, {"kind": np.array(kinds, dtype=np.uint8), "count": np.array(counts, dtype=np.int32)})
    with pytest.raises(GameTreeError) as caught:
        binary_tree(data, "wrapped.gtb")
    message = str(caught.value)
    assert message.startswith("wrapped.gtb") and "do not add up" in message and "\n" not in message, message
