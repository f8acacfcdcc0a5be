"""Valid inputs of every shape the contract allows, in every format: what the fuzzers mutate.

Each seed is ``(label, extension, bytes)``: the extension picks the reader
(``.yaml``, ``.json``, ``.efg``, ``.gtb``; a compact list is written as
``.json``/``.yaml`` and also as an extension-less file, which is sniffed).
Seeds are built from the shipped trees, a few hand-written documents that
cover the rest of contract section 1 (fractions, decimals, ``eval``,
``random``, ``general_sum``, player names and indexes...), and every text
and binary writer applied to them, so a mutation starts from what gametree
itself would read or write.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from gametree_cli.search.registry import ALGORITHMS, Options, solve
from gametree_cli.views.answer_key import answer_key, dump_answer_file
from gametree_cli.core.errors import GameTreeError
from gametree_cli.io.binary_encode import encode_binary
from gametree_cli.io.document_writer import TEXT_WRITERS, tree_to_document
from gametree_cli.io.loader import parse_tree

__all__ = ["ROOT", "Seed", "tree_seeds", "answer_seeds", "NASTY_TOKENS"]

ROOT = Path(__file__).resolve().parents[1]

Seed = tuple[str, str, bytes]

#: Hand-written documents for what the shipped trees leave out.
HANDWRITTEN: dict[str, str] = {
    "compact": "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]",
    "compact-uneven": "[[1, [2, -3]], [4], 7]",
    "single-number": "42",
    "bare-node": "{id: A, type: min, children: [3, {id: X, value: 5}]}",
    "fractions-decimals": """\
title: Fractions and decimals
bounds: ["-7/2", 10]
root:
  id: R
  type: chance
  children:
    - {id: a, p: "1/3", type: max, eval: 1, children: ["7/3", 2.5, -1]}
    - {id: b, p: "2/3", type: min, eval: "1/2", children: [{id: b1, value: 0.125, move: left}, 10]}
""",
    "decimal-probabilities": """\
root:
  type: chance
  children:
    - {p: 0.25, value: 1}
    - {p: 0.75, children: [1, 2, 3]}
""",
    "eval-depth": """\
title: Depth-limited with eval everywhere
root:
  id: A
  eval: 0
  children:
    - {id: B, move: b, eval: 3, children: [{id: B1, eval: 4, children: [1, 9]}, 5]}
    - {id: C, move: c, eval: -2, children: [{id: C1, eval: 7, children: [8, 2]}, -6]}
""",
    "opponent-model": """\
root:
  type: max
  children:
    - {type: min, random: "1/3", children: [4, 8, 1]}
    - {type: min, random: 0.5, children: [2, 6]}
""",
    "nplayer-names": """\
players: [Ann, Bob, Cy]
sum: 10
bounds: [0, 10]
root:
  id: top
  player: Ann
  eval: [3, 3, 4]
  children:
    - {id: x, player: 2, children: [[1, 2, 7], [5, 5, 0]]}
    - {id: y, type: chance, children: [{p: "1/4", value: [10, 0, 0]}, {p: "3/4", value: [2, 4, 4]}]}
    - {id: z, value: [3, 3, 4]}
""",
    "general-sum": """\
general_sum: true
root:
  children:
    - {move: cooperate, children: [[3, 3], [0, 5]]}
    - {move: defect, children: [[5, 0], [1, 1]]}
""",
    "two-player-vectors": """\
players: [MAX, MIN]
root:
  player: MAX
  children: [{player: MIN, children: [1, 2]}, {player: 1, children: [3, -4]}]
""",
    "json-full": """\
{"title": "JSON", "players": ["MAX", "MIN"], "bounds": [0, 9],
 "root": {"id": "A", "type": "max", "children": [
   {"id": "B", "move": "b", "type": "chance", "children": [{"p": "1/2", "value": 9}, {"p": "1/2", "value": 0}]},
   {"id": "C", "move": "c", "type": "min", "eval": 4, "children": [3, 7, {"id": "C3", "value": 6, "label": "x"}]}]}}
