"""``make bench``: gametree against textbook baselines, in one run, baselines interleaved.

Every measurement is a whole process (``bench/baseline.py``, ``bench/probe.py``
or the ``gametree`` command), run in turn with its baseline, ``--reps``
times; the tables give medians of wall time, CPU time (user + system, which
other load on the machine disturbs less) and peak resident memory (from
``wait4``), and ratios within the same run. Trees are generated
reproducibly by ``bench/gen.py`` into ``bench/data/`` (complete trees,
branching 4, leaves in [-999, 999]).

Usage::

    python bench/run.py            # the full run (several minutes), writes bench/results.md
    python bench/run.py --quick    # small trees only, one repetition (a smoke test)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
PYTHON = sys.executable
GAMETREE = [PYTHON, "-m", "gametree_cli"]
#: the console script users run (start-up measurements: what a user waits for)
GAMETREE_SCRIPT = [str(Path(PYTHON).with_name("gametree"))]
sys.path.insert(0, str(HERE))

from gen import generate, tree_size  # noqa: E402


@dataclass
class Run:
    """One process: its wall and CPU seconds, peak memory and what it printed."""

    wall: float
    cpu: float
    rss_mb: float
    report: dict = field(default_factory=dict)
    lines: int = 0


def run(command: list[str], stdout: Path | None = None, *, count_lines: bool = False, cwd: Path | None = None) -> Run:
    """Run ``command`` (in ``cwd``, default the checkout) to completion; measure it with ``wait4``."""
    sink = open(stdout, "wb") if stdout is not None else subprocess.PIPE
    started = time.perf_counter()
    measured = DATA / "rusage.txt"  # the command's own CPU and peak memory (bench/rusage.py says why)
    command_line = command
    command = [PYTHON, "-S", str(HERE / "rusage.py"), str(measured), *command]
    process = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, cwd=cwd or ROOT)
    output = b""
    if stdout is None:
        output = process.stdout.read()  # type: ignore[union-attr]
    error = process.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if stdout is not None:
        sink.close()  # type: ignore[union-attr]
    cpu, peak_kb = (float(part) for part in measured.read_text().split())
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command_line)} failed ({process.returncode}): {error.decode()[-2000:]}")
    report = {}
    if output.strip():
        try:
            report = json.loads(output.decode().strip().splitlines()[-1])
        except (ValueError, IndexError):
            report = {}
    lines = 0
    if count_lines and stdout is not None:
        with open(stdout, "rb") as stream:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: stream.read(1 << 20), b""))
    return Run(wall, cpu, peak_kb / 1024, report, lines)


# -- what is measured -------------------------------------------------------------------


@dataclass
class Tree:
    label: str
    shape: str
    depth: int

    @property
    def nodes(self) -> int:
        return tree_size(4, self.depth)

    def path(self, fmt: str) -> Path:
        return DATA / f"{self.shape}-4-{self.depth}.{fmt}"


AIMA = DATA / "aima-5-2.json"
REFERENCE = DATA / "reference"
#: AIMA's figure 5.2 in the benchmark trees' form (leaves as {"value": V}, which the textbook script reads)
AIMA_TEXT = json.dumps({"title": "AIMA figure 5.2", "root": {"type": "max", "children": [
    {"type": "min", "move": move, "children": [{"value": value} for value in values]}
    for move, values in (("a1", (3, 12, 8)), ("a2", (2, 4, 6)), ("a3", (14, 5, 2)))]}}) + "\n"


def prepare(trees: list[Tree], yaml_trees: list[Tree]) -> None:
    """Generate the files (once) and convert each JSON file to .gtb with gametree itself; compile
    gametree's bytecode (what an installed package has: this machine may set PYTHONDONTWRITEBYTECODE,
    and then every run would compile every module again) and the C reference (bench/reference.c)."""
    DATA.mkdir(exist_ok=True)
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "gametree_cli")], check=True, stdout=subprocess.DEVNULL)
    AIMA.write_text(AIMA_TEXT, encoding="utf-8")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is not None:
        subprocess.run([compiler, "-O2", "-o", str(REFERENCE), str(HERE / "reference.c")], check=True)
    for tree in trees:
        generate(tree.shape, tree.depth, "json", tree.path("json"))
        if not tree.path("gtb").exists():
            subprocess.run(GAMETREE + ["convert", str(tree.path("json")), "-o", str(tree.path("gtb"))], check=True, cwd=ROOT)
    for tree in yaml_trees:
        generate(tree.shape, tree.depth, "yaml", tree.path("yaml"))


def has_module(name: str) -> bool:
    return subprocess.run([PYTHON, "-c", f"import {name}"], capture_output=True).returncode == 0


def measurements(trees: list[Tree], yaml_trees: list[Tree], trace_tree: Tree | None) -> dict[str, list[tuple[str, list[str], Path | None]]]:
    """Groups of commands to run in turn (a group = one comparison)."""
    groups: dict[str, list[tuple[str, list[str], Path | None]]] = {}
    out = DATA / "out.json"
    for tree in trees:
        source, binary = str(tree.path("json")), str(tree.path("gtb"))
        algorithms = ["minimax", "alphabeta"] if tree.shape == "minmax" else ["expectiminimax"]
        groups[f"load/{tree.label}"] = [
            ("baseline json.load", [PYTHON, str(HERE / "baseline.py"), "load", source], None),
            ("gametree JSON", [PYTHON, str(HERE / "probe.py"), "load", source], None),
            ("gametree .gtb", [PYTHON, str(HERE / "probe.py"), "load", binary], None),
        ]
        for algorithm in algorithms:
            groups[f"{algorithm}/{tree.label}"] = [
                ("baseline", [PYTHON, str(HERE / "baseline.py"), algorithm, source], None),
                ("gametree", [PYTHON, str(HERE / "probe.py"), algorithm, binary], None),
            ]
            if algorithm == "expectiminimax":
                groups[f"{algorithm}/{tree.label}"].append(
                    ("gametree NumPy kernel", [PYTHON, str(HERE / "probe.py"), "sweep-expectiminimax", binary], None))
        groups[f"e2e/{tree.label}"] = [
            ("baseline load+solve", [PYTHON, str(HERE / "baseline.py"), "solve", source], None),
            ("gametree solve JSON", GAMETREE + ["solve", source, "--format", "json"], out),
            ("gametree solve .gtb", GAMETREE + ["solve", binary, "--format", "json"], out),
        ]
    groups["startup/AIMA fig. 5.2"] = [
        ("textbook script (json.load + alpha-beta)", [PYTHON, str(HERE / "baseline.py"), "solve", str(AIMA)], None),
        ("python -c pass (the interpreter alone)", [PYTHON, "-c", "pass"], None),
        ("python -c 'import json'", [PYTHON, "-c", "import json"], None),
        ("python -c 'import typer' (the CLI library alone)", [PYTHON, "-c", "import typer"], None),
        ("python -c 'import typer, rich.tree' (+ the text tree's drawing)", [PYTHON, "-c", "import typer, rich.tree"],
         None),
        ("gametree solve (text)", GAMETREE_SCRIPT + ["solve", str(AIMA)], DATA / "startup.txt"),
        ("gametree solve --format json", GAMETREE_SCRIPT + ["solve", str(AIMA), "--format", "json"], DATA / "startup.json"),
        ("gametree --help", GAMETREE_SCRIPT + ["--help"], DATA / "help.txt"),
        # `--` before the command: the quick path declines it and typer reads the command line (what typer costs)
        ("gametree -- solve (typer reads the command line)", GAMETREE_SCRIPT + ["--", "solve", str(AIMA)],
         DATA / "startup-typer.txt"),
    ]
    for tree in trees:
        if tree.shape != "minmax" or tree.depth != 10:
            continue
        source, binary = str(tree.path("json")), str(tree.path("gtb"))
        for algorithm in ("minimax", "alphabeta"):
            group = groups[f"limit/{algorithm}/{tree.label}"] = []
            if REFERENCE.exists():
                group += [("C reference, value only", [str(REFERENCE), algorithm, source], None),
                          ("C reference, JSON out", [str(REFERENCE), algorithm, source, str(DATA / "out-c.json")], None)]
                if algorithm == "alphabeta":  # what the reference wrote before 2026-11-25, for comparison
                    group.append(("C reference, visited nodes only (no pruned nodes, no visit order)",
                                  [str(REFERENCE), "alphabeta-visited", source, str(DATA / "out-c.json")], None))
            if algorithm == "minimax":
                group.append(("NumPy (json.load + reduceat)", [PYTHON, str(HERE / "baseline.py"), "numpy-minimax", source], None))
            group += [("gametree JSON in, JSON out", GAMETREE_SCRIPT + ["solve", source, "--algo", algorithm, "--format", "json"], out),
                      ("gametree .gtb in, JSON out", GAMETREE_SCRIPT + ["solve", binary, "--algo", algorithm, "--format", "json"], out),
                      ("gametree JSON in, text out", GAMETREE_SCRIPT + ["solve", source, "--algo", algorithm], DATA / "out.txt"),
                      ("gametree .gtb in, text out", GAMETREE_SCRIPT + ["solve", binary, "--algo", algorithm], DATA / "out.txt")]
    parsers = [name for name, module in (("yaml_rs", "yaml_rs"), ("rapidyaml", "ryml")) if has_module(module)]
    for tree in yaml_trees:
        source = str(tree.path("yaml"))
        groups[f"yaml/{tree.label}"] = [
            ("PyYAML CSafeLoader", [PYTHON, str(HERE / "probe.py"), "yaml-csafe", source], None),
            ("gametree load_tree", [PYTHON, str(HERE / "probe.py"), "load", source], None),
        ] + [(f"candidate {name} (parse only)", [PYTHON, str(HERE / "probe.py"), f"yaml-{name}", source], None)
             for name in parsers]
    if trace_tree is not None:
        source = str(trace_tree.path("json"))
        groups[f"trace/{trace_tree.label}"] = [
            ("alphabeta, no trace", GAMETREE + ["solve", source, "--algo", "alphabeta"], DATA / "plain.txt"),
            ("alphabeta --trace", GAMETREE + ["solve", source, "--algo", "alphabeta", "--trace"], DATA / "trace.txt"),
            ("alphabeta --trace --lang es", GAMETREE + ["solve", source, "--algo", "alphabeta", "--trace", "--lang", "es"], DATA / "trace.txt"),
        ]
    return groups


# -- running and reporting ----------------------------------------------------------------


def median_run(runs: list[Run]) -> Run:
    return Run(
        statistics.median(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        max(r.rss_mb for r in runs),
        runs[len(runs) // 2].report | {key: statistics.median(r.report[key] for r in runs)
                                       for key in ("load", "search") if all(key in r.report for r in runs)},
        runs[0].lines,
    )


def measure(groups: dict[str, list[tuple[str, list[str], Path | None]]], reps: dict[str, int]) -> dict[str, dict[str, Run]]:
    results: dict[str, dict[str, list[Run]]] = {name: {} for name in groups}
    most = max(reps.values())
    for rep in range(most):
        for name, commands in groups.items():
            if rep >= reps.get(name, most):
                continue
            for label, command, stdout in commands:
                result = run(command, stdout, count_lines=name.startswith("trace"))
                results[name].setdefault(label, []).append(result)
                print(f"  [{rep + 1}/{most}] {name:<28} {label:<32} wall {result.wall:7.3f} s  cpu {result.cpu:7.3f} s  "
                      f"peak {result.rss_mb:7.1f} MB", flush=True)
    return {name: {label: median_run(runs) for label, runs in by_label.items()} for name, by_label in results.items()}


def ratio(base: float, ours: float) -> str:
    if ours <= 0:
        return "n/a"
    return f"{base / ours:.1f}×"


def report(results: dict[str, dict[str, Run]], trees: list[Tree], yaml_trees: list[Tree], trace_tree: Tree | None,
           reps: dict[str, int], started: float) -> str:
    lines: list[str] = []
    add = lines.append
    add("# gametree benchmark results")
    add("")
    add(f"Written by `make bench` (`bench/run.py`) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, {time.perf_counter() - started:.0f} s in all. "
        "Medians of interleaved runs (baseline and gametree in turn); ratios are baseline ÷ gametree within this run. "
        "The machine may be shared: CPU time (user + system) is the steadier figure.")
    add("")
    add("Trees: complete, branching 4, integer leaves in [-999, 999], generated by `bench/gen.py` "
        "(`minmax`: max/min alternating; `chance`: max, chance, min, chance, … with equally likely outcomes).")
    add("")
    add("## 1. Exhaustive search on a loaded tree (in-process search time)")
    add("")
    add("| tree | nodes | algorithm | baseline (textbook, dicts) | gametree | speed-up |")
    add("|---|---:|---|---:|---:|---:|")
    for tree in trees:
        for algorithm in ("minimax", "expectiminimax"):
            group = results.get(f"{algorithm}/{tree.label}")
            if not group:
                continue
            base = group["baseline"].report["search"]
            for label in ("gametree", "gametree NumPy kernel"):
                if label not in group:
                    continue
                ours = group[label].report["search"]
                name = algorithm if label == "gametree" else f"{algorithm} (`sweep` kernel alone)"
                add(f"| {tree.label} | {tree.nodes:,} | {name} | {base * 1e3:.1f} ms ({base / tree.nodes * 1e9:.0f} ns/node) | "
                    f"{ours * 1e3:.1f} ms ({ours / tree.nodes * 1e9:.0f} ns/node) | {ratio(base, ours)} |")
    add("")
    add("gametree's expectations are exact fractions (the baseline divides in floating point). "
        "`expectiminimax` is what `solve` runs (`algorithms/expecti.py`, which hands the search to the NumPy "
        "level-by-level `sweep` kernel when nobody observes it); the kernel alone is shown for comparison.")
    add("")
    add("## 2. Alpha-beta per visited node (in-process, full record: values, pruned ids, alpha/beta, cut-offs)")
    add("")
    add("| tree | visited | baseline ns/visited | gametree ns/visited | speed-up |")
    add("|---|---:|---:|---:|---:|")
    for tree in trees:
        group = results.get(f"alphabeta/{tree.label}")
        if not group:
            continue
        base, ours = group["baseline"].report, group["gametree"].report
        base_ns = base["search"] / base["visited"] * 1e9
        ours_ns = ours["search"] / ours["visited"] * 1e9
        add(f"| {tree.label} | {ours['visited']:,} (baseline {base['visited']:,}) | {base_ns:.0f} | {ours_ns:.0f} | {ratio(base_ns, ours_ns)} |")
    add("")
    add("## 3. Loading (in-process)")
    add("")
    add("| tree | nodes | JSON size | `json.load` | gametree JSON (parse + validate + build) | gametree .gtb | .gtb size |")
    add("|---|---:|---:|---:|---:|---:|---:|")
    for tree in trees:
        group = results.get(f"load/{tree.label}")
        if not group:
            continue
        json_size = tree.path("json").stat().st_size
        gtb_size = tree.path("gtb").stat().st_size
        base = group["baseline json.load"].report["load"]
        ours = group["gametree JSON"].report["load"]
        binary = group["gametree .gtb"].report["load"]
        add(f"| {tree.label} | {tree.nodes:,} | {json_size / 1e6:.1f} MB ({json_size / tree.nodes:.0f} B/node) | {base:.3f} s | "
            f"{ours:.3f} s ({ratio(base, ours)}) | {binary:.3f} s ({ratio(base, binary)}) | "
            f"{gtb_size / 1e6:.1f} MB ({gtb_size / tree.nodes:.1f} B/node) |")
    add("")
    add("## 4. End to end: whole processes (load, validate, solve, JSON result)")
    add("")
    add("The baseline loads with `json.load` and runs the textbook search (alpha-beta, or expectiminimax on chance trees), "
        "printing only the value; gametree writes the contract's full JSON result (every node) to a file.")
    add("")
    add("| tree | run | wall | CPU | peak memory | CPU vs baseline | memory vs baseline |")
    add("|---|---|---:|---:|---:|---:|---:|")
    for tree in trees:
        group = results.get(f"e2e/{tree.label}")
        if not group:
            continue
        base = group["baseline load+solve"]
        for label, result in group.items():
            add(f"| {tree.label} | {label} | {result.wall:.2f} s | {result.cpu:.2f} s | {result.rss_mb:.0f} MB | "
                f"{ratio(base.cpu, result.cpu)} | {result.rss_mb / base.rss_mb:.2f}× |")
        json_run, gtb_run = group["gametree solve JSON"], group["gametree solve .gtb"]
        add(f"| {tree.label} | .gtb vs gametree JSON | | | | {ratio(json_run.cpu, gtb_run.cpu)} faster | |")
    add("")
    if yaml_trees:
        add("## 5. YAML loading (in-process)")
        add("")
        add("| tree | nodes | run | time | vs CSafeLoader |")
        add("|---|---:|---|---:|---:|")
        for tree in yaml_trees:
            group = results.get(f"yaml/{tree.label}")
            if not group:
                continue
            base = group["PyYAML CSafeLoader"].report["load"]
            for label, result in group.items():
                add(f"| {tree.label} | {tree.nodes:,} | {label} | {result.report['load']:.3f} s | {ratio(base, result.report['load'])} |")
        add("")
    if trace_tree is not None:
        group = results.get(f"trace/{trace_tree.label}")
        if group:
            add(f"## 6. `--trace` streamed to a file ({trace_tree.label}, {trace_tree.nodes:,} nodes, alpha-beta)")
            add("")
            add("| run | wall | CPU | peak memory | lines | lines/s (whole run) | lines/s (the trace alone) |")
            add("|---|---:|---:|---:|---:|---:|---:|")
            plain = group["alphabeta, no trace"].cpu
            for label, result in group.items():
                rate = alone = ""
                if "trace" in label:
                    rate = f"{result.lines / result.cpu:,.0f}"
                    alone = f"{result.lines / (result.cpu - plain):,.0f}" if result.cpu > plain else "n/a"
                add(f"| {label} | {result.wall:.2f} s | {result.cpu:.2f} s | {result.rss_mb:.0f} MB | {result.lines:,} | {rate} | {alone} |")
            add("")
            add("The trace alone: CPU time beyond the run without `--trace` (loading, searching and the final "
                "tree are the same in both).")
            add("")
    lines += startup_section(results) + limit_section(results, trees)
    most = max(count for name, count in reps.items() if not name.startswith(("startup/", "limit/")))
    add(f"Repetitions per comparison: {most} (see `--reps`; start-up runs 5× as many, section 8's 3× as many); "
        "the 5.6·10^6-node tree runs once.")
    return "\n".join(lines) + "\n"


def startup_section(results: dict[str, dict[str, Run]]) -> list[str]:
    """Target 1 of issue 14: everyday runs within 3x the textbook script's CPU."""
    group = results.get("startup/AIMA fig. 5.2")
    if not group:
        return []
    base = group["textbook script (json.load + alpha-beta)"]
    lines = ["## 7. Start-up: AIMA figure 5.2 (10 nodes), whole processes", "",
             "Target: within 3× the CPU of the textbook script (`bench/baseline.py solve`: `json.load` + recursive "
             "alpha-beta), all run with the same interpreter. gametree is the installed console script; `solve` "
             "and `--help` run without importing typer (the quick path, `gametree_cli/cli/quick.py`), the last row "
             "makes typer read the command line. " + interpreter_note(), "",
             "| run | wall | CPU | peak memory | CPU ÷ textbook |", "|---|---:|---:|---:|---:|"]
    for label, result in group.items():
        lines.append(f"| {label} | {result.wall * 1e3:.0f} ms | {result.cpu * 1e3:.0f} ms | {result.rss_mb:.0f} MB | "
                     f"{result.cpu / base.cpu:.1f}× |")
    return lines + [""]


