"""Refusing a big bad JSON file without reading it whole (formats/partial.py).

The JSON scanner stops where a file breaks a rule (or where it cannot build
the file); only the nodes on the path to that point are then read, and the
validating builder words the error. Every message here must be the one the
whole-file path gives (``json.loads`` and the builders: what an install
without a C compiler runs, forced with the same flag as
tests/test_jsonscan.py), and the whole file must not be parsed: ``json.loads``
never sees more than a small piece of it. Nothing is timed (docs/limits.md
has the measurements). The big files run with the compiled scanner only;
the small ones with it and with its Python source (the ``scanner`` fixture).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from gametree_cli.io.loader import parse_tree
from gametree_cli.core.errors import GameTreeError
from gametree_cli.io import loader, partial

from .conftest import HANG_GUARD, ROOT
from .scanner_paths import SCANNER_MODULES, compiled, scanner  # noqa: F401 (fixtures)
from .test_jsonscan import loads_path

_spec = importlib.util.spec_from_file_location("gen_bad", ROOT / "bench" / "gen_bad.py")
gen_bad = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(gen_bad)  # type: ignore[union-attr]


def outcome(text: str) -> Any:
    """A tree's size, or the one-line error."""
    try:
        return len(parse_tree(text, name="t.json", fmt="json", max_nodes=10**6))
    except GameTreeError as error:
        return str(error)


def whole_file(text: str) -> Any:
    """What the whole-file path gives (no scanner, as without a C compiler): a tree's size, or the error."""
    found = loads_path(text, max_nodes=10**6)
    return found if isinstance(found, str) else len(found)


def refused_in_part(text: str, monkeypatch) -> str:
    """The error, checking that no json.loads read more than a 50th of the text and that the
    whole-file path did not run."""
    longest = [0]
    real_loads = json.loads

    def spying_loads(source: Any, *args: Any, **kwargs: Any) -> Any:
        longest[0] = max(longest[0], len(source))
        return real_loads(source, *args, **kwargs)

    def no_whole_file(*args: Any) -> Any:
        raise AssertionError("the whole file was parsed")

    with monkeypatch.context() as patch:
        patch.setattr(json, "loads", spying_loads)
        patch.setattr(loader, "read_document", no_whole_file)
        got = outcome(text)
    assert isinstance(got, str), got
    assert longest[0] < len(text) // 50
    return got


KNOWN = " (known: children, comment, eval, id, label, move, p, player, random, type, value)"
#: the whole-file path's message for each file of bench/gen_bad.py at depth 8 (87,381 nodes, 1.5-3 MB)
BIG = {
    ("d3", "start"): "1:1: node root: unknown key 'name'" + KNOWN,
    ("kids", "start"): "1:33: node root: unknown key 'kids'" + KNOWN,
    ("leaf-key", "start"): "1:265: node 1.1.1.1.1.1.1.1: unknown key 'weight'" + KNOWN,
    ("type", "start"): "1:62: node 1: unknown type 'maxi' (expected max, min or chance)",
    ("value", "start"): "1:265: node 1.1.1.1.1.1.1.1: 'high' is not a number",
    ("prob", "start"): "1:62: node 1: probabilities sum to 0.9, not 1",
    ("ids", "start"): "1:329: node n8: unknown key 'weight'" + KNOWN,
    ("leaf-key", "end"): "1:1751312: node 4.4.4.4.4.4.4.4: unknown key 'weight'" + KNOWN,
    ("type", "end"): "1:1751234: node 4.4.4.4.4.4.4: unknown type 'maxi' (expected max, min or chance)",
    ("value", "end"): "1:1751312: node 4.4.4.4.4.4.4.4: 'high' is not a number",
    ("prob", "end"): "1:2572559: node 4.4.4.4.4.4.4: probabilities sum to 0.9, not 1",
    ("ids", "end"): "1:3138250: node n87380: unknown key 'weight'" + KNOWN,
}


