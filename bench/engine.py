"""Before/after measurement of one change to the search engine, in one run.

Why not ``make bench``: it takes minutes and measures everything; a change
to alpha-beta or minimax needs the end-to-end figures of those two, for two
installs of gametree side by side (say, ``main`` unpacked into /tmp and
this worktree), interleaved with the textbook baseline so that the load on
a shared machine hits all of them alike.

Usage::

    python bench/engine.py TREE.json --install before=/tmp/gt-before --install after=. [--reps 5]

Each install is a checkout with its own ``.venv`` (``make install``). Every
measurement is a whole process, measured with ``wait4`` (CPU = user +
system, peak resident memory), as in ``bench/run.py``; ``search`` is the
in-process search time that ``bench/probe.py`` reports.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--install", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--algo", action="append", default=None)
    args = parser.parse_args(argv)
    installs = dict(item.split("=", 1) for item in args.install)
    tree = str(args.tree.resolve())
    out = HERE / "data" / "engine-out.json"
    commands: dict[str, list[tuple[str, list[str]]]] = {}
    for algorithm in args.algo or ["alphabeta", "minimax"]:
        group = [("baseline", [sys.executable, str(HERE / "baseline.py"), algorithm, tree])]
        for name, root in installs.items():
            python = str(Path(root).resolve() / ".venv" / "bin" / "python")
            group.append((f"{name} e2e", [python, "-m", "gametree_cli", "solve", tree, "--algo", algorithm, "--format", "json"]))
            group.append((f"{name} search", [python, str(Path(root).resolve() / "bench" / "probe.py"), algorithm, tree]))
        commands[algorithm] = group
    results: dict[tuple[str, str], list] = {}
    for rep in range(args.reps):
        for algorithm, group in commands.items():
            for label, command in group:
                cwd = None
                for name, root in installs.items():
                    if label.startswith(name + " "):
                        cwd = Path(root).resolve()
                measured = run(command, out if label.endswith("e2e") else None, cwd=cwd)
                results.setdefault((algorithm, label), []).append(measured)
                print(f"[{rep + 1}/{args.reps}] {algorithm:<10} {label:<16} wall {measured.wall:6.2f} s  "
                      f"cpu {measured.cpu:6.2f} s  peak {measured.rss_mb:6.0f} MB  "
                      f"search {measured.report.get('search', float('nan')) * 1e3:7.1f} ms", flush=True)
    print()
    print("| algorithm | run | wall | CPU | peak memory | CPU: baseline ÷ run | in-process search |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for algorithm, group in commands.items():
        base = statistics.median(r.cpu for r in results[(algorithm, "baseline")])
        for label, _ in group:
            runs = results[(algorithm, label)]
            cpu = statistics.median(r.cpu for r in runs)
            wall = statistics.median(r.wall for r in runs)
            peak = max(r.rss_mb for r in runs)
            search = statistics.median(r.report.get("search", float("nan")) for r in runs)
            print(f"| {algorithm} | {label} | {wall:.2f} s | {cpu:.2f} s | {peak:.0f} MB | {base / cpu:.2f}× | "
                  f"{search * 1e3:.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
