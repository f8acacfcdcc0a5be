"""Random practice trees, reproducible from a seed.

A teacher wants a fresh tree per student and the same tree again when
grading; so every random choice comes from one ``random.Random(seed)``,
drawn in a fixed order (breadth-first), and the document is written by
deterministic writers: the same arguments and seed give a byte-identical
file on any machine (Python's ``random`` is specified to be reproducible
for ``randrange``/``randint`` with the same seed since 3.2).

Shape: every inner node has ``branching`` children (or a random count in a
range), leaves sit exactly ``depth`` plies below the root. Inner nodes are
named ``A``, ``B``, ... in breadth-first order, like the textbook figures;
leaves are bare numbers (ids ``B.1``, ``B.2``... by the contract's rule).
With ``chance``, a chance layer follows every decision layer (max, chance,
min, chance, ...), its probabilities exact fractions, and the file gives
``bounds`` (the value range) so Star1 fits too.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any

from .common import GeneratorError

__all__ = ["RandomTreeSpec", "random_tree", "parse_range", "tree_size", "DEFAULT_VALUES", "MAX_RANDOM_NODES"]

DEFAULT_VALUES = (0, 9)
#: Refuse to build more nodes than this unless asked (a Python document costs ~200 bytes a node).
MAX_RANDOM_NODES = 5_000_000


@dataclass(frozen=True)
class RandomTreeSpec:
    """What to generate.

    Attributes:
        depth: plies from the root to every leaf (chance edges count).
        branching: children per inner node: ``(b, b)`` for a uniform tree,
            ``(low, high)`` for a random count in that range.
        seed: the seed of ``random.Random``, 0 or more (it ignores the sign).
        chance: put a chance layer after every decision layer.
        players: 1 (max-only), 2 (max/min) or more (max-n, leaf vectors).
        values: lowest and highest leaf value (integers, inclusive).
    """

    depth: int
    branching: tuple[int, int]
    seed: int
    chance: bool = False
    players: int = 2
    values: tuple[int, int] = DEFAULT_VALUES

    def check(self, max_nodes: int = MAX_RANDOM_NODES) -> None:
        """Refuse impossible or oversized requests with a message for the user."""
        if self.seed < 0:  # random.Random drops the sign: -7 made exactly the tree of 7, titled "seed -7"
            raise GeneratorError(f"--seed must be 0 or more, not {self.seed} (it would give the same tree as "
                                 f"--seed {-self.seed})")
        if self.depth < 0:
            raise GeneratorError(f"--depth must be 0 or more, not {self.depth}")
        low, high = self.branching
        if low < 1 or high < low:
            raise GeneratorError(f"--branching must be a whole number of 1 or more (or a range LOW..HIGH), not {_show_range(self.branching)}")
        if self.players < 1:
            raise GeneratorError(f"--players must be 1 or more, not {self.players}")
        if self.chance and self.players > 2:
            raise GeneratorError("--chance makes one- and two-player trees only (no algorithm searches n-player trees with chance nodes)")
        if self.values[1] < self.values[0]:
            raise GeneratorError(f"--values: the lowest {self.values[0]} is above the highest {self.values[1]}")
        size = tree_size(self.depth, high)
        if size > max_nodes:
            raise GeneratorError(f"depth {self.depth} and branching {high} make up to {size:,} nodes, more than {max_nodes:,} "
                                 "(use --max-nodes to allow it)")

    def title(self) -> str:
        parts = [f"depth {self.depth}", f"branching {_show_range(self.branching)}"]
        if self.chance:
            parts.append("chance")
        if self.players != 2:
            parts.append(f"{self.players} player{'s' if self.players != 1 else ''}")
        parts.append(f"values {self.values[0]}..{self.values[1]}")
        parts.append(f"seed {self.seed}")
        return "random tree (" + ", ".join(parts) + ")"


def tree_size(depth: int, branching: int) -> int:
    """Nodes of a uniform tree: 1 + b + b^2 + ... + b^depth."""
    return depth + 1 if branching == 1 else (branching ** (depth + 1) - 1) // (branching - 1)


def parse_range(text: str, what: str, example: str = "0..9") -> tuple[int, int]:
    """``"3"`` -> (3, 3); ``"-5..5"`` -> (-5, 5); ``example`` is a valid value of ``what``, for the message.

    Raises:
        GeneratorError: not a whole number or a LOW..HIGH range.
    """
    parts = text.split("..")
    try:
        if len(parts) == 1:
            number = int(parts[0])
            return number, number
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise GeneratorError(f"{what}: expected a whole number or a range LOW..HIGH such as {example}, not {text!r}")


def _show_range(bounds: tuple[int, int]) -> str:
    return str(bounds[0]) if bounds[0] == bounds[1] else f"{bounds[0]}..{bounds[1]}"


def _letters(number: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, ... (spreadsheet column names)."""
    name = ""
    number += 1
    while number:
        number, rest = divmod(number - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def random_tree(spec: RandomTreeSpec, *, max_nodes: int = MAX_RANDOM_NODES) -> dict[str, Any]:
    """A random tree document (contract section 1) as ``spec`` describes.

    Raises:
        GeneratorError: an impossible or oversized ``spec``.
    """
    spec.check(max_nodes)
    rng = Random(spec.seed)
    low, high = spec.values
    n_players = spec.players
    document: dict[str, Any] = {"title": spec.title()}
    if n_players > 2:
        document["players"] = [f"P{number + 1}" for number in range(n_players)]
    if spec.chance and low < high:
        document["bounds"] = [low, high]

    def leaf_value() -> Any:
        if n_players > 2:
            return [rng.randint(low, high) for _ in range(n_players)]
        return rng.randint(low, high)

    def is_chance(level: int) -> bool:
        return spec.chance and level % 2 == 1

    names = 0
    root: dict[str, Any] = {"id": _letters(0)}
    names += 1
    if spec.depth == 0:
        root["value"] = leaf_value()
        document["root"] = root
        return document
    if n_players <= 2:
        root["type"] = "max"
    # level by level, left to right: the order every random number is drawn in
    level: list[dict[str, Any]] = [root]
    for depth in range(spec.depth):
        below: list[dict[str, Any]] = []
        child_is_leaf = depth + 1 == spec.depth
        for parent in level:
            count = spec.branching[0] if spec.branching[0] == spec.branching[1] else rng.randint(*spec.branching)
            if is_chance(depth):
                parent["type"] = "chance"
            elif n_players == 1:
                parent["type"] = "max"
            probabilities = _probabilities(rng, count) if is_chance(depth) else None
            children: list[Any] = []
            for position in range(count):
                child: dict[str, Any] = {}
                if not child_is_leaf:
                    child["id"] = _letters(names)
                    names += 1
                if probabilities is not None:
                    child["p"] = probabilities[position]
                if child_is_leaf:
                    value = leaf_value()
                    if not child:
                        children.append(value)
                        continue
                    child["value"] = value
                else:
                    below.append(child)
                children.append(child)
            parent["children"] = children
        level = below
    document["root"] = root
    return document


def _probabilities(rng: Random, count: int) -> list[int | str]:
    """``count`` exact probabilities summing to 1, from random weights 1..3 (as ``"a/b"`` strings)."""
    weights = [rng.randint(1, 3) for _ in range(count)]
    total = sum(weights)
    shares = [Fraction(weight, total) for weight in weights]
    return [int(share) if share.denominator == 1 else f"{share.numerator}/{share.denominator}" for share in shares]
