"""Tree generators: tic-tac-toe and the course's mini-backgammon."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from gametree_cli.core.errors import GameTreeError
from gametree_cli.generate import GeneratorError, backgammon_tree, tictactoe_tree


def walk(root: dict[str, Any]) -> Iterator[tuple[dict[str, Any], int]]:
    """Every node with its depth, preorder, iteratively (the full tic-tac-toe tree is big)."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        for child in reversed(node.get("children", [])):
            stack.append((child, depth + 1))


def minimax_value(root: dict[str, Any]) -> Any:
    """Expectiminimax with untyped nodes alternating, iterative post-order."""
    results: dict[int, Any] = {}
    stack: list[tuple[dict[str, Any], str, bool]] = [(root, root.get("type", "max"), False)]
    while stack:
        node, kind, expanded = stack.pop()
        if "value" in node:
            results[id(node)] = Fraction(node["value"])
            continue
        children = node["children"]
        if not expanded:
            stack.append((node, kind, True))
            below = {"max": "min", "min": "max", "chance": None}[kind]
            for child in children:
                child_kind = child.get("type") or below
                stack.append((child, child_kind, False))
            continue
        values = [results.pop(id(child)) for child in children]
        if kind == "chance":
            results[id(node)] = sum(Fraction(child["p"]) * value for child, value in zip(children, values))
        else:
            results[id(node)] = max(values) if kind == "max" else min(values)
    return results[id(root)]


# -- tic-tac-toe -----------------------------------------------------------------


def test_full_tictactoe_tree() -> None:
    # The whole game from the empty board: a few seconds and ~150 MB, on purpose.
    document = tictactoe_tree()
    assert document["players"] == ["X", "O"]
    root = document["root"]
    assert root["type"] == "max" and "id" not in root
    nodes = leaves = 0
    for node, _ in walk(root):
        nodes += 1
        if "children" not in node:
            leaves += 1
            assert node["value"] in (-1, 0, 1)
    assert (nodes, leaves) == (549_946, 255_168)
    assert minimax_value(root) == 0


def test_tictactoe_moves_and_untyped_levels() -> None:
    root = tictactoe_tree("XO.......")["root"]
    assert root["type"] == "max"  # X to move: equal counts
    assert [child["move"] for child in root["children"]] == ["X3", "X4", "X5", "X6", "X7", "X8", "X9"]
    assert all("type" not in child for child in root["children"])
    assert [child["move"] for child in root["children"][0]["children"]] == ["O4", "O5", "O6", "O7", "O8", "O9"]
    assert tictactoe_tree("X........")["root"]["type"] == "min"


def test_tictactoe_wins_end_the_game() -> None:
    # X to move can win at 3; O threatens 4-5-6
    root = tictactoe_tree("XX.OO....")["root"]
    first = root["children"][0]
    assert first == {"move": "X3", "value": 1}
    assert minimax_value(root) == 1
    x9 = root["children"][-1]
    assert x9["move"] == "X9"
    assert {"move": "O6", "value": -1} in x9["children"]  # O completes 4-5-6


def test_tictactoe_depth_limit_uses_open_lines() -> None:
    # The classic first move values: centre 8-4, corner 8-5, edge 8-6.
    root = tictactoe_tree(depth=1)["root"]
    assert [child["value"] for child in root["children"]] == [3, 2, 3, 2, 4, 2, 3, 2, 3]
    # Checked by hand: X at 1, O at 5, X to move. X2 leaves X's open lines
    # 123 789 147 369 (4) and O's 456 789 369 357 (4): 0. X9: X has the same 4,
    # O keeps 456 258 357 (3): 1. X3, X6, X7, X8 likewise give 1, X4 gives 0.
    root = tictactoe_tree("X...O....", depth=1)["root"]
    values = {child["move"]: child["value"] for child in root["children"]}
    assert values == {"X2": 0, "X3": 1, "X4": 0, "X6": 1, "X7": 1, "X8": 1, "X9": 1}


def test_tictactoe_depth_limit_keeps_real_results_and_depth() -> None:
    document = tictactoe_tree("XX.OO....", depth=2)
    root = document["root"]
    assert document["title"] == "tic-tac-toe from XX.OO...., 2 plies"
    assert root["children"][0] == {"move": "X3", "value": 1}  # a win, not an evaluation
    depths = {depth for node, depth in walk(root) if "children" not in node}
    assert depths == {1, 2}
    x9 = root["children"][-1]
    assert x9["move"] == "X9"
    o6 = next(child for child in x9["children"] if child["move"] == "O6")
    assert o6 == {"move": "O6", "value": -1}  # O completes 4-5-6
    o3 = next(child for child in x9["children"] if child["move"] == "O3")
    # X at 1 2 9, O at 3 4 5: X's open lines 789 (1); O's 456 357 (2) -> -1
    assert o3 == {"move": "O3", "value": -1}
    assert minimax_value(root) == 1


def test_tictactoe_depth_zero_and_finished_positions() -> None:
    assert tictactoe_tree(depth=0)["root"] == {"value": 0}
    assert tictactoe_tree("XXXOO....")["root"] == {"value": 1}
    assert tictactoe_tree("OOOXX.X..")["root"] == {"value": -1}
    assert tictactoe_tree("XOXXOOOXX")["root"] == {"value": 0}
    assert tictactoe_tree("xo.......")["root"]["type"] == "max"  # lower case is accepted


