"""The rules of one node of a tree document: keys, ids, types, players, values, probabilities.

Why apart from :mod:`~gametree_cli.io.document`: the builder there walks the
document breadth-first and keeps the arrays; what each node may say, and the
one-line error when it says it wrong, is here.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER, Source, Tree
from ..core.numbers import Number, Value, format_number, is_fraction, parse_number

__all__ = ["NodeRules", "NODE_KEYS", "NumberText", "alternate", "close", "is_decimal_text", "is_number_text",
           "is_scalar_number", "kind_of", "name_problem"]

NODE_KEYS = frozenset({"id", "move", "type", "player", "children", "value", "eval", "p", "random", "comment", "label"})
_TYPES = {"max": MAX, "min": MIN, "chance": CHANCE}


class NumberText:
    """An ``id`` or ``move`` that YAML read as an integer from other text than its decimal
    digits (``0x1F``, ``017``, ``1_000``, ``1:30``, ``+5``): the YAML reader keeps the text
    so that the node rules can refuse it by name instead of renaming the node ``31``."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value: int) -> None:
        self.text = text
        self.value = value

    def __repr__(self) -> str:
        return f"NumberText({self.text!r}, {self.value!r})"


def is_decimal_text(text: str) -> bool:
    """True when ``text`` is how ``str()`` writes the integer it reads as (``12``, ``-3``; not ``012``, ``+3``, ``-0``)."""
    digits = text[1:] if text[:1] == "-" else text
    return digits.isascii() and digits.isdigit() and (digits[0] != "0" or text == "0")


def name_problem(what: str, raw: Any) -> str | None:
    """Why ``raw`` cannot be an ``id`` or ``move`` (None when it can: a text, or an integer
    written as its digits), with the quotes hint for what YAML read as something else."""
    if isinstance(raw, str) or (isinstance(raw, int) and not isinstance(raw, bool)):
        return None
    if isinstance(raw, NumberText):
        return f"{what} {raw.text} is read by YAML as the number {raw.value}: put it in quotes, e.g. '{raw.text}'"
    wanted = "id must be a non-empty name" if what == "id" else "move must be a label (text or a number)"
    if isinstance(raw, bool):
        return f"{wanted}, found a boolean: put it in quotes (YAML reads yes, no, on, off, true, false as booleans)"
    if isinstance(raw, float):
        return f"{wanted}, found the decimal {raw!r}: put it in quotes as written, e.g. '1.10' (YAML reads 1.10 as 1.1)"
    if isinstance(raw, (dict, list)) or raw is None:
        return f"{wanted}, found {kind_of(raw)}"
    return f"{wanted}, found {raw!s} (YAML reads it as a {type(raw).__name__}): put it in quotes"


