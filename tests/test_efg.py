"""Gambit .efg reading and writing (gametree_cli.io.efg).

The documents read from .efg files are solved by tests/oracles.py, on
purpose: the check does not trust the core algorithms.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.core.errors import TreeFormatError
from gametree_cli.io.efg import read_efg, write_efg

from . import oracles

DATA = Path(__file__).resolve().parent / "data" / "efg"
SHARED_GAMBIT = Path(__file__).resolve().parents[2] / "shared" / "data" / "gambit"

IMPERFECT = (
    "imperfect information: player {player}'s information set {infoset} holds several nodes;"
    " gametree solves perfect-information trees only"
)


# -- an independent reading of documents ----------------------------------------


def number(raw: Any) -> Fraction | float:
    """A document number: exact as Fraction, decimals as float."""
    if isinstance(raw, bool):
        raise AssertionError(f"boolean {raw!r} where a number belongs")
    if isinstance(raw, (int, Fraction)):
        return Fraction(raw)
    if isinstance(raw, float):
        return raw
    assert isinstance(raw, str), raw
    if "/" in raw:
        numerator, denominator = raw.split("/")
        return Fraction(int(numerator), int(denominator))
    if any(mark in raw for mark in ".eE"):
        return float(raw)
    return Fraction(int(raw))


def canonical(document: Any) -> tuple[Any, ...]:
    """Everything a solver sees, with every contract default made explicit.

    Returns ``(title, players, root)`` where a node is
    ``(id, move, p, kind, children-or-value)``; kind is "max"/"min"/"chance"
    or a player index.
    """
    if isinstance(document, dict) and "root" in document:
        players = list(document.get("players") or ["MAX", "MIN"])
        root = document["root"]
        vectors = len(players) > 2 or document.get("general_sum") is True
    else:
        players, root, vectors = ["MAX", "MIN"], document, False

    def build(raw: Any, node_id: str, move: str, p: Any, decider: Any, is_root: bool) -> tuple[Any, ...]:
        if isinstance(raw, dict):
            children = raw.get("children")
            if children is None:
                return (node_id, move, p, "leaf", value(raw["value"]))
            declared = raw.get("type")
            if declared == "chance":
                kind: Any = "chance"
            elif raw.get("player") is not None:
                given_player = raw["player"]
                kind = given_player if isinstance(given_player, int) else players.index(given_player)
                if not vectors:
                    kind = "max" if kind == 0 else "min"
            elif declared is not None:
                kind = declared
            else:
                kind = follow(decider)
        elif isinstance(raw, list) and not (vectors and all(not isinstance(x, (list, dict)) for x in raw)):
            children, kind = raw, follow(decider)
        else:
            return (node_id, move, p, "leaf", value(raw))
        below = decider if kind == "chance" else kind
        if kind == "chance":
            given_p = [child.get("p") if isinstance(child, dict) else None for child in children]
            if all(q is None for q in given_p):
                probabilities = [Fraction(1, len(children))] * len(children)
            else:
                probabilities = [number(q) for q in given_p]
        else:
            probabilities = [None] * len(children)
        prefix = "" if (is_root and not (isinstance(raw, dict) and raw.get("id") is not None)) else node_id + "."
        built = []
        for position, (child, probability) in enumerate(zip(children, probabilities), start=1):
            child_id = str(child["id"]) if isinstance(child, dict) and child.get("id") is not None else f"{prefix}{position}"
            child_move = str(child["move"]) if isinstance(child, dict) and child.get("move") is not None else child_id
            built.append(build(child, child_id, child_move, probability, below, False))
        return (node_id, move, p, kind, tuple(built))

    def follow(decider: Any) -> Any:
        if vectors:
            return 0 if decider is None else (decider + 1) % len(players)
        return "min" if decider == "max" else "max"

    def value(raw: Any) -> Any:
        if vectors:
            return tuple(number(part) for part in raw)
        return number(raw)

    root_id = str(root["id"]) if isinstance(root, dict) and root.get("id") is not None else "root"
    title = document.get("title") if isinstance(document, dict) and "root" in document else None
    return (title, tuple(players), build(root, root_id, root_id, None, None, True))


def solve(node: Any) -> Any:
    """The expectiminimax value of a two-player document node."""
    return oracles.expectiminimax({"root": node}).value


def read_fixture(name: str, **options: Any) -> dict[str, Any]:
    return read_efg((DATA / name).read_text(encoding="utf-8"), name, **options)


# -- reading: hand-made fixtures -------------------------------------------------


def test_outcomes_on_inner_nodes_add_up_and_chance_keeps_fractions() -> None:
    document = read_fixture("chance_stages.efg")
    assert document["title"] == 'Two stages "with" chance'
    assert document["description"].startswith("A hand-made zero-sum game")
    assert document["players"] == ["Alice", "Bob"]
    root = document["root"]
    assert root["id"] == "start" and root["type"] == "max"
    coin, out = root["children"]
    assert (coin["id"], coin["move"], coin["type"]) == ("coin", "in", "chance")
    assert [child["p"] for child in coin["children"]] == ["1/4", "3/4"]
    assert [child["move"] for child in coin["children"]] == ["heads", "tails"]
    heads, tails = coin["children"]
    assert heads["type"] == "min" and "id" not in heads
    # the entry fee (-1 for Alice) is added to every payoff below the root;
    # "t "" 2" reuses outcome 2's payoffs {4, -4}
    assert [leaf["value"] for leaf in heads["children"]] == [3, -3]
    assert [leaf["value"] for leaf in tails["children"]] == [3, -1]
    assert out == {"id": "out", "move": "out", "value": 0}
    # Bob answers heads with r (-3), tails with r (-1): "in" is worth -3/2 < 0
    assert solve(root) == 0
    assert solve(coin) == Fraction(-3, 2)


def test_decimals_become_floats_and_constant_sum_is_exact() -> None:
    document = read_fixture("decimals.efg")  # .90 + 2.1 is 3 only in exact arithmetic
    root = document["root"]
    assert root["type"] == "chance"
    assert [child["p"] for child in root["children"]] == [0.25, 0.75]
    first, second = root["children"]
    assert first["value"] == 0.9 and isinstance(first["value"], float)
    assert [leaf["value"] for leaf in second["children"]] == [1.5, 3]
    assert isinstance(second["children"][1]["value"], int)
    assert solve(root) == pytest.approx(2.475)


def test_three_players_give_vectors_and_player_indexes() -> None:
    document = read_fixture("three_players.efg")
    assert document["players"] == ["Ann", "Ben", "Cat"]
    root = document["root"]
    assert root["id"] == "A" and root["player"] == 0 and "type" not in root
    b_node, last = root["children"]
    first, c_node = b_node["children"]
    assert (b_node["id"], b_node["player"], c_node["id"], c_node["player"]) == ("B", 1, "C", 2)
    assert first == {"move": "b1", "value": [1, 2, 3]}
    assert [leaf["value"] for leaf in c_node["children"]] == [[3, 1, 2], ["1/2", "1/3", "1/6"]]
    assert last == {"move": "a2", "value": [0, 0, 5]}


def test_general_sum_two_players_refused_unless_allowed() -> None:
    with pytest.raises(TreeFormatError) as caught:
        read_fixture("general_sum.efg")
    error = caught.value
    assert (error.file, error.line) == ("general_sum.efg", 6)
    assert error.message.startswith("not a constant-sum game: payoffs sum to 1 at line 4 but to 4 here")
    document = read_fixture("general_sum.efg", allow_general_sum=True)
    assert document["general_sum"] is True
    assert document["root"]["player"] == 0
    assert document["root"]["children"][1]["children"][1]["value"] == [0, 4]
    # and it goes back to Gambit unchanged
    assert read_efg(write_efg(document), allow_general_sum=True) == document


def test_imperfect_information_is_refused_with_the_second_nodes_line() -> None:
    with pytest.raises(TreeFormatError) as caught:
        read_fixture("imperfect.efg")
    assert caught.value.message == IMPERFECT.format(player=2, infoset=1)
    assert (caught.value.file, caught.value.line) == ("imperfect.efg", 7)
    assert str(caught.value).startswith("imperfect.efg:7: imperfect information")


def test_names_become_ids_only_when_unique_and_not_a_default_id() -> None:
    text = """EFG 2 R "ids" { "1" "2" }