@pytest.mark.parametrize(
    ("position", "depth", "message"),
    [
        ("XX.......", None, "impossible position 'XX.......': X has 2 marks and O 0 (X moves first, then O)"),
        ("O........", None, "impossible position 'O........': X has 0 marks and O 1 (X moves first, then O)"),
        ("XXXOOO...", None, "impossible position 'XXXOOO...': both X and O have a line"),
        ("XXXOO.O..", None, "impossible position 'XXXOO.O..': O played after X had won"),
        ("OOOXX.X.X", None, "impossible position 'OOOXX.X.X': X played after O had won"),
        ("X...", None, "a tic-tac-toe position is 9 characters from 'XO.', found 'X...'"),
        ("X-.......", None, "unexpected '-' in tic-tac-toe position 'X-.......' (use X, O and .)"),
        (".........", -1, "depth must be a non-negative integer or None, found -1"),
    ],
)
def test_tictactoe_rejects(position: str, depth: int | None, message: str) -> None:
    with pytest.raises(GeneratorError) as caught:
        tictactoe_tree(position, depth)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, GameTreeError)


# -- mini-backgammon -------------------------------------------------------------


def parse_state(comment: str) -> tuple[int, ...]:
    return tuple(int(part) for part in comment.strip("()").split(","))


def test_backgammon_shape() -> None:
    document = backgammon_tree()
    assert document["players"] == ["MAX", "MIN"]
    assert document["bounds"] == [-100, 100]
    root = document["root"]
    assert root["type"] == "chance" and root["comment"] == "(3,4,1,2)"
    assert [(child["move"], child["p"]) for child in root["children"]] == [("1", "1/2"), ("2", "1/2")]
    # levels: coin, MAX, coin, MIN, coin, then the cut-off leaves at depth 5
    expected = {0: "chance", 1: "max", 2: "chance", 3: "min", 4: "chance"}
    leaf_depths = set()
    for node, depth in walk(root):
        if "children" in node:
            assert node["type"] == expected[depth]
            if node["type"] == "chance":
                assert [child["p"] for child in node["children"]] == ["1/2", "1/2"]
        else:
            leaf_depths.add(depth)
            assert node["value"] == sum(parse_state(node["comment"]))
    assert leaf_depths == {5}


def test_backgammon_moves_follow_the_rules() -> None:
    root = backgammon_tree()["root"]
    one, two = root["children"]
    # a 1: 3->4 lands on MAX's own piece, so only 4->5
    assert [child["move"] for child in one["children"]] == ["4->5"]
    # a 2: 3->5, or 4->6 (home)
    assert [(child["move"], child["comment"]) for child in two["children"]] == [
        ("3->5", "(4,5,1,2)"),
        ("4->6", "(3,6,1,2)"),
    ]
    # after 4->5 MIN rolls 1: 1->2 and 2->3 are both blocked: a pass
    min_node = one["children"][0]["children"][0]
    assert min_node["type"] == "min"
    assert [(child["move"], child["comment"]) for child in min_node["children"]] == [("pass", "(3,5,1,2)")]


def test_backgammon_value() -> None:
    # worked out in docs/backgammon-mini.md
    assert minimax_value(backgammon_tree()["root"]) == Fraction(51, 4)
    rolled = backgammon_tree(roll=2)
    assert rolled["root"]["type"] == "max"
    assert [child["move"] for child in rolled["root"]["children"]] == ["3->5", "4->6"]
    assert all(depth == 5 for node, depth in walk(rolled["root"]) if "children" not in node)


def test_backgammon_wins_end_the_game() -> None:
    root = backgammon_tree((5, 6, 1, 2), plies=5, roll=1)["root"]
    assert root["children"] == [{"move": "5->6", "comment": "(6,6,1,2)", "value": 100}]
    root = backgammon_tree((1, 2, 5, 6), plies=4)["root"]
    values = {node["value"] for node, _ in walk(root) if "children" not in node}
    assert -100 in values  # MIN brings its piece at 5 home
    assert backgammon_tree((3, 4, 6, 6))["root"] == {"comment": "(3,4,6,6)", "value": -100}


def test_backgammon_deeper_and_zero_plies() -> None:
    assert backgammon_tree(plies=0)["root"] == {"comment": "(3,4,1,2)", "value": 10}
    root = backgammon_tree(plies=9)["root"]
    for node, depth in walk(root):
        if "children" not in node:
            assert depth == 9 or node["value"] in (100, -100)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"position": (3, 4, 1)}, "a mini-backgammon position is four fields (a, b, c, d), found (3, 4, 1)"),
        ({"position": (0, 4, 1, 2)}, "fields are numbered 1..6, found 0 in (0, 4, 1, 2)"),
        ({"position": (3, 3, 1, 2)}, "two pieces share a field below home in (3, 3, 1, 2)"),
        ({"position": (6, 6, 6, 6)}, "both players are already home in (6, 6, 6, 6)"),
        ({"plies": -1}, "plies must be a non-negative integer, found -1"),
        ({"roll": 3}, "roll must be 1, 2 or None, found 3"),
    ],
)
def test_backgammon_rejects(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(GeneratorError) as caught:
        backgammon_tree(**arguments)
    assert str(caught.value) == message
