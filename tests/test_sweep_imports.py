"""Minimax's level sweep of a big tree of integers loads neither fractions nor decimal.

Why: the sweep's decimal and fraction helpers (core/written.py, core/written_column.py,
search/sweep_written.py) import both (~2 ms, a quarter of the sweep's stage of a 1.4-million-node
``.gtb`` solve: issue 14, target 3b); search/sweep.py imports them only where such a tree needs them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from gametree_cli.io.binary_encode import encode_binary
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.minimax import SWEEP_FROM
from gametree_cli.search.registry import solve

from .test_startup import loaded_by


def _uniform(rng: random.Random, depth: int, leaf: Any) -> Any:
    if depth == 0:
        return leaf(rng)
    return {"type": "max" if depth % 2 == 0 else "min", "children": [_uniform(rng, depth - 1, leaf) for _ in range(4)]}


def test_an_integer_sweep_loads_no_fractions_and_a_fraction_one_does(tmp_path: Path) -> None:
    rng = random.Random(3)
    path = tmp_path / "big.gtb"
    for leaf, heavy in ((lambda rng: rng.randint(-99, 99), set()), (lambda rng: f"{rng.randint(-9, 9)}/7", {"fractions", "decimal"})):
        tree = parse_tree(json.dumps({"root": _uniform(rng, 6, leaf)}))
        assert len(tree.kind) >= SWEEP_FROM
        record = solve(tree, "minimax")
        assert record.engine == "sweep"
        path.write_bytes(encode_binary(tree))
        loaded, text = loaded_by(["solve", str(path), "--algo", "minimax"], ("fractions", "decimal"))
        assert f"value {record.value}" in text and loaded == heavy, (loaded, text[:200])


def _chance(rng: random.Random, depth: int) -> Any:
    """max over chance over max … with decimal shares (0.1, 0.2, 0.3, 0.4) and integer leaves."""
    if depth == 0:
        return rng.randint(-99, 99)
    if depth % 2:
        return {"type": "chance", "children": [{"p": share, **_node(_chance(rng, depth - 1))}
                                               for share in (0.1, 0.2, 0.3, 0.4)]}
    return {"type": "max", "children": [_chance(rng, depth - 1) for _ in range(4)]}


def _node(child: Any) -> dict[str, Any]:
    return child if isinstance(child, dict) else {"value": child}


def test_a_big_chance_solve_loads_no_numpy_ma(tmp_path: Path) -> None:
    """``np.unique`` without ``return_inverse`` imports numpy.ma (~7-10 ms a run): the sweep's weights and the
    ``.gtb`` reader's shares do without it (core/buffers.sorted_distinct)."""
    tree = parse_tree(json.dumps({"root": _chance(random.Random(5), 6)}))
    assert len(tree.kind) >= SWEEP_FROM
    record = solve(tree, "expectiminimax")
    assert record.engine == "sweep"
    source, binary = tmp_path / "chance.json", tmp_path / "chance.gtb"
    source.write_text(json.dumps({"root": _chance(random.Random(5), 6)}), encoding="utf-8")
    binary.write_bytes(encode_binary(tree))
    for path in (source, binary):
        loaded, text = loaded_by(["solve", str(path), "--algo", "expectiminimax"], ("numpy", "numpy.ma"))
        assert f"value {record.value}" in text and loaded == {"numpy"}, (path.suffix, loaded, text[-300:])


def test_sorted_distinct_is_np_unique_for_integers() -> None:
    import numpy as np

    from gametree_cli.core.buffers import sorted_distinct

    rng = np.random.default_rng(7)
    cases = [np.zeros(0, dtype=np.int64), np.array([5]), np.array([3, 3, 3]), np.array([-1, 2, -1, 7, 2])]
    cases += [rng.integers(-spread, spread + 1, size) for spread, size in ((0, 9), (3, 1000), (1 << 40, 5000))]
    for values in cases:
        got = sorted_distinct(values)
        assert got.dtype == values.dtype and np.array_equal(got, np.unique(values)), values[:10]