""",
}


def _load(text: str, fmt: str | None = None):
    return parse_tree(text, name="seed", fmt=fmt)


@lru_cache(maxsize=None)
def tree_seeds() -> tuple[Seed, ...]:
    """Every seed input: each source as written, and as each writer renders its tree."""
    sources: list[tuple[str, str, str]] = []
    for path in sorted((ROOT / "trees").glob("*.yaml")):
        sources.append((path.stem, ".yaml", path.read_text(encoding="utf-8")))
    for name, text in HANDWRITTEN.items():
        sources.append((name, ".json" if text.lstrip().startswith(("{\"", "[")) else ".yaml", text))
    seeds: list[Seed] = [(name, ext, text.encode("utf-8")) for name, ext, text in sources]
    for path in sorted((ROOT / "tests" / "data" / "efg").glob("*.efg")):
        seeds.append((path.stem, ".efg", path.read_bytes()))
    extensions = {"yaml": ".yaml", "json": ".json", "compact": "", "efg": ".efg"}
    for name, ext, text in sources:
        tree = _load(text, ext.lstrip(".") if ext else None)
        for writer, render in TEXT_WRITERS.items():
            try:
                seeds.append((f"{name}->{writer}", extensions[writer], render(tree).encode("utf-8")))
            except GameTreeError:
                pass  # e.g. compact form of a tree with chance nodes: the writer says it cannot
        seeds.append((f"{name}->gtb", ".gtb", encode_binary(tree)))
    return tuple(seeds)


@lru_cache(maxsize=None)
def answer_seeds() -> tuple[Seed, ...]:
    """Answer files: the shipped ones (trees by path) and complete keys with the tree inline."""
    seeds: list[Seed] = [(path.name, ".yaml", path.read_bytes()) for path in sorted((ROOT / "exercises").glob("*.answers.yaml"))]
    for name, ext, text in ((n, e, t) for n, e, t in tree_seeds() if e in (".yaml", ".json") and "->" not in n):
        tree = _load(text.decode("utf-8"))
        options = Options()
        for algorithm in ALGORITHMS:
            try:
                record = solve(tree, algorithm, options=options)
            except GameTreeError:
                continue
            key = answer_key(record, tree=tree_to_document(tree), options=options)
            seeds.append((f"{name}:{algorithm}", ".yaml", dump_answer_file(key).encode("utf-8")))
            break  # one algorithm a tree keeps the seed set small
    return tuple(seeds)


_BIG = "9" * 5000

#: Tokens that have broken (or could break) YAML, JSON, EFG readers and the builder.
NASTY_TOKENS: tuple[bytes, ...] = tuple(token.encode("utf-8") if isinstance(token, str) else token for token in (
    "&a ", "*a", "<<: *a", "&a [1, *a]", "!!python/object/apply:os.system [\"x\"]", "!!binary aGVsbG8=",
    "!!str ", "!!int ", "!!float ", "!!map ", "!!set ", "!!timestamp 2001-12-14", "? ", "--- ", "...", "%YAML 1.1\n",
    "|\n", ">-\n", "~", "null", "true", "yes", "\"1/0\"", "\"0/0\"", "\"a/b\"", "\"-1/3\"", "1/0", "\"1/-3\"",
    ".nan", ".inf", "-.inf", "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "0x1F", "0o17", "1_000",
    "-0", "0.1", _BIG, "-" + _BIG, f"\"{_BIG}/3\"", "\"3/" + _BIG + "\"",
    b"\x00", b"\xff", b"\xfe\xff", b"\xc3", b"\xef\xbb\xbf", b"\xed\xa0\x80", "\u2028", "\x85", "\r", "\r\n",
    "\t", "\n", "\n  ", "  ", "- ", ": ", ", ", "#", "{", "}", "[", "]", "\"", "'", "\\", "\\u0000", "\\ud800",
    "p: ", "p: 2", "p: -1", "p: \"1/2\"", "type: ", "type: chance", "type: min", "type: bogus", "children: ",
    "children: []", "children: 5", "children: [[]]", "players: ", "players: [A]", "players: []", "players: [A, A, B]",
    "sum: ", "sum: -1", "sum: x", "bounds: ", "bounds: [5, 1]", "bounds: [1]", "random: ", "random: 2",
    "random: \"1/2\"", "eval: ", "eval: [1, 2]", "eval: x", "id: ", "id: A", "id: 1", "id: B.1", "id: [1]",
    "move: ", "move: {}", "value: ", "value: [1, 2]", "value: [1, 2, 3]", "value: {}", "player: 7", "player: -1",
    "player: Bob", "general_sum: true", "root: ", "root: 5", "title: [x]", "$schema: 1",
    "\"p\": ", "\"type\": ", "\"children\": ", "\"id\": ", "\"value\": ", "\"players\": ", "\"sum\": ",
    "\"bounds\": ", "\"random\": ", "\"eval\": ", "\"general_sum\": true, ",
    # answer files
    "tree: ", "tree: -", "tree: /", "tree: .", "algorithm: ", "algorithm: star1", "algorithm: shallow",
    "depth: ", "depth: -1", "depth: 99999999999999999999", "variant: hard", "strict: true", "order: best",
    "ties: paranoid", "answers: ", "answers: {}", "nodes: ", "nodes: {A: }", "pruned: [", "stats: {cutoffs: x}",
    "exercises: ", "value: inf", "best_move: ", "visit_order: [A, A]", "principal_variation: 1",
    # Gambit .efg
    "EFG 2 R ", "EFG 2 D ", "EFG 3 R ", " p ", " c ", " t ", " \"\" ", " 0 ", " 1 ", " 2 ", " 99 ",
    " 99999999999999999999 ", " -1 ", " 1/0 ", " 0/0 ", " 1/3 ", " .5 ", " 1e5 ", " { } ", " { \"x\" } ", " { 1, 2 } ",
))