@pytest.mark.parametrize("kind, at", sorted(BIG), ids=[f"{kind}-{at}" for kind, at in sorted(BIG)])
def test_a_big_bad_file_is_refused_from_a_part_of_it(kind, at, tmp_path, monkeypatch, compiled):
    text = gen_bad.write_bad(kind, tmp_path / f"{kind}.json", at=at, depth=8).read_text(encoding="utf-8")
    assert refused_in_part(text, monkeypatch) == "t.json:" + BIG[kind, at]
    if (kind, at) in (("d3", "start"), ("ids", "end")):  # the table is the whole-file path's (a few seconds each)
        assert whole_file(text) == "t.json:" + BIG[kind, at]


def test_a_pretty_printed_file_names_its_line(monkeypatch, compiled):
    def node(level: int) -> Any:
        return {"value": level} if level == 6 else {"type": "max", "children": [node(level + 1) for _ in range(4)]}

    document = {"root": node(0)}
    document["root"]["children"][0]["children"][1]["kidz"] = 1
    text = json.dumps(document, indent=1)
    got = refused_in_part(text, monkeypatch)
    assert got == whole_file(text) and got.startswith("t.json:1201:6: node 1.2: unknown key 'kidz'")


SHARES = [{"p": 0.01, "value": i} for i in range(100)]
CORNERS = {
    "id after the children names the node": '{"root": {"children": [1, {"value": 2, "kidz": 1}], "id": "A"}}',
    "chance type after the children": '{"root": {"children": [{"value": 1, "p": 0.5}, {"value": 2, "p": 0.4}], '
                                      '"type": "chance"}}',
    "bounds after the root": '{"root": [[1, 2], {"value": 3, "kidz": 0}], "bounds": [1, 5]}',
    "a leaf outside the bounds": '{"bounds": [0, 10], "root": [[1, 2], [3, 40]]}',
    "three players after the root": '{"root": {"children": [[1, 2, 3], {"value": [1, 2, 3], "kidz": 1}]}, '
                                    '"players": ["A", "B", "C"], "sum": 6}',
    "compact form": '[[1, 2], [3, "x"]]',
    "p on the root": '{"root": {"p": 1, "children": [1]}}',
    "a top-level key after the root": '{"root": [1, 2], "tittle": 1}',
    "non-ASCII before the mistake": '{"root": {"move": "北🎲", "children": [{"value": 1, "move": "é"}, '
                                    '{"value": 2, "kidz": 1}]}}',
    "an id that is not a name": '{"id": "A", "children": [{"id": "B", "value": 1}, {"id": true, "value": 2}]}',
    "a mistake below named nodes": '{"id": "A", "children": [{"id": "B", "children": [{"value": 1, "kidz": 2}]}]}',
    "a chance node of 100 children": json.dumps({"root": {"type": "chance", "children": SHARES[:70] + [
        {"p": 0.01, "type": "maxi", "children": [1]}] + SHARES[71:]}}),
    "children a big mapping": json.dumps({"root": {"children": {f"k{i}": list(range(20)) for i in range(2000)}}}),
    "a syntax error after the mistake": '{"root": {"kidz": 1, "children": [1, 2 3]}}',
    "more after the tree": '{"root": {"kidz": 1, "children": [1, 2]}} [3]',
    "a key twice after the mistake": '{"root": {"kidz": 1, "children": [1, 2]}, "title": "a", "title": "b"}',
}


@pytest.mark.parametrize("case", sorted(CORNERS))
def test_corner_cases_give_the_whole_file_message(case, scanner):
    text = CORNERS[case]
    assert outcome(text) == whole_file(text)


def test_default_ids_of_named_siblings_past_the_first_64_clash_with_nothing(scanner):
    """Child 81 is named "71", the default id child 71 would have if it were not named "c70";
    a stand-in without that name would make a clash the file does not have."""
    siblings = [{"id": f"c{i}", "value": i} for i in range(100)]
    siblings[80] = {"id": "71", "value": "1/3"}  # the scanner stops here (a fraction), then reads the part
    text = json.dumps({"root": {"children": siblings}})
    assert outcome(text) == whole_file(text) == 101


