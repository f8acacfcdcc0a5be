"""A big ``.json`` file goes to the scanner as the bytes read, never decoded first (docs/performance.md, issue 14.4).

What must not change: the tree built, the error a bad file gets (the same as
reading its decoded text), where a late error locates a node; and a file the
scanner leaves is scanned once, not again as text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gametree_cli.core.errors import GameTreeError
from gametree_cli.core.lazy import SMALL_TREE
from gametree_cli.io import loader
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.io.locate import json_locator

from .scanner_paths import scanner  # noqa: F401
from .test_jsonscan import facts


def big_tree(seed: int, leaf=lambda rng: rng.randint(-99, 99)) -> dict:
    """A max/min tree of 5,461 nodes (branching 4, depth 6): past SMALL_TREE, so the scanner reads it."""
    rng = random.Random(seed)

    def node(depth: int) -> dict:
        if depth == 6:
            return {"value": leaf(rng)}
        return {"children": [node(depth + 1) for _ in range(4)]}

    return {"title": "bytes", "root": node(0)}


def outcome(read):
    """The tree's facts, or the error's words."""
    try:
        return facts(read())
    except GameTreeError as error:
        return str(error)


def both_ways(path: Path, data: bytes):
    """What load_tree makes of the file, and what parse_tree makes of its decoded text."""
    return (outcome(lambda: load_tree(path)),
            outcome(lambda: parse_tree(data.decode("utf-8-sig"), name=str(path), fmt="json")))


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """The type of each text the loader hands the scanner."""
    seen: list[type] = []
    scan = loader.scan_or_decline

    def spy(text, **options):
        seen.append(type(text))
        return scan(text, **options)

    monkeypatch.setattr(loader, "scan_or_decline", spy)
    return seen


def test_a_big_file_is_scanned_from_its_bytes_into_the_same_tree(tmp_path: Path, calls, scanner) -> None:
    path = tmp_path / "big.json"
    data = json.dumps(big_tree(1)).encode()
    path.write_bytes(data)
    assert len(data) >= 2 * SMALL_TREE
    from_bytes, from_text = both_ways(path, data)
    assert not isinstance(from_bytes, str), from_bytes
    assert from_bytes == from_text
    assert calls[0] is bytes and calls[1:] == [str]  # load_tree's scan, then parse_tree's own


MISTAKES = {
    "a string leaf": lambda text: text.replace('{"value": 7}', '{"value": "7"}', 1),
    "a syntax error": lambda text: text.replace('{"value": 7}', '{"value": 7,}', 1),
    "an unknown key": lambda text: text.replace('{"value": 7}', '{"value": 7, "colour": 1}', 1),
    "ids (valid, left to json.loads)": lambda text: text.replace('{"value": 7}', '{"id": "x", "value": 7}', 1),
    "mixed integer and decimal leaves (valid)": lambda text: text.replace('{"value": 7}', '{"value": 7.5}', 1),
}


@pytest.mark.parametrize("mistake", MISTAKES, ids=list(MISTAKES))
def test_a_file_the_scanner_leaves_is_scanned_once_and_read_as_its_text_is(tmp_path: Path, calls, scanner,
                                                                             mistake: str) -> None:
    text = json.dumps(big_tree(2, leaf=lambda rng: 7))
    data = MISTAKES[mistake](text).encode()
    assert data != text.encode()
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    from_bytes = outcome(lambda: load_tree(path))
    assert calls == [bytes]  # declined once, on the bytes: parse_tree did not scan the text again
    assert from_bytes == outcome(lambda: parse_tree(data.decode(), name=str(path), fmt="json"))


#: where a bad byte may hide: a node's strings, and the header's (read as JSON text, not as the nodes)
PLACES = {
    "move": lambda text: text.replace('{"value": 7}', '{"value": 7, "move": "@"}', 1),
    "comment": lambda text: text.replace('{"value": 7}', '{"value": 7, "comment": "a@"}', 1),
    "title": lambda text: text.replace('"title": "bytes"', '"title": "b@"', 1),
    "description": lambda text: text.replace('{"title"', '{"description": "@", "title"', 1),
    "players": lambda text: text.replace('{"title"', '{"players": ["A@", "B"], "title"', 1),
}


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("raw", [b"\xff", b"\xed\xa0\x80", b"\xe2\x82"], ids=["ff", "surrogate", "cut-short"])
def test_a_bad_byte_is_named_as_before(tmp_path: Path, scanner, raw: bytes, place: str) -> None:
    text = PLACES[place](json.dumps(big_tree(3, leaf=lambda rng: 7)))
    assert "@" in text
    data = text.encode().replace(b"@", raw)
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    with pytest.raises(GameTreeError) as raised:
        load_tree(path)
    offset = data.index(raw)
    assert f"not UTF-8 text (byte 0x{raw[0]:02x} at offset {offset})" in str(raised.value)


def test_a_byte_order_mark_is_dropped_as_decoding_drops_it(tmp_path: Path, calls) -> None:
    data = b"\xef\xbb\xbf" + json.dumps(big_tree(4)).encode()
    path = tmp_path / "bom.json"
    path.write_bytes(data)
    from_bytes, from_text = both_ways(path, data)
    assert not isinstance(from_bytes, str), from_bytes
    assert from_bytes == from_text
    assert bytes not in calls  # read as text: the scanner's offsets count from the text's start


def test_a_tree_read_from_bytes_locates_its_nodes_in_the_text(tmp_path: Path, scanner) -> None:
    text = json.dumps(big_tree(5), indent=1)
    path = tmp_path / "indented.json"
    path.write_text(text)
    tree = load_tree(path)
    for node_path in [(), (0,), (3, 2, 1), (1, 1, 1, 1, 1, 1)]:
        assert tree.source.locate(node_path) == json_locator(text)(node_path)
        assert tree.source.locate(node_path)[0] > 1 or node_path == ()