class NodeRules:
    """Checks and reads one node for :class:`~gametree_cli.io.document._Builder` (a mixin: it
    uses the builder's ``fail``, ``source``, ``total``, ``bounds`` and the maps it fills)."""

    source: Source | None
    total: Number | None
    bounds: tuple[Number, Number] | None
    explicit: dict[int, str]
    parent: list[int]
    kinds: bytearray
    evals: dict[int, Value]
    moves: dict[int, str]
    extra: dict[int, dict[str, object]]
    id_owner: dict[str, int]
    player_index: dict[str, int]
    nplayer: bool
    n_players: int

    #: the builder's: an error located at a node, and the child positions from the root to it
    fail: Callable[..., Exception]
    _path: Callable[[int], tuple[int, ...]]

    def _mapping_node(self, node: int, raw: dict[str, Any], inherited: int) -> tuple[int, int, list[Any] | None, Value | None]:
        """A node written as a mapping: its kind, player, children (None for a leaf) and value."""
        kind = LEAF
        who = -1
        children: list[Any] | None = None
        value: Value | None = None
        if "id" in raw:
            name = raw["id"]
            problem = name_problem("id", name) or (f"id must be a non-empty name, found {kind_of(name)}" if name == "" else None)
            if problem is not None:
                raise self.fail(node, problem)
            name = str(name)
            if name in self.id_owner:
                line, _ = self._line_of(self.id_owner[name])
                where = f" (first at line {line})" if line is not None else ""
                self.explicit[node] = name
                raise self.fail(node, f"duplicate id {name!r}{where}")
            self.id_owner[name] = node
            self.explicit[node] = name
        for key in raw:
            if key not in NODE_KEYS:
                raise self.fail(node, f"unknown key {str(key)!r} (known: {', '.join(sorted(NODE_KEYS))})")
        if "move" in raw and raw["move"] is not None:
            move = raw["move"]
            problem = name_problem("move", move)
            if problem is not None:
                raise self.fail(node, problem)
            self.moves[node] = str(move)
        if "p" in raw and (node == 0 or self.kinds[self.parent[node]] != CHANCE):
            raise self.fail(node, "p is given but the parent is not a chance node")
        raw_children = raw.get("children")
        has_value = "value" in raw and raw["value"] is not None
        if "children" in raw:
            if not isinstance(raw_children, list):
                raise self.fail(node, f"children must be a list, found {kind_of(raw_children)}")
            if not raw_children:
                raise self.fail(node, "inner node with no children (give children or a value)")
            if has_value:
                raise self.fail(node, "has both a value and children (a leaf has a value, an inner node children)")
            children = raw_children
        elif not has_value:
            raise self.fail(node, "leaf without a value (give value, or children)")
        declared = raw.get("type")
        declared_kind = None
        if declared is not None:
            declared_kind = _TYPES.get(str(declared).strip().lower())
            if declared_kind is None:
                raise self.fail(node, f"unknown type {declared!r} (expected max, min or chance)")
            if self.nplayer and declared_kind != CHANCE:
                raise self.fail(node, f"type {declared} is for two-player trees; in a {self.n_players}-player tree say whose move it is with player: NAME")
        if children is None:
            value = self._leaf_value(node, raw["value"], self.n_players, self.nplayer)
        else:
            given_player = raw.get("player")
            if given_player is not None:
                if declared_kind == CHANCE:
                    raise self.fail(node, "a chance node has no player")
                who = self._player(node, given_player, self.player_index, self.n_players)
                if self.nplayer:
                    kind = PLAYER
                else:
                    kind = MAX if who == 0 else MIN
                    if declared_kind is not None and declared_kind != kind:
                        raise self.fail(node, f"type {declared} contradicts player {given_player}")
            elif declared_kind is not None:
                kind = declared_kind
            if kind == LEAF:  # untyped inner node: alternate
                kind, who = alternate(inherited, self.nplayer, self.n_players)
            elif kind in (MAX, MIN):
                who = 0 if kind == MAX else 1
            if "eval" in raw and raw["eval"] is not None:
                self.evals[node] = self._leaf_value(node, raw["eval"], self.n_players, self.nplayer, what="eval")
            if "random" in raw and raw["random"] is not None:
                if kind == CHANCE:
                    raise self.fail(node, "random (an opponent model) belongs on a decision node, not a chance node")
                try:
                    share = parse_number(raw["random"])
                except ValueError as error:
                    raise self.fail(node, f"random: {error}") from None
                if not 0 <= share <= 1:
                    raise self.fail(node, f"random must be between 0 and 1, found {format_number(share)}")
                self.extra.setdefault(node, {})["random"] = share
        return kind, who, children, value

    def _line_of(self, node: int) -> tuple[int | None, int | None]:
        if self.source is None or self.source.locate is None:
            return None, None
        try:
            return self.source.locate(self._path(node))
        except (LookupError, TypeError, ValueError, AttributeError):
            return None, None

    def _player(self, node: int, given: Any, index: dict[str, int], n_players: int) -> int:
        if isinstance(given, int) and not isinstance(given, bool):
            if 0 <= given < n_players:
                return given
            raise self.fail(node, f"player {given} is out of range (players are numbered 0..{n_players - 1})")
        name = str(given)
        if name in index:
            return index[name]
        raise self.fail(node, f"unknown player {name!r} (players: {', '.join(index)})")

    def _leaf_value(self, node: int, raw: Any, n_players: int, nplayer: bool, what: str = "value") -> Value:
        if nplayer:
            if not isinstance(raw, list):
                raise self.fail(node, f"{what} must be a list of {n_players} numbers, one per player, found {kind_of(raw)}")
            if len(raw) != n_players:
                raise self.fail(node, f"{what} has {len(raw)} numbers, expected {n_players} (one per player)")
            try:
                vector = tuple(parse_number(part) for part in raw)
            except ValueError as error:
                raise self.fail(node, f"{what}: {error}") from None
            if self.total is not None and what == "value":
                total = sum(vector)
                if not close(total, self.total):
                    raise self.fail(node, f"value sums to {format_number(total)}, not the declared sum {format_number(self.total)}")
            return vector
        if isinstance(raw, list):
            raise self.fail(node, f"{what} is a list, but this is a two-player tree (name 3 or more players for vectors)")
        try:
            number = parse_number(raw)
        except ValueError as error:
            raise self.fail(node, f"{what}: {error}" if what != "value" else str(error)) from None
        if self.bounds is not None and what == "value" and not (self.bounds[0] <= number <= self.bounds[1]):
            low, high = self.bounds
            raise self.fail(node, f"value {format_number(number)} is outside the declared bounds [{format_number(low)}, {format_number(high)}]")
        return number

    def _probabilities(self, node: int, children: list[Any], start: int) -> list[Number]:
        """The edge probabilities of a chance node's children (uniform when none is given)."""
        from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

        given = [child.get("p") if isinstance(child, dict) else None for child in children]
        present = [p is not None for p in given]
        if not any(present):
            share = Fraction(1, len(children))
            return [1 if share == 1 else share] * len(children)
        if not all(present):
            missing = present.index(False)
            raise self.fail(start + missing, "p is missing: give p to every child of this chance node, or to none")
        probabilities: list[Number] = []
        for position, raw in enumerate(given):
            try:
                p = parse_number(raw)
            except ValueError as error:
                raise self.fail(start + position, f"p: {error}") from None
            if p < 0:
                raise self.fail(start + position, f"p is negative ({format_number(p)})")
            probabilities.append(p)
        # Decimals are summed as the decimals written (0.3 + 0.3 + 0.3 is 0.9, not
        # 0.8999999999999999), then allowed 1e-9 of slack; fractions must sum to 1 exactly.
        decimal = any(isinstance(p, float) for p in probabilities)
        total = sum(Fraction(repr(p)) if isinstance(p, float) else p for p in probabilities)
        if (abs(total - 1) > 1e-9) if decimal else total != 1:
            shown = format_number(float(total)) if decimal else format_number(total)
            raise self.fail(node, f"probabilities sum to {shown}, not 1")
        return probabilities

    def _check_default_id_clashes(self, tree: Tree) -> None:
        """An explicit id may equal another node's default id (``B.1``): refuse it.

        Resolves each explicit id back to the node whose default id it would be,
        instead of building every default id (millions of strings).
        """
        explicit = self.explicit
        if not explicit:
            return
        owner = {name: node for node, name in explicit.items()}
        first, count = tree.first, tree.count
        root_unnamed = 0 not in explicit
        for node, name in explicit.items():
            if name == "root" and root_unnamed:
                raise self.fail(node, "duplicate id 'root' (the default id of the unnamed root)")
            parts = name.split(".")
            for split in range(len(parts)):
                if split == 0:
                    if not root_unnamed:
                        continue
                    base = 0
                else:
                    base = owner.get(".".join(parts[:split]), -1)
                    if base < 0:
                        continue
                current = base
                for part in parts[split:]:
                    if not part.isdigit() or part != str(int(part)) or int(part) == 0:
                        current = -1
                        break
                    position = int(part) - 1
                    if position >= count[current]:
                        current = -1
                        break
                    current = first[current] + position
                    if current in explicit:
                        current = -1
                        break
                if current >= 0 and current != node:
                    raise self.fail(node, f"duplicate id {name!r} (the default id of another node)")


def alternate(inherited: int, nplayer: bool, n_players: int) -> tuple[int, int]:
    """Kind and player of an untyped inner node below decision ``inherited``."""
    if nplayer:
        who = 0 if inherited < 0 else (inherited + 1) % n_players
        return PLAYER, who
    if inherited == MAX:
        return MIN, 1
    return MAX, 0


def close(total: Number, target: Number) -> bool:
    if isinstance(total, float) or isinstance(target, float):
        return math.isclose(float(total), float(target), rel_tol=1e-9, abs_tol=1e-9)
    return total == target


def is_scalar_number(raw: Any) -> bool:
    return (isinstance(raw, (int, float)) or is_fraction(raw)) and not isinstance(raw, bool)


def is_number_text(raw: Any) -> bool:
    if not isinstance(raw, str):
        return False
    try:
        parse_number(raw)
    except ValueError:
        return False
    return True


def kind_of(raw: Any) -> str:
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "a boolean"
    if isinstance(raw, dict):
        return "a mapping"
    if isinstance(raw, list):
        return "a list"
    if isinstance(raw, str):
        return f"the text {raw!r}"
    return f"{raw!r}"
