"""Plain data (what YAML/JSON parsers return) -> a validated :class:`Tree`.

Every format ends here, so every rule of contract section 1 is enforced in
one place: default ids, untyped alternation, bare-number leaves, compact
lists, probabilities, players, vectors, and the limits that protect against
hostile files (node count, alias expansion, cycles).

The walk is breadth-first over an explicit queue: a 100,000-deep chain needs
no recursion, and breadth-first numbering is what :mod:`gametree_cli.core.model`
wants.
"""

from __future__ import annotations

import math
from array import array
from fractions import Fraction
from typing import Any, Callable

from ..core.errors import IllegalTreeError, TreeFormatError
from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER, Source, Tree, default_id
from ..core.numbers import Number, Value, format_number, parse_number
from .fastbuild import fast_build

__all__ = ["build_tree", "two_player_header", "DEFAULT_MAX_NODES", "NODE_KEYS", "TOP_KEYS"]

#: Refuse trees above this many nodes unless the caller raises the limit.
DEFAULT_MAX_NODES = 10_000_000
#: YAML aliases may repeat a subtree; refuse files whose aliases expand to more
#: nodes than this many times the nodes written out (a "billion laughs" file).
ALIAS_EXPANSION_FACTOR = 100

NODE_KEYS = frozenset({"id", "move", "type", "player", "children", "value", "eval", "p", "random", "comment", "label"})
TOP_KEYS = frozenset({"title", "description", "comment", "players", "sum", "bounds", "root", "general_sum", "$schema"})
_TYPES = {"max": MAX, "min": MIN, "chance": CHANCE}


def build_tree(
    document: Any,
    source: Source | None = None,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    may_alias: bool = True,
    reparse: Callable[[], Any] | None = None,
) -> Tree:
    """Validate a parsed tree document and turn it into a :class:`Tree`.

    Args:
        document: the parsed file: a mapping with ``root``, a bare node mapping,
            a compact nested list, or a single number.
        source: file name and locator, used to put file:line in errors.
        max_nodes: refuse larger trees (protects against hostile files).
        may_alias: the parser can return shared sub-objects (YAML aliases);
            False (JSON) skips the bookkeeping that detects them.
        reparse: given, the caller hands over its only reference: ``document``
            is a one-element list holding the document, which the builder
            empties so that mappings are freed as soon as they are read (a big
            file's peak memory); ``reparse()`` parses the text again if the
            fast path gives up half-way.

    Raises:
        TreeFormatError: the document is not shaped like a tree file.
        IllegalTreeError: it breaks a rule of the format (names the node).
    """
    builder = _Builder(source, max_nodes, may_alias)
    try:
        return builder.build(document, reparse)
    except (TreeFormatError, IllegalTreeError) as error:
        if source is not None:
            error.located(file=source.name)
        raise


Header = tuple[tuple[str, ...], Number | None, tuple[Number, Number] | None, str | None]


def two_player_header(fields: dict[str, Any]) -> Header | None:
    """``(players, sum, bounds, title)`` of a file with these top-level keys (``root`` aside).

    Read as :func:`build_tree` reads them, for a reader that builds the nodes
    itself (formats/jsonscan.py). None when the header is wrong (build_tree
    says what) or names more than two players or a general-sum game.
    """
    builder = _Builder(None, DEFAULT_MAX_NODES, may_alias=False)
    try:
        builder._header({**fields, "root": None})
    except (TreeFormatError, IllegalTreeError):
        return None
    if len(builder.players) > 2 or builder.general_sum:
        return None
    return builder.players, builder.total, builder.bounds, builder.title