def interpreter_note() -> str:
    """Whether the venv's start-up imports more than a plain interpreter's: an import hook there
    (setuptools' default editable finder loads pathlib) slows the baseline too and flatters the ratios."""
    probe = "import sys; print(' '.join(m for m in ('pathlib', 'importlib.util') if m in sys.modules))"
    extra = subprocess.run([PYTHON, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    if not extra:
        return "The interpreter starts as a plain one: its site imports no import hook (`make install`'s compat mode)."
    return (f"**Warning:** this interpreter's start-up imports {', '.join(extra)} (an import hook, e.g. a default "
            "editable install), which slows the textbook script too: these ratios flatter gametree.")


def limit_section(results: dict[str, dict[str, Run]], trees: list[Tree]) -> list[str]:
    """Target 4 of issue 14: end to end against a plain C program and NumPy on the same file."""
    lines: list[str] = []
    for tree in trees:
        for algorithm in ("minimax", "alphabeta"):
            group = results.get(f"limit/{algorithm}/{tree.label}")
            if not group:
                continue
            if not lines:
                lines += ["## 8. Close to the limit: a plain C program on the same files (whole processes)", "",
                          "`bench/reference.c`, compiled with `cc -O2` by the bench: reads the JSON file with a small "
                          "recursive-descent reader, solves recursively, prints the value; *JSON out* also writes "
                          "the result CONTRACT.md section 3 asks for (value, best move, principal variation, pruned "
                          "nodes, visit order, an entry for every node, stats; `tests/test_bench_reference.py` checks "
                          "it agrees with gametree's on random trees). gametree writes that and its additions (each "
                          "node's α, β and type). The alpha-beta table keeps the reference's former output, one entry "
                          "per visited node and nothing for the pruned ones, as a row of its own. "
                          "Ratios: CPU ÷ the C reference's.", ""]
            c_value = group.get("C reference, value only")
            c_json = group.get("C reference, JSON out")
            lines += [f"### {algorithm}, {tree.label} ({tree.nodes:,} nodes)", "",
                      "| run | wall | CPU | peak memory | ÷ C (value only) | ÷ C (JSON out) |", "|---|---:|---:|---:|---:|---:|"]
            for label, result in group.items():
                lines.append(f"| {label} | {result.wall:.2f} s | {result.cpu:.2f} s | {result.rss_mb:.0f} MB | "
                             f"{result.cpu / c_value.cpu:.1f}× | {result.cpu / c_json.cpu:.1f}× |" if c_value and c_json else
                             f"| {label} | {result.wall:.2f} s | {result.cpu:.2f} s | {result.rss_mb:.0f} MB | n/a | n/a |")
            json_run, gtb_run = group["gametree JSON in, text out"], group["gametree .gtb in, text out"]
            lines += ["", f".gtb in, text out: {json_run.cpu / gtb_run.cpu:.1f}× faster than JSON in.", ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small trees only, one repetition")
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each comparison (default 3)")
    parser.add_argument("--no-huge", action="store_true", help="skip the 5.6-million-node tree")
    parser.add_argument("--out", type=Path, default=HERE / "results.md")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.quick:
        trees = [Tree("2·10^4 minmax", "minmax", 7), Tree("2·10^4 chance", "chance", 7)]
        yaml_trees = [Tree("2·10^4 minmax", "minmax", 7)]
        trace_tree = trees[0]
        reps = 1
    else:
        trees = [Tree("2·10^4 minmax", "minmax", 7), Tree("3.5·10^5 minmax", "minmax", 9),
                 Tree("1.4·10^6 minmax", "minmax", 10), Tree("2·10^4 chance", "chance", 7),
                 Tree("3.5·10^5 chance", "chance", 9), Tree("1.4·10^6 chance", "chance", 10)]
        if not args.no_huge:
            trees.append(Tree("5.6·10^6 minmax", "minmax", 11))
        yaml_trees = [Tree("2·10^4 minmax", "minmax", 7), Tree("3.5·10^5 minmax", "minmax", 9)]
        trace_tree = Tree("1.4·10^6 minmax", "minmax", 10)
        reps = args.reps
    print("preparing trees in bench/data ...", flush=True)
    prepare(trees, yaml_trees)
    groups = measurements(trees, yaml_trees, trace_tree)
    # the 5.6·10^6-node tree once; start-up runs (tens of ms, noisy) five times as often; the limit runs
    # (under a second each, where one slow run moved a ratio from 2.4x to 3.0x) three times as often
    counts = {name: (1 if "5.6" in name else 5 * reps if name.startswith("startup/")
                     else 3 * reps if name.startswith("limit/") else reps) for name in groups}
    results = measure(groups, counts)
    text = report(results, trees, yaml_trees, trace_tree, counts, started)
    args.out.write_text(text, encoding="utf-8")
    print()
    print(text)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
