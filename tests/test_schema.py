"""The JSON Schema of tree files (gametree_cli.io.schema)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from gametree_cli.io.efg import read_efg
from gametree_cli.generate import backgammon_tree, tictactoe_tree
from gametree_cli.io.schema import tree_schema

EFG_DATA = Path(__file__).resolve().parent / "data" / "efg"

CONTRACT_EXAMPLE = """
title: AIMA figure 5.2        # optional
players: [MAX, MIN]           # optional; default [MAX, MIN]; 3+ names = an n-player tree
sum: 9                        # optional; constant sum of every leaf vector (max-n shallow pruning)
bounds: [-10, 10]             # optional; lowest and highest possible leaf value (chance-node pruning)
root:
  id: A
  type: max
  children:
    - id: B
      move: a1
      children: [3, 12, 8]    # untyped: alternates from the nearest decision ancestor (here: min)
    - id: C
      move: a2
      children: [2, 4, 6]
    - id: D
      move: a3
      children: [14, 5, 2]
"""


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = tree_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


GOOD: list[Any] = [
    yaml.safe_load(CONTRACT_EXAMPLE),
    [[3, 12, 8], [2, 4, 6], [14, 5, 2]],
    [[[1, 2], [3]], 4],
    7,
    "7/3",
    {"children": [1, 2]},
    {"root": 5},
    {"root": [[1, 2], [3, 4]]},
    {
        "$schema": "../schema/tree.json",
        "title": "chance",
        "description": "expectiminimax exercise",
        "bounds": ["-1/2", 10],
        "root": {
            "type": "max",
            "random": 0.25,
            "comment": "MAX is sometimes careless",
            "children": [
                {"type": "chance", "move": 1, "eval": "2.5", "children": [{"p": "1/3", "value": -0.5}, {"p": 0.6666, "value": "7/3"}]},
                {"id": 12, "type": "chance", "children": [{"value": 1}, {"value": "-4"}]},
                {"type": "min", "label": "m", "children": [{"p": ".5", "value": 1}]},
            ],
        },
    },
    {
        "players": ["Ann", "Ben", "Cat"],
        "sum": 6,
        "root": {
            "player": "Ann",
            "children": [
                [1, 2, 3],
                {"player": 2, "eval": [2, 2, 2], "children": [{"value": [0, 0, 6]}, [3, 3, 0]]},
            ],
        },
    },
    {"players": ["A", "B"], "general_sum": True, "root": {"player": 0, "children": [{"value": [1, 0]}]}},
]

BAD: list[tuple[Any, str]] = [
    ({"root": {"type": "maxi", "children": [1]}}, "unknown type"),
    ({"root": {"children": []}}, "inner node with no children"),
    ({"root": {"id": "A"}}, "neither children nor value"),
    ({"root": {"value": 1, "children": [2]}}, "both value and children"),
    ({"root": {"value": "seven"}}, "a value that is not a number"),
    ({"root": {"value": "1/0.5"}}, "a malformed fraction"),
    ({"root": {"colour": "red", "value": 1}}, "an unknown node key"),
    ({"title": "x", "root": 1, "author": "me"}, "an unknown top-level key"),
    ({"title": "no root"}, "no root"),
    ({"players": ["A"], "root": 1}, "one player"),
    ({"players": ["A", "A"], "root": 1}, "a player twice"),
    ({"bounds": [1], "root": 1}, "bounds of one number"),
    ({"root": {"type": "chance", "children": [{"p": -0.5, "value": 1}]}}, "a negative probability"),
    ({"root": {"type": "chance", "children": [{"p": "-1/2", "value": 1}]}}, "a negative fraction probability"),
    ({"root": {"player": -1, "children": [1]}}, "a negative player index"),
    ({"root": {"id": "", "value": 1}}, "an empty id"),
    ({"root": {"children": [[1, [2, None]]]}}, "null in a compact list"),
    ([], "an empty compact list"),
    (None, "an empty file"),
    (True, "a boolean"),
    ("tree", "text"),
]


@pytest.mark.parametrize("document", GOOD, ids=range(len(GOOD)))
def test_good_documents(validator: Any, document: Any) -> None:
    errors = [error.message for error in validator.iter_errors(document)]
    assert errors == []


@pytest.mark.parametrize(("document", "why"), BAD, ids=[why for _, why in BAD])
def test_bad_documents(validator: Any, document: Any, why: str) -> None:
    assert not validator.is_valid(document), why


def test_generated_documents_validate(validator: Any) -> None:
    for document in (
        tictactoe_tree("XO.X.O...", depth=3),
        tictactoe_tree("XO.X.O..."),
        backgammon_tree(),
        backgammon_tree(plies=7, roll=1),
    ):
        assert [error.message for error in validator.iter_errors(document)] == []


@pytest.mark.parametrize("name", sorted(path.name for path in EFG_DATA.glob("*.efg") if path.name != "imperfect.efg"))
def test_documents_read_from_efg_validate(validator: Any, name: str) -> None:
    document = read_efg((EFG_DATA / name).read_text(encoding="utf-8"), name, allow_general_sum=True)
    assert [error.message for error in validator.iter_errors(document)] == []


def test_schema_is_fresh_and_serializable() -> None:
    import json

    first = tree_schema()
    first["$defs"].clear()
    second = tree_schema()
    assert second["$defs"]  # callers can't damage the next caller's schema
    assert second["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert json.loads(json.dumps(second)) == second


def _loader_reads_type(text: Any) -> bool:
    from gametree_cli import IllegalTreeError
    from gametree_cli.io.document import build_tree

    try:
        build_tree({"root": {"type": text, "children": [1, 2]}})
    except IllegalTreeError:
        return False
    return True


def _case_variants(word: str) -> list[str]:
    import itertools

    return ["".join(letters) for letters in itertools.product(*((c, c.upper()) for c in word))]


def test_schema_accepts_every_type_spelling_the_loader_accepts(validator: Any, tmp_path: Path) -> None:
    """tree-format.md: the case of ``type`` does not matter (and spaces around it are stripped)."""
    from gametree_cli.io.loader import load_tree

    spellings = [variant for word in ("max", "min", "chance") for variant in _case_variants(word)]
    spellings += [" MAX", "Min\t", "\u00a0chance\u3000", "\nmax\n"]
    for text in spellings:
        assert _loader_reads_type(text), text
        assert validator.is_valid({"root": {"type": text, "children": [1, 2]}}), text
    refused = ["maxx", "m ax", "", "MAX.", "\uff4dax", "\u212aax", "mın", "chance!", 1, True, None, ["max"]]
    for text in refused:
        if text is not None:  # None: as if no type were given, which the loader allows (the schema does not)
            assert not _loader_reads_type(text), text
        assert not validator.is_valid({"root": {"type": text, "children": [1, 2]}}), text
    source = tmp_path / "upper.yaml"
    source.write_text("root:\n  type: MAX\n  children:\n    - {type: Min, children: [3, 12]}\n    - {type: CHANCE, children: [2, 4]}\n")
    from gametree_cli.core.model import CHANCE, MAX, MIN

    assert list(load_tree(source).kind[:3]) == [MAX, MIN, CHANCE]
    assert validator.is_valid(yaml.safe_load(source.read_text()))


def test_type_pattern_strips_what_python_strips() -> None:
    """The pattern's spaces are exactly ``str.isspace``'s, as the loader's ``strip()`` removes them."""
    import re
    import sys

    from gametree_cli.io.schema import TYPE_PATTERN

    pattern = re.compile(TYPE_PATTERN)
    spaces = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
    assert all(pattern.fullmatch(f"{space}max{space}") for space in spaces)
    others = [chr(code) for code in range(sys.maxunicode + 1) if not chr(code).isspace() and chr(code).isprintable()]
    assert not [other for other in others if pattern.fullmatch(f"{other}max") or pattern.fullmatch(f"max{other}")]