#: run first in a Python process: the scanner's modules are imported from their .py sources, as an
#: install without a C compiler has them (the compiled files are not looked at)
SOURCE_ONLY = f"""
import importlib.util, pathlib, sys
class SourceOnly:
    names = {{f"gametree_cli.io.{{name}}" for name in {SCANNER_MODULES!r}}}
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        for entry in path or () if name in cls.names else ():
            file = pathlib.Path(entry) / (name.rsplit(".", 1)[1] + ".py")
            if file.exists():
                return importlib.util.spec_from_file_location(name, file)
        return None
sys.meta_path.insert(0, SourceOnly)
"""


def test_without_the_compiled_scanner(tmp_path):
    """The scanner uncompiled (an install without a compiler): not used, the same messages from
    json.loads and the builders, the locator skipping with its regular expressions."""
    files = []
    for kind in ("d3", "ids"):
        files.append(str(gen_bad.write_bad(kind, tmp_path / f"{kind}.json", depth=5)))
    script = (SOURCE_ONLY +
              "from gametree_cli import load_tree\n"
              "from gametree_cli.io import jsonscan, locate, partial\n"
              "assert not jsonscan.COMPILED and jsonscan._scan is None and partial._Skipper is None\n"
              "assert locate._c_skip is None\n"
              "for name in sys.argv[1:]:\n"
              "    try: load_tree(name)\n"
              "    except Exception as error: print(error)\n")
    run = subprocess.run([sys.executable, "-c", script, *files], capture_output=True, text=True, check=True,
                         timeout=HANG_GUARD)
    expected = [whole_file((tmp_path / name).read_text()).replace("t.json", str(tmp_path / name))
                for name in ("d3.json", "ids.json")]
    assert run.stdout.splitlines() == expected


# -- skip and scan, compiled and from the source ----------------------------------------------------


def test_skip_ends_where_json_ends(scanner):
    rng = random.Random(3)
    pieces = ['{"a": [1, -2.5e3, "x\\u00e9\\n"], "b": {}}', "[]", "NaN", "-Infinity", '"北🎲"', "[true, false, null]",
              '{"é": "ü"}', "0", "[01]", "[1,]", '{"a" 1}', '"\\x"', "[1 2]", "tru", "-", '"\t"', "1.", "{", "[[[]]]"]
    for _ in range(600):
        text = rng.choice(pieces)
        if rng.random() < 0.5:
            text = json.dumps(rng.choice([{"k": [1, {"q": "w"}]}, [1.5, "é", None], "x"]), indent=rng.choice([None, 2]))
        if rng.random() < 0.3:  # a random cut or extra character
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(["", ",", "]", "}", '"', " "]) + text[at + 1:]
        try:
            end = json.JSONDecoder().raw_decode(text)[1]
        except ValueError:
            end = -1
        assert scanner.skip(text, 0) == end, text
        assert scanner.Skipper(text).skip(0) == end, text


def test_skip_reads_long_texts_window_by_window(scanner):
    """Compiled, the text is read in windows of 65,536 characters (Latin-1 bytes when they all are):
    values, keys compared with keys and wide characters across their edges."""
    rng = random.Random(5)
    words = ["a", "é", "北", "🎲", "\\u00e9", "n\\\"q"]
    items = [{rng.choice(["k", "kk", "é", "北"]) + str(i % 7): rng.choice(words), "v": [i, -1.5e3, None]}
             for i in range(3000)]
    for i in (10, 1500, 2990):
        items[i]["long"] = "x" * 70_000  # a string longer than a window
    text = json.dumps(items, ensure_ascii=False)
    assert 3 * 65_536 < len(text) < 400_000
    assert scanner.skip(text, 0) == json.JSONDecoder().raw_decode(text)[1] == len(text)
    assert scanner.skip_items(text, 1, -1) == (3000, len(text), True)
    twice = text[:-2] + ', "v": 1}]'  # the last object's key "v" again, far from its first one
    assert scanner.skip(twice, 0) == -1 and scanner.skip(twice, 0, False) == len(twice)


