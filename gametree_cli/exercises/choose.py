"""Exercises worth asking: random trees kept only when the search does something to ask about.

A random tree is often a poor exercise: alpha-beta may prune nothing, two
root moves may tie (so "the best move" has two answers), or the best move
may simply lead to the biggest leaf (a guess gets it right). So each
exercise is drawn from a seeded generator and solved once; the search
record's own facts decide whether it is kept (:func:`rejection`), else the
next seed is tried. The rules, per algorithm:

* every algorithm: at each decision node of the principal variation the
  chosen child is strictly better than every sibling, as far as the
  record's values tell (exact values, or bounds that rule a tie out). At
  the root this is "a unique best move"; deeper it makes the principal
  variation one answer, not several.
* ``alphabeta``: at least one cut-off and at least one pruned node; in a
  tree of depth 3 or more, at least one pruned node is an inner node (a
  whole subtree is skipped, not only a leaf).
* ``minimax`` and ``expectiminimax``: the best move does not lead to the
  highest leaf of the tree (an optimistic guess is wrong).

Seeds: every candidate's seed comes from SHA-256 of the handout seed, the
student's name, the exercise number and the attempt, so a variant is the
same on every machine and Python version (``hash()`` is salted per
process), and a student's variant does not depend on who else is on the
roster.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..search.registry import solve
from ..core.errors import GameTreeError
from ..io.document import build_tree
from ..generate.random_tree import RandomTreeSpec, random_tree
from ..core.model import LEAF, MAX, MIN, Tree
from ..search.record import EXACT, LOWER, UPPER, SearchRecord

__all__ = ["HANDOUT_ALGORITHMS", "HandoutSpec", "Chosen", "Variant", "choose_variant", "choose_exercise", "rejection", "derived_seed",
           "parse_algorithms", "MAX_ATTEMPTS", "MAX_LEAVES", "MAX_COUNT"]

#: What a handout can ask (the two-player algorithms a course drills by hand).
HANDOUT_ALGORITHMS = ("minimax", "alphabeta", "expectiminimax")
#: Candidates tried per exercise before giving up with a message.
MAX_ATTEMPTS = 2000
#: A tree with more leaves does not fit a page at a readable size.
MAX_LEAVES = 64
#: Exercises per sheet at most: each is a tree of up to 64 leaves on its own half page, so 100 make a
#: 50-page sheet (more than any exam), and with a roster of a few thousand students already hundreds of
#: thousands of searches; a larger --count is a typo, which without a limit ran until killed.
MAX_COUNT = 100


@dataclass(frozen=True)
class HandoutSpec:
    """What the teacher asked for.

    Attributes:
        count: exercises per sheet.
        seed: the handout's seed (keep it private: with it, the key can be made again).
        algorithms: one per exercise, in turn (``minimax,alphabeta`` alternates).
        depth: plies from the root to every leaf (chance edges count).
        branching: children per inner node, ``(low, high)``.
        values: lowest and highest leaf value.
        alphabeta_form: the alpha-beta asked (``--variant``): soft (AIMA), hard, or practical (the course notes').
    """

    count: int
    seed: int
    algorithms: tuple[str, ...] = ("alphabeta",)
    depth: int = 3
    branching: tuple[int, int] = (2, 3)
    values: tuple[int, int] = (0, 9)
    alphabeta_form: str = "soft"

    def check(self) -> None:
        """Refuse requests that cannot give a good exercise, before any work."""
        if self.count < 1:
            raise GameTreeError(f"--count must be 1 or more, not {self.count}")
        if self.count > MAX_COUNT:
            raise GameTreeError(f"--count {self.count} is more exercises than a sheet holds: at most {MAX_COUNT}")
        low, high = self.branching
        if low < 2 or high < low:
            raise GameTreeError(f"--branching must be 2 or more (or a range LOW..HIGH of such), not {low}..{high}"
                                if low != high else f"--branching must be 2 or more, not {low}")
        if self.depth < 1:
            raise GameTreeError(f"--depth must be 1 or more, not {self.depth}")
        if high ** self.depth > MAX_LEAVES:
            raise GameTreeError(f"--depth {self.depth} and --branching {high} make up to {high ** self.depth} leaves, "
                                f"more than the {MAX_LEAVES} that fit on a page")
        if self.values[1] - self.values[0] < 2:
            raise GameTreeError(f"--values {self.values[0]}..{self.values[1]}: give at least three different values")
        for algorithm in self.algorithms:
            if algorithm == "alphabeta" and self.depth < 2:
                raise GameTreeError("alpha-beta cuts nothing in a tree of depth 1: give --depth 2 or more")
            if algorithm == "minimax" and self.depth < 2:  # no candidate can pass rejection(): refuse, not 2,000 tries
                raise GameTreeError("minimax at --depth 1 always picks the move to the highest leaf, which a guess "
                                    "finds: give --depth 2 or more")
            if algorithm == "expectiminimax" and self.depth < 2:
                raise GameTreeError("expectiminimax needs --depth 2 or more (a chance layer below the root)")

    def algorithm(self, index: int) -> str:
        """The algorithm of exercise ``index`` (0-based)."""
        return self.algorithms[index % len(self.algorithms)]


def parse_algorithms(text: str) -> tuple[str, ...]:
    """``"minimax,alphabeta"`` -> ``("minimax", "alphabeta")``, each one a handout can ask."""
    names = tuple(part.strip().lower() for part in text.split(","))
    for name in names:
        if name not in HANDOUT_ALGORITHMS:
            shown = repr(name) if name else "an empty name"
            raise GameTreeError(f"--algo: a handout asks {', '.join(HANDOUT_ALGORITHMS)} (comma-separated), not {shown}")
    return names


@dataclass(frozen=True)
class Chosen:
    """One exercise: the tree document, the tree, its one search, and how it was found."""

    document: dict[str, Any]
    tree: Tree
    record: SearchRecord
    algorithm: str
    seed: int
    attempts: int


@dataclass(frozen=True)
class Variant:
    """One sheet's exercises: for the student called ``name``, or for everyone (``name`` is "")."""

    name: str
    stem: str
    exercises: tuple[Chosen, ...]


def choose_variant(spec: HandoutSpec, name: str = "", stem: str = "") -> Variant:
    """The :attr:`HandoutSpec.count` exercises of ``name``'s sheet (see :func:`choose_exercise`)."""
    return Variant(name, stem, tuple(choose_exercise(spec, index, name) for index in range(spec.count)))


def derived_seed(seed: int, name: str, *parts: int) -> int:
    """A 64-bit seed from the handout seed, a student's name and numbers: the same everywhere."""
    text = "\x1f".join(["gametree handout", str(seed), unicodedata.normalize("NFC", name), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def choose_exercise(spec: HandoutSpec, index: int, name: str = "") -> Chosen:
    """Exercise ``index`` (0-based) of the variant of ``name`` ("" without a roster).

    Raises:
        GameTreeError: no candidate in :data:`MAX_ATTEMPTS` passes the rules.
    """
    algorithm = spec.algorithm(index)
    for attempt in range(MAX_ATTEMPTS):
        seed = derived_seed(spec.seed, name, index, attempt)
        shape = RandomTreeSpec(depth=spec.depth, branching=spec.branching, seed=seed,
                               chance=algorithm == "expectiminimax", values=spec.values)
        document = random_tree(shape)
        document.pop("title", None)  # it would show the seed; the caller names the exercise
        tree = build_tree(document)
        record = solve(tree, algorithm, variant=spec.alphabeta_form) if algorithm == "alphabeta" else solve(tree, algorithm)
        if rejection(record, spec.depth) is None:
            return Chosen(document, tree, record, algorithm, seed, attempt + 1)
    raise GameTreeError(f"no tree of depth {spec.depth} and branching {spec.branching[0]}..{spec.branching[1]} "
                        f"gave a {algorithm} exercise worth asking in {MAX_ATTEMPTS} tries "
                        "(see docs/exercises.md): make the trees deeper or wider, or the values wider")


def rejection(record: SearchRecord, depth: int) -> str | None:
    """Why ``record``'s tree is not worth asking about, or None when it is (rules: module docstring)."""
    tree = record.tree
    if tree.count[0] == 0:
        return "the root is a leaf"
    for node in [0, *record.principal_variation()]:
        if tree.kind[node] in (MAX, MIN) and tree.count[node] and not _clear_choice(record, node):
            return f"node {record.node_id(node)}: its best child is not strictly better than the others"
    if record.algorithm == "alphabeta":
        if record.stats.cutoffs == 0 or not record.pruned:
            return "alpha-beta prunes nothing"
        if depth >= 3 and all(tree.count[node] == 0 for node in record.pruned):
            return "alpha-beta prunes only leaves, no whole subtree"
    elif _toward_highest_leaf(record):
        return "the best move leads to the highest leaf: a guess finds it"
    return None


def _clear_choice(record: SearchRecord, node: int) -> bool:
    """Is ``node``'s chosen child strictly better than each sibling, by the record's values and bounds?"""
    chosen = record.best_child(node)
    if chosen is None:
        return False
    best = record.values[chosen]
    maximizing = record.tree.kind[node] == MAX
    for child in record.tree.children(node):
        if child == chosen:
            continue
        value = record.values[child]
        if value is None:
            return False  # never looked at: a tie is possible
        kind = record.bound_kind(child)
        worse = value < best if maximizing else value > best  # type: ignore[operator]
        if kind == EXACT or kind == (UPPER if maximizing else LOWER):
            if not worse:
                return False
        else:  # a bound on the wrong side (or of unknown side): the true value may tie
            return False
    return True


def _toward_highest_leaf(record: SearchRecord) -> bool:
    """Does the best move lead into a subtree holding the tree's highest leaf value?"""
    tree = record.tree
    chosen = record.best_move()
    if chosen is None:
        return False
    leaves = [node for node in range(len(tree)) if tree.kind[node] == LEAF]
    highest = max(tree.value[node] for node in leaves)  # type: ignore[type-var]
    stack = [chosen]
    while stack:
        node = stack.pop()
        if tree.kind[node] == LEAF and tree.value[node] == highest:
            return True
        stack.extend(tree.children(node))
    return False

