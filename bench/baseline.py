"""The baselines, written plainly: textbook recursive searches over ``json.load``-ed dicts.

This is what a student or a course would write (Russell & Norvig, *AIMA*,
figs. 5.3 and 5.7, and section 5.5 for EXPECTIMINIMAX): a node is a dict,
``children`` a list, leaves carry ``value``; MAX and MIN alternate. Nothing
here is tuned, on purpose: these are the numbers gametree has to beat.

Usage: ``python bench/baseline.py MODE FILE`` with MODE ``load``,
``minimax``, ``numpy-minimax``, ``alphabeta``, ``expectiminimax`` or ``solve`` (load, then the
default search of the file's kind, print the answer). Prints one JSON line
of timings (seconds) for the runner.
"""

from __future__ import annotations

import json
import sys
import time

INF = float("inf")
visited = 0


def max_value(node):
    global visited
    visited += 1
    if "children" not in node:
        return node["value"]
    return max(min_value(child) for child in node["children"])


def min_value(node):
    global visited
    visited += 1
    if "children" not in node:
        return node["value"]
    return min(max_value(child) for child in node["children"])


def minimax_decision(root):
    """MINIMAX-DECISION: the root child with the highest min_value (and that value)."""
    global visited
    visited += 1
    best_value, best_child = -INF, None
    for position, child in enumerate(root["children"]):
        value = min_value(child)
        if value > best_value:
            best_value, best_child = value, position
    return best_value, best_child


def ab_max_value(node, alpha, beta):
    global visited
    visited += 1
    if "children" not in node:
        return node["value"]
    v = -INF
    for child in node["children"]:
        v = max(v, ab_min_value(child, alpha, beta))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def ab_min_value(node, alpha, beta):
    global visited
    visited += 1
    if "children" not in node:
        return node["value"]
    v = INF
    for child in node["children"]:
        v = min(v, ab_max_value(child, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def alpha_beta_search(root):
    """ALPHA-BETA-SEARCH: the root child chosen, and its value."""
    global visited
    visited += 1
    alpha, best_child = -INF, None
    for position, child in enumerate(root["children"]):
        value = ab_min_value(child, alpha, INF)
        if value > alpha:
            alpha, best_child = value, position
    return alpha, best_child


def expectiminimax(node):
    """EXPECTIMINIMAX: a chance node weighs its children by their ``p``, or equally when they have none."""
    global visited
    visited += 1
    if "children" not in node:
        return node["value"]
    values = [expectiminimax(child) for child in node["children"]]
    kind = node["type"]
    if kind == "max":
        return max(values)
    if kind == "min":
        return min(values)
    children = node["children"]
    if "p" in children[0]:  # explicit probabilities (decimals: bench/gen.py --probabilities decimal)
        return sum(child["p"] * value for child, value in zip(children, values))
    return sum(values) / len(values)


def numpy_minimax(root):
    """Minimax as a NumPy user would write it: the dicts flattened level by level, then one
    ``maximum.reduceat``/``minimum.reduceat`` per level from the leaves up (complete trees)."""
    import numpy as np

    levels, level = [], [root]
    while level:
        levels.append(level)
        level = [child for node in level for child in node.get("children", ())]
    values = np.array([node["value"] for node in levels[-1]], dtype=np.int64)
    for level in reversed(levels[:-1]):
        starts = np.cumsum([0] + [len(node["children"]) for node in level[:-1]])
        reduce = np.maximum if level[0]["type"] == "max" else np.minimum
        values = reduce.reduceat(values, starts)
    global visited
    visited = sum(len(level) for level in levels)
    return int(values[0])


def has_chance(root) -> bool:
    """Whether the tree has a chance node: a walk down the first children (the
    benchmark trees are complete, so every level is on it). Not ``json.dumps``
    of the tree, which serialised every node and added its time to the baseline."""
    node = root
    while "children" in node:
        if node.get("type") == "chance":
            return True
        node = node["children"][0]
    return False


def main() -> None:
    mode, path = sys.argv[1], sys.argv[2]
    sys.setrecursionlimit(100_000)
    started = time.perf_counter()
    with open(path, encoding="utf-8") as stream:
        document = json.load(stream)
    loaded = time.perf_counter()
    root = document["root"]
    chance = mode == "expectiminimax" or (mode == "solve" and has_chance(root))
    result = None
    if mode == "minimax":
        result = minimax_decision(root)
    elif mode == "numpy-minimax":
        result = numpy_minimax(root)
    elif mode == "alphabeta" or (mode == "solve" and not chance):
        result = alpha_beta_search(root)
    elif mode in ("expectiminimax", "solve"):
        result = expectiminimax(root)
    searched = time.perf_counter()
    if mode == "solve":
        print(json.dumps({"value": result if not isinstance(result, tuple) else result[0]}), file=sys.stderr)
    print(json.dumps({"load": loaded - started, "search": searched - loaded, "visited": visited,
                      "value": str(result[0] if isinstance(result, tuple) else result)}))


if __name__ == "__main__":
    main()