def test_skip_items_counts_and_stops(scanner):
    twice = '{"a": 1, "a": 2}'
    assert scanner.skip(twice, 0) == -1 and scanner.skip(twice, 0, False) == len(twice)  # False: a locator's
    text = '[1, {"a": [2]} , "x", [3]]'
    assert scanner.skip_items(text, 1, -1) == (4, len(text), True)
    assert scanner.skip_items(text, 1, 2) == (2, text.index('"x"'), False)
    assert scanner.skip_items("[1, 2 3]", 1, -1)[0] == -1
    assert scanner.skip_items('[{"a": 1, "a": 2}]', 1, -1)[0] == -1  # a key twice: json.loads refuses it


def test_scan_says_why_and_where(scanner):
    """Mode 1: (why, where the scan stood: just past what it refused, the path); mode 2 reads ids."""
    text = '{"root": [1, {"value": 2, "kidz": 1}]}'
    assert scanner.scan(text, 10, 1) == ("an unknown key", text.index('"kidz"') + 6, (1,))
    chance = '{"root": [1, {"type": "chance", "children": [{"value": 1, "p": 0.5}, {"value": 2, "p": 0.4}]}]}'
    assert scanner.scan(chance, 10, 1) == ("probabilities that do not sum to 1", -1, (1,))
    named = '{"id": "A", "children": [{"id": "B", "value": 1}, {"value": 2, "kidz": 1}]}'
    assert scanner.scan(named, 10, 1)[0] == "an id"
    assert scanner.scan(named, 10, 2) == ("an unknown key", named.index('"kidz"') + 6, (1,))
    assert scanner.scan(named.replace(', "kidz": 1', ""), 10, 2) is None  # checked: nothing built
    assert scanner.scan(named, 10) == "an id"  # mode 0: only why, as before


# -- random files with one mistake, and with two ----------------------------------------------------


def random_tree(rng: random.Random, depth: int, players: int, named: bool, counter: list[int]) -> Any:
    counter[0] += 1
    me = counter[0]
    if depth == 0 or rng.random() < 0.25:
        value: Any = [rng.randint(-9, 9) for _ in range(players)] if players > 2 else rng.choice([3, -2, 0.5, "1/3"])
        if rng.random() < 0.3 and not named:
            return value
        node: dict[str, Any] = {"value": value}
    else:
        kind = rng.choice(["max", "min", None, "chance"] if players == 2 else [None])
        width = rng.choice([1, 2, 3, 4, 4, 70]) if depth <= 1 else rng.randint(1, 4)  # past 64: counted in C
        children = [random_tree(rng, depth - 1, players, named, counter) for _ in range(width)]
        if kind == "chance" and rng.random() < 0.5:
            shares = [1 / len(children)] * len(children)
            children = [dict(child, p=share) if isinstance(child, dict) else
                        {"children" if isinstance(child, list) else "value": child, "p": share}
                        for child, share in zip(children, shares)]
        if kind is None and rng.random() < 0.3 and not named:
            return children
        node = {"children": children} if kind is None else {"children": children, "type": kind}
    if named and rng.random() < 0.7:
        node["id"] = f"n{me}"
    if rng.random() < 0.2:
        node["move"] = f"m{me}"
    keys = list(node)
    rng.shuffle(keys)
    return {key: node[key] for key in keys}


def mappings(node: Any, out: list[tuple[dict, Any]], parent: Any = None) -> list[tuple[dict, Any]]:
    children = node.get("children") if isinstance(node, dict) else node if isinstance(node, list) else None
    if isinstance(node, dict):
        out.append((node, parent))
    for child in children if isinstance(children, list) else ():
        mappings(child, out, node)
    return out


