"""The JSON result writer alone: CPU seconds and peak memory of ``write_record`` on big trees.

Why a script of its own: ``make bench`` times whole runs, where the writer is
one part among loading, searching and start-up. Here each measurement is a
fresh process that loads a tree, solves it, then times only the writing
(``time.process_time``, user + system of this process) of the whole JSON
result to ``/dev/null`` (or ``--out``), and reports peak resident memory
(``ru_maxrss``) before and after writing.

Usage::

    python bench/writer.py                      # the two benchmark trees, minimax and alpha-beta, 3 runs each
    python bench/writer.py --reps 5 --trees minmax-4-10
    python bench/writer.py --one alphabeta bench/data/minmax-4-10.json   # one measurement (used by the above)

Trees come from ``bench/gen.py`` (``minmax-2-19``: 1,048,575 nodes;
``minmax-4-10``: 1,398,101 nodes) into ``bench/data/``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE))

#: name -> (branching, depth) of a complete minmax tree from bench/gen.py
TREES = {"minmax-2-19": (2, 19), "minmax-4-10": (4, 10)}


def _peak_mb() -> float:
    """This process's peak resident memory: ``VmHWM`` where Linux gives it, else ``ru_maxrss``.

    Why not ``ru_maxrss`` alone: on Linux it survives ``exec``, so a measurement spawned by this script
    after it generated the trees started from this script's own peak (every "before" figure of the
    12:06 run read 128 MB; bench/rusage.py says the same of bench/run.py). ``VmHWM`` belongs to the
    process's memory, which ``exec`` makes anew."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_one(algorithm: str, path: str, out: str) -> dict:
    """Load and solve ``path`` untimed, then write the result once, timed."""
    from gametree_cli.io.loader import load_tree
    from gametree_cli.search.registry import solve
    try:
        from gametree_cli.views.result_json import write_record
    except ImportError:  # before issue 17: the streamed writer had a module of its own
        from gametree_cli.views.result_stream import write_record  # type: ignore[no-redef]

    tree = load_tree(path)
    record = solve(tree, algorithm)
    keywords = {}
    try:  # before issue 17: best_moves came from a second, exhaustive search's record
        from gametree_cli.search import exact_record  # type: ignore[attr-defined]
    except ImportError:  # one engine: the record's own best_moves
        pass
    else:
        keywords["exact"] = exact_record(record, None)
    before = _peak_mb()
    with open(out, "w", encoding="utf-8") as stream:
        started = time.process_time()
        write_record(record, stream, **keywords)
        stream.flush()
        cpu = time.process_time() - started
    return {"nodes": len(tree), "visited": record.stats.nodes_visited, "cpu": cpu,
            "peak_before_mb": before, "peak_after_mb": _peak_mb()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--trees", nargs="*", default=list(TREES))
    parser.add_argument("--algorithms", nargs="*", default=["minimax", "alphabeta"])
    parser.add_argument("--out", default="/dev/null")
    parser.add_argument("--one", nargs=2, metavar=("ALGORITHM", "FILE"))
    parser.add_argument("--report", type=Path, help="also write the table, dated, to this Markdown file")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one[0], args.one[1], args.out)))
        return 0
    from gen import generate

    lines = ["| tree | nodes | algorithm | visited | write CPU s (median, min-max) | peak MB before -> after write |",
             "|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for name in args.trees:
        branching, depth = TREES[name]
        path = generate("minmax", depth, "json", DATA / f"{name}.json", branching=branching)
        for algorithm in args.algorithms:
            runs = []
            for _ in range(args.reps):
                done = subprocess.run([sys.executable, __file__, "--one", algorithm, str(path), "--out", args.out],
                                      check=True, capture_output=True, text=True)
                runs.append(json.loads(done.stdout))
            cpus = [run["cpu"] for run in runs]
            last = runs[-1]
            lines.append(f"| {name} | {last['nodes']:,} | {algorithm} | {last['visited']:,} | "
                         f"{statistics.median(cpus):.3f} ({min(cpus):.3f}-{max(cpus):.3f}) | "
                         f"{last['peak_before_mb']:.0f} -> {max(run['peak_after_mb'] for run in runs):.0f} |")
            print(lines[-1], flush=True)
    if args.report:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        args.report.write_text(
            f"# The JSON result writer alone (issue 14, target 3: at most 0.15 s CPU for 10^6 nodes)\n\n"
            f"Written by `make bench` (`bench/writer.py --reps {args.reps}`) on {when}: CPU time of "
            f"`write_record` only (the tree loaded and solved untimed), each run a fresh process.\n\n"
            + "\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
