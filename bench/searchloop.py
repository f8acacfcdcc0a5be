"""The search loop alone, in process: compiled (Cython) against its own Python source, and a textbook recursion.

Usage: ``python bench/searchloop.py TREE.json [--repeat 5]``. Each figure is
the median of ``--repeat`` calls of ``solve(tree, ALGORITHM)``, record
included (the previous call's record is freed before the clock starts):

* alpha-beta with ``algorithms/search.py`` compiled (when it is built) and
  run from its source (the same file, plain Python);
* minimax: the depth-first walk (compiled, and from source) against the NumPy
  level sweep that ``minimax`` takes for big trees nobody observes;
* the textbook recursion over the parsed JSON (AIMA's fail-soft ALPHA-BETA,
  no record), for scale.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import math
import statistics
import sys
import time
from pathlib import Path

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
from gametree_cli.search import depth_first as search

#: the module (the package's own ``minimax`` is the function)
minimax_module = importlib.import_module("gametree_cli.search.minimax")


def source_walk():
    """``algorithms/search.py`` loaded from its source, whatever is built."""
    path = Path(search.__file__).with_name("search.py")
    spec = importlib.util.spec_from_file_location("gametree_cli.search._search_source", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    assert not module.COMPILED
    return module.walk


def textbook(node, alpha=-math.inf, beta=math.inf, is_max=True, counter=[0]):
    """AIMA's fail-soft ALPHA-BETA over the parsed JSON, counting visits."""
    counter[0] += 1
    children = node.get("children") if isinstance(node, dict) else None
    if not children:
        return node["value"] if isinstance(node, dict) else node
    v = -math.inf if is_max else math.inf
    for child in children:
        result = textbook(child, alpha, beta, not is_max, counter)
        if is_max:
            v = max(v, result)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, result)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def timed(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
        del result
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tree")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    tree = load_tree(args.tree)
    compiled_walk, python_walk = search.walk, source_walk()
    visited = solve(tree, "alphabeta").stats.nodes_visited
    print(f"{len(tree.kind):,} nodes; alpha-beta visits {visited:,}; search.COMPILED = {search.COMPILED}")
    for label, walk in (("compiled", compiled_walk), ("Python source", python_walk)):
        search.walk = walk
        seconds = timed(lambda: solve(tree, "alphabeta"), args.repeat)
        print(f"alphabeta, {label}: {seconds * 1e3:.1f} ms, {seconds * 1e9 / visited:.0f} ns per visited node")
    n = len(tree.kind)
    for label, walk in (("walk compiled", compiled_walk), ("walk Python source", python_walk)):
        search.walk = walk
        minimax_module.SWEEP_FROM = n + 1
        seconds = timed(lambda: solve(tree, "minimax"), max(1, args.repeat // 2) if "source" in label else args.repeat)
        print(f"minimax, {label}: {seconds * 1e3:.1f} ms, {seconds * 1e9 / n:.0f} ns per node")
    search.walk = compiled_walk
    minimax_module.SWEEP_FROM = 0
    seconds = timed(lambda: solve(tree, "minimax"), args.repeat)
    print(f"minimax, NumPy sweep: {seconds * 1e3:.1f} ms, {seconds * 1e9 / n:.0f} ns per node")
    with open(args.tree) as handle:
        root = json.load(handle)["root"]
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    counter = [0]
    textbook(root, counter=counter)
    seconds = timed(lambda: textbook(root, counter=[0]), args.repeat)
    print(f"textbook alpha-beta recursion (no record): {seconds * 1e3:.1f} ms, "
          f"{seconds * 1e9 / counter[0]:.0f} ns per visited node ({counter[0]:,} visited)")


if __name__ == "__main__":
    main()
