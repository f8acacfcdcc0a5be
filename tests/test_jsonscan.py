"""The JSON tree scanner (formats/scan_*.py, used through formats/jsonscan.py) against the json.loads path.

Every tree the scanner builds must be the tree ``json.loads`` + the builders
make of the same text, field by field (arrays, types of numbers, dict order,
the NumPy forms); everything it is not sure of must be left to that path
(``scan`` returns why, as a str), so that errors keep their file:line. The
random files are written with random spacing, key order, number spellings,
escapes and non-ASCII text. Nothing here is timed.

The scanner is Python in Cython's pure-Python mode: the loader uses it only
compiled (``jsonscan.COMPILED``; test_which_scanner_runs says which). Tests
that take the ``scanner`` fixture run twice, compiled and from the .py
sources (tests/scanner_paths.py); the big inputs run compiled only.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.core.errors import GameTreeError
from gametree_cli.io import jsonscan, loader
from gametree_cli.io.jsonscan import scan_tree
from gametree_cli.io.locate import json_locator
from gametree_cli.core.model import Source
from gametree_cli.core.lazy import SMALL_TREE
from gametree_cli.core.numeric import LazyValues, Numeric

from .scanner_paths import NOT_COMPILED, SCANNER_MODULES, _sources, compiled, scan_source, scanner  # noqa: F401

MAX_NODES = 10_000


# -- which scanner runs --------------------------------------------------------------------


def test_which_scanner_runs() -> None:
    """Says which path this install runs (pytest -rA shows it); a compiled one must be current."""
    if not jsonscan.COMPILED:
        pytest.skip(NOT_COMPILED)
    for name in SCANNER_MODULES:
        built = Path(sys.modules[f"gametree_cli.io.{name}"].__file__)  # type: ignore[arg-type]
        source = built.with_name(f"{name}.py")
        assert built.suffix in (".so", ".pyd"), built
        assert os.path.getmtime(built) >= os.path.getmtime(source), (
            f"{built.name} is older than {source.name}: the compiled scanner is stale (run make install)")
    print("the JSON scanner runs compiled")


def test_the_source_runs_without_cython(monkeypatch: pytest.MonkeyPatch) -> None:
    """An install without Cython at run time: ``import cython`` fails and the stand-ins serve."""
    monkeypatch.setitem(sys.modules, "cython", None)  # makes ``import cython`` raise ImportError
    _sources.clear()
    try:
        source = scan_source()
        assert source.scan('{"root": {"type": "max", "children": [{"value": 3, "move": "é"}, [1, 2]]}}', 10)[9] == {
            1: "é"}
        assert source.skip('{"a": [1, "x"]} ', 0) == 15
    finally:
        _sources.clear()


# -- the two paths ---------------------------------------------------------------------


def loads_path(text: str, max_nodes: int = MAX_NODES) -> Any:
    """What parse_tree gives without the scanner (an install without a C compiler): a tree, or the error's text."""
    saved = loader.scan_or_decline
    loader.scan_or_decline = lambda *args, **kwargs: None
    try:
        return parse_tree(text, name="t.json", fmt="json", max_nodes=max_nodes)
    except GameTreeError as error:
        return str(error)
    finally:
        loader.scan_or_decline = saved


def scanned(text: str, max_nodes: int = MAX_NODES) -> Any:
    return scan_tree(text, source=Source("t.json", json_locator(text)), max_nodes=max_nodes)


def typed(value: Any) -> Any:
    """A value with its type, so 2, 2.0 and Fraction(2) do not pass for each other (nor 0.0 and -0.0)."""
    if isinstance(value, float):
        return ("float", value, math.copysign(1.0, value))
    if isinstance(value, tuple):
        return tuple(typed(part) for part in value)
    return (type(value).__name__, value)


