"""Gambit's extensive-form text format (``.efg``, "EFG 2 R" / "EFG 2 D") <-> tree documents.

Gambit is where game theorists keep their extensive-form games, so reading
its files lets gametree solve them; writing them lets a Gambit user check our
answers there. Both directions work on the *document* (the plain dict a tree
file parses to, contract section 1) and never touch the core model, so this
module stays a pure translator.

Reading (:func:`read_efg`):

* nodes come in preorder: ``p`` (player), ``c`` (chance), ``t`` (terminal);
  an outcome on an inner node adds its payoffs to every terminal below it;
  an outcome number seen again without payoffs reuses the first ones (a
  repeated declaration must match it, as Gambit requires);
* gametree solves perfect-information trees only: a player's information set
  reached at two nodes is refused;
* a two-player game whose terminal payoffs all sum to one constant becomes a
  max/min document (player 1 is ``max``, a leaf's value is player 1's payoff);
  a game of three or more players becomes an n-player document (``player``
  is the 0-based index, a leaf's value the payoff vector); a two-player game
  that is not constant-sum is refused unless ``allow_general_sum=True``;
* numbers stay exact: integers and fractions (``19/20``) are summed as
  fractions and written as ints or ``"a/b"`` strings; a decimal (``.90``)
  anywhere in a sum makes the result a float;
* a node's name becomes its ``id`` when it is non-empty, unique in the file,
  and does not clash with another node's default id; action labels become
  ``move``.

Writing (:func:`write_efg`) is the reverse, with every decision node in its
own information set, so ``read_efg(write_efg(doc))`` is ``doc`` again up to
defaults made explicit (moves, uniform probabilities, player indexes).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..errors import TreeFormatError
from ..numbers import MAX_DIGITS, format_number

__all__ = ["read_efg", "write_efg"]


# -- numbers ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Num:
    """A number read from a file: exact value, plus whether a decimal was involved.

    Decimals are kept exact while summing (``2.30 + .90`` is exactly 16/5, so
    constant-sum checks don't suffer from rounding) and only become floats
    when written to the document, as the contract reports decimals as decimals.
    """

    exact: Fraction
    decimal: bool = False

    def __add__(self, other: _Num) -> _Num:
        return _Num(self.exact + other.exact, self.decimal or other.decimal)

    def __neg__(self) -> _Num:
        return _Num(-self.exact, self.decimal)

    def to_document(self) -> int | float | str:
        """The document form: int, float for decimals, ``"a/b"`` for fractions."""
        if self.decimal:
            return float(self.exact)
        if self.exact.denominator == 1:
            return self.exact.numerator
        return f"{self.exact.numerator}/{self.exact.denominator}"

    def to_efg(self) -> str:
        """The file form: ``3``, ``-7/3``, or a plain decimal ``0.25`` (never ``1e-05``)."""
        if self.decimal:
            text = format(Decimal(repr(float(self.exact))), "f")
            return text if "." in text else text + ".0"
        return format_number(self.exact)  # exact, however many digits (a sum of long fractions)

    def show(self) -> str:
        """For messages: a decimal input is reported as a decimal."""
        return repr(float(self.exact)) if self.decimal else self.to_efg()


_ZERO = _Num(Fraction(0))
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?"
_NUMBER_TEXT = re.compile(_NUMBER)
#: Refuse exponents beyond this: 1e-999999999 would take Fraction forever.
_MAX_EXPONENT = 400
_DIGIT_RUN = re.compile(r"\d+")


def _parse_number_text(text: str) -> _Num:
    """``3``, ``-7/3``, ``.90`` or ``1e-3`` as an exact number (decimals flagged).

    Raises:
        ValueError: with a user-facing message, for text that is not such a
            number or is out of range.
    """
    if not _NUMBER_TEXT.fullmatch(text):
        raise ValueError(f"{text!r} is not a number")
    if max(map(len, _DIGIT_RUN.findall(text))) > MAX_DIGITS:  # as in tree files (the writer writes theirs)
        raise ValueError(f"{text[:20]}... has too many digits")
    mantissa, _, denominator = text.partition("/")
    decimal = "." in mantissa or "e" in mantissa.lower()
    if decimal and denominator:
        raise ValueError(f"{text!r} is not a number (a fraction of decimals)")
    if denominator:
        if int(denominator) == 0:
            raise ValueError(f"{text!r} divides by zero")
        return _Num(Fraction(int(mantissa), int(denominator)))
    if not decimal:
        return _Num(Fraction(int(mantissa)))
    _, _, exponent = mantissa.lower().partition("e")
    if exponent and abs(int(exponent)) > _MAX_EXPONENT or not math.isfinite(float(mantissa)):
        raise ValueError(f"{text!r} is out of range")
    return _Num(Fraction(mantissa), decimal=True)


def _document_number(raw: Any) -> _Num | None:
    """A number as a tree document spells it; None when ``raw`` is not one."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return _Num(Fraction(raw))
    if isinstance(raw, Fraction):
        return _Num(raw)
    if isinstance(raw, float):
        if not math.isfinite(raw):
            return None
        # repr() is the shortest text that reads back as this float: keep that
        # decimal, not the float's binary expansion.
        return _Num(Fraction(repr(raw)), decimal=True)
    if isinstance(raw, str):
        text = re.sub(r"\s*/\s*", "/", raw.strip())
        try:
            return _parse_number_text(text)
        except ValueError:
            return None
    return None


# -- reading: tokens ----------------------------------------------------------

_TOKEN = re.compile(
    r"""
      (?P<space>[ \t\r\f\v,]+)
    | (?P<newline>\n)
    | (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<number>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?(?![\w.]))  # as _NUMBER
    | (?P<word>[A-Za-z_]\w*)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


@dataclass(slots=True)
class _Token:
    kind: str  # "string", "open", "close", "number", "word"
    text: str  # strings: unquoted and unescaped
    line: int
    column: int


def _describe(token: _Token | None) -> str:
    if token is None:
        return "the end of the file"
    if token.kind == "string":
        return f"the text {token.text!r}"
    return repr(token.text)


def _tokenize(text: str, filename: str) -> list[_Token]:
    """Split the file into tokens; commas count as blanks (Gambit writes ``{ 1, -1 }``)."""
    tokens: list[_Token] = []
    position, line, line_start = 0, 1, 0
    length = len(text)
    while position < length:
        match = _TOKEN.match(text, position)
        column = position - line_start + 1
        if match is None:
            if text[position] == '"':
                raise TreeFormatError("unterminated quoted string", file=filename, line=line, column=column)
            raise TreeFormatError(
                f"unexpected character {text[position]!r}", file=filename, line=line, column=column
            )
        kind = match.lastgroup or ""
        raw = match.group()
        if kind == "newline":
            line += 1
            line_start = match.end()
        elif kind == "string":
            tokens.append(_Token(kind, _ESCAPE.sub(r"\1", raw[1:-1]), line, column))
            breaks = raw.count("\n")
            if breaks:
                line += breaks
                line_start = position + raw.rfind("\n") + 1
        elif kind != "space":
            tokens.append(_Token(kind, raw, line, column))
        position = match.end()
    return tokens


# -- reading: parser ----------------------------------------------------------


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
        if len(self.players) < 2:
            raise self.error(
                f"the game has {len(self.players)} player(s); gametree solves games of two or more players",
                magic,
            )
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


def read_efg(text: str, filename: str = "<efg>", *, allow_general_sum: bool = False) -> dict[str, Any]:
    """Read a Gambit ``.efg`` file into a tree document.

    Args:
        text: the file's contents.
        filename: how errors name the file.
        allow_general_sum: accept a two-player game that is not constant-sum;
            the document then has payoff vectors, ``player`` indexes and
            ``"general_sum": true`` (gametree's two-player algorithms can't
            solve it, but it can be written back or inspected).

    Returns:
        A tree document (contract section 1).

    Raises:
        TreeFormatError: a syntax error, an inconsistent declaration, an
            imperfect-information game, or a two-player game that is not
            constant-sum (unless allowed); always with the line number.
    """
    parser = _Parser(_tokenize(text, filename), filename)
    parser.header()
    parser.body()
    records = parser.records

    general = False
    if len(parser.players) == 2:
        general = _check_constant_sum(records, filename, allow_general_sum)
    vectors = general or len(parser.players) > 2

    document: dict[str, Any] = {}
    if parser.title.strip():
        document["title"] = parser.title.strip()
    if parser.comment.strip():
        document["description"] = parser.comment.strip()
    document["players"] = _player_names(parser.players)
    if general:
        document["general_sum"] = True
    document["root"] = _build_nodes(records, vectors)
    return document


def _check_constant_sum(records: list[_Record], filename: str, allow: bool) -> bool:
    """True when the two-player game is general-sum (and that is allowed)."""
    first: tuple[Fraction, _Record] | None = None
    for record in records:
        if record.kind != "t":
            continue
        total = record.payoffs[0].exact + record.payoffs[1].exact
        if first is None:
            first = (total, record)
        elif total != first[0]:
            if allow:
                return True
            shown = [_Num(value, record.payoffs[0].decimal or record.payoffs[1].decimal).show() for value in (first[0], total)]
            raise TreeFormatError(
                f"not a constant-sum game: payoffs sum to {shown[0]} at line {first[1].line} but to {shown[1]}"
                " here; gametree's two-player algorithms need zero- or constant-sum payoffs",
                file=filename,
                line=record.line,
            )
    return False


def _player_names(names: list[str]) -> list[str]:
    """Player names as the document needs them: non-empty and distinct."""
    result: list[str] = []
    for number, name in enumerate(names, start=1):
        name = name.strip()
        candidate = name or f"Player {number}"
        while candidate in result:
            candidate += "'"
        result.append(candidate)
    return result


def _build_nodes(records: list[_Record], vectors: bool) -> dict[str, Any]:
    """Turn the preorder records into nested document nodes (children before parents)."""
    ids = _choose_ids(records)
    moves: list[str | None] = [None] * len(records)
    chances: list[_Num | None] = [None] * len(records)
    for record in records:
        for position, child in enumerate(record.children):
            moves[child] = record.labels[position] or None
            if record.kind == "c":
                chances[child] = record.probabilities[position]
    built: list[dict[str, Any] | None] = [None] * len(records)
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        node: dict[str, Any] = {}
        if ids[index] is not None:
            node["id"] = ids[index]
        if moves[index] is not None:
            node["move"] = moves[index]
        chance = chances[index]
        if chance is not None:
            node["p"] = chance.to_document()
        if record.kind == "t":
            payoffs = record.payoffs
            node["value"] = [p.to_document() for p in payoffs] if vectors else payoffs[0].to_document()
        else:
            if record.kind == "c":
                node["type"] = "chance"
            elif vectors:
                node["player"] = record.player - 1
            else:
                node["type"] = "max" if record.player == 1 else "min"
            node["children"] = [built[child] for child in record.children]
            for child in record.children:
                built[child] = None  # each dict is referenced once, from its parent
        built[index] = node
    root = built[0]
    assert root is not None
    return root


def _choose_ids(records: list[_Record]) -> list[str | None]:
    """Node names that can serve as ids: non-empty, unique, and not another node's default id."""
    counts: dict[str, int] = {}
    for record in records:
        if record.name:
            counts[record.name] = counts.get(record.name, 0) + 1
    chosen: list[str | None] = [record.name if record.name and counts[record.name] == 1 else None for record in records]
    while True:
        effective = _effective_ids(records, chosen)
        explicit = {name for name in chosen if name is not None}
        defaults = {name for index, name in enumerate(effective) if chosen[index] is None}
        clashes = explicit & defaults
        if not clashes:
            return chosen
        chosen = [None if name in clashes else name for name in chosen]


def _effective_ids(records: list[_Record], chosen: list[str | None]) -> list[str]:
    """Every node's id under the contract's default rule (``B.1``; ``1`` below an unnamed root)."""
    effective = [""] * len(records)
    effective[0] = chosen[0] or "root"
    for index, record in enumerate(records):
        prefix = f"{effective[index]}." if (index or chosen[0] is not None) else ""
        for position, child in enumerate(record.children, start=1):
            effective[child] = chosen[child] or f"{prefix}{position}"
    return effective


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
