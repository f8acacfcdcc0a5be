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

from array import array
from typing import Any, Callable

from ..core.errors import IllegalTreeError, TreeFormatError
from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER, Source, Tree, default_id
from ..core.numbers import Number, Value, format_number, parse_number
from .fastbuild import fast_build
from .node_rules import NODE_KEYS, NodeRules, alternate, is_number_text, is_scalar_number, kind_of

__all__ = ["build_tree", "two_player_header", "DEFAULT_MAX_NODES", "NODE_KEYS", "TOP_KEYS"]

#: Refuse trees above this many nodes unless the caller raises the limit.
DEFAULT_MAX_NODES = 10_000_000
#: YAML aliases may repeat a subtree; refuse files whose aliases expand to more
#: nodes than this many times the nodes written out (a "billion laughs" file).
ALIAS_EXPANSION_FACTOR = 100

TOP_KEYS = frozenset({"title", "description", "comment", "players", "sum", "bounds", "root", "general_sum", "$schema"})


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


class _Builder(NodeRules):
    """One build: the growing arrays and the error helpers; the rules of one node in :class:`NodeRules`."""

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
        #: alias accounting: containers written out in the document, and nodes that repeat one
        self.written = 0
        self.expanded = 0
        self.parent: list[int] = []
        # filled while building; read by the node rules (:class:`NodeRules`)
        self.kinds = bytearray()
        self.evals: dict[int, Value] = {}
        self.moves: dict[int, str] = {}
        self.extra: dict[int, dict[str, object]] = {}
        self.id_owner: dict[str, int] = {}
        self.player_index: dict[str, int] = {}
        self.nplayer = False
        self.n_players = 2

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
        if isinstance(document, list) or is_scalar_number(document) or is_number_text(document):
            return document  # a compact tree, or a one-leaf tree (a number, or "7/3" as the compact writer writes it)
        if document is None:
            raise self.fail_top("empty file: expected a tree (a mapping with 'root', or a nested list)")
        if not isinstance(document, dict):
            raise self.fail_top(f"expected a tree (a mapping with 'root', or a nested list), found {kind_of(document)}")
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

    def _read_node(self, node: int, raw: Any, inherited: int) -> tuple[int, int, list[Any] | None, Value | None]:
        """Any node (a mapping, a compact list, a bare value): kind, player, children (None: a leaf), value."""
        if isinstance(raw, dict):
            return self._mapping_node(node, raw, inherited)
        if isinstance(raw, list):
            if self.nplayer and raw and all(is_scalar_number(part) or isinstance(part, str) for part in raw):
                return LEAF, -1, None, self._leaf_value(node, raw, self.n_players, True)
            if not raw:
                raise self.fail(node, "inner node with no children (an empty list)")
            kind, who = alternate(inherited, self.nplayer, self.n_players)
            return kind, who, raw, None
        if raw is None:
            raise self.fail(node, "empty node (null): give a number, a list or a mapping")
        return LEAF, -1, None, self._leaf_value(node, raw, self.n_players, self.nplayer)

    def _tree(self, kinds: bytearray, first: list[int], counts: list[int], values: list[Value | None],
              players: list[int], probs: list[Number | None] | None, nplayer: bool) -> Tree:
        """The built arrays, and what the header said, as a :class:`Tree`."""
        return Tree(
            kind=kinds,
            first=array("q", first),
            count=array("q", counts),
            value=values,
            player=array("h", players),
            prob=probs,
            evals=self.evals,
            explicit_ids=self.explicit,
            moves=self.moves,
            extra=self.extra,
            players=self.players,
            vector_payoffs=nplayer,
            total=self.total,
            bounds=self.bounds,
            title=self.title,
            source=self.source,
        )

    def _count_alias(self, node: int, raw: Any, seen: dict[int, int]) -> None:
        """Refuse a YAML alias to an ancestor (a cycle) and aliases that expand a file too far."""
        key = id(raw)
        if key not in seen:
            seen[key] = node
            self.written += 1
            return
        self.expanded += 1
        ancestor = self.parent[node]
        while ancestor >= 0:
            if self.raws[ancestor] is raw:
                raise self.fail(node, "cycle: this node contains itself (a YAML alias to an ancestor)")
            ancestor = self.parent[ancestor]
        if self.expanded > ALIAS_EXPANSION_FACTOR * max(self.written, 1000):
            raise self.fail(node, f"YAML aliases expand to more than {ALIAS_EXPANSION_FACTOR}x the nodes written out; "
                                  "refusing the file")


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
        self.player_index = {name: index for index, name in enumerate(self.players)}
        self.nplayer, self.n_players = nplayer, n_players

        raws = self.raws
        parent = self.parent
        first = self.first
        raws.append(root)
        parent.append(-1)
        kinds = self.kinds
        counts: list[int] = []
        values: list[Value | None] = []
        players: list[int] = []
        probs: list[Number | None] = [None]
        deciders: list[int] = []  # nearest decision ancestor-or-self: MAX/MIN, or player index
        seen: dict[int, int] = {}
        has_chance = False
        max_nodes = self.max_nodes
        may_alias = self.may_alias

        node = 0
        while node < len(raws):
            raw = raws[node]
            inherited = deciders[parent[node]] if node else -1
            if may_alias and isinstance(raw, (dict, list)):
                self._count_alias(node, raw, seen)

            kind, who, children, value = self._read_node(node, raw, inherited)

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

        tree = self._tree(kinds, first, counts, values, players, probs if has_chance else None, nplayer)
        tree._parent = array("q", parent)
        self._check_default_id_clashes(tree)
        self.raws = []
        return tree