def facts(tree) -> dict[str, Any]:
    """Everything a Tree holds, in comparable form.

    A tree of fewer than SMALL_TREE nodes may hold its values as a list or as NumPy arrays
    (the small path imports no NumPy: docs/performance.md): there only the values count.
    """
    values = tree.value
    numeric = tree._numeric
    if len(tree.kind) < SMALL_TREE:
        return {**_facts(tree, None, None), "value": [typed(v) for v in values]}
    return _facts(tree, values, numeric)


def _facts(tree, values, numeric) -> dict[str, Any]:
    return {
        "kind": (type(tree.kind).__name__, bytes(tree.kind)),
        "first": (memoryview(tree.first).format, list(tree.first)),
        "count": (memoryview(tree.count).format, list(tree.count)),
        "player": (memoryview(tree.player).format, list(tree.player)),
        "value": values is not None and (type(values).__name__, [typed(v) for v in values]) + (
            (values.data.dtype.str, values.data.tolist(), values.denominator, values.present.tolist())
            if type(values) is LazyValues else ()),
        "prob": None if tree.prob is None else [typed(p) for p in tree.prob],
        "evals": [(node, typed(v)) for node, v in tree.evals.items()],
        "moves": list(tree.moves.items()),
        "header": (tree.players, typed(tree.total), tree.bounds and typed(tree.bounds), tree.title),
        "other": (tree.explicit_ids, tree.extra, tree.vector_payoffs, tree._parent, tree._ids, tree._depth,
                  tree.source.name if tree.source else None),
        "numeric": (numeric.leaf.dtype.str, numeric.leaf.tolist(), numeric.denominator,
                    None if numeric.prob is None else numeric.prob.tolist(), numeric.prob_denominator)
        if isinstance(numeric, Numeric) else numeric,
    }


def assert_same_tree(text: str) -> None:
    expected = loads_path(text)
    assert not isinstance(expected, str), expected
    assert same_as_json_loads(text, expected), f"the scanner left a plain file to json.loads: {jsonscan._scan(text, MAX_NODES)}"


def same_as_json_loads(text: str, expected: Any = None) -> bool:
    """Whether the scanner built the file (then: json.loads's tree); files json.loads refuses it must leave."""
    if expected is None:
        expected = loads_path(text)
    got = scanned(text)
    if isinstance(expected, str):
        assert got is None, f"the scanner accepted a file the builders refuse: {expected}"
        return False
    if got is None:
        return False
    assert facts(got) == facts(expected)
    assert got.source.locate(got.path(len(got) - 1)) == expected.source.locate(expected.path(len(expected) - 1))
    return True


# -- random files ------------------------------------------------------------------------


class Raw:
    """A token written as is (a number's spelling)."""

    def __init__(self, text: str) -> None:
        self.text = text


class Writer:
    """JSON text with random spacing and string escapes (not in keys: the scanner leaves those to json.loads)."""

    SPACES = ["", " ", "  ", "\n", "\n  ", "\t", "\r\n", " \n\t "]

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.tight = rng.random() < 0.3

    def space(self) -> str:
        return "" if self.tight else self.rng.choice(self.SPACES)

    def string(self, text: str) -> str:
        if self.rng.random() < 0.5:
            return json.dumps(text, ensure_ascii=self.rng.random() < 0.5)
        out = []  # escapes JSON allows but json.dumps does not write
        for char in text:
            roll = self.rng.random()
            if char == "/" and roll < 0.5:
                out.append("\\/")
            elif roll < 0.2:
                out.append(json.dumps(char, ensure_ascii=True)[1:-1] if ord(char) > 0xFFFF else f"\\u{ord(char):04x}")
            else:
                out.append(json.dumps(char, ensure_ascii=False)[1:-1])
        return '"' + "".join(out) + '"'

    def write(self, item: Any) -> str:
        s = self.space
        if isinstance(item, Raw):
            return item.text
        if isinstance(item, dict):
            parts = [f"{s()}{json.dumps(key)}{s()}:{s()}{self.write(value)}{s()}" for key, value in item.items()]
            return "{" + ",".join(parts) + "}"
        if isinstance(item, list):
            return "[" + ",".join(f"{s()}{self.write(part)}{s()}" for part in item) + "]"
        if isinstance(item, str):
            return self.string(item)
        return json.dumps(item)


