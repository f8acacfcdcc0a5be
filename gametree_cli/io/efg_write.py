"""A tree document -> Gambit .efg text (see efg.py)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.errors import TreeFormatError
from .efg_lexer import _Num, _document_number


# -- writing ------------------------------------------------------------------


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(slots=True)
class _Out:
    """A node met while writing: what the walk has resolved about it."""

    raw: Any
    node_id: str
    named: bool  # the document gave this id explicitly
    decider: int  # nearest decision ancestor's player (two-player: 0 max, 1 min); -1 none


@dataclass(slots=True)
class _Header:
    title: str
    description: str
    players: list[str]
    vectors: bool  # leaves hold one payoff per player (n-player or general-sum)
    root: Any


def write_efg(document: Any) -> str:
    """Write a tree document as a Gambit ``.efg`` file ("EFG 2 R").

    Two-player documents get payoffs ``(v, -v)``; n-player documents (and
    ``general_sum`` ones) their vectors. Each decision node is its own
    information set, each terminal its own outcome; moves become action
    labels (a missing move is written as the node's id, its default); a
    chance node without ``p`` gets uniform probabilities; ``eval``,
    ``bounds``, ``sum`` and comments are dropped.

    Raises:
        TreeFormatError: the document is not a tree this writer understands
            (unknown type or player, a leaf without a value, a vector of the
            wrong length...).
    """
    header = _document_header(document)
    players = header.players
    lines = [
        f"EFG 2 R {_quote(header.title)} {{ {' '.join(_quote(name) for name in players)} }}",
        _quote(header.description),
        "",
    ]
    infosets = [0] * len(players)
    events = 0
    outcomes = 0
    root = header.root
    root_named = isinstance(root, dict) and root.get("id") is not None
    stack = [_Out(root, str(root["id"]) if root_named else "root", root_named, -1)]
    while stack:
        item = stack.pop()
        kind, player, children, value = _resolve(item, header)
        name = _quote(item.node_id if item.named else "")
        if children is None:
            outcomes += 1
            payoffs = _payoffs(value, item.node_id, header)
            lines.append(f"t {name} {outcomes} \"\" {{ {' '.join(p.to_efg() for p in payoffs)} }}")
            continue
        # only the unnamed root is "root" without being named: its children are 1, 2, ...
        prefix = "" if (item.node_id == "root" and not item.named) else f"{item.node_id}."
        outs: list[_Out] = []
        labels: list[str] = []
        for position, child in enumerate(children, start=1):
            named = isinstance(child, dict) and child.get("id") is not None
            child_id = str(child["id"]) if named else f"{prefix}{position}"
            move = child.get("move") if isinstance(child, dict) else None
            labels.append(child_id if move is None else str(move))
            outs.append(_Out(child, child_id, named, item.decider if kind == "chance" else player))
        if kind == "chance":
            events += 1
            probabilities = _probabilities(children, item.node_id)
            actions = " ".join(f"{_quote(label)} {p.to_efg()}" for label, p in zip(labels, probabilities))
            lines.append(f"c {name} {events} \"\" {{ {actions} }} 0")
        else:
            infosets[player] += 1
            actions = " ".join(_quote(label) for label in labels)
            lines.append(f"p {name} {player + 1} {infosets[player]} \"\" {{ {actions} }} 0")
        stack.extend(reversed(outs))
    return "\n".join(lines) + "\n"


def _document_header(document: Any) -> _Header:
    """Title, description, player names, whether leaves are vectors, and the root."""
    if isinstance(document, dict) and "root" in document:
        names = document.get("players") or ["MAX", "MIN"]
        if not isinstance(names, list) or len(names) < 2:
            raise TreeFormatError("players must be a list of at least two names")
        players = [str(name) for name in names]
        title = document.get("title")
        description = document.get("description")
        return _Header(
            "" if title is None else str(title),
            "" if description is None else str(description),
            players,
            len(players) > 2 or document.get("general_sum") is True,
            document["root"],
        )
    if isinstance(document, (dict, list)) or _document_number(document) is not None:
        return _Header("", "", ["MAX", "MIN"], False, document)  # a bare node, compact list or number
    raise TreeFormatError("expected a tree document (a mapping with 'root', or a nested list)")


def _resolve(item: _Out, header: _Header) -> tuple[str, int, list[Any] | None, Any]:
    """Kind ("decision", "chance" or "leaf"), player index, children (None for a leaf), leaf value."""
    raw = item.raw
    count = len(header.players)
    if header.vectors:
        following = 0 if item.decider < 0 else (item.decider + 1) % count
    else:
        following = 1 if item.decider == 0 else 0
    if isinstance(raw, dict):
        children = raw.get("children")
        if children is None:
            if raw.get("value") is None:
                raise TreeFormatError("leaf without a value", node=item.node_id)
            return "leaf", -1, None, raw["value"]
        if not isinstance(children, list) or not children:
            raise TreeFormatError("children must be a non-empty list", node=item.node_id)
        declared = None if raw.get("type") is None else str(raw["type"]).strip().lower()
        if declared == "chance":
            return "chance", -1, children, None
        if raw.get("player") is not None:
            return "decision", _player_index(raw["player"], item.node_id, header.players), children, None
        if declared is None:
            return "decision", following, children, None
        if declared not in ("max", "min"):
            raise TreeFormatError(f"unknown type {raw['type']!r} (expected max, min or chance)", node=item.node_id)
        if count > 2:
            raise TreeFormatError(f"type {declared} in a {count}-player tree (use player)", node=item.node_id)
        return "decision", 0 if declared == "max" else 1, children, None
    if isinstance(raw, list):
        if header.vectors and raw and all(_document_number(part) is not None for part in raw):
            return "leaf", -1, None, raw
        if not raw:
            raise TreeFormatError("inner node with no children (an empty list)", node=item.node_id)
        return "decision", following, raw, None
    return "leaf", -1, None, raw


def _player_index(given: Any, node_id: str, players: list[str]) -> int:
    """A ``player`` key (a name, or a 0-based index) as an index."""
    if isinstance(given, int) and not isinstance(given, bool):
        if 0 <= given < len(players):
            return given
    elif str(given) in players:
        return players.index(str(given))
    raise TreeFormatError(f"unknown player {given!r} (players: {', '.join(players)})", node=node_id)


def _payoffs(value: Any, node_id: str, header: _Header) -> list[_Num]:
    """The outcome of a leaf: its vector, or ``(v, -v)`` in a two-player tree."""
    count = len(header.players)
    if header.vectors:
        if not isinstance(value, list) or len(value) != count:
            raise TreeFormatError(f"value must be a list of {count} numbers, one per player", node=node_id)
        payoffs = [_document_number(part) for part in value]
        checked = [p for p in payoffs if p is not None]
        if len(checked) != count:
            raise TreeFormatError(f"value {value!r} holds something that is not a finite number", node=node_id)
        return checked
    number = _document_number(value)
    if number is None:
        raise TreeFormatError(f"value {value!r} is not a finite number", node=node_id)
    return [number, -number]


def _probabilities(children: list[Any], node_id: str) -> list[_Num]:
    """A chance node's probabilities as given, or uniform when no child has ``p``."""
    given = [child.get("p") if isinstance(child, dict) else None for child in children]
    if all(p is None for p in given):
        return [_Num(Fraction(1, len(children)))] * len(children)
    result: list[_Num] = []
    for raw in given:
        number = _document_number(raw)
        if number is None:
            raise TreeFormatError("every child of a chance node needs a numeric p, or none of them", node=node_id)
        result.append(number)
    return result
