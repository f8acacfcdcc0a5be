"""Tree generators: tic-tac-toe and the course's mini-backgammon."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from gametree_cli.core.errors import GameTreeError
from gametree_cli.generate import GeneratorError, backgammon_tree, tictactoe_tree
from gametree_cli.generate.backgammon import legal_moves
from gametree_cli.generate.tictactoe import WIN


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
            assert node["value"] in (-9, 0, 9)
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
    assert first == {"move": "X3", "value": 9}
    assert minimax_value(root) == 9
    x9 = root["children"][-1]
    assert x9["move"] == "X9"
    assert {"move": "O6", "value": -9} in x9["children"]  # O completes 4-5-6


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
    assert root["children"][0] == {"move": "X3", "value": 9}  # a win, not an evaluation
    depths = {depth for node, depth in walk(root) if "children" not in node}
    assert depths == {1, 2}
    x9 = root["children"][-1]
    assert x9["move"] == "X9"
    o6 = next(child for child in x9["children"] if child["move"] == "O6")
    assert o6 == {"move": "O6", "value": -9}  # O completes 4-5-6
    o3 = next(child for child in x9["children"] if child["move"] == "O3")
    # X at 1 2 9, O at 3 4 5: X's open lines 789 (1); O's 456 357 (2) -> -1
    assert o3 == {"move": "O3", "value": -1}
    assert minimax_value(root) == 9


def chosen_move(position: str, depth: int, algorithm: str = "minimax") -> str:
    """The move gametree's search picks at the root of the depth-limited tree."""
    from gametree_cli.search.registry import solve
    from gametree_cli.io.document import build_tree

    tree = build_tree(tictactoe_tree(position, depth))
    record = solve(tree, algorithm)
    return record.move(record.best_move())


def test_tictactoe_win_outranks_every_evaluation() -> None:
    # the notes score a win +inf: no open-lines count may reach it
    from gametree_cli.generate.tictactoe import _FREE_OF

    assert max(_FREE_OF) == 8 and WIN > 8
    # X threatens 1-2-3; O (to move) must block at 3 whatever else looks good
    for depth in (2, 3, 4):
        for algorithm in ("minimax", "alphabeta"):
            assert chosen_move("XX...O...", depth, algorithm) == "O3"


@pytest.mark.parametrize(
    ("position", "depths", "move"),
    [
        ("XX.OO....", (1, 2, 3), "X3"),  # X wins at once rather than block 4-5-6
        ("XX.OO.X..", (1, 2, 3), "O6"),  # O wins at once rather than block 1-2-3
        ("O.X.X....", (2, 3, 4), "O7"),  # O must block 3-5-7
        ("XO..X....", (2, 3), "O9"),  # O must block 1-5-9
    ],
)
def test_tictactoe_forced_wins_and_blocks(position: str, depths: tuple[int, ...], move: str) -> None:
    for depth in depths:
        assert chosen_move(position, depth) == move