def int_token(rng: random.Random, value: int) -> Raw:
    return Raw("-0" if value == 0 and rng.random() < 0.1 else str(value))


def float_token(rng: random.Random, value: float) -> Raw:
    spellings = [repr(value), f"{value:.17g}", f"{value:e}", f"{value:E}", f"{value:.3f}"]
    text = rng.choice(spellings)
    if "e" not in text.lower() and "." not in text:
        text += ".0"  # an integer spelling would be an int
    if "inf" in text or "nan" in text:
        text = repr(0.5)
    return Raw(text)


MOVES = ["a", "e4", "Nf3", "é", "北", "→", "🎲", 'say "hi"', "back\\slash", "tab\there", "a/b", "", "x" * 40]
NOTES = ["a comment", "ümlaut", None, True, 3, -2.5, [1, [2, "x"]], [], "🎲"]


def random_file(rng: random.Random) -> str:
    """A plain two-player tree file the scanner must read as json.loads + the builders do."""
    decimals = rng.random() < 0.3
    big = rng.random() < 0.1

    def leaf_value() -> Raw:
        if decimals:
            return float_token(rng, rng.choice([0.5, -1.25, 3.0, 0.1, 1e-3, -0.0, 2.5e10, 7.0, 1 / 3]))
        if big:
            return int_token(rng, rng.choice([2**62 - 1, -(2**62) + 1, 10**18, -7]))
        return int_token(rng, rng.randint(-999, 999))

    def eval_value() -> Raw:
        if rng.random() < 0.5:
            return float_token(rng, rng.choice([0.25, -3.5, 1e300]))
        return int_token(rng, rng.choice([0, 5, -(2**63), 2**63 - 1, rng.randint(-50, 50)]))

    def probabilities(k: int) -> list[Raw] | None:
        roll = rng.random()
        if roll < 0.5:
            return None
        if roll < 0.6:
            shares = [0] * k
            shares[rng.randrange(k)] = 1
            return [int_token(rng, share) for share in shares]
        weights = [rng.randint(1, 5) for _ in range(k)]
        shares = [weight / sum(weights) for weight in weights]
        if k == 10 and rng.random() < 0.5:
            shares = [0.1] * 10  # sums to 0.9999999999999999: close enough
        if rng.random() < 0.05:  # too few digits: the sum is off (both paths refuse it, or the builder decides)
            return [float_token(rng, share) for share in shares]
        return [Raw(rng.choice([repr(share), f"{share:.17g}", f"{share:.16e}"])) for share in shares]

    budget = [rng.randint(1, 80)]

    def node(depth: int, under_chance: bool, p: Raw | None) -> Any:
        budget[0] -= 1
        if depth > 6 or budget[0] <= 0 or rng.random() < 0.3:
            value = leaf_value()
            if p is None and rng.random() < 0.4:
                return value  # a bare number
            mapping: dict[str, Any] = {"value": value}
            extras = ["move", "comment", "label", "eval", "type"]
        else:
            k = rng.choice([1, 2, 2, 3, 4, 10])
            kind = rng.choice(["max", "min", None, "chance", "MAX", "Chance", "mIn"])
            chance = kind is not None and kind.lower() == "chance"
            shares = probabilities(k) if chance else None
            children = [node(depth + 1, chance, shares[i] if shares else None) for i in range(k)]
            if kind is None and p is None and rng.random() < 0.4:
                return children  # compact form
            mapping = {"children": children}
            if kind is not None:
                mapping["type"] = Raw(json.dumps(kind))  # unescaped, like keys
            elif rng.random() < 0.1:
                mapping["type"] = None
            extras = ["move", "comment", "label", "eval", "value"]
        for key in extras:
            if rng.random() < 0.25:
                if key == "move":
                    mapping["move"] = rng.choice(MOVES + [int_token(rng, rng.randint(-9, 99)), Raw('"1.5"'), None])
                elif key in ("comment", "label"):
                    mapping[key] = rng.choice(NOTES)
                elif key == "eval":
                    mapping["eval"] = rng.choice([eval_value(), None])
                elif key == "type":
                    mapping["type"] = rng.choice([Raw('"max"'), Raw('"min"'), Raw('"chance"'), None])
                elif key == "value":
                    mapping["value"] = None
        if p is not None:
            mapping["p"] = p
        elif under_chance and rng.random() < 0.1:
            mapping["p"] = None
        keys = list(mapping)
        rng.shuffle(keys)
        return {key: mapping[key] for key in keys}

    root = node(0, False, None)
    shape = rng.random()
    if shape < 0.15 and (isinstance(root, (list, Raw)) or "children" in root or "value" in root):
        document: Any = root  # a bare node, list or number
    else:
        document = {"root": root}
        if rng.random() < 0.5:
            document["title"] = rng.choice(["a tree", "ünïcode ✓", 42, None, ""])
        if rng.random() < 0.3:
            document["players"] = rng.choice([["MAX", "MIN"], ["Alice", "Bob"], ["Ana", 7]])
        if rng.random() < 0.2:
            document["description"] = "what it is"
        if rng.random() < 0.2:
            document["comment"] = rng.choice(NOTES)
        if rng.random() < 0.1:
            document["$schema"] = "https://example.org/tree.json"
        if rng.random() < 0.1:
            document["bounds"] = [-10**19, 10**19]
        if rng.random() < 0.1:
            document["sum"] = rng.choice([0, "1/2", 1.5])
        keys = list(document)
        rng.shuffle(keys)
        document = {key: document[key] for key in keys}
    writer = Writer(rng)
    return writer.space() + writer.write(document) + writer.space()


