"""Reproducible random game trees for the benchmark, written as JSON and YAML.

Why a generator of our own: the benchmark must be rerun anywhere and give the
same trees, and writing millions of nodes through ``json.dump`` / PyYAML's
emitter would take longer than the measurements. Trees are complete: every
inner node has ``branching`` children, leaves sit at ``depth``.

Shapes:
    ``minmax``: explicit ``type: max``/``min`` on every inner node, alternating;
        leaves are mappings ``{"value": V}`` with integers in [-999, 999].
    ``chance``: levels max, chance, min, chance, ... ; chance nodes give no
        ``p`` (their children are equally likely, the dice of a course
        exercise), so gametree's expectations are exact fractions; with
        ``--probabilities decimal`` each chance node's children carry
        ``p`` 0.1, 0.2, 0.3, 0.4 (branching 4), with ``fraction`` the
        strings ``"1/10"``, ``"1/5"``, ``"3/10"``, ``"2/5"`` (issue 14's
        "real probabilities").

Usage: ``python bench/gen.py SHAPE DEPTH FORMAT OUT [--branching B] [--seed S] [--probabilities KIND]``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

__all__ = ["generate", "tree_size", "level_types", "PROBABILITIES"]

#: ``--probabilities``: how a chance node's children are weighted (branching 4 for the explicit ones)
PROBABILITIES = {
    "uniform": None,
    "decimal": ("0.1", "0.2", "0.3", "0.4"),
    "fraction": ('"1/10"', '"1/5"', '"3/10"', '"2/5"'),
}


def tree_size(branching: int, depth: int) -> int:
    """Nodes of a complete tree: 1 + b + b^2 + ... + b^depth."""
    return sum(branching**level for level in range(depth + 1))


def level_types(shape: str, depth: int) -> list[str]:
    """The node type of each inner level."""
    if shape == "minmax":
        return ["max" if level % 2 == 0 else "min" for level in range(depth)]
    if shape == "chance":
        cycle = ("max", "chance", "min", "chance")
        return [cycle[level % 4] for level in range(depth)]
    raise ValueError(f"unknown shape {shape!r}")


class _Emitter:
    """Writes one tree in preorder, drawing leaf values from one seeded RNG."""

    def __init__(self, shape: str, depth: int, branching: int, seed: int, probabilities: str = "uniform") -> None:
        self.types = level_types(shape, depth)
        self.shares = PROBABILITIES[probabilities]
        if self.shares is not None and branching != len(self.shares):
            raise ValueError(f"--probabilities {probabilities} needs branching {len(self.shares)}")
        self.depth = depth
        self.branching = branching
        self.rng = np.random.default_rng(seed)
        leaves = branching**depth
        self.values = iter(self.rng.integers(-999, 1000, size=leaves).tolist())

    # -- JSON -------------------------------------------------------------------

    def json_node(self, level: int, out: list[str], p: str = "") -> None:
        if level == self.depth:
            out.append(f'{{{p}"value": {next(self.values)}}}')
            return
        out.append(f'{{{p}"type": "{self.types[level]}", "children": [')
        shares = self.shares if self.types[level] == "chance" else None
        for position in range(self.branching):
            if position:
                out.append(", ")
            self.json_node(level + 1, out, f'"p": {shares[position]}, ' if shares else "")
        out.append("]}")

    def write_json(self, stream, title: str) -> None:
        stream.write(f'{{"title": "{title}", "root": ')
        self._chunked(stream, self.json_node)
        stream.write("}\n")

    # -- YAML -------------------------------------------------------------------

    def yaml_node(self, level: int, out: list[str], indent: str = "", p: str = "") -> None:
        # a sequence item: the first line starts with "- "
        inner = indent + "  "
        if level == self.depth:
            out.append(f"{indent}- {p}value: {next(self.values)}\n")
            return
        out.append(f"{indent}- {p}type: {self.types[level]}\n{inner}children:\n")
        shares = self.shares if self.types[level] == "chance" else None
        for position in range(self.branching):
            self.yaml_node(level + 1, out, inner, f"p: {shares[position]}\n{inner}  " if shares else "")

    def write_yaml(self, stream, title: str) -> None:
        stream.write(f"title: {title}\nroot:\n  type: {self.types[0]}\n  children:\n")
        out: list[str] = []
        for _ in range(self.branching):
            self.yaml_node(1, out, "  ")  # (the root is max: its children carry no p)
            if len(out) > 100_000:
                stream.write("".join(out))
                out.clear()
        stream.write("".join(out))

    def _chunked(self, stream, node_writer) -> None:
        """The root's JSON with each top-level subtree written as it is made."""
        if self.depth == 0:
            stream.write(f'{{"value": {next(self.values)}}}')
            return
        stream.write(f'{{"type": "{self.types[0]}", "children": [')
        for position in range(self.branching):
            if position:
                stream.write(", ")
            out: list[str] = []
            node_writer(1, out)
            stream.write("".join(out))
        stream.write("]}")


def generate(shape: str, depth: int, fmt: str, out: Path, *, branching: int = 4, seed: int = 6,
             probabilities: str = "uniform") -> Path:
    """Write the tree to ``out`` (atomically; skipped when it already exists)."""
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    emitter = _Emitter(shape, depth, branching, seed, probabilities)
    title = f"random {shape} tree, branching {branching}, depth {depth}, seed {seed}"
    if probabilities != "uniform":
        title += f", {probabilities} probabilities"
    temporary = out.with_name(out.name + f".tmp{os.getpid()}")
    with open(temporary, "w", encoding="utf-8", buffering=1 << 20) as stream:
        if fmt == "json":
            emitter.write_json(stream, title)
        elif fmt == "yaml":
            emitter.write_yaml(stream, title)
        else:
            raise ValueError(f"unknown format {fmt!r}")
    os.replace(temporary, out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", choices=("minmax", "chance"))
    parser.add_argument("depth", type=int)
    parser.add_argument("format", choices=("json", "yaml"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--branching", type=int, default=4)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--probabilities", choices=tuple(PROBABILITIES), default="uniform")
    args = parser.parse_args(argv)
    generate(args.shape, args.depth, args.format, args.out, branching=args.branching, seed=args.seed,
             probabilities=args.probabilities)
    return 0


if __name__ == "__main__":
    sys.exit(main())