p "twice" 1 1 "" { "a" "b" } 0
p "twice" 2 1 "" { "c" "d" } 0
t "root" 1 "" { 1 -1 }
t "1.1.2" 2 "" { 2 -2 }
t "solo" 3 "" { 3 -3 }
"""
    root = read_efg(text)["root"]
    assert "id" not in root  # "twice" is not unique
    inner, solo = root["children"]
    assert "id" not in inner
    # "root" would clash with the unnamed root's default id and "1.1.2" ...
    # is not a clash (the node with default id 1.2 is not 1.1.2) -- so only
    # the clashing name is dropped
    assert "id" not in inner["children"][0]
    assert inner["children"][1]["id"] == "1.1.2"
    assert solo["id"] == "solo"
    text_clash = text.replace('"1.1.2"', '"1.1"')  # node 1's first child is 1.1 by default
    clash_root = read_efg(text_clash)["root"]
    assert "id" not in clash_root["children"][0]["children"][1]


def test_empty_and_duplicate_player_names_are_made_distinct() -> None:
    text = 'EFG 2 R "" { "" "Same" "Same" }\np "" 1 1 "" { "a" } 0\nt "" 1 "" { 1 2 3 }\n'
    document = read_efg(text)
    assert document["players"] == ["Player 1", "Same", "Same'"]
    assert "title" not in document and "description" not in document


def test_a_root_terminal_and_escaped_quotes() -> None:
    document = read_efg('EFG 2 R "t" { "a" "b" } "c"\nt "say \\"hi\\"" 1 "o" { 5 -5 }\n')
    assert document["root"] == {"id": 'say "hi"', "value": 5}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "expected 'EFG' at the start of the file, found the end of the file"),
        ('NFG 1 R "x" { "a" "b" }', 1, "not a Gambit extensive-form file: expected 'EFG', found 'NFG'"),
        ('EFG 3 R "x" { "a" "b" }', 1, "unsupported EFG version '3' (only version 2 is read)"),
        ('EFG 2 R "x" { }\nt "" 1 "" { }', 1, "the game has no players; gametree solves games of one or more players"),
        ('EFG 2 R "x" { "a" "b" }\n', 1, "no nodes: the file ends after its header"),
        ('EFG 2 R "x" { "a" "b" }\n\nq "" 1 "" { 1 -1 }', 3, "unknown node type 'q' (expected 'p', 'c' or 't')"),
        ('EFG 2 R "x" { "a" "b" }\np "" 1 1 "" { "l" "r" } 0\nt "" 1 "" { 1 -1 }\n', 3,
         "the file ends before the tree is complete (the node of line 2 still expects 1 more child(ren))"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1 -1 }\nt "" 2 "" { 1 -1 }', 3, "unexpected 't' after the last node of the tree"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1 -1 2 }', 2, "outcome 1 has 3 payoffs, expected 2 (one per player)"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1', 2, "outcome 1 is used before its payoffs are given"),
        ('EFG 2 R "x" { "a" "b" }\np "" 3 1 "" { "l" } 0\nt "" 1 "" { 1 -1 }', 2, "player 3 does not exist (the game has 2 players)"),
        ('EFG 2 R "x" { "a" "b" }\np "" 1 1 "" 0\n', 2, "player 1's information set 1 has no actions"),
        ('EFG 2 R "x" { "a" "b" }\nc "" 1 "" { "h" 1/2 "t" 2/5 } 0\nt "" 1 "" { 1 -1 }\nt "" 1', 2,
         "probabilities sum to 9/10, not 1"),
        ('EFG 2 R "x" { "a" "b" }\nc "" 1 "" { "h" .5 "t" .4 } 0\nt "" 1 "" { 1 -1 }\nt "" 1', 2,
         "probabilities sum to 0.9, not 1"),
        ('EFG 2 R "x" { "a" "b" }\nc "" 1 "" { "h" 3/2 "t" -1/2 } 0\nt "" 1 "" { 1 -1 }\nt "" 1', 2,
         "probability -1/2 is negative"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1/0 -1 }', 2, "'1/0' divides by zero"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1 ; }', 2, "unexpected character ';'"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1e999999999 0 }', 2, "'1e999999999' is out of range"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1e309 0 }', 2, "'1e309' is out of range"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { 1.5/2 0 }', 2, "'1.5/2' is not a number (a fraction of decimals)"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 1 "" { ' + "9" * 5000 + " 0 }", 2, "99999999999999999999... has too many digits"),
        ('EFG 2 R "x" { "a" "b" }\nt "oops 1 "" { 1 -1 }', 2, "unterminated quoted string"),
        ('EFG 2 R "x" { "a" "b" }\nt "" 0 "" { 1 -1 }', 2, "outcome 0 is the null outcome and takes no payoffs"),
        ('EFG 2 R "x" { "a" "b" }\np "" 1 1 "" { "l" "r" } 0\nt "" 1 "" { 1 -1 }\nt "" 1 "" { 2 -2 }', 4,
         "outcome 1 is declared again with different payoffs"),
        ('EFG 2 R "x" { "a" "b" }\np "" 1 1 "" { "l" "r" 0\nt "" 1 "" { 1 -1 }', 2, "unexpected '0' in the actions"),
    ],
)
def test_syntax_errors_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(TreeFormatError) as caught:
        read_efg(text, "bad.efg")
    assert caught.value.message == message
    assert caught.value.file == "bad.efg"
    assert caught.value.line == line


def test_a_multi_line_comment_keeps_line_numbers_right() -> None:
    text = 'EFG 2 R "x" { "a" "b" }\n"one\ntwo\nthree"\np "" 1 1 "" { "l" } 0\nt "" 1 "" { 1 -1 2 }\n'
    with pytest.raises(TreeFormatError) as caught:
        read_efg(text)
    assert caught.value.line == 6


# -- the shared Gambit samples ---------------------------------------------------

#: What each sample must give: a constant-sum two-player document, a refusal
#: as general-sum (readable with allow_general_sum), or a refusal as imperfect
#: information (player, information set, line).
SAMPLES: dict[str, Any] = {
    "catalog__books__shohamleytonbrown2008__fig5_1.efg": "general-sum",
    "catalog__books__shohamleytonbrown2008__fig5_2.efg": "general-sum",
    "catalog__books__shohamleytonbrown2008__fig5_9.efg": "general-sum",
    "catalog__journals__ijgt__selten1975__fig2.efg": "general-sum",
    "contrib__games__badgame1.efg": "general-sum",
    "contrib__games__cent2.efg": ("imperfect", 1, 1, 15),
    "contrib__games__cent4.efg": "general-sum",
    "contrib__games__cent6.efg": "general-sum",
    "contrib__games__centcs10.efg": "two-player",
    "contrib__games__centcs6.efg": "two-player",
    "contrib__games__e10.efg": "two-player",
    "contrib__games__e10a.efg": "two-player",
    "contrib__games__nim.efg": "two-player",
    "contrib__games__nim7.efg": "two-player",
    "contrib__games__sww1.efg": "general-sum",
}


def shared_sample(name: str) -> str:
    if not SHARED_GAMBIT.is_dir():
        pytest.skip("../shared/data/gambit not present (only in CI checkouts beside shared/)")
    return (SHARED_GAMBIT / name).read_text(encoding="utf-8")


def test_every_shared_sample_is_listed() -> None:
    if not SHARED_GAMBIT.is_dir():
        pytest.skip("../shared/data/gambit not present (only in CI checkouts beside shared/)")
    assert sorted(path.name for path in SHARED_GAMBIT.glob("*.efg")) == sorted(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_shared_sample(name: str) -> None:
    text = shared_sample(name)
    expected = SAMPLES[name]
    if expected == "two-player":
        document = read_efg(text, name)
        assert len(document["players"]) == 2 and "general_sum" not in document
        assert canonical(read_efg(write_efg(document), name)) == canonical(document)
    elif expected == "general-sum":
        with pytest.raises(TreeFormatError, match="not a constant-sum game"):
            read_efg(text, name)
        document = read_efg(text, name, allow_general_sum=True)
        assert document["general_sum"] is True
        assert read_efg(write_efg(document), allow_general_sum=True) == document
    else:
        _, player, infoset, line = expected
        with pytest.raises(TreeFormatError) as caught:
            read_efg(text, name, allow_general_sum=True)
        assert caught.value.message == IMPERFECT.format(player=player, infoset=infoset)
        assert (caught.value.file, caught.value.line) == (name, line)


# Nim, one pile, take 1 or 2, whoever takes the last stone wins: with 5 stones
# the first player wins (take 2, leave a multiple of 3), value 1; with 7 stones
# the first player (here player 2) wins too, so the value for player 1 is -1.
# A terminal "1 left" means the player to move takes the last stone.
#
# Two samples carry a wrong payoff, which the solver below exposes:
# nim.efg line 17 ("1 left" after player 2 takes 2 of 3: player 1 takes the
# last stone, yet the payoff says player 2 wins) and e10a.efg line 23 (player
# 1 takes the last stone, yet "Blue Win"). As written they are worth -1.
NIM_ERRATA = {
    "contrib__games__nim.efg": (17, 't "1 left" 2 "Outcome 2" { -1 1 }', 't "1 left" 1 "Outcome 1" { 1 -1 }'),
    "contrib__games__e10a.efg": (23, 't "0 left" 2 "Blue Win" { -1, 1 }', 't "0 left" 1 "Red Win" { 1, -1 }'),
}


@pytest.mark.parametrize(
    ("name", "as_written", "corrected"),
    [
        ("contrib__games__nim.efg", -1, 1),
        ("contrib__games__e10.efg", 1, 1),
        ("contrib__games__e10a.efg", -1, 1),
        ("contrib__games__nim7.efg", -1, -1),
    ],
)
def test_nim_values(name: str, as_written: int, corrected: int) -> None:
    text = shared_sample(name)
    assert solve(read_efg(text, name)["root"]) == as_written
    if name in NIM_ERRATA:
        line, wrong, right = NIM_ERRATA[name]
        lines = text.splitlines()
        assert lines[line - 1] == wrong
        lines[line - 1] = right
        text = "\n".join(lines)
    assert solve(read_efg(text, name)["root"]) == corrected


def test_nim_structure() -> None:
    document = read_efg(shared_sample("contrib__games__nim.efg"))
    root = document["root"]
    assert document["players"] == ["Player 1", "Player 2"]
    assert (root["id"], root["type"]) == ("5 left", "max")
    assert [child["move"] for child in root["children"]] == ["TAKE 1", "TAKE 2"]
    first, second = root["children"]
    assert (first["id"], first["type"]) == ("4 left", "min")
    assert "id" not in second  # its name is empty
    # the wrong payoff of line 17: taking 2 of 3 leaves player 1 the last stone
    assert second["children"][1] == {"move": "TAKE 2", "value": -1}


def test_constant_sum_centipede() -> None:
    document = read_efg(shared_sample("contrib__games__centcs10.efg"))
    assert document["root"]["children"][0]["value"] == 1.6
    # backward induction: taking at once (1.60 for player 1) is subgame-perfect
    assert solve(document["root"]) == pytest.approx(1.6)


# -- writing ---------------------------------------------------------------------


def test_write_two_player_document() -> None:
    document = {
        "title": "AIMA figure 5.2",
        "root": {
            "id": "A",
            "type": "max",
            "eval": 7,
            "children": [
                {"id": "B", "move": "a1", "children": [3, 12, 8]},
                {"id": "C", "type": "chance", "children": [{"p": "1/3", "value": "7/3"}, {"p": "2/3", "value": 0.5}]},
            ],
        },
    }
    text = write_efg(document)
    assert text.splitlines()[:4] == [
        'EFG 2 R "AIMA figure 5.2" { "MAX" "MIN" }',
        '""',
        "",
        'p "A" 1 1 "" { "a1" "C" } 0',
    ]
    assert 'p "B" 2 1 "" { "B.1" "B.2" "B.3" } 0' in text
    assert 't "" 2 "" { 12 -12 }' in text
    assert 'c "C" 1 "" { "C.1" 1/3 "C.2" 2/3 } 0' in text
    assert 't "" 4 "" { 7/3 -7/3 }' in text
    assert 't "" 5 "" { 0.5 -0.5 }' in text
    back = read_efg(text)
    assert canonical(back) == canonical(document)
    assert "eval" not in back["root"]


def test_write_compact_list_and_uniform_chance() -> None:
    assert canonical(read_efg(write_efg([[3, 12, 8], [2, 4, 6], [14, 5, 2]]))) == canonical(
        [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
    )
    document = {"root": {"type": "chance", "children": [1, 2, 3]}}
    text = write_efg(document)
    assert 'c "" 1 "" { "1" 1/3 "2" 1/3 "3" 1/3 } 0' in text
    assert solve(read_efg(text)["root"]) == 2


def test_write_n_player_document_with_player_names() -> None:
    document = {
        "players": ["A", "B", "C"],
        "root": {"player": "B", "children": [[1, 2, 3], {"move": "x", "children": [[0, 0, 1], {"value": [1, 1, 1]}]}]},
    }
    text = write_efg(document)
    assert 'p "" 2 1 "" { "1" "x" } 0' in text
    assert 'p "" 3 1 "" { "2.1" "2.2" } 0' in text  # untyped: the player after B
    assert canonical(read_efg(text)) == canonical(document)


def test_floats_are_written_without_exponents() -> None:
    text = write_efg({"root": {"children": [1e-05, 1e16, -0.0]}})
    assert "{ 0.00001 -0.00001 }" in text
    assert "{ 10000000000000000.0 -10000000000000000.0 }" in text
    values = [leaf["value"] for leaf in read_efg(text)["root"]["children"]]
    assert values == [1e-05, 1e16, 0.0] and all(isinstance(v, float) for v in values)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"root": {"type": "maxi", "children": [1]}}, "unknown type 'maxi' (expected max, min or chance)"),
        ({"root": {"children": [{"move": "a"}]}}, "leaf without a value"),
        ({"root": {"children": []}}, "children must be a non-empty list"),
        ({"players": ["A", "B", "C"], "root": {"children": [[1, 2]]}}, "value must be a list of 3 numbers, one per player"),
        ({"players": ["A", "B", "C"], "root": {"player": "D", "children": [[1, 2, 3]]}}, "unknown player 'D' (players: A, B, C)"),
        ({"root": {"children": ["x"]}}, "value 'x' is not a finite number"),
        ({"root": {"type": "chance", "children": [{"p": "1/2", "value": 1}, 2]}},
         "every child of a chance node needs a numeric p, or none of them"),
        ("tree", "expected a tree document (a mapping with 'root', or a nested list)"),
    ],
)
def test_write_errors(document: Any, message: str) -> None:
    with pytest.raises(TreeFormatError) as caught:
        write_efg(document)
    assert caught.value.message == message


# -- round trips on random documents ---------------------------------------------

PLAYER_NAMES = ["Ann", "Ben", "Cat", "Dan"]
moves = st.text(min_size=1, max_size=4)
exact_numbers = st.one_of(
    st.integers(-50, 50),
    st.builds(lambda a, b: f"{a}/{b}", st.integers(-30, 30), st.integers(2, 9)),
)
numbers = st.one_of(exact_numbers, st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False))


@st.composite
def documents(draw: st.DrawFn) -> Any:
    """Random valid tree documents: typed and untyped nodes, chance, ids, compact parts."""
    count = draw(st.sampled_from([2, 2, 3, 4]))
    vectors = count > 2
    serial = itertools.count()

    def leaf_value() -> Any:
        if vectors:
            return [draw(numbers) for _ in range(count)]
        return draw(numbers)

    def as_mapping(child: Any) -> dict[str, Any]:
        """A bare child as a mapping, so that it can carry p."""
        if isinstance(child, dict):
            return child
        if isinstance(child, list) and not vectors:
            return {"children": child}  # a compact subtree
        return {"value": child}

    def compact(depth: int) -> Any:
        size = draw(st.integers(1, 3))
        return [draw(numbers) if depth == 0 or draw(st.booleans()) else compact(depth - 1) for _ in range(size)]

    def node(depth: int) -> Any:
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            if draw(st.booleans()):
                return leaf_value()  # a bare number / vector
            result: dict[str, Any] = {"value": leaf_value()}
        elif not vectors and draw(st.integers(0, 4)) == 0:
            return compact(min(depth, 2))
        else:
            result = {}
            choices = ["chance", None] + (["max", "min"] if not vectors else [0, count - 1, PLAYER_NAMES[1]])
            kind = draw(st.sampled_from(choices))
            if kind == "chance" or kind in ("max", "min"):
                result["type"] = kind
            elif kind is not None:
                result["player"] = kind
            if draw(st.booleans()):
                result["eval"] = leaf_value()
            size = draw(st.integers(1, 3))
            children = [node(depth - 1) for _ in range(size)]
            if kind == "chance" and draw(st.booleans()):
                children = [as_mapping(child) for child in children]
                if size == 2 and draw(st.booleans()):
                    low = draw(st.sampled_from([0.5, 0.25, 0.125, 0.1]))
                    shares: list[Any] = [low, 1 - low]  # 0.1 + 0.9: exact as decimals
                else:
                    weights = [draw(st.integers(0, 5)) for _ in children]
                    weights[0] += 1
                    total = sum(weights)
                    shares = [f"{weight}/{total}" for weight in weights]
                for child, share in zip(children, shares):
                    child["p"] = share
            result["children"] = children
        if draw(st.booleans()):
            result["id"] = f"{draw(st.text(max_size=3))}#{next(serial)}"
        if draw(st.booleans()):
            result["move"] = draw(moves)
        return result

    document: dict[str, Any] = {"root": node(draw(st.integers(0, 4)))}
    if vectors or draw(st.booleans()):
        document["players"] = PLAYER_NAMES[:count]
    if draw(st.booleans()):
        title = draw(st.text(alphabet="abc xyz\"\\", max_size=8))  # leading and trailing spaces kept
        document["title"] = title if title.strip() else "t"
    return document


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_round_trip(document: Any) -> None:
    assert canonical(read_efg(write_efg(document))) == canonical(document)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(exact_numbers, min_size=1, max_size=3), min_size=1, max_size=3))
def test_round_trip_compact_top_level(tree: list[list[Any]]) -> None:
    assert canonical(read_efg(write_efg(tree))) == canonical(tree)
