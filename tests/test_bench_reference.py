"""The bench's C reference (bench/reference.c) writes the contract's JSON result, as gametree does.

Why: `make bench` compares gametree's "JSON in, JSON out" with the C's; the
ratio is only honest if both write the same result. Checked on random
two-player trees, small ones (gametree's node-by-node path) and ones past
SMALL_TREE (its NumPy path), for minimax and alpha-beta, on the keys
CONTRACT.md section 3 asks for (gametree adds alpha, beta and type to each
node: those are left out of the comparison).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.api import solve

REFERENCE = Path(__file__).resolve().parents[1] / "bench" / "reference.c"
CONTRACT_KEYS = ("algorithm", "value", "best_move", "principal_variation", "pruned", "visit_order", "stats")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler (cc or gcc) to build bench/reference.c")
    program = tmp_path_factory.mktemp("reference") / "reference"
    subprocess.run([compiler, "-O2", "-o", str(program), str(REFERENCE)], check=True)
    return program


def random_node(rng: random.Random, depth: int, budget: list[int], wide: int) -> Any:
    """A node as the C reads it: a bare integer leaf or an object with "type" and "children"."""
    if depth == 0 or budget[0] <= 0 or (depth < 6 and rng.random() < 0.15):
        return rng.randint(-9, 9)  # few distinct values: ties and equal bounds everywhere
    budget[0] -= 1
    children = [random_node(rng, depth - 1, budget, wide) for _ in range(rng.randint(1, wide))]
    return {"type": rng.choice(("max", "min")), "children": children}


def contract_part(document: dict[str, Any]) -> dict[str, Any]:
    part = {key: document[key] for key in CONTRACT_KEYS}
    part["nodes"] = {node: {key: entry[key] for key in ("visited", "value") if key in entry}
                     for node, entry in document["nodes"].items()}
    part["node_order"] = list(document["nodes"])
    return part


@pytest.mark.parametrize("seed", range(40))
def test_the_reference_writes_what_gametree_writes(reference: Path, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    big = seed % 8 == 0
    root = random_node(rng, 9 if big else rng.randint(1, 6), [2_500 if big else 60], 5 if big else 4)
    if not isinstance(root, dict):
        root = {"type": "max", "children": [root]}
    tree_file = tmp_path / "tree.json"
    tree_file.write_text(json.dumps({"title": f"seed {seed}", "root": root}))
    for algorithm in ("minimax", "alphabeta"):
        out = tmp_path / f"{algorithm}.json"
        subprocess.run([str(reference), algorithm, str(tree_file), str(out)], check=True, capture_output=True)
        expected = contract_part(json.loads(solve(tree_file, algorithm).to_json()))
        assert contract_part(json.loads(out.read_text())) == expected, (seed, algorithm)