def _line_threats(board: str, player: str) -> set[int]:
    """Empty cells that would complete a line of ``player``."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    found = set()
    for line in lines:
        marks = [board[cell] for cell in line]
        if marks.count(player) == 2 and marks.count(".") == 1:
            found.add(line[marks.index(".")])
    return found


def test_tictactoe_depth_limited_play_wins_and_blocks_everywhere() -> None:
    """Every reachable position with a win at once or a single threat to block."""
    import random

    from gametree_cli.search.registry import solve
    from gametree_cli.io.document import build_tree

    rng = random.Random(13)
    checked = 0
    for _ in range(400):
        board = "." * 9
        for _ in range(rng.randrange(2, 7)):
            mover = "X" if board.count("X") == board.count("O") else "O"
            cell = rng.choice([cell for cell in range(9) if board[cell] == "."])
            board = board[:cell] + mover + board[cell + 1:]
        try:  # random play may go on after a line: the generator refuses those
            document = tictactoe_tree(board, 2)
        except GeneratorError:
            continue
        if "children" not in document["root"]:  # a finished game
            continue
        mover = "X" if board.count("X") == board.count("O") else "O"
        other = "O" if mover == "X" else "X"
        wins, threats = _line_threats(board, mover), _line_threats(board, other)
        tree = build_tree(document)
        record = solve(tree, "minimax")
        chosen = int(record.move(record.best_move())[1:]) - 1
        sign = 1 if mover == "X" else -1
        if wins:
            assert record.value == WIN * sign, board  # a win at once (or an equally sure one)
            checked += 1
        elif len(threats) == 1 and record.value != -WIN * sign:
            assert chosen in threats, board  # the only move that does not lose at once
            checked += 1
    assert checked > 100


def test_tictactoe_depth_zero_and_finished_positions() -> None:
    assert tictactoe_tree(depth=0)["root"] == {"value": 0}
    assert tictactoe_tree("XXXOO....")["root"] == {"value": 9}
    assert tictactoe_tree("OOOXX.X..")["root"] == {"value": -9}
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


# The notes' rules once more, written independently of the generator: a board
# is a list of four fields, pieces 0 and 1 are MAX's (moving up to 5), 2 and 3
# MIN's (moving down to 0).


def rule_moves(board: tuple[int, ...], mover: int, roll: int) -> set[tuple[int, ...]]:
    """Every board reachable by one legal move, as a set of (a, b, c, d) with each pair sorted."""
    mine, theirs = ((0, 1), (2, 3)) if mover == 0 else ((2, 3), (0, 1))
    home = 5 if mover == 0 else 0
    reached = set()
    for piece in mine:
        if board[piece] == home:
            continue
        target = board[piece] + roll if mover == 0 else board[piece] - roll
        target = min(target, 5) if mover == 0 else max(target, 0)  # past home: home
        if any(board[other] == target for other in theirs):
            continue
        moved = list(board)
        moved[piece] = target
        reached.add(tuple(sorted(moved[:2]) + sorted(moved[2:])))
    return reached


def rule_value(board: tuple[int, ...], mover: int, roll: int | None, plies: int) -> Fraction:
    """Expectiminimax straight from the rules (+100 / -100 for a win, a+b+c+d at the cut-off)."""
    if board[0] == board[1] == 5:
        return Fraction(100)
    if board[2] == board[3] == 0:
        return Fraction(-100)
    if plies == 0:
        return Fraction(sum(board))
    if roll is None:
        return sum(Fraction(1, 2) * rule_value(board, mover, coin, plies - 1) for coin in (1, 2))
    following = rule_moves(board, mover, roll) or {board}  # no move: a pass
    values = [rule_value(after, 1 - mover, None, plies - 1) for after in following]
    return max(values) if mover == 0 else min(values)


def test_backgammon_shape() -> None:
    document = backgammon_tree()
    assert document["players"] == ["MAX", "MIN"]
    assert document["bounds"] == [-100, 100]
    root = document["root"]
    assert root["type"] == "chance" and root["comment"] == "(3,4,1,2)"
    assert [(child["move"], child["p"]) for child in root["children"]] == [("1", "1/2"), ("2", "1/2")]
    # levels: coin, MAX, coin, MIN, coin, then the cut-off leaves at depth 5
    expected = {0: "chance", 1: "max", 2: "chance", 3: "min", 4: "chance"}
    for node, depth in walk(root):
        if "children" in node:
            assert node["type"] == expected[depth]
            if node["type"] == "chance":
                assert [child["p"] for child in node["children"]] == ["1/2", "1/2"]
        elif node["value"] not in (100, -100):
            assert depth == 5 and node["value"] == sum(parse_state(node["comment"]))


@pytest.mark.parametrize(
    ("state", "mover", "roll", "moves"),
    [
        # the notes' example: MAX may join its own piece (3->4) or go home (4->5)
        ((3, 4, 1, 2), 0, 1, [("3->4", (4, 4, 1, 2)), ("4->5", (3, 5, 1, 2))]),
        # a 2 from field 4 overshoots home and ends there
        ((3, 4, 1, 2), 0, 2, [("3->5", (4, 5, 1, 2)), ("4->5", (3, 5, 1, 2))]),
        # MIN moves down; it may join its own piece (2->1) or reach home (1->0)
        ((3, 4, 1, 2), 1, 1, [("1->0", (3, 4, 0, 2)), ("2->1", (3, 4, 1, 1))]),
        ((3, 4, 1, 2), 1, 2, [("1->0", (3, 4, 0, 2)), ("2->0", (3, 4, 0, 1))]),
        # MIN may not land on MAX's piece at 2
        ((2, 4, 1, 3), 1, 1, [("1->0", (2, 4, 0, 3))]),
        # MAX blocked by MIN's pieces at 3 and 4 with a 2: no move (a pass)
        ((1, 2, 3, 4), 0, 2, []),
        ((1, 2, 3, 4), 0, 1, [("1->2", (2, 2, 3, 4))]),
        # two pieces on one field: one move, not two
        ((2, 2, 0, 4), 0, 1, [("2->3", (2, 3, 0, 4))]),
        # a piece at home stays there
        ((3, 5, 1, 2), 0, 1, [("3->4", (4, 5, 1, 2))]),
        # an opponent's piece on one's home field blocks it too
        ((3, 4, 1, 5), 0, 1, [("3->4", (4, 4, 1, 5))]),
        ((0, 4, 1, 3), 1, 1, [("3->2", (0, 4, 1, 2))]),
    ],
)
def test_backgammon_moves_by_hand(state: tuple[int, int, int, int], mover: int, roll: int,
                                  moves: list[tuple[str, tuple[int, ...]]]) -> None:
    assert legal_moves(state, mover, roll) == moves
    assert rule_moves(state, mover, roll) == {after for _, after in moves}


def test_backgammon_tree_follows_the_rules() -> None:
    root = backgammon_tree()["root"]
    one, two = root["children"]
    assert [(child["move"], child["comment"]) for child in one["children"]] == [
        ("3->4", "(4,4,1,2)"),
        ("4->5", "(3,5,1,2)"),
    ]
    assert [(child["move"], child["comment"]) for child in two["children"]] == [
        ("3->5", "(4,5,1,2)"),
        ("4->5", "(3,5,1,2)"),
    ]
    # every decision node of a deeper tree offers exactly the rules' moves
    document = backgammon_tree((1, 2, 3, 4), plies=10)
    checked = 0
    for node, _ in walk(document["root"]):
        if node.get("type") in ("max", "min"):
            board = parse_state(node["comment"])
            roll = int(node["move"]) if "move" in node else None
            mover = 0 if node["type"] == "max" else 1
            after = {parse_state(child["comment"]) for child in node["children"]}
            assert roll is not None
            assert after == (rule_moves(board, mover, roll) or {board})
            if not rule_moves(board, mover, roll):
                assert [child["move"] for child in node["children"]] == ["pass"]
            checked += 1
    assert checked > 50


def test_backgammon_notes_example_value() -> None:
    """From (3,4,1,2), MAX to move a 1, 5 plies: the value of docs/backgammon-mini.md."""
    from gametree_cli.search.registry import solve
    from gametree_cli.io.document import build_tree

    document = backgammon_tree((3, 4, 1, 2), 5, roll=1)
    expected = rule_value((3, 4, 1, 2), 0, 1, 5)
    assert minimax_value(document["root"]) == expected
    record = solve(build_tree(document))
    assert record.value == expected
    assert record.move(record.best_move()) == "4->5"
    assert solve(build_tree(document), "star1").value == expected


@pytest.mark.parametrize("position", [(3, 4, 1, 2), (0, 1, 4, 5), (2, 2, 3, 3), (1, 4, 0, 5), (4, 4, 1, 1)])
@pytest.mark.parametrize("roll", [None, 1, 2])
def test_backgammon_values_match_the_rules(position: tuple[int, int, int, int], roll: int | None) -> None:
    for plies in (1, 3, 6):
        document = backgammon_tree(position, plies, roll=roll)
        assert minimax_value(document["root"]) == rule_value(position, 0, roll, plies)


def test_backgammon_wins_end_the_game() -> None:
    root = backgammon_tree((4, 5, 1, 2), plies=5, roll=1)["root"]
    assert root["children"] == [{"move": "4->5", "comment": "(5,5,1,2)", "value": 100}]
    root = backgammon_tree((2, 3, 0, 1), plies=4)["root"]
    values = {node["value"] for node, _ in walk(root) if "children" not in node}
    assert -100 in values  # MIN brings its piece at 1 home
    assert backgammon_tree((3, 4, 0, 0))["root"] == {"comment": "(3,4,0,0)", "value": -100}


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
        ({"position": (6, 4, 1, 2)}, "fields are numbered 0..5, found 6 in (6, 4, 1, 2)"),
        ({"position": (-1, 4, 1, 2)}, "fields are numbered 0..5, found -1 in (-1, 4, 1, 2)"),
        ({"position": (3, 4, 4, 2)}, "field 4 holds pieces of both players in (3, 4, 4, 2)"),
        ({"position": (5, 5, 0, 0)}, "both players are already home in (5, 5, 0, 0)"),
        ({"plies": -1}, "plies must be a non-negative integer, found -1"),
        ({"roll": 3}, "roll must be 1, 2 or None, found 3"),
    ],
)
def test_backgammon_rejects(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(GeneratorError) as caught:
        backgammon_tree(**arguments)
    assert str(caught.value) == message