@pytest.mark.parametrize("seed", range(40))
def test_random_files_build_the_same_tree(seed, scanner):
    """A few files are invalid (decimal p spelled with too few digits); the rest the scanner must build."""
    rng = random.Random(seed)
    built = sum(same_as_json_loads(random_file(rng)) for _ in range(60))
    assert built >= 50


def test_bytes_and_str_scan_alike(scanner):
    rng = random.Random(7)
    built = 0
    for _ in range(200):
        text = random_file(rng)
        from_str, from_bytes = scanner.scan(text, MAX_NODES), scanner.scan(text.encode("utf-8"), MAX_NODES)
        assert from_str == from_bytes
        built += not isinstance(from_str, str)
    assert built >= 180


def test_the_bench_shapes(scanner):
    """Explicit types and {"value": V} leaves; chance levels without p (uniform fractions)."""
    for shape in ("minmax", "chance"):
        cycle = ["max", "min"] if shape == "minmax" else ["max", "chance", "min", "chance"]
        values = iter(random.Random(shape).choices(range(-999, 1000), k=4**6))

        def node(level: int) -> dict:
            if level == 6:
                return {"value": next(values)}
            return {"type": cycle[level % len(cycle)], "children": [node(level + 1) for _ in range(4)]}

        assert_same_tree(json.dumps({"title": shape, "root": node(0)}))


@pytest.mark.parametrize("largest", [20, 42, 43, 47])
def test_exact_probabilities_at_the_int64_edge(largest, scanner):
    """Chance nodes of 1..largest outcomes: lcm(1..42) fits int64, lcm(1..43) does not (its
    numerators do), lcm(1..47)'s numerators do not; the scanner hands the last two to Python."""
    children = [{"type": "chance", "children": list(range(k))} for k in range(1, largest + 1)]
    children.append({"type": "chance", "children": [{"p": 0, "value": 1}, {"p": 1, "value": 2}]})
    assert_same_tree(json.dumps({"root": {"type": "max", "children": children}}))