MISTAKES = ["unknown key", "word value", "bad type", "empty children", "no value", "children number", "move list",
            "p under a decision", "p sum", "null child"]


def mistake(document: dict, index: int, what: str) -> bool:
    """Make mistake ``what`` at mapping ``index`` of the document; False if it does not apply there."""
    found = mappings(document["root"], [])
    if index >= len(found):
        return False
    node, parent = found[index]
    leaf, children = "children" not in node, node.get("children")
    if what == "unknown key":
        node["weight"] = 1
    elif what == "word value" and leaf and "value" in node:
        node["value"] = "high"
    elif what == "bad type" and not leaf:
        node["type"] = "maxi"
    elif what == "empty children" and isinstance(children, list):
        node["children"] = []
    elif what == "no value" and leaf and "value" in node:
        del node["value"]
    elif what == "children number" and not leaf:
        node["children"] = 5
    elif what == "move list":
        node["move"] = [1]
    elif what == "p under a decision" and isinstance(parent, dict) and parent.get("type") in ("max", "min"):
        node["p"] = 1
    elif what == "p sum" and node.get("type") == "chance" and isinstance(children, list):
        node["children"] = [dict(child, p=0.3) if isinstance(child, dict) else {"value": child, "p": 0.3}
                            for child in children if not isinstance(child, list)] or [{"value": 1, "p": 0.3}]
    elif what == "null child" and isinstance(children, list):
        children.append(None)
    else:
        return False
    return True


def random_document(rng: random.Random) -> tuple[dict, int]:
    players = rng.choice([2, 2, 2, 3])
    document: dict[str, Any] = {"root": random_tree(rng, rng.randint(1, 5), players, rng.random() < 0.4, [0])}
    if players > 2:
        document["players"] = ["A", "B", "C"]
    return document, len(mappings(document["root"], []))


@pytest.mark.parametrize("seed", range(4))
def test_one_random_mistake_gives_the_whole_file_message(seed, compiled, monkeypatch):
    rng = random.Random(seed)
    real = partial.partial_error
    found = []
    partial.partial_error = lambda *args: found.append(real(*args)) or found[-1]  # type: ignore[assignment]
    monkeypatch.setattr(loader, "_SCAN_FROM", 0)  # small texts too through the scanner, whose errors are tested here
    monkeypatch.setattr(loader, "_SCAN_NODES_FROM", 0)
    try:
        compared = 0
        for _ in range(250):
            document, count = random_document(rng)
            if count and mistake(document, rng.randrange(count), rng.choice(MISTAKES)):
                text = json.dumps(document, indent=rng.choice([None, 1]))
                expected = whole_file(text)
                assert outcome(text) == expected, text
                compared += isinstance(expected, str)
    finally:
        partial.partial_error = real  # type: ignore[assignment]
    assert compared > 100 and sum(error is not None for error in found) > compared // 3


def without_place(message: str) -> str:
    return message.split(": ", 1)[1]


@pytest.mark.parametrize("seed", range(2))
def test_two_random_mistakes_name_one_of_them(seed, compiled):
    """Which of two mistakes is named may differ from the whole-file path (the scanner meets
    them in the order of the text, the builder breadth-first), but it is always one of them."""
    rng = random.Random(seed)
    for _ in range(250):
        document, count = random_document(rng)
        if count < 2:
            continue
        later, earlier = sorted(rng.sample(range(count), 2), reverse=True)  # the later first: indexes stay valid
        first, second = (later, rng.choice(MISTAKES)), (earlier, rng.choice(MISTAKES))
        one, other, both = copy.deepcopy(document), copy.deepcopy(document), copy.deepcopy(document)
        if not (mistake(one, *first) and mistake(other, *second) and mistake(both, *first) and mistake(both, *second)):
            continue
        singles = [whole_file(json.dumps(doc)) for doc in (one, other, both)]
        got = outcome(json.dumps(both))
        assert isinstance(got, str) and without_place(got) in {without_place(str(single)) for single in singles}
