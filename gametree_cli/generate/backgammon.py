"""The course's mini-backgammon: two pieces each, a six-field track, a coin for a die.

It is small enough to draw by hand, yet has chance nodes at every turn, which
makes it the standard exercise for expectiminimax (and Star1 pruning). The
rules are the course notes' (also in ``docs/backgammon-mini.md``):

* The track has fields 0..5. MAX (○) moves towards field 5, its home; MIN
  (●) towards field 0, its home. MAX's pieces are at ``a`` and ``b``, MIN's
  at ``c`` and ``d``; the state is ``(a, b, c, d)`` with ``a <= b`` and
  ``c <= d`` (pieces of one player are interchangeable).
* A turn: a fair coin is tossed (a chance node: ``1`` heads, ``2`` tails,
  probability 1/2 each); then the player to move picks one of their pieces
  that is not home and moves it that many fields towards their home.
* A piece may not land on a field that holds an *opponent's* piece (home
  included: the rule has no exception); it may share a field with its own
  player's other piece. Pieces jump over pieces.
* Where the notes are silent, a roll that would carry a piece past its home
  ends there (a 2 from field 4 bears MAX's piece home).
* A player with no legal move passes (a decision node with the single move
  ``pass``). The turns alternate, MAX first.
* The first player with both pieces home wins: +100 for MAX, -100 for MIN.
* The search stops ``plies`` edges below the root (every edge is a ply,
  coin edges included, as ``--depth`` counts them); a position there that is
  not won becomes a leaf valued ``e(a, b, c, d) = a + b + c + d``, the
  course's evaluation (high ``c``, ``d``: MIN's pieces are far from home).

Tree shape: the root is MAX's coin (a chance node), then MAX's decision, then
MIN's coin, MIN's decision, and so on. With ``roll`` the root is instead MAX's
decision with that coin already shown (the notes' example: ``roll=1``).
Moves are written ``3->4`` (from field 3 to field 4); every node's
``comment`` is the state ``(a,b,c,d)`` reached there. The document declares
``bounds: [-100, 100]`` so Star1 can prune.
"""

from __future__ import annotations

from typing import Any

from .common import GeneratorError

__all__ = ["MAX_HOME", "MIN_HOME", "START", "WIN", "backgammon_tree", "legal_moves"]

#: MAX moves up towards field 5, MIN down towards field 0.
MAX_HOME, MIN_HOME = 5, 0
#: Utility of a win for MAX (a win for MIN is ``-WIN``).
WIN = 100
START = (3, 4, 1, 2)
_MAX, _MIN = 0, 1
_HALF = "1/2"

State = tuple[int, int, int, int]


def _normalize(position: Any) -> State:
    """Validate a position and sort each player's pieces.

    Raises:
        GeneratorError: not four fields 0..5, pieces of both players on one
            field (no move can lead there), or both players already home.
    """
    if not isinstance(position, (tuple, list)) or len(position) != 4:
        raise GeneratorError(f"a mini-backgammon position is four fields (a, b, c, d), found {position!r}")
    for field in position:
        if isinstance(field, bool) or not isinstance(field, int) or not MIN_HOME <= field <= MAX_HOME:
            raise GeneratorError(f"fields are numbered {MIN_HOME}..{MAX_HOME}, found {field!r} in {tuple(position)!r}")
    a, b, c, d = position
    shared = {a, b} & {c, d}
    if shared:
        raise GeneratorError(f"field {min(shared)} holds pieces of both players in {tuple(position)!r}")
    if a == b == MAX_HOME and c == d == MIN_HOME:
        raise GeneratorError(f"both players are already home in {tuple(position)!r}")
    return (min(a, b), max(a, b), min(c, d), max(c, d))


def _winner(state: State) -> int | None:
    if state[0] == state[1] == MAX_HOME:
        return _MAX
    if state[2] == state[3] == MIN_HOME:
        return _MIN
    return None


def legal_moves(state: State, mover: int, roll: int) -> list[tuple[str, State]]:
    """The legal moves of ``mover`` (0: MAX, 1: MIN) after the coin showed ``roll``:
    ``(label, next state)``, one per distinct move (two pieces on one field move alike)."""
    if mover == _MAX:
        own, theirs, home, step = state[0:2], state[2:4], MAX_HOME, roll
    else:
        own, theirs, home, step = state[2:4], state[0:2], MIN_HOME, -roll
    result: list[tuple[str, State]] = []
    for piece, field in enumerate(own):
        if field == home or (piece == 1 and own[0] == own[1]):
            continue  # home pieces stay; the second of two pieces on one field adds no move
        target = min(field + step, home) if mover == _MAX else max(field + step, home)
        if target in theirs:
            continue  # an opponent's piece holds the field
        moved = (target, own[1 - piece])
        pieces = (min(moved), max(moved))
        following: State = (*pieces, state[2], state[3]) if mover == _MAX else (state[0], state[1], *pieces)
        result.append((f"{field}->{target}", following))
    return result


def _show(state: State) -> str:
    return "({},{},{},{})".format(*state)


def backgammon_tree(position: Any = START, plies: int = 5, *, roll: int | None = None) -> dict[str, Any]:
    """The mini-backgammon game tree from ``position`` with MAX to move.

    Args:
        position: ``(a, b, c, d)``: MAX's pieces at fields a, b; MIN's at c, d (0..5).
        plies: cut-off depth in edges (coin edges count); positions there are
            scored ``a + b + c + d``.
        roll: None for a root that tosses MAX's coin; 1 or 2 for a root that is
            MAX's decision with that coin already shown.

    Returns:
        A two-player document with chance nodes (``bounds: [-100, 100]``).

    Raises:
        GeneratorError: an invalid position, plies or roll.
    """
    state = _normalize(position)
    if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
        raise GeneratorError(f"plies must be a non-negative integer, found {plies!r}")
    if roll is not None and (isinstance(roll, bool) or roll not in (1, 2)):
        raise GeneratorError(f"roll must be 1, 2 or None, found {roll!r}")
    first = "MAX's coin" if roll is None else f"MAX to move a {roll}"
    document: dict[str, Any] = {
        "title": f"mini-backgammon from {_show(state)}, {first}, {plies} plies",
        "players": ["MAX", "MIN"],
        "bounds": [-WIN, WIN],
    }
    root: dict[str, Any] = {"comment": _show(state)}
    document["root"] = root
    # a pending node: (its dict, state, player to move, coin shown or None, depth)
    stack: list[tuple[dict[str, Any], State, int, int | None, int]] = [(root, state, _MAX, roll, 0)]
    while stack:
        node, state, mover, shown, depth = stack.pop()
        winner = _winner(state)
        if winner is not None:
            node["value"] = WIN if winner == _MAX else -WIN
            continue
        if depth == plies:
            node["value"] = sum(state)
            continue
        children: list[dict[str, Any]] = []
        pending: list[tuple[dict[str, Any], State, int, int | None, int]] = []
        if shown is None:
            node["type"] = "chance"
            for outcome in (1, 2):
                child = {"move": str(outcome), "p": _HALF, "comment": _show(state)}
                children.append(child)
                pending.append((child, state, mover, outcome, depth + 1))
        else:
            node["type"] = "max" if mover == _MAX else "min"
            moves = legal_moves(state, mover, shown) or [("pass", state)]
            for label, following in moves:
                child = {"move": label, "comment": _show(following)}
                children.append(child)
                pending.append((child, following, 1 - mover, None, depth + 1))
        node["children"] = children
        stack.extend(reversed(pending))
    return document
