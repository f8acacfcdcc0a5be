"""Gambit .efg parser: the header and the preorder node records (see efg.py)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..core.errors import TreeFormatError
from .efg_lexer import _Num, _ZERO, _Token, _describe, _parse_number_text


@dataclass(slots=True)
class _Record:
    """One node of the file, before it becomes a document node."""

    kind: str  # "p", "c" or "t"
    name: str
    line: int
    player: int = 0  # 1-based, personal nodes only
    labels: list[str] = field(default_factory=list)
    probabilities: list[_Num] = field(default_factory=list)
    payoffs: tuple[_Num, ...] = ()  # terminals: the sum of every outcome on the path
    children: list[int] = field(default_factory=list)


class _Parser:
    """Recursive-descent over the token list (the node list itself is walked with a stack)."""

    def __init__(self, tokens: list[_Token], filename: str) -> None:
        self.tokens = tokens
        self.at = 0
        self.filename = filename
        self.players: list[str] = []
        self.title = ""
        self.comment = ""
        self.outcomes: dict[int, tuple[str, tuple[_Num, ...]]] = {}
        self.events: dict[int, tuple[str, list[str], list[_Num]]] = {}
        self.infosets: dict[tuple[int, int], int] = {}  # (player, infoset) -> line first seen
        self.records: list[_Record] = []

    # token helpers -------------------------------------------------------

    def peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def error(self, message: str, token: _Token | None = None) -> TreeFormatError:
        if token is None:
            token = self.peek()
        if token is None:
            line = self.tokens[-1].line if self.tokens else 1
            return TreeFormatError(message, file=self.filename, line=line)
        return TreeFormatError(message, file=self.filename, line=token.line, column=token.column)

    def take(self, kind: str, what: str) -> _Token:
        token = self.peek()
        if token is None or token.kind != kind:
            raise self.error(f"expected {what}, found {_describe(token)}")
        self.at += 1
        return token

    def take_count(self, what: str, *, positive: bool) -> int:
        token = self.take("number", what)
        if not re.fullmatch(r"\+?\d{1,18}", token.text) or (positive and int(token.text) == 0):
            raise self.error(f"expected {what}, found {token.text!r}", token)
        return int(token.text)

    def take_number(self, what: str) -> _Num:
        token = self.take("number", what)
        try:
            return _parse_number_text(token.text)
        except ValueError as error:
            raise self.error(str(error), token) from None

    def optional(self, kind: str) -> _Token | None:
        token = self.peek()
        if token is not None and token.kind == kind:
            self.at += 1
            return token
        return None

    def list_of(self, kinds: tuple[str, ...], what: str) -> list[_Token]:
        """The tokens between ``{`` and ``}`` (the ``{`` already taken)."""
        items: list[_Token] = []
        while True:
            token = self.peek()
            if token is None:
                raise self.error(f"missing '}}' after the {what}")
            self.at += 1
            if token.kind == "close":
                return items
            if token.kind not in kinds:
                raise self.error(f"unexpected {_describe(token)} in the {what}", token)
            items.append(token)

    # grammar ---------------------------------------------------------------

    def header(self) -> None:
        magic = self.take("word", "'EFG' at the start of the file")
        if magic.text != "EFG":
            raise self.error(f"not a Gambit extensive-form file: expected 'EFG', found {magic.text!r}", magic)
        version = self.take("number", "the format version 2")
        if version.text != "2":
            raise self.error(f"unsupported EFG version {version.text!r} (only version 2 is read)", version)
        flavour = self.take("word", "'R' or 'D' after the version")
        if flavour.text not in ("R", "D"):
            raise self.error(f"expected 'R' or 'D' after the version, found {flavour.text!r}", flavour)
        self.title = self.take("string", "the game's title (a quoted string)").text
        self.take("open", "'{' before the player names")
        self.players = [token.text for token in self.list_of(("string",), "player names")]
        if not self.players:
            raise self.error("the game has no players; gametree solves games of one or more players", magic)
        comment = self.optional("string")
        self.comment = comment.text if comment is not None else ""

    def outcome(self) -> tuple[_Num, ...] | None:
        """``outcome [name {payoffs}]``: the payoffs, or None for the null outcome 0."""
        number_token = self.peek()
        number = self.take_count("an outcome number", positive=False)
        name_token = self.optional("string")
        payoffs: tuple[_Num, ...] | None = None
        if self.optional("open") is not None:
            values: list[_Num] = []
            while self.optional("close") is None:
                if self.peek() is None:
                    raise self.error("missing '}' after the payoffs")
                values.append(self.take_number("a payoff, or '}'"))
            payoffs = tuple(values)
            if len(payoffs) != len(self.players):
                raise self.error(
                    f"outcome {number} has {len(payoffs)} payoffs, expected {len(self.players)} (one per player)",
                    number_token,
                )
        if number == 0:
            if payoffs is not None:
                raise self.error("outcome 0 is the null outcome and takes no payoffs", number_token)
            return None
        name = name_token.text if name_token is not None else ""
        known = self.outcomes.get(number)
        if payoffs is None:
            if known is None:
                raise self.error(f"outcome {number} is used before its payoffs are given", number_token)
            return known[1]
        if known is not None and [p.exact for p in known[1]] != [p.exact for p in payoffs]:
            raise self.error(f"outcome {number} is declared again with different payoffs", number_token)
        if known is None:
            self.outcomes[number] = (name, payoffs)
        return payoffs

    def node(self) -> tuple[_Record, tuple[_Num, ...] | None]:
        """One node line; returns the record and its own outcome's payoffs."""
        token = self.take("word", "a node ('p', 'c' or 't')")
        kind = token.text
        if kind not in ("p", "c", "t"):
            raise self.error(f"unknown node type {kind!r} (expected 'p', 'c' or 't')", token)
        name = self.take("string", "the node's name (a quoted string)").text
        record = _Record(kind, name, token.line)
        if kind == "p":
            record.player = self.take_count("a player number", positive=True)
            if record.player > len(self.players):
                raise self.error(
                    f"player {record.player} does not exist (the game has {len(self.players)} players)", token
                )
            infoset = self.take_count("an information set number", positive=True)
            key = (record.player, infoset)
            if key in self.infosets:
                raise TreeFormatError(
                    f"imperfect information: player {record.player}'s information set {infoset} holds several"
                    " nodes; gametree solves perfect-information trees only",
                    file=self.filename,
                    line=token.line,
                )
            self.infosets[key] = token.line
            self.optional("string")
            if self.optional("open") is None:
                raise self.error(f"player {record.player}'s information set {infoset} has no actions")
            record.labels = [item.text for item in self.list_of(("string",), "actions")]
            if not record.labels:
                raise self.error("a player node with no actions", token)
        elif kind == "c":
            event = self.take_count("a chance event number", positive=True)
            event_name = self.optional("string")
            if self.optional("open") is not None:
                labels: list[str] = []
                probabilities: list[_Num] = []
                while self.optional("close") is None:
                    labels.append(self.take("string", "an action name, or '}'").text)
                    probabilities.append(self.take_number("the action's probability"))
                if not labels:
                    raise self.error("a chance node with no actions", token)
                declared = (event_name.text if event_name else "", labels, probabilities)
                known = self.events.get(event)
                if known is not None and (known[1], [p.exact for p in known[2]]) != (
                    labels,
                    [p.exact for p in probabilities],
                ):
                    raise self.error(f"chance event {event} is declared again with different actions", token)
                self.events.setdefault(event, declared)
            elif event not in self.events:
                raise self.error(f"chance event {event} is used before its actions are given", token)
            _, record.labels, record.probabilities = self.events[event]
            self.check_probabilities(record.probabilities, token)
        own = self.outcome()
        return record, own

    def check_probabilities(self, probabilities: list[_Num], token: _Token) -> None:
        for p in probabilities:
            if p.exact < 0:
                raise self.error(f"probability {p.show()} is negative", token)
        total = sum(probabilities, _ZERO)
        if total.exact == 1 or (total.decimal and math.isclose(float(total.exact), 1.0, rel_tol=1e-9)):
            return
        raise self.error(f"probabilities sum to {total.show()}, not 1", token)

    def body(self) -> None:
        """All nodes, preorder, with an explicit stack (deep trees need no recursion)."""
        zero = tuple(_ZERO for _ in self.players)
        stack: list[tuple[int, int, tuple[_Num, ...]]] = []  # (record, children still to read, payoff so far)
        while True:
            if stack:
                index, remaining, above = stack[-1]
                if remaining == 0:
                    stack.pop()
                    if not stack:
                        break
                    continue
                stack[-1] = (index, remaining - 1, above)
            else:
                above = zero
            if self.peek() is None:
                if not stack:
                    raise self.error("no nodes: the file ends after its header")
                parent = self.records[stack[-1][0]]
                raise self.error(
                    f"the file ends before the tree is complete (the node of line {parent.line}"
                    f" still expects {stack[-1][1] + 1} more child(ren))"
                )
            record, own = self.node()
            total = above if own is None else tuple(a + b for a, b in zip(above, own))
            position = len(self.records)
            self.records.append(record)
            if stack:
                self.records[stack[-1][0]].children.append(position)
            if record.kind == "t":
                record.payoffs = total
                if not stack:
                    break
            else:
                stack.append((position, len(record.labels), total))
        leftover = self.peek()
        if leftover is not None:
            raise self.error(f"unexpected {_describe(leftover)} after the last node of the tree", leftover)
