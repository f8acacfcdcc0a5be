"""Alpha-beta per visited node: the compiled kernel against the Python loop (and a textbook recursion).

Usage: ``python bench/abkernel.py TREE.json [--repeat 5]``. Each measurement is
the median of ``--repeat`` in-process calls of ``solve(tree, "alphabeta")``,
record building included; the previous call's record is freed before the
clock starts.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import statistics
import sys
import time

from gametree_cli import load_tree, solve

minimax_module = importlib.import_module("gametree_cli.algorithms.minimax")


def textbook(node, alpha=-math.inf, beta=math.inf, is_max=True, counter=[0]):
    """AIMA's fail-soft ALPHA-BETA over the parsed JSON (dict inner nodes, int leaves), counting visits."""
    counter[0] += 1
    if not isinstance(node, dict):  # the generator writes leaves as bare numbers
        return node
    v = -math.inf if is_max else math.inf
    for child in node["children"]:
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
    visited = solve(tree, "alphabeta").stats.nodes_visited
    print(f"{len(tree.kind)} nodes, {visited} visited; kernel built: {minimax_module._abkernel is not None}")
    for flag in (True, False):
        minimax_module.USE_KERNEL = flag
        seconds = timed(lambda: solve(tree, "alphabeta"), args.repeat)
        print(f"solve, {'kernel' if flag else 'Python loop'}: {seconds * 1e3:.1f} ms, {seconds * 1e9 / visited:.0f} ns per visited node")
    minimax_module.USE_KERNEL = True
    with open(args.tree) as handle:
        root = json.load(handle)["root"]
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    counter = [0]
    textbook(root, counter=counter)
    seconds = timed(lambda: textbook(root, counter=[0]), args.repeat)
    print(f"textbook recursion (no record): {seconds * 1e3:.1f} ms, {seconds * 1e9 / counter[0]:.0f} ns per visited node ({counter[0]} visited)")


if __name__ == "__main__":
    main()
