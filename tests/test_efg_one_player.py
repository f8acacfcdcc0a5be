"""Gambit games with one player (issue 13 §5): read as max-only (and chance) trees.

The fixtures in tests/data/efg/one_player_*.efg are written by hand, each
with its value worked out in its own comment; the values here are those hand
values, and the document read is also solved by tests/oracles.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
from gametree_cli.core.errors import TreeFormatError
from gametree_cli.io.efg import ONE_PLAYER_OPPONENT, read_efg

from . import oracles

DATA = Path(__file__).resolve().parent / "data" / "efg"


def decision_types(node: dict[str, Any]) -> set[str]:
    found = {node["type"]} if "children" in node else set()
    for child in node.get("children", []):
        found |= decision_types(child)
    return found


@pytest.mark.parametrize(
    ("name", "value", "best_move", "types", "algorithm"),
    [
        ("one_player_route.efg", 9, "south", {"max"}, "alphabeta"),
        ("one_player_wildcatter.efg", 25, "drill", {"max", "chance"}, "expectiminimax"),
        ("one_player_lottery.efg", Fraction(37, 10), None, {"chance"}, "expectiminimax"),
        ("one_player_investor.efg", 10.0, "invest", {"max", "chance"}, "expectiminimax"),
    ],
)
def test_one_player_games_solve_as_max_only_trees(name: str, value: Any, best_move: str | None, types: set[str],
                                                  algorithm: str) -> None:
    path = DATA / name
    document = read_efg(path.read_text(), name)
    assert document["players"][1] == ONE_PLAYER_OPPONENT
    assert decision_types(document["root"]) == types  # never a min node
    oracle = oracles.expectiminimax(document)
    assert oracle.value == value and type(oracle.value) is type(value)
    record = solve(load_tree(path))
    assert record.algorithm == algorithm
    assert record.value == value and type(record.value) is type(value)
    assert (record.move(record.best_move()) if record.best_move() is not None else None) == best_move
    if "chance" not in types:
        assert solve(load_tree(path), "minimax").value == value


def test_the_route_choice_principal_variation_and_player_name() -> None:
    document = read_efg((DATA / "one_player_route.efg").read_text())
    assert document["players"] == ["Driver", ONE_PLAYER_OPPONENT]
    record = solve(load_tree(DATA / "one_player_route.efg"), "minimax")
    assert [record.move(node) for node in record.principal_variation()] == ["south", "forest", "right"]


def test_one_player_game_through_the_command_line() -> None:
    result = subprocess.run([sys.executable, "-m", "gametree_cli", "solve", str(DATA / "one_player_wildcatter.efg"),
                             "--format", "json"], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["value"], answer["best_move"]) == (25, "drill")
    # the inner node's outcome (-10) is added to every terminal below it
    assert [answer["nodes"][f"well.{k}"]["value"] for k in (1, 2, 3)] == [-10, 40, 90]


def test_a_player_named_like_the_placeholder_stays_distinct() -> None:
    document = read_efg(f'EFG 2 R "x" {{ "{ONE_PLAYER_OPPONENT}" }}\np "" 1 1 "" {{ "a" "b" }} 0\n'
                        't "" 1 "" { 1 }\nt "" 2 "" { 2 }\n')
    assert len(set(document["players"])) == 2


def test_no_players_and_imperfect_one_player_games_are_refused() -> None:
    with pytest.raises(TreeFormatError) as caught:
        read_efg('EFG 2 R "x" { }\nt "" 1 "" { }\n', "none.efg")
    assert caught.value.message == "the game has no players; gametree solves games of one or more players"
    forgetful = ('EFG 2 R "x" { "Solo" }\np "" 1 1 "" { "a" "b" } 0\np "" 1 2 "" { "l" "r" } 0\n'
                 't "" 1 "" { 1 }\nt "" 2 "" { 2 }\np "" 1 2 "" { "l" "r" } 0\nt "" 3 "" { 3 }\nt "" 4 "" { 4 }\n')
    with pytest.raises(TreeFormatError) as caught:
        read_efg(forgetful, "forgetful.efg")
    assert "imperfect information" in caught.value.message and caught.value.line == 6
