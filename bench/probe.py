"""gametree's side of the in-process measurements: load, then one search, timed inside.

Usage: ``python bench/probe.py MODE FILE`` with MODE ``load``, ``minimax``,
``alphabeta``, ``expectiminimax`` (through ``solve``), ``sweep-expectiminimax``
(the NumPy kernel alone) or ``yaml-<parser>`` (parse only, for the YAML
candidates). Prints one JSON line for the runner.
"""

from __future__ import annotations

import json
import sys
import time


def parse_yaml(parser: str, path: str) -> float:
    """Seconds to parse ``path`` with one YAML candidate (document only)."""
    from gametree_cli.core.bulk import paused_gc

    text = open(path, encoding="utf-8").read()
    started = time.perf_counter()
    if parser == "csafe":
        import yaml

        yaml.load(text, Loader=yaml.CSafeLoader)
    elif parser == "pure":
        import yaml

        yaml.load(text, Loader=yaml.SafeLoader)
    elif parser == "csafe-nogc":
        import yaml

        with paused_gc():
            yaml.load(text, Loader=yaml.CSafeLoader)
    elif parser == "yaml_rs":
        import yaml_rs

        with paused_gc():
            yaml_rs.loads(text)
    elif parser == "rapidyaml":
        import ryml

        with paused_gc():
            tree = ryml.parse_in_arena(text.encode("utf-8"))
            json.loads(ryml.emit_json_malloc(tree, tree.root_id()))
    return time.perf_counter() - started


def main() -> None:
    mode, path = sys.argv[1], sys.argv[2]
    if mode.startswith("yaml-"):
        print(json.dumps({"load": parse_yaml(mode[5:], path)}))
        return
    started = time.perf_counter()
    from gametree_cli.io.loader import load_tree
    from gametree_cli.search.registry import solve

    imported = time.perf_counter()
    tree = load_tree(path)
    loaded = time.perf_counter()
    record = None
    if mode.startswith("sweep-"):  # the NumPy kernel alone (algorithms/sweep.py)
        from gametree_cli.search.sweep import sweep

        record = sweep(tree, name=mode[6:], averaged_min=mode == "sweep-expectimax")
    elif mode != "load":
        record = solve(tree, mode)
    searched = time.perf_counter()
    print(json.dumps({
        "import": imported - started,
        "load": loaded - imported,
        "search": searched - loaded,
        "visited": record.stats.nodes_visited if record else 0,
        "value": str(record.value) if record else None,
        "nodes": len(tree),
    }))


if __name__ == "__main__":
    main()
