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