def test_deep_chains_need_no_recursion(compiled):
    depth = 100_000
    lists = "[" * depth + "1" + "]" * depth
    mappings = '{"children": [' * depth + '{"value": 1}' + "]}" * depth
    for text in (lists, mappings):
        tree = scanned(text, max_nodes=10**6)
        assert tree is not None and len(tree) == depth + 1
        assert facts(tree) == facts(loads_path(text, max_nodes=10**6))


def test_nesting_past_a_million_levels_is_left_to_json_loads(compiled):
    """json.loads reads up to about 2,000,000 levels and then says so (docs/limits.md);
    the scanner leaves everything past 1,000,000 to it, so both agree on what is read."""
    depth = 1_000_000
    assert not isinstance(compiled.scan("[" * depth + "1" + "]" * depth, 2 * depth), str)
    deeper = "[" * (depth + 1) + "1" + "]" * (depth + 1)
    assert compiled.scan(deeper, 2 * depth) == "nested too deeply"
    mappings = '{"children": [' * (depth // 2) + "1" + "]}" * (depth // 2)
    assert not isinstance(compiled.scan(mappings, depth), str)
    assert compiled.scan('{"root": ' + mappings + "}", depth) == "nested too deeply"


def test_max_nodes_counts_every_node(scanner):
    text = json.dumps({"root": [[1, 2], [3, 4]]})  # 7 nodes
    assert scanned(text, max_nodes=7) is not None
    assert scanner.scan(text, 6) == "more nodes than max_nodes"
    bare = json.dumps({"children": [[1, 2], [3, 4]]})
    assert scanned(bare, max_nodes=7) is not None
    assert isinstance(scanner.scan(bare, 6), str)
    assert "more than 6 nodes" in str(pytest.raises(GameTreeError, parse_tree, text, fmt="json", max_nodes=6).value)


# -- what the scanner leaves to json.loads -------------------------------------------------

TREE = '{"root": {"type": "max", "children": [%s, {"value": 2}]}}'
CHANCE = '{"root": {"type": "chance", "children": [{"value": 1, "p": %s}, {"value": 2, "p": %s}]}}'

LEFT_TO_JSON_LOADS = {
    "unknown key": TREE % '{"value": 1, "id": "a"}',
    "unknown top-level key": '{"root": [1, 2], "tittle": "x"}',
    "key twice": TREE % '{"value": 1, "value": 3}',
    "top key twice": '{"title": "a", "root": [1, 2], "title": "b"}',
    "key twice in a nested comment": TREE % '{"value": 1, "comment": {"a": 1, "a": 2}}',
    "escaped key": TREE % '{"valu\\u0065": 1}',
    "integer beyond int64": TREE % '{"value": 9223372036854775808}',
    "integer leaf beyond 2**62": TREE % '{"value": 4611686018427387904}',
    "eval beyond int64": '{"root": {"children": [1], "eval": -9223372036854775809}}',
    "long integer": TREE % ("1" * 5000),
    "fraction string": TREE % '{"value": "1/3"}',
    "number string": TREE % '"7"',
    "decimal mixed with integers": TREE % "1.5",
    "decimal beyond float64": TREE.replace("2}", "1e400}") % "1.5",
    "NaN": TREE % "NaN",
    "Infinity": TREE % "Infinity",
    "-Infinity": TREE % "-Infinity",
    "true leaf": TREE % "true",
    "null leaf": TREE % "null",
    "empty children": TREE % '{"children": []}',
    "empty list": TREE % "[]",
    "children not a list": TREE % '{"children": 3}',
    "leaf without value": TREE % '{"type": "max"}',
    "null value": TREE % '{"value": null}',
    "value and children": TREE % '{"value": 1, "children": [2]}',
    "unknown type": TREE % '{"type": "maxi", "children": [1]}',
    "type with spaces": TREE % '{"type": " max", "children": [1]}',
    "type not a string": TREE % '{"type": 1, "children": [1]}',
    "p under a decision node": TREE % '{"value": 1, "p": 1}',
    "p on the root": '{"root": {"p": 1, "value": 3}}',
    "p on some children only": '{"root": {"type": "chance", "children": [{"value": 1, "p": 1}, 2]}}',
    "p null on some children": CHANCE % ("1.0", "null"),
    "p not summing to 1": CHANCE % ("0.5", "0.6"),
    "integer p not summing to 1": CHANCE % ("1", "1"),
    "negative p": CHANCE % ("-1", "2"),
    "negative decimal p": CHANCE % ("-0.5", "1.5"),
    "p a decimal string": CHANCE % ('"0.5"', '"0.5"'),
    "p a fraction with spaces": CHANCE % ('" 1/2"', '"1/2"'),
    "p a fraction with a sign": CHANCE % ('"+1/2"', '"1/2"'),
    "p a negative fraction": CHANCE % ('"-1/2"', '"3/2"'),
    "p a fraction with an escape": CHANCE % ('"1\\/2"', '"1/2"'),
    "p a fraction over zero": CHANCE % ('"1/0"', '"1/2"'),
    "p an empty string": CHANCE % ('""', '"1/2"'),
    "p a fraction of 19 digits": CHANCE % ('"1000000000000000000/2000000000000000000"', '"1/2"'),
    "p a fraction above 1": CHANCE % ('"3/2"', '"0/2"'),
    "p -0.0": CHANCE % ("-0.0", "1.0"),
    "p fractions not summing to 1": CHANCE % ('"1/3"', '"1/3"'),
    "p decimals 2e-9 off 1": CHANCE % ("0.499999999", "0.499999999"),
    "move a list": TREE % '{"value": 1, "move": ["a"]}',
    "move true": TREE % '{"value": 1, "move": true}',
    "move a decimal": TREE % '{"value": 1, "move": 1.10}',
    "lone surrogate in a move": TREE % '{"value": 1, "move": "\\ud800"}',
    "lone low surrogate in a move": TREE % '{"value": 1, "move": "\\udc00x"}',
    "high surrogate and no low one": TREE % '{"value": 1, "move": "\\ud800\\u0041"}',
    "invalid escape": TREE % '{"value": 1, "move": "\\x41"}',
    "short \\u escape": TREE % '{"value": 1, "move": "\\u12"}',
    "control character": TREE % '{"value": 1, "move": "a\tb"}',
    "trailing comma": TREE % '{"value": 1,}',
    "trailing comma in a list": '[1, 2,]',
    "missing colon": TREE % '{"value" 1}',
    "single quotes": TREE % "{'value': 1}",
    "unterminated string": '{"root": [1, 2], "title": "abc',
    "unclosed": '{"root": [1, 2]',
    "extra data": '[1, 2] [3]',
    "leading zero": "[01, 2]",
    "plus sign": "[+1, 2]",
    "bare decimal point": "[.5, 2]",
    "empty exponent": "[1e, 2]",
    "empty": "",
    "blank": "  \n ",
    "top-level string": '"5"',
    "top-level null": "null",
    "top-level true": "true",
    "empty mapping": "{}",
    "no root": '{"title": "x"}',
    "node keys beside root": '{"root": [1, 2], "value": 3}',
    "header keys in a bare node": '{"children": [1, 2], "title": "x"}',
    "title a mapping": '{"root": [1, 2], "title": {"a": 1}}',
    "three players": '{"root": [1, 2], "players": ["A", "B", "C"]}',
    "general sum": '{"root": [1, 2], "general_sum": true}',
    "players wrong": '{"root": [1, 2], "players": ["A"]}',
    "leaf outside the bounds": '{"root": [1, 20], "bounds": [0, 10]}',
    "a byte-order mark": "\ufeff[1, 2]",
    "non-JSON whitespace": "[1,\u00a02]",
}


@pytest.mark.parametrize("case", sorted(LEFT_TO_JSON_LOADS))
def test_left_to_json_loads(case, scanner):
    """The scanner gives up, and parse_tree then gives what json.loads and the builders give."""
    text = LEFT_TO_JSON_LOADS[case]
    assert scanned(text) is None
    expected = loads_path(text)
    try:
        got: Any = parse_tree(text, name="t.json", fmt="json", max_nodes=MAX_NODES)
    except GameTreeError as error:
        got = str(error)
    if isinstance(expected, str):
        assert got == expected
    else:
        assert facts(got) == facts(expected)


INVALID_UTF8 = [b"\xff", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80", b"\xf8\x88\x80\x80\x80"]


@pytest.mark.parametrize("raw", INVALID_UTF8, ids=[raw.hex() for raw in INVALID_UTF8])
def test_invalid_utf8_bails(raw, scanner):
    for field in (b'"move": "a%sb"', b'"comment": "%s"'):
        text = b'{"root": {"value": 1, ' + field.replace(b"%s", raw) + b"}}"
        assert scanner.scan(text, MAX_NODES) == "invalid UTF-8"
    valid = '{"root": {"value": 1, "move": "é北🎲"}}'
    assert scanner.scan(valid.encode(), MAX_NODES) == scanner.scan(valid, MAX_NODES)


def test_hostile_inputs_bail_cheaply(compiled):
    """Runaway nesting and node counts stop at max_nodes; what is skipped needs no stack."""
    assert compiled.scan("[" * 2_000_000, 1000) == "more nodes than max_nodes"
    assert compiled.scan('{"children": [' * 500_000, 1000) == "more nodes than max_nodes"
    assert compiled.scan("[" * 200_000, 10**6) == "a node that is not a mapping, list or number"  # the end
    skipped = '{"comment": ' + "[" * 999_999 + "]" * 999_999 + ', "root": [1, 2]}'  # 1,000,000 levels
    assert not isinstance(compiled.scan(skipped, 10), str)
    assert compiled.scan(skipped.replace("[", "[[", 1).replace("]", "]]", 1), 10) == "nested too deeply"
    assert isinstance(compiled.scan('{"root": [1, 2], "comment": ' + "[" * 100_000, 10), str)
    assert isinstance(compiled.scan(b"[1, 2\x00]", 10), str)
    assert isinstance(compiled.scan("[1, 2]", -1), str)


# -- the loader uses it ------------------------------------------------------------------------


def test_load_tree_reads_json_files_with_the_scanner(tmp_path, monkeypatch, scanner):
    path = tmp_path / "tree.json"
    path.write_text(json.dumps({"title": "t", "root": {"type": "max", "children": [{"value": 3}, [1, 2]]}}))
    expected = facts(load_tree(path))

    def no_json_loads(*args, **kwargs):
        raise AssertionError("json.loads ran")

    monkeypatch.setattr(loader, "loads_strict", no_json_loads)
    monkeypatch.setattr(loader, "_SCAN_FROM", 0)  # a small file too (by default json.loads reads those: no NumPy)
    monkeypatch.setattr(loader, "_SCAN_NODES_FROM", 0)
    assert facts(load_tree(path)) == expected
    other = tmp_path / "tree.txt"  # no extension: sniffed as JSON
    other.write_text(path.read_text())
    assert facts(load_tree(other))["kind"] == expected["kind"]


def test_errors_keep_their_file_and_line(tmp_path, scanner):
    path = tmp_path / "bad.json"
    path.write_text('{"root": {"type": "max", "children": [\n  {"value": 1},\n  {"value": "x"}\n]}}\n')
    with pytest.raises(GameTreeError) as raised:
        load_tree(path)
    assert str(raised.value).startswith(f"{path}:3:")