class _Builder:
    """One build: the growing arrays and the error helpers."""

    def __init__(self, source: Source | None, max_nodes: int, may_alias: bool) -> None:
        self.source = source
        self.max_nodes = max_nodes
        self.may_alias = may_alias
        self.title: str | None = None
        self.players: tuple[str, ...] = ("MAX", "MIN")
        self.total: Number | None = None
        self.bounds: tuple[Number, Number] | None = None
        self.general_sum = False
        self.explicit: dict[int, str] = {}
        self.first: list[int] = []
        self.raws: list[Any] = []
        self.parent: list[int] = []

    # -- errors --------------------------------------------------------------

    def _path(self, node: int) -> tuple[int, ...]:
        steps: list[int] = []
        parent, first = self.parent, self.first
        while node > 0:
            up = parent[node]
            steps.append(node - first[up])
            node = up
        return tuple(reversed(steps))

    def _node_name(self, node: int) -> str:
        """The id of a node while building (explicit, or by the default rule)."""
        return default_id(node, self.explicit, self.parent, self.first)

    def fail(self, node: int, message: str, cls: type = IllegalTreeError) -> Exception:
        line = column = None
        if self.source is not None and self.source.locate is not None:
            try:
                line, column = self.source.locate(self._path(node))
            except (LookupError, TypeError, ValueError, AttributeError):
                line = column = None
        return cls(
            message,
            file=self.source.name if self.source else None,
            line=line,
            column=column,
            node=self._node_name(node),
        )

    def fail_top(self, message: str, key: str | None = None) -> Exception:
        line, column = (None, None) if key is not None else (1, None)  # a whole-file problem: line 1
        if key is not None and self.source is not None and self.source.locate is not None:
            try:
                line, column = self.source.locate(("key", key))  # type: ignore[arg-type]
            except (LookupError, TypeError, ValueError, AttributeError):
                pass
            if line is None:  # a key the text does not spell as read (!!binary): the whole file's line 1
                line, column = 1, None
        return TreeFormatError(message, file=self.source.name if self.source else None, line=line, column=column)

    # -- header --------------------------------------------------------------

    def _header(self, document: Any) -> Any:
        """Read the top-level keys; return the root node's raw data."""
        if isinstance(document, list) or _is_scalar_number(document) or _is_number_text(document):
            return document  # a compact tree, or a one-leaf tree (a number, or "7/3" as the compact writer writes it)
        if document is None:
            raise self.fail_top("empty file: expected a tree (a mapping with 'root', or a nested list)")
        if not isinstance(document, dict):
            raise self.fail_top(f"expected a tree (a mapping with 'root', or a nested list), found {_kind_of(document)}")
        if "root" not in document:
            if "children" in document or "value" in document:
                return document  # a bare node mapping: accepted as the root
            raise self.fail_top("no 'root' key: a tree file is a mapping with 'root', or a nested list")
        unknown = sorted(str(key) for key in document if key not in TOP_KEYS)
        if unknown:
            raise self.fail_top(
                f"unknown top-level key {unknown[0]!r} (known: {', '.join(sorted(TOP_KEYS - {'$schema'}))})",
                unknown[0],
            )
        title = document.get("title")
        self.title = None if title is None else str(title)
        general_sum = document.get("general_sum", False)
        if not isinstance(general_sum, bool):
            raise self.fail_top("general_sum must be true or false", "general_sum")
        self.general_sum = general_sum
        players = document.get("players")
        if players is not None:
            if not isinstance(players, list) or len(players) < 2:
                raise self.fail_top("players must be a list of at least two names", "players")
            names = [str(name) for name in players]
            if len(set(names)) != len(names):
                raise self.fail_top("players has a name twice", "players")
            self.players = tuple(names)
        if document.get("sum") is not None:
            try:
                self.total = parse_number(document["sum"])
            except ValueError as error:
                raise self.fail_top(f"sum: {error}", "sum") from None
        bounds = document.get("bounds")
        if bounds is not None:
            if not isinstance(bounds, list) or len(bounds) != 2:
                raise self.fail_top("bounds must be a list [lowest, highest]", "bounds")
            try:
                low, high = parse_number(bounds[0]), parse_number(bounds[1])
            except ValueError as error:
                raise self.fail_top(f"bounds: {error}", "bounds") from None
            if not low < high:
                raise self.fail_top(f"bounds: lowest {format_number(low)} is not below highest {format_number(high)}", "bounds")
            self.bounds = (low, high)
        return document["root"]

    # -- nodes ---------------------------------------------------------------

    def build(self, document: Any, reparse: Callable[[], Any] | None = None) -> Tree:
        if reparse is not None:
            document = document.pop()
        root = self._header(document)
        n_players = len(self.players)
        # Two players with payoff vectors (a general-sum game, e.g. from Gambit) are
        # searched like an n-player tree: each player maximises its own payoff.
        nplayer = n_players > 2 or self.general_sum
        if not nplayer and not self.may_alias:
            holder = [root]
            if reparse is not None:
                document = root = None  # the holder has the last reference: read mappings die
            fast = fast_build(holder, source=self.source, max_nodes=self.max_nodes, players=self.players,
                              total=self.total, bounds=self.bounds, title=self.title)
            if fast is not None:
                return fast
            if reparse is not None:
                document = reparse()
                root = self._header(document)
        player_index = {name: index for index, name in enumerate(self.players)}

        raws = self.raws
        parent = self.parent
        first = self.first
        raws.append(root)
        parent.append(-1)
        kinds = bytearray()
        counts: list[int] = []
        values: list[Value | None] = []
        players: list[int] = []
        probs: list[Number | None] = [None]
        deciders: list[int] = []  # nearest decision ancestor-or-self: MAX/MIN, or player index
        evals: dict[int, Value] = {}
        moves: dict[int, str] = {}
        extra: dict[int, dict[str, object]] = {}
        id_owner: dict[str, int] = {}
        seen: dict[int, int] = {}
        written = 0  # containers actually present in the document (alias accounting)
        expanded = 0
        has_chance = False
        max_nodes = self.max_nodes
        may_alias = self.may_alias

        node = 0
        while node < len(raws):
            raw = raws[node]
            inherited = deciders[parent[node]] if node else -1
            if isinstance(raw, (dict, list)) and may_alias:
                key = id(raw)
                if key in seen:
                    expanded += 1
                    ancestor = parent[node]
                    while ancestor >= 0:
                        if raws[ancestor] is raw:
                            raise self.fail(node, "cycle: this node contains itself (a YAML alias to an ancestor)")
                        ancestor = parent[ancestor]
                    if expanded > ALIAS_EXPANSION_FACTOR * max(written, 1000):
                        raise self.fail(node, f"YAML aliases expand to more than {ALIAS_EXPANSION_FACTOR}x the nodes written out; refusing the file")
                else:
                    seen[key] = node
                    written += 1

            kind = LEAF
            who = -1
            children: list[Any] | None = None
            value: Value | None = None

            if isinstance(raw, dict):
                if "id" in raw:
                    name = raw["id"]
                    if isinstance(name, bool) or not isinstance(name, (str, int)) or name == "":
                        raise self.fail(node, f"id must be a non-empty name, found {_kind_of(name)}")
                    name = str(name)
                    if name in id_owner:
                        line, _ = self._line_of(id_owner[name])
                        where = f" (first at line {line})" if line is not None else ""
                        self.explicit[node] = name
                        raise self.fail(node, f"duplicate id {name!r}{where}")
                    id_owner[name] = node
                    self.explicit[node] = name
                for key in raw:
                    if key not in NODE_KEYS:
                        raise self.fail(node, f"unknown key {str(key)!r} (known: {', '.join(sorted(NODE_KEYS))})")
                if "move" in raw and raw["move"] is not None:
                    move = raw["move"]
                    if isinstance(move, (dict, list)):
                        raise self.fail(node, f"move must be a label (text or a number), found {_kind_of(move)}")
                    moves[node] = str(move)
                if "p" in raw and (node == 0 or kinds[parent[node]] != CHANCE):
                    raise self.fail(node, "p is given but the parent is not a chance node")
                raw_children = raw.get("children")
                has_value = "value" in raw and raw["value"] is not None
                if "children" in raw:
                    if not isinstance(raw_children, list):
                        raise self.fail(node, f"children must be a list, found {_kind_of(raw_children)}")
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
                    if nplayer and declared_kind != CHANCE:
                        raise self.fail(node, f"type {declared} is for two-player trees; in a {n_players}-player tree say whose move it is with player: NAME")
                if children is None:
                    value = self._leaf_value(node, raw["value"], n_players, nplayer)
                else:
                    given_player = raw.get("player")
                    if given_player is not None:
                        if declared_kind == CHANCE:
                            raise self.fail(node, "a chance node has no player")
                        who = self._player(node, given_player, player_index, n_players)
                        if nplayer:
                            kind = PLAYER
                        else:
                            kind = MAX if who == 0 else MIN
                            if declared_kind is not None and declared_kind != kind:
                                raise self.fail(node, f"type {declared} contradicts player {given_player}")
                    elif declared_kind is not None:
                        kind = declared_kind
                    if kind == LEAF:  # untyped inner node: alternate
                        kind, who = _alternate(inherited, nplayer, n_players)
                    elif kind in (MAX, MIN):
                        who = 0 if kind == MAX else 1
                    if "eval" in raw and raw["eval"] is not None:
                        evals[node] = self._leaf_value(node, raw["eval"], n_players, nplayer, what="eval")
                    if "random" in raw and raw["random"] is not None:
                        if kind == CHANCE:
                            raise self.fail(node, "random (an opponent model) belongs on a decision node, not a chance node")
                        try:
                            share = parse_number(raw["random"])
                        except ValueError as error:
                            raise self.fail(node, f"random: {error}") from None
                        if not 0 <= share <= 1:
                            raise self.fail(node, f"random must be between 0 and 1, found {format_number(share)}")
                        extra.setdefault(node, {})["random"] = share
            elif isinstance(raw, list):
                if nplayer and raw and all(_is_scalar_number(part) or isinstance(part, str) for part in raw):
                    value = self._leaf_value(node, raw, n_players, nplayer)
                else:
                    if not raw:
                        raise self.fail(node, "inner node with no children (an empty list)")
                    children = raw
                    kind, who = _alternate(inherited, nplayer, n_players)
            elif raw is None:
                raise self.fail(node, "empty node (null): give a number, a list or a mapping")
            else:
                value = self._leaf_value(node, raw, n_players, nplayer)

            kinds.append(kind)
            players.append(who)
            values.append(value)
            if kind == MAX or kind == MIN:
                deciders.append(kind)
            elif kind == PLAYER:
                deciders.append(who)
            else:
                deciders.append(inherited)
            if children is None:
                first.append(0)
                counts.append(0)
            else:
                start = len(raws)
                first.append(start)
                counts.append(len(children))
                if start + len(children) > max_nodes:
                    raise self.fail(node, f"the tree has more than {max_nodes:,} nodes (the limit; raise it with --max-nodes)")
                raws.extend(children)
                parent.extend([node] * len(children))
                if kind == CHANCE:
                    has_chance = True
                    probs.extend(self._probabilities(node, children, start))
                else:
                    probs.extend([None] * len(children))
            node += 1

        tree = Tree(
            kind=kinds,
            first=array("q", first),
            count=array("q", counts),
            value=values,
            player=array("h", players),
            prob=probs if has_chance else None,
            evals=evals,
            explicit_ids=self.explicit,
            moves=moves,
            extra=extra,
            players=self.players,
            vector_payoffs=nplayer,
            total=self.total,
            bounds=self.bounds,
            title=self.title,
            source=self.source,
        )
        tree._parent = array("q", parent)
        self._check_default_id_clashes(tree)
        self.raws = []
        return tree

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
                raise self.fail(node, f"{what} must be a list of {n_players} numbers, one per player, found {_kind_of(raw)}")
            if len(raw) != n_players:
                raise self.fail(node, f"{what} has {len(raw)} numbers, expected {n_players} (one per player)")
            try:
                vector = tuple(parse_number(part) for part in raw)
            except ValueError as error:
                raise self.fail(node, f"{what}: {error}") from None
            if self.total is not None and what == "value":
                total = sum(vector)
                if not _close(total, self.total):
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


def _alternate(inherited: int, nplayer: bool, n_players: int) -> tuple[int, int]:
    """Kind and player of an untyped inner node below decision ``inherited``."""
    if nplayer:
        who = 0 if inherited < 0 else (inherited + 1) % n_players
        return PLAYER, who
    if inherited == MAX:
        return MIN, 1
    return MAX, 0


def _close(total: Number, target: Number) -> bool:
    if isinstance(total, float) or isinstance(target, float):
        return math.isclose(float(total), float(target), rel_tol=1e-9, abs_tol=1e-9)
    return total == target


def _is_scalar_number(raw: Any) -> bool:
    return isinstance(raw, (int, float, Fraction)) and not isinstance(raw, bool)


def _is_number_text(raw: Any) -> bool:
    if not isinstance(raw, str):
        return False
    try:
        parse_number(raw)
    except ValueError:
        return False
    return True


def _kind_of(raw: Any) -> str:
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
