"""The tic-tac-toe game tree, as a tree document, from any legal position.

The full tree (549,946 nodes, 255,168 leaves from the empty board) is the
standard stress test for a minimax solver, and a depth-limited tree with the
classic "open lines" evaluation is a standard course exercise.

Conventions:

* A position is 9 characters, row-major, from ``X``, ``O`` and ``.`` (empty);
  cells are numbered 1..9::

      1 2 3
      4 5 6
      7 8 9

  X moves first, so X is to move when both have played as often, O when X
  has played once more.
* X is ``max``. A finished game is worth ``+WIN`` (X has three in a line),
  ``-WIN`` (O has) or 0 (a full board without a line), with ``WIN = 9``: one
  more than the open-lines evaluation can ever reach (there are 8 lines), so
  at a depth limit no evaluation outranks a real win or a real loss. The
  course notes score them +inf and -inf; tree files hold finite numbers only
  (contract section 1), and any number above 8 orders the leaves the same.
* Each child's ``move`` is the mover and the cell: ``X5``, ``O3``. Node ids
  are left to the contract's default rule (``root``, ``1``, ``1.3``, ...,
  the child's position among its siblings, empty cells in increasing order),
  which costs no memory; the moves make a principal variation readable.
* Only the root carries ``type``; the levels below alternate by the
  contract's rule. Leaves are ``{"move": ..., "value": ...}`` mappings: a
  bare number would lose its move.
* With ``depth``, a node ``depth`` plies below the root that is not a
  finished game becomes a leaf whose value is the evaluation
  ``e = (lines still open for X) - (lines still open for O)``, where a line
  is open for X when it holds no O (and vice versa).

The tree is built with an explicit stack (no recursion) over two 9-bit masks.
"""

from __future__ import annotations

from typing import Any

from .common import GeneratorError

__all__ = ["EMPTY_BOARD", "WIN", "tictactoe_tree"]

EMPTY_BOARD = "........."
#: A win for X (``-WIN``: for O): above every evaluation, which lies in -8..8.
WIN = 9

_LINES = (
    0b000000111, 0b000111000, 0b111000000,  # rows
    0b001001001, 0b010010010, 0b100100100,  # columns
    0b100010001, 0b001010100,  # diagonals
)
_FULL = 0b111111111
#: _WON[mask]: the cells in ``mask`` hold a whole line.
_WON = [any(mask & line == line for line in _LINES) for mask in range(512)]
#: _FREE_OF[mask]: how many lines hold none of the cells in ``mask``.
_FREE_OF = [sum(1 for line in _LINES if not mask & line) for mask in range(512)]
_MOVE_LABELS = {True: [f"X{cell + 1}" for cell in range(9)], False: [f"O{cell + 1}" for cell in range(9)]}


def _parse_position(position: str) -> tuple[int, int, bool]:
    """Masks of X's and O's cells, and whether X is to move.

    Raises:
        GeneratorError: the text is not 9 cells of ``XO.``, or the position
            cannot arise in a game (counts, two winners, play after a win is
            allowed only as the finished game itself).
    """
    if not isinstance(position, str) or len(position) != 9:
        raise GeneratorError(f"a tic-tac-toe position is 9 characters from 'XO.', found {position!r}")
    x_cells = o_cells = 0
    for cell, mark in enumerate(position.upper()):
        if mark == "X":
            x_cells |= 1 << cell
        elif mark == "O":
            o_cells |= 1 << cell
        elif mark != ".":
            raise GeneratorError(f"unexpected {mark!r} in tic-tac-toe position {position!r} (use X, O and .)")
    x_count, o_count = x_cells.bit_count(), o_cells.bit_count()
    if x_count not in (o_count, o_count + 1):
        raise GeneratorError(
            f"impossible position {position!r}: X has {x_count} marks and O {o_count} (X moves first, then O)"
        )
    x_won, o_won = _WON[x_cells], _WON[o_cells]
    if x_won and o_won:
        raise GeneratorError(f"impossible position {position!r}: both X and O have a line")
    if x_won and x_count != o_count + 1:
        raise GeneratorError(f"impossible position {position!r}: O played after X had won")
    if o_won and x_count != o_count:
        raise GeneratorError(f"impossible position {position!r}: X played after O had won")
    return x_cells, o_cells, x_count == o_count


def _evaluation(x_cells: int, o_cells: int) -> int:
    """Lines open for X (no O in them) minus lines open for O (no X in them)."""
    return _FREE_OF[o_cells] - _FREE_OF[x_cells]


def tictactoe_tree(position: str = EMPTY_BOARD, depth: int | None = None) -> dict[str, Any]:
    """The game tree of tic-tac-toe from ``position``.

    Args:
        position: 9 characters from ``X``, ``O``, ``.``, row-major.
        depth: stop this many plies below the root and score unfinished
            positions there with the open-lines evaluation; None for the
            whole game.

    Returns:
        A two-player tree document (X is max).

    Raises:
        GeneratorError: an invalid position or a negative depth.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise GeneratorError(f"depth must be a non-negative integer or None, found {depth!r}")
    x_cells, o_cells, x_to_move = _parse_position(position)
    title = f"tic-tac-toe from {position.upper()}" + (f", {depth} plies" if depth is not None else "")
    document: dict[str, Any] = {"title": title, "players": ["X", "O"]}

    root: dict[str, Any] = {"type": "max" if x_to_move else "min"}
    document["root"] = root
    if _WON[x_cells]:
        del root["type"]
        root["value"] = WIN
        return document
    if _WON[o_cells]:
        del root["type"]
        root["value"] = -WIN
        return document
    if x_cells | o_cells == _FULL:
        del root["type"]
        root["value"] = 0
        return document
    if depth == 0:
        del root["type"]
        root["value"] = _evaluation(x_cells, o_cells)
        return document

    limit = -1 if depth is None else depth
    won = _WON
    root["children"] = []
    # frame: (children list to fill, X's cells, O's cells, X to move, depth of the children)
    stack: list[tuple[list[Any], int, int, bool, int]] = [(root["children"], x_cells, o_cells, x_to_move, 1)]
    while stack:
        children, x_cells, o_cells, x_to_move, child_depth = stack.pop()
        labels = _MOVE_LABELS[x_to_move]
        taken = x_cells | o_cells
        win_value = WIN if x_to_move else -WIN
        at_limit = child_depth == limit
        for cell in range(9):
            bit = 1 << cell
            if taken & bit:
                continue
            if x_to_move:
                next_x, next_o = x_cells | bit, o_cells
                finished = won[next_x]
            else:
                next_x, next_o = x_cells, o_cells | bit
                finished = won[next_o]
            if finished:
                children.append({"move": labels[cell], "value": win_value})
            elif taken | bit == _FULL:
                children.append({"move": labels[cell], "value": 0})
            elif at_limit:
                children.append({"move": labels[cell], "value": _evaluation(next_x, next_o)})
            else:
                grandchildren: list[Any] = []
                children.append({"move": labels[cell], "children": grandchildren})
                stack.append((grandchildren, next_x, next_o, not x_to_move, child_depth + 1))
    return document
