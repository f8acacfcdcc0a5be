"""Issue 14, target 2: chance trees with real probabilities, gametree against the textbook, whole processes.

The tree: ``bench/gen.py chance 10 json --probabilities decimal`` (1,398,101
nodes: max, chance, min, chance, ... with ``p`` 0.1/0.2/0.3/0.4, integer
leaves in [-999, 999]), and the same with fraction strings ("1/10", ...).
The textbook is ``bench/baseline.py expectiminimax`` (json.load, then AIMA's
EXPECTIMINIMAX in floats, weighing by ``p``); it reads the decimal file only
(it has no fractions). gametree runs ``solve --algo expectiminimax --format
json`` on the JSON file and on its ``.gtb`` conversion, its exact answer
written in full to a file.

Every command runs once per round, in turn (interleaved), for ``--reps``
rounds; the table gives medians of CPU time (user + system) and peak
resident memory from ``wait4``, and ratios to the textbook within this run.

Usage: ``python bench/real_probabilities.py [--reps 5] [--depth 10] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gen import generate, tree_size  # noqa: E402
from run import DATA, GAMETREE, PYTHON, ROOT, Run, run  # noqa: E402


def prepare(depth: int) -> dict[str, Path]:
    """The decimal and fraction trees as JSON and .gtb (generated once, converted by gametree)."""
    files: dict[str, Path] = {}
    for kind in ("decimal", "fraction"):
        source = DATA / f"chance-4-{depth}-{kind}.json"
        generate("chance", depth, "json", source, probabilities=kind)
        binary = source.with_suffix(".gtb")
        if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
            subprocess.run(GAMETREE + ["convert", str(source), "-o", str(binary), "--force"], check=True, cwd=ROOT)
        files[f"{kind} JSON"], files[f"{kind} .gtb"] = source, binary
    return files


def commands(files: dict[str, Path]) -> list[tuple[str, list[str]]]:
    textbook = [PYTHON, str(HERE / "baseline.py"), "expectiminimax", str(files["decimal JSON"])]
    solve = GAMETREE + ["solve", "--algo", "expectiminimax", "--format", "json"]
    return [("textbook (floats), decimal JSON", textbook)] + [
        (f"gametree, {label}", solve + [str(path)]) for label, path in files.items()]


def measure(cases: list[tuple[str, list[str]]], reps: int) -> dict[str, list[Run]]:
    results: dict[str, list[Run]] = {label: [] for label, _ in cases}
    out = DATA / "real-probabilities-out.json"
    for round_number in range(reps):
        for label, command in cases:
            results[label].append(run(command, None if label.startswith("textbook") else out))
            if not label.startswith("textbook"):
                results[label][-1].report = {"value": answer(out)}
            print(f"  round {round_number + 1}/{reps}  {label:36} {results[label][-1].cpu:6.2f} s CPU", flush=True)
    return results


def answer(out: Path) -> str:
    """The root value of a JSON result, read from its first lines (parsing the whole
    result would grow this process, and Linux hands a process's peak memory on to the
    children it starts)."""
    with open(out, encoding="utf-8") as stream:
        head = stream.read(4096)
    found = re.search(r'"value": ("[^"]*"|[^,\n]*)', head)
    return json.loads(found.group(1)) if found else "?"


def report(results: dict[str, list[Run]], depth: int, reps: int, started: float) -> str:
    textbook = next(iter(results.values()))
    base_cpu = statistics.median(run.cpu for run in textbook)
    base_rss = statistics.median(run.rss_mb for run in textbook)
    lines = [
        f"## Real probabilities ({time.strftime('%Y-%m-%d', time.localtime(started))})",
        "",
        f"`python bench/real_probabilities.py --reps {reps} --depth {depth}`: {tree_size(4, depth):,} nodes, "
        f"expectiminimax, whole processes, medians of {reps} interleaved rounds; {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}.",
        "",
        "| command | CPU s | × textbook CPU | peak MB | × textbook memory | value |",
        "|---|---|---|---|---|---|",
    ]
    for label, runs in results.items():
        cpu = statistics.median(run.cpu for run in runs)
        rss = statistics.median(run.rss_mb for run in runs)
        value = runs[-1].report.get("value", "")
        lines.append(f"| {label} | {cpu:.2f} | {cpu / base_cpu:.2f} | {rss:.0f} | {rss / base_rss:.2f} | {value} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--out", type=Path, default=HERE / "results-real-probabilities.md")
    args = parser.parse_args(argv)
    started = time.time()
    cases = commands(prepare(args.depth))
    text = report(measure(cases, args.reps), args.depth, args.reps, started)
    args.out.write_text(text, encoding="utf-8")
    print()
    print(text)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
