"""Star2 against Star1 (and expectiminimax): leaves evaluated on random chance trees.

Why: Star2's probes buy cut-offs with extra searching (a probed move is
searched again unless its probe already settles it); this counts, on many
reproducible random trees, how often the trade pays. Leaves evaluated, not
time: the count is what the algorithms are compared by in the literature,
and it does not depend on the machine.

Trees: ``generate.random_tree`` with ``chance``: max, chance, min, chance, ...
layers, every leaf ``depth`` plies down, exact random probabilities, leaf
values uniform in ``values``; ``bounds`` are the value range (tight), or
``--slack`` wider on both sides (loose bounds, as when only a crude range is
known).

Usage: ``python bench/star2_vs_star1.py [--trees N] [--slack S]``
(``make bench-star2``). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gametree_cli import solve  # noqa: E402
from gametree_cli.io.document import build_tree  # noqa: E402
from gametree_cli.generate.random_tree import RandomTreeSpec, random_tree  # noqa: E402

#: (depth, branching of every node, leaf values)
SHAPES = [
    (4, (2, 2), (0, 9)),
    (4, (3, 3), (0, 9)),
    (6, (2, 2), (0, 9)),
    (6, (3, 3), (0, 9)),
    (6, (2, 4), (0, 9)),
    (8, (2, 2), (0, 9)),
    (6, (3, 3), (0, 1)),
    (6, (3, 3), (-100, 100)),
]


def measure(shape: tuple[int, tuple[int, int], tuple[int, int]], trees: int, slack: int) -> dict[str, Any]:
    depth, branching, values = shape
    leaves: dict[str, list[int]] = {"expectiminimax": [], "star1": [], "star2": []}
    wins = ties = losses = 0
    for seed in range(trees):
        document = random_tree(RandomTreeSpec(depth, branching, seed, chance=True, values=values))
        tree = build_tree(document)
        bounds = (values[0] - slack, values[1] + slack)
        exact = solve(tree, "expectiminimax")
        counts = {"expectiminimax": exact.stats.leaves_evaluated}
        for name in ("star1", "star2"):
            record = solve(tree, name, bounds=bounds)
            assert record.value == exact.value, (shape, seed, name)
            counts[name] = record.stats.leaves_evaluated
        for name, count in counts.items():
            leaves[name].append(count)
        wins += counts["star2"] < counts["star1"]
        ties += counts["star2"] == counts["star1"]
        losses += counts["star2"] > counts["star1"]
    return {"leaves": {name: statistics.mean(found) for name, found in leaves.items()},
            "wins": wins, "ties": ties, "losses": losses,
            "ratio": statistics.median(s2 / s1 for s1, s2 in zip(leaves["star1"], leaves["star2"]))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", type=int, default=100, help="random trees per shape (seeds 0..N-1)")
    parser.add_argument("--slack", type=int, default=0, help="widen the bounds by this much on each side")
    arguments = parser.parse_args()
    print(f"{arguments.trees} trees per shape; bounds = value range" +
          (f" widened by {arguments.slack} each side" if arguments.slack else "") + "\n")
    print("| depth | branching | values | leaves: expectiminimax | star1 | star2 | star2/star1 (median) | star2 fewer / same / more |")
    print("|---|---|---|---|---|---|---|---|")
    for shape in SHAPES:
        found = measure(shape, arguments.trees, arguments.slack)
        depth, (low, high), (v_low, v_high) = shape
        shown = str(low) if low == high else f"{low}..{high}"
        mean = found["leaves"]
        print(f"| {depth} | {shown} | {v_low}..{v_high} | {mean['expectiminimax']:.1f} | {mean['star1']:.1f} | "
              f"{mean['star2']:.1f} | {found['ratio']:.2f} | {found['wins']} / {found['ties']} / {found['losses']} |")


if __name__ == "__main__":
    main()
