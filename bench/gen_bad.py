"""Big JSON tree files that break one rule, near the start or near the end.

Why: refusing a bad file must not cost a full read (docs/limits.md, "How long
refusing takes"); these are the files that section measures and that
tests/test_bad_json_fast.py makes in small. Every file is a complete tree of
``branching`` children per inner node and ``depth`` levels (4 and 10: 1.4
million nodes, 30-50 MB), written in preorder, with one mistake:

    ``d3``         d3-hierarchy style: ``{"name": ..., "children": [...]}``, leaves
                   ``{"name": ..., "value": V}`` (every node has the unknown key
                   ``name``; the first is the root's).
    ``kids``       ``"kids"`` instead of ``"children"`` on every inner node.
    ``leaf-key``   a plain file whose first (or last) leaf has a key ``weight``.
    ``type``       the first (or last) inner node below the root says ``"type": "maxi"``.
    ``value``      the first (or last) leaf's value is the text ``"high"``.
    ``prob``       chance levels; the first (or last) chance node's ``p`` sum to 0.9.
    ``ids``        every node has an ``id``; the first (or last) leaf has a key ``weight``.

``--at end`` moves the mistake to the last node of its kind (``d3`` and
``kids`` have theirs everywhere).

Usage: ``python bench/gen_bad.py KIND OUT [--at start|end] [--depth 10] [--branching 4]``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import TextIO

__all__ = ["write_bad", "KINDS"]

KINDS = ("d3", "kids", "leaf-key", "type", "value", "prob", "ids")


class _Writer:
    """Writes one tree in preorder, in chunks, with the mistake at the chosen place."""

    def __init__(self, kind: str, at: str, depth: int, branching: int, stream: TextIO) -> None:
        self.kind, self.depth, self.branching, self.stream = kind, depth, branching, stream
        self.rng = random.Random(6)
        self.out: list[str] = []
        self.leaves = branching**depth
        self.leaf = 0  # leaves written so far
        self.inner = 0  # inner nodes below the root written so far
        self.inner_total = sum(branching**level for level in range(1, depth))
        self.chance = 0  # chance nodes written so far (kind prob: the odd levels)
        self.chance_total = sum(branching**level for level in range(1, depth, 2))
        self.at_end = at == "end"
        self.named = 0  # the names of d3 and ids files: n1, n2, ... in preorder

    def bad_leaf(self) -> bool:
        return self.leaf == (self.leaves - 1 if self.at_end else 0)

    def bad_inner(self) -> bool:
        return self.inner == (self.inner_total - 1 if self.at_end else 0)

    def node(self, level: int, name: str, p: str = "") -> None:
        out = self.out
        kind = self.kind
        if level == self.depth:
            value = str(self.rng.randint(-999, 999))
            bad = self.bad_leaf()
            self.leaf += 1
            if kind == "d3":
                out.append(f'{{"name": "{name}", "value": {value}}}')
            elif kind == "ids":
                extra = ', "weight": 1' if bad else ""
                out.append(f'{{"id": "{name}", "value": {value}{extra}}}')
            elif kind == "value" and bad:
                out.append(f'{{{p}"value": "high"}}')
            elif kind == "leaf-key" and bad:
                out.append(f'{{{p}"value": {value}, "weight": 1}}')
            else:
                out.append(f'{{{p}"value": {value}}}')
            return
        chance = kind == "prob" and level % 2 == 1
        types = ("max", "chance", "min", "chance") if kind == "prob" else ("max", "min")
        node_type = types[level % len(types)]
        if level:
            if kind == "type" and self.bad_inner():
                node_type = "maxi"
            self.inner += 1
        bad_prob = False
        if chance:
            bad_prob = self.chance == (self.chance_total - 1 if self.at_end else 0)
            self.chance += 1
        children = "kids" if kind == "kids" else "children"
        if kind == "d3":
            out.append(f'{{"name": "{name}", "children": [')
        elif kind == "ids":
            out.append(f'{{"id": "{name}", "type": "{node_type}", "children": [')
        else:
            out.append(f'{{{p}"type": "{node_type}", "{children}": [')
        shares = [repr(1 / self.branching)] * self.branching
        if bad_prob:
            shares[-1] = repr(1 / self.branching - 0.1)  # the shares sum to 0.9
        for position in range(self.branching):
            if position:
                out.append(", ")
            child_p = f'"p": {shares[position]}, ' if chance else ""
            self.named += 1
            self.node(level + 1, f"n{self.named}", child_p)
            if level == 1 and len(out) > 50_000:
                self.stream.write("".join(out))
                out.clear()
        out.append("]}")


def write_bad(kind: str, out: Path, *, at: str = "start", depth: int = 10, branching: int = 4) -> Path:
    """Write the file ``out`` with one mistake of ``kind`` (see the module doc)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8", buffering=1 << 20) as stream:
        writer = _Writer(kind, at, depth, branching, stream)
        if kind in ("d3", "ids"):
            writer.node(0, "n0")
        else:
            stream.write('{"title": "a bad tree", "root": ')
            writer.node(0, "root")
        stream.write("".join(writer.out))
        if kind not in ("d3", "ids"):
            stream.write("}")
        stream.write("\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("out", type=Path)
    parser.add_argument("--at", choices=("start", "end"), default="start")
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--branching", type=int, default=4)
    args = parser.parse_args(argv)
    write_bad(args.kind, args.out, at=args.at, depth=args.depth, branching=args.branching)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
