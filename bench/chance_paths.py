"""CPU time of the chance and n-player searches, per path, on one loaded tree.

Why: issue 17 rewrote expectiminimax, Star1 and max-n as one search each (plus
the NumPy sweep where it applies); this measures every path those searches
can take, so a change can be compared before/after on the same machine.
CPU time (``time.process_time``), best of ``--repeat`` runs, load excluded.

Paths measured on the chance tree (``bench/gen.py chance DEPTH json``):
``sweep`` (``solve`` as a user runs it), ``python`` (the sweep declined, as
for decimals or opponent models), ``observed`` (a no-op observer: the trace
path), ``expectimax`` and ``star1`` (bounds -999..999). On a random
three-player tree (``generate.random_tree``): ``maxn`` quiet and observed,
and with chance layers.

Usage: ``python bench/chance_paths.py CHANCE_TREE.json [--repeat N] [--nplayer-depth D]``, e.g.
``bench/data/chance-4-10.json`` (1.4·10^6 nodes, ``python bench/gen.py chance 10 json bench/data/chance-4-10.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
from gametree_cli.search import sweep as sweep_module
from gametree_cli.io.document import build_tree
from gametree_cli.generate.random_tree import RandomTreeSpec, random_tree


def best_cpu(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The smallest CPU time of ``repeat`` runs, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.process_time()
        result = run()
        best = min(best, time.process_time() - started)
    return best, result


def without_sweep(run: Callable[[], Any]) -> Callable[[], Any]:
    """``run`` with the NumPy sweep declining every tree (the pure-Python path)."""

    def declined() -> Any:
        original = sweep_module.sweep
        sweep_module.sweep = lambda *args, **kwargs: None  # type: ignore[assignment]
        try:
            return run()
        finally:
            sweep_module.sweep = original

    return declined


def with_chance_layers(node: Any, depth: int) -> None:
    """Make every inner node at an odd depth a uniform chance node (in place)."""
    if not isinstance(node, dict) or "children" not in node:
        return
    if depth % 2 == 1:
        node["type"] = "chance"
    for child in node["children"]:
        with_chance_layers(child, depth + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chance_tree")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nplayer-depth", type=int, default=9)
    args = parser.parse_args(argv)
    tree = load_tree(args.chance_tree)
    quiet = lambda event: None  # noqa: E731 - an observer that costs only the call
    cases: list[tuple[str, Any, Callable[[], Any]]] = [
        ("expectiminimax sweep", tree, lambda: solve(tree, "expectiminimax")),
        ("expectiminimax python", tree, without_sweep(lambda: solve(tree, "expectiminimax"))),
        ("expectiminimax observed", tree, lambda: solve(tree, "expectiminimax", observer=quiet)),
        ("expectimax", tree, lambda: solve(tree, "expectimax")),
        ("star1", tree, lambda: solve(tree, "star1", bounds=[-999, 999])),
    ]
    for chance in (False, True):
        spec = RandomTreeSpec(depth=args.nplayer_depth, branching=(4, 4), seed=1, players=3)
        document = random_tree(spec)
        if chance:
            with_chance_layers(document["root"], 0)
        nplayer = build_tree(json.loads(json.dumps(document)))
        label = "maxn chance" if chance else "maxn"
        cases.append((f"{label} quiet", nplayer, lambda nplayer=nplayer: solve(nplayer, "maxn")))
        cases.append((f"{label} observed", nplayer, lambda nplayer=nplayer: solve(nplayer, "maxn", observer=quiet)))
    for name, searched, run in cases:
        seconds, record = best_cpu(run, args.repeat)
        print(f"{name:28} {len(searched.kind):>9,} nodes  {seconds * 1000:9.1f} ms CPU  "
              f"value {record.value!s:>24}  visited {record.stats.nodes_visited:,}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
