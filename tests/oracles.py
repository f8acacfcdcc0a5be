"""Reference implementations ("oracles") of every search gametree offers.

Each is the textbook definition written out as plainly as it goes: a
recursive function over plain Python data (the tree document as YAML/JSON
gives it: dicts, lists, numbers, ``"a/b"`` strings), sharing no code with
``gametree_cli``. The tests compare gametree's answers with these, so they
favour being obviously right over being fast, and they are written from the
documentation, not from gametree's source:

* minimax, alpha-beta: AIMA 3rd ed. fig. 5.3 and 5.7 (fail-soft); the
  course's "practical" fail-hard form (docs/solving.md);
* expectiminimax, expectimax, opponent models: AIMA section 5.5 and
  docs/chance.md;
* Star1: Ballard (1983) as Hauk, Buro & Schaeffer (2004) write it, with
  unequal probabilities (docs/chance.md);
* max-n and its tie rules, Korf's shallow pruning as the course's pseudo-code
  has it, paranoid search (docs/n-player.md).

:func:`read` first resolves the contract's defaults (ids, alternation of
untyped nodes, players, equal probabilities: the contract's section 1, as
docs/tree-format.md writes it) into one plain dict per node, so the searches
below never guess.
Every search returns a :class:`Search`: the value, the per-node values, the
visit order, the pruned nodes, the counters — what the JSON result reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator

INF = math.inf

# -- numbers -------------------------------------------------------------------------
# Integers and "a/b" strings are exact (int, Fraction); decimals are floats. As
# soon as a decimal takes part in an expectation, the result is a decimal: the
# exact sum of the decimals as written, rounded once (docs/chance.md).


def number(raw: Any) -> Any:
    """A number of the document: int, Fraction (never whole) or float."""
    if isinstance(raw, bool):
        raise TypeError(f"{raw!r} is not a number")
    if isinstance(raw, float):
        return raw
    if isinstance(raw, str) and any(mark in raw for mark in ".eE"):
        return float(raw)
    whole = Fraction(raw) if not isinstance(raw, str) else Fraction(raw.replace(" ", ""))
    return whole.numerator if whole.denominator == 1 else whole


def exact(value: Any) -> Fraction:
    """A number as an exact fraction; a decimal as the decimal it prints as."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def tidy(value: Fraction) -> Any:
    return value.numerator if value.denominator == 1 else value


def weighted_sum(pairs: list[tuple[Any, Any]]) -> Any:
    """``sum(p * v)``: exact for exact inputs, else the exact decimal sum rounded once."""
    total = sum((exact(p) * exact(v) for p, v in pairs), Fraction(0))
    if any(isinstance(p, float) or isinstance(v, float) for p, v in pairs):
        return float(total)
    return tidy(total)


def mean(values: list[Any]) -> Any:
    return weighted_sum([(Fraction(1, len(values)), value) for value in values])


def mix(share: Any, optimal: Any, average: Any) -> Any:
    """An opponent model: ``(1 - share) * optimal + share * mean``."""
    if share == 0:
        return optimal
    if share == 1:
        return average
    return weighted_sum([(1 - exact(share), optimal), (share, average)])


def to_json(value: Any) -> Any:
    """A value as the contract's JSON writes it: ints, "a/b" strings, decimals, lists, "inf"."""
    if isinstance(value, tuple):
        return [to_json(part) for part in value]
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


# -- the tree, with the contract's defaults resolved -----------------------------------


@dataclass
class Game:
    """A tree document read into plain dicts: ``root`` and the file's top-level facts.

    Each node is ``{"id", "move", "type", "player", "children", "value", "eval",
    "p", "random"}``: ``type`` is ``max``, ``min``, ``chance``, ``leaf`` or
    (n-player trees) ``player``; ``player`` the mover's index in n-player
    trees; ``p`` the probability of the edge into a chance node's child.
    """

    root: dict
    players: list[str]
    nplayer: bool
    total: Any = None
    bounds: tuple[Any, Any] | None = None

    def nodes(self) -> Iterator[dict]:
        """Every node, in tree order (depth-first, children left to right)."""
        return preorder(self.root)

    def root_player(self) -> int:
        """The player to move at the root; the first one when the root is a leaf or chance node."""
        return self.root["player"] if self.root["type"] == "player" else 0


def read(document: Any) -> Game:
    """Resolve the contract's defaults (section 1) into a :class:`Game`.

    * a top-level list is a compact two-player tree: the root is ``max``;
    * ids: the child's 1-based index appended to its parent's id with a dot;
      children of an unnamed root are ``1``, ``2``...; an unnamed root is ``root``;
    * moves default to the id;
    * an untyped inner node of a two-player tree is the opposite of its
      nearest ``max``/``min`` ancestor (``max`` without one); in an n-player
      tree its player is the one after the nearest decision ancestor's (the
      first without one); ``player: 0`` (or the first name) in a two-player
      tree is ``max``, ``player: 1`` is ``min`` (docs/tree-format.md);
    * a chance node whose children have no ``p`` gives them equal shares.
    """
    if isinstance(document, Game):
        return document
    if not isinstance(document, dict):
        document = {"root": document}
    players = [str(name) for name in document.get("players", ["MAX", "MIN"])]
    nplayer = len(players) > 2 or bool(document.get("general_sum", False))
    total = number(document["sum"]) if document.get("sum") is not None else None
    bounds = tuple(number(part) for part in document["bounds"]) if document.get("bounds") is not None else None
    n = len(players)

    def leaf_value(raw: Any) -> Any:
        return tuple(number(part) for part in raw) if nplayer else number(raw)

    def build(raw: Any, default_id: str, above: Any, p: Any) -> dict:
        """``above``: the nearest decision ancestor's type (two players) or player (n players)."""
        if not isinstance(raw, dict):  # a bare number, vector, or compact subtree
            if isinstance(raw, list) and not nplayer:
                raw = {"children": raw}
            else:
                raw = {"value": raw}
        node_id = str(raw["id"]) if "id" in raw else default_id
        node = {"id": node_id, "move": str(raw.get("move", node_id)), "type": "leaf", "player": None,
                "children": [], "value": None, "eval": None, "p": p, "random": None}
        if "children" not in raw:
            node["value"] = leaf_value(raw["value"])
            return node
        given = raw.get("type")
        if given == "chance":
            node["type"] = "chance"
            below = above
        elif not nplayer and raw.get("player") is not None:  # two players: player 0 is max, 1 is min
            who = raw["player"]
            node["type"] = below = "max" if (players.index(who) if isinstance(who, str) else who) == 0 else "min"
        elif nplayer:
            node["type"] = "player"
            who = raw.get("player")
            if who is None:
                who = 0 if above is None else (above + 1) % n
            elif isinstance(who, str):
                who = players.index(who)
            node["player"] = below = who
        else:
            node["type"] = given or ("min" if above == "max" else "max")
            below = node["type"]
        if raw.get("eval") is not None:
            node["eval"] = leaf_value(raw["eval"])
        if raw.get("random") is not None:
            node["random"] = number(raw["random"])
        children = raw["children"]
        if node["type"] == "chance":
            given_p = [child.get("p") if isinstance(child, dict) else None for child in children]
            shares = [number(share) for share in given_p] if any(share is not None for share in given_p) \
                else [Fraction(1, len(children))] * len(children)
        else:
            shares = [None] * len(children)
        prefix = "" if node_id == "root" and "id" not in raw else node_id + "."
        node["children"] = [build(child, f"{prefix}{position + 1}", below, share)
                            for position, (child, share) in enumerate(zip(children, shares))]
        return node

    root_raw = document["root"]
    return Game(build(root_raw, "root", None, None), players, nplayer, total, bounds)


def preorder(node: dict) -> Iterator[dict]:
    yield node
    for child in node["children"]:
        yield from preorder(child)


def compact_value(raw: Any, is_max: bool = True) -> Any:
    """The minimax value of a compact (sub)tree, nested lists of numbers, whose
    root is ``max`` (or, with ``is_max`` False, ``min``)."""
    if not isinstance(raw, list):
        return number(raw)
    return minimax(read({"root": {"type": "max" if is_max else "min", "children": raw}})).value


def best_first(raw: Any, is_max: bool = True) -> Any:
    """A compact tree with every node's children sorted best first for its mover
    (stably, by exact minimax value): the order Knuth and Moore's minimal tree needs."""
    if not isinstance(raw, list):
        return raw
    children = [best_first(child, not is_max) for child in raw]
    worth = [compact_value(child, not is_max) for child in children]
    order = sorted(range(len(children)), key=lambda position: -worth[position] if is_max else worth[position])
    return [children[position] for position in order]


def to_document(game: Game) -> dict:
    """A game written back as a tree document, every default spelled out (explicit
    ids, moves, types, players, probabilities): what gametree should read as ``game``."""

    def write(node: dict) -> dict:
        out: dict[str, Any] = {"id": node["id"]}
        if node["move"] != node["id"]:
            out["move"] = node["move"]
        if node["p"] is not None:
            out["p"] = to_json(node["p"])
        if node["type"] == "leaf":
            out["value"] = to_json(node["value"])
            return out
        if node["type"] == "player":
            out["player"] = node["player"]
        else:
            out["type"] = node["type"]
        for key in ("eval", "random"):
            if node[key] is not None:
                out[key] = to_json(node[key])
        out["children"] = [write(child) for child in node["children"]]
        return out

    document: dict[str, Any] = {"players": list(game.players), "root": write(game.root)}
    if game.nplayer and len(game.players) == 2:
        document["general_sum"] = True
    if game.total is not None:
        document["sum"] = to_json(game.total)
    if game.bounds is not None:
        document["bounds"] = [to_json(bound) for bound in game.bounds]
    return document


# -- what a search found ------------------------------------------------------------------


@dataclass
class Search:
    """Everything one run of a reference search found, by node id.

    Attributes:
        value: the root's value.
        values: visited node -> the value the search gave it (a bound below a cut-off).
        order: ids in the order first entered.
        pruned: the topmost nodes never visited because of a cut-off, in tree order.
        best: decision node -> the child it chose (missing: no choice, e.g. fail-low).
        leaves: leaves and depth-limit nodes evaluated.
        cut: nodes where a cut-off happened, in the order they happened.
        horizon: nodes valued by ``eval`` because the depth limit stopped there.
        window: pruning searches: node -> the (alpha, beta) it was entered with.
        returned: pruning searches: node -> the (alpha, beta) in force when it returned.
        bound: shallow pruning: inner node -> the Bound it was searched with.
    """

    value: Any = None
    values: dict[str, Any] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    pruned: list[str] = field(default_factory=list)
    best: dict[str, str] = field(default_factory=dict)
    leaves: int = 0
    cut: list[str] = field(default_factory=list)
    horizon: set[str] = field(default_factory=set)
    window: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    returned: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    bound: dict[str, Any] = field(default_factory=dict)

    @property
    def stats(self) -> dict[str, int]:
        return {"nodes_visited": len(self.order), "leaves_evaluated": self.leaves, "cutoffs": len(self.cut)}

    def skip(self, children: list[dict]) -> None:
        """A cut-off: ``children`` (the rest, in search order) are never looked at."""
        self.pruned.extend(child["id"] for child in children)


def in_tree_order(game: Game, ids: list[str]) -> list[str]:
    rank = {node["id"]: position for position, node in enumerate(game.nodes())}
    return sorted(ids, key=rank.__getitem__)


def at_horizon(node: dict, depth: int, limit: int | None) -> bool:
    return bool(node["children"]) and depth == limit


def terminal(node: dict, depth: int, limit: int | None, search: Search) -> Any:
    """A leaf's value, or the ``eval`` of a node the depth limit stops at; None otherwise."""
    if not node["children"]:
        search.leaves += 1
        return node["value"]
    if depth == limit:
        search.leaves += 1
        search.horizon.add(node["id"])
        return node["eval"]
    return None


def principal_variation(game: Game, search: Search) -> list[str]:
    """Moves from the root along each node's chosen child, while there is one."""
    line, node = [], game.root
    while node["id"] in search.best:
        node = next(child for child in node["children"] if child["id"] == search.best[node["id"]])
        line.append(node["move"])
    return line


def best_move(game: Game, search: Search) -> str | None:
    line = principal_variation(game, search)
    return line[0] if line else None


def best_moves(game: Game, search: Search, pruning: str | None = None) -> list[str] | None:
    """Every root move as good as the chosen one, as far as this search's own values tell; None when they cannot.

    ``pruning`` names the kind of pruning search (None: exhaustive, every value exact):

    * ``"window"`` (alpha-beta, paranoid): a root child's value is exact when it is a leaf (or
      at the depth limit) or lies strictly inside the window it was entered with; at or below
      alpha it is an upper bound, at or above beta a lower bound (both at once: nothing known).
      A bound rules a tie out only when it lies strictly beyond the best value on its own side;
    * ``"other"`` (Star1, shallow): exact only when nothing was cut.
    """
    chosen = search.best.get(game.root["id"])
    if chosen is None:
        return []
    if pruning == "other" and search.cut:
        return None
    values = search.values
    who = game.root_player() if game.nplayer else None

    def key(value: Any) -> Any:
        return value[who] if who is not None else value

    target = key(values[chosen])
    moves = []
    for child in game.root["children"]:
        if child["id"] not in values:
            return None
        here = key(values[child["id"]])
        upper = lower = False
        if pruning == "window" and child["children"] and child["id"] not in search.horizon:
            low, high = search.window[child["id"]]
            upper, lower = here <= low, here >= high
        if not upper and not lower:
            if here == target:
                moves.append(child["move"])
        elif not ((lower and not upper and here > target) or (upper and not lower and here < target)):
            return None
    return moves


# -- minimax, expectiminimax, expectimax -----------------------------------------------------


def expectiminimax(game: Any, depth: int | None = None, *, averaged_min: bool = False, models: bool = True) -> Search:
    """The exhaustive two-player searches (AIMA 5.3, 5.5), every node within the depth limit.

    ``max``/``min``: the best child for the mover (the first on a tie); a node
    with ``random: r`` (when ``models``) is worth ``(1 - r) * optimal + r * mean``
    and still chooses the optimal child; ``chance``: the probability-weighted
    sum; ``averaged_min`` (expectimax): a ``min`` node is the plain mean of its
    children and chooses nothing.
    """
    game = read(game)
    search = Search()

    def visit(node: dict, depth_here: int) -> Any:
        search.order.append(node["id"])
        value = terminal(node, depth_here, depth, search)
        if value is None:
            children = node["children"]
            found = [visit(child, depth_here + 1) for child in children]
            if node["type"] == "chance":
                value = weighted_sum([(child["p"], v) for child, v in zip(children, found)])
            elif averaged_min and node["type"] == "min":
                value = mean(found)
            else:
                optimal = max(found) if node["type"] == "max" else min(found)
                search.best[node["id"]] = children[found.index(optimal)]["id"]
                share = node["random"] if models else None
                value = mix(share, optimal, mean(found)) if share else optimal
        search.values[node["id"]] = value
        return value

    search.value = visit(game.root, 0)
    return search


def minimax(game: Any, depth: int | None = None) -> Search:
    """Minimax (AIMA fig. 5.3): opponent models (``random``) are ignored."""
    return expectiminimax(game, depth, models=False)


def expectimax(game: Any, depth: int | None = None) -> Search:
    return expectiminimax(game, depth, averaged_min=True)


# -- alpha-beta -------------------------------------------------------------------------------


def search_order(node: dict, order: str, exact_values: dict[str, Any] | None) -> list[dict]:
    """The children in the order ``--order`` asks for: the file's, or sorted by their
    exact (depth-limited) minimax values, best (or worst) first for the mover; stable."""
    children = node["children"]
    if order == "given":
        return list(children)
    highest_first = (node["type"] == "max") == (order == "best")
    return sorted(children, key=lambda child: -exact_values[child["id"]] if highest_first else exact_values[child["id"]])


def alphabeta(game: Any, depth: int | None = None, *, variant: str = "soft", strict: bool = False,
              order: str = "given") -> Search:
    """ALPHA-BETA-SEARCH.

    ``soft`` (AIMA fig. 5.7, the contract's default): a max node prunes when
    ``v >= beta``, a min node when ``v <= alpha``, and returns ``v``. ``hard``
    (the course's "practical" form): a max node keeps ``alpha = max(alpha,
    child)``, prunes when ``alpha >= beta`` and returns ``beta``, else returns
    ``alpha`` (min nodes mirrored). ``strict`` prunes only on ``>`` / ``<``.
    Every cut-off counts, also at a last child where nothing is left to skip.
    """
    game = read(game)
    search = Search()
    exact_values = minimax(game, depth).values if order != "given" else None

    def prunes(value: Any, bound: Any, is_max: bool) -> bool:
        if is_max:
            return value > bound if strict else value >= bound
        return value < bound if strict else value <= bound

    def visit(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        node_id = node["id"]
        search.order.append(node_id)
        search.window[node_id] = (alpha, beta)
        value = terminal(node, depth_here, depth, search)
        if value is not None:
            search.values[node_id] = value
            search.returned[node_id] = (alpha, beta)
            return value
        is_max = node["type"] == "max"
        children = search_order(node, order, exact_values)
        v = -INF if is_max else INF
        result = None
        for position, child in enumerate(children):
            found = visit(child, alpha, beta, depth_here + 1)
            if variant == "soft":
                if (found > v) if is_max else (found < v):
                    v = found
                    search.best[node_id] = child["id"]
                if prunes(v, beta if is_max else alpha, is_max):
                    result = v
                elif is_max:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
            else:
                if is_max and found > alpha:
                    alpha = found
                    search.best[node_id] = child["id"]
                elif not is_max and found < beta:
                    beta = found
                    search.best[node_id] = child["id"]
                if prunes(alpha if is_max else beta, beta if is_max else alpha, is_max):
                    result = beta if is_max else alpha
            if result is not None:
                search.cut.append(node_id)
                search.skip(children[position + 1:])
                break
        if result is None:
            result = v if variant == "soft" else (alpha if is_max else beta)
        search.values[node_id] = result
        search.returned[node_id] = (alpha, beta)
        return result

    search.value = visit(game.root, -INF, INF, 0)
    search.pruned = in_tree_order(game, search.pruned)
    return search


def alphabeta_notes(game: Any, depth: int | None = None, *, strict: bool = False) -> Search:
    """The course notes' "practical" alpha-beta, line by line (``--variant practical``)::

        alphabeta(node, depth, α, β, maximizing):
          if depth = 0 or node is terminal: return the node's heuristic value
          if maximizing:
            for each child: α := max(α, alphabeta(child, depth-1, α, β, False)); if β ≤ α: break
            return α
          else:
            for each child: β := min(β, alphabeta(child, depth-1, α, β, True)); if β ≤ α: break
            return β

    Written apart from :func:`alphabeta` on purpose (an independent reading).
    ``maximizing`` is the node's type (a file may give two max nodes in a
    row), which alternates as in the notes on an untyped tree. ``strict``
    breaks only on ``β < α``. ``best`` is the child that last
    raised α (lowered β); ``returned`` the (α, β) at return.
    """
    game = read(game)
    search = Search()

    def breaks(alpha: Any, beta: Any) -> bool:
        return beta < alpha if strict else beta <= alpha

    def ab(node: dict, depth_left: int | None, alpha: Any, beta: Any) -> Any:
        maximizing = node["type"] == "max"
        search.order.append(node["id"])
        search.window[node["id"]] = (alpha, beta)
        if not node["children"] or depth_left == 0:
            search.leaves += 1
            if node["children"]:
                search.horizon.add(node["id"])
            result = node["value"] if not node["children"] else node["eval"]
        else:
            children = node["children"]
            for position, child in enumerate(children):
                found = ab(child, None if depth_left is None else depth_left - 1, alpha, beta)
                if maximizing and found > alpha:
                    alpha = found
                    search.best[node["id"]] = child["id"]
                if not maximizing and found < beta:
                    beta = found
                    search.best[node["id"]] = child["id"]
                if breaks(alpha, beta):
                    search.cut.append(node["id"])
                    search.skip(children[position + 1:])
                    break
            result = alpha if maximizing else beta
        search.values[node["id"]] = result
        search.returned[node["id"]] = (alpha, beta)
        return result

    search.value = ab(game.root, depth, -INF, INF)
    search.pruned = in_tree_order(game, search.pruned)
    return search


# -- Star1 --------------------------------------------------------------------------------------


class Written(Fraction):
    """A Star1 bound computed exactly from decimals: compared exactly, reported as a decimal."""

    __slots__ = ()


def is_decimal(value: Any) -> bool:
    return isinstance(value, Written) or (isinstance(value, float) and not math.isinf(value))


def shown(value: Any) -> Any:
    """A value as reported: a bound computed from decimals as the decimal it rounds to."""
    return float(value) if isinstance(value, Written) else value


def star1(game: Any, low: Any, high: Any, depth: int | None = None, *, strict: bool = False) -> Search:
    """Ballard's Star1 (Hauk, Buro & Schaeffer 2004), probabilities unequal allowed.

    ``max``/``min`` nodes are fail-soft alpha-beta. At a chance node with
    window ``(alpha, beta)``, after children ``j < i`` returned ``v_j``, child
    ``i`` is searched with ``(max(A_i, L), min(B_i, U))`` where
    ``A_i = (alpha - sum(p_j v_j) - U * sum(p_j, j > i)) / p_i`` and
    ``B_i = (beta - sum(p_j v_j) - L * sum(p_j, j > i)) / p_i``; then with
    ``upper = sum(p_j v_j, j <= i) + U * rest`` and ``lower = ... + L * rest``,
    ``upper <= alpha`` returns ``upper`` and ``lower >= beta`` returns
    ``lower``, skipping the rest. A child with ``p = 0`` gets ``(L, U)``; an
    opponent-model node (``random`` > 0) searches every child with ``(L, U)``
    (exact values, needed for the mean) and never cuts itself.

    The bound arithmetic is exact, decimals taken as written. A window or cut
    value computed from decimals (probabilities, L or U, values found, or that
    side's own bound) stays exact while searching and is reported as a decimal.
    """
    game = read(game)
    search = Search()

    def le(a: Any, b: Any) -> bool:
        return a < b if strict else a <= b

    def visit(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        node_id = node["id"]
        search.order.append(node_id)
        search.window[node_id] = (shown(alpha), shown(beta))
        value = terminal(node, depth_here, depth, search)
        if value is None:
            if node["type"] == "chance":
                value = chance(node, alpha, beta, depth_here)
            elif node["random"]:
                found = [visit(child, low, high, depth_here + 1) for child in node["children"]]
                optimal = max(found) if node["type"] == "max" else min(found)
                search.best[node_id] = node["children"][found.index(optimal)]["id"]
                value = mix(node["random"], optimal, mean(found))
            else:
                value = decision(node, alpha, beta, depth_here)
        search.values[node_id] = shown(value)
        search.returned.setdefault(node_id, (shown(alpha), shown(beta)))
        return value

    def decision(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        is_max = node["type"] == "max"
        v = -INF if is_max else INF
        children = node["children"]
        for position, child in enumerate(children):
            found = visit(child, alpha, beta, depth_here + 1)
            if (found > v) if is_max else (found < v):
                v = found
                search.best[node["id"]] = child["id"]
            if le(beta, v) if is_max else le(v, alpha):
                search.cut.append(node["id"])
                search.skip(children[position + 1:])
                break
            if is_max:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        search.returned[node["id"]] = (shown(alpha), shown(beta))
        return v

    def chance(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        children = node["children"]
        shares = [exact(child["p"]) for child in children]
        lo, hi = exact(low), exact(high)
        done = Fraction(0)
        seen: list[tuple[Any, Any]] = []
        # a decimal among L, U, the probabilities or the values found makes the sums decimals,
        # as it makes an expectation one; a child's window also takes its side's own bound
        decimals = is_decimal(low) or is_decimal(high) or any(is_decimal(child["p"]) for child in children)
        for position, (child, p) in enumerate(zip(children, shares)):
            rest = sum(shares[position + 1:], Fraction(0))
            if p == 0:
                window = (low, high)
            else:
                a = (exact(alpha) - done - hi * rest) / p if alpha != -INF else -INF
                b = (exact(beta) - done - lo * rest) / p if beta != INF else INF
                window = (low if a <= lo else (Written(a) if decimals or is_decimal(alpha) else tidy(a)),
                          high if b >= hi else (Written(b) if decimals or is_decimal(beta) else tidy(b)))
            found = visit(child, *window, depth_here + 1)
            seen.append((child["p"], found))
            done += p * exact(found)
            decimals = decimals or is_decimal(found)
            upper, lower = done + hi * rest, done + lo * rest
            for bound_value, fails in ((upper, le(upper, exact(alpha)) if alpha != -INF else False),
                                       (lower, le(exact(beta), lower) if beta != INF else False)):
                if fails:
                    search.cut.append(node["id"])
                    search.skip(children[position + 1:])
                    return Written(bound_value) if decimals else tidy(bound_value)
        return weighted_sum(seen)

    search.value = shown(visit(game.root, -INF, INF, 0))
    search.pruned = in_tree_order(game, search.pruned)
    return search


def star2(game: Any, low: Any, high: Any, depth: int | None = None, *, strict: bool = False) -> Search:
    """Ballard's Star2: Star1 with a probing phase at chance nodes (docs/chance.md), exact numbers only.

    At a chance node whose children are all ``max``/``min`` inner nodes above
    the depth limit, none ``random``, none with ``p = 0``: first each child is
    *probed*, searched down its first child only, with the window
    ``(max(A_i, L), min(B_i, U))``, ``A_i = (alpha - sum(p_j hi_j, j != i)) / p_i``,
    ``B_i = (beta - sum(p_j lo_j, j != i)) / p_i``, where ``lo_j``/``hi_j``
    start at ``L``/``U``. A ``max`` child's result ``r > A_i`` becomes ``lo_i``,
    a ``min`` child's ``r < B_i`` becomes ``hi_i``. After each probe,
    ``sum(p_j hi_j) <= alpha`` returns that sum and ``sum(p_j lo_j) >= beta``
    returns that sum (a cut). Then the children are searched as Star1 does,
    the unseen ones at ``lo_j``/``hi_j`` instead of ``L``/``U``.

    Counted as the search pays: a probed child searched again is entered
    again (``order`` keeps first entries; ``leaves`` counts every
    evaluation; ``cut`` every time a condition held). ``pruned``: the
    unvisited children of visited inner nodes not at the depth limit.
    ``bound`` holds each probe: node -> (``"lower"``, ``"upper"`` or None, r).
    """
    game = read(game)
    search = Search()
    lo, hi = exact(low), exact(high)
    entered: set[str] = set()
    remembered: dict[str, tuple[Any, Any, Any]] = {}  # a transposition table: id -> (value, alpha, beta)

    def recalled(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        """The value of an earlier search of ``node`` if it settles this window, else None."""
        if node["id"] not in remembered:
            return None
        value, old_alpha, old_beta = remembered[node["id"]]
        if not node["children"] or depth_here == depth:
            return value
        if old_alpha < value < old_beta or old_beta <= value >= beta or old_alpha >= value <= alpha:
            return value
        return None

    def le(a: Any, b: Any) -> bool:
        return a < b if strict else a <= b

    def clip(a: Any, b: Any) -> tuple[Any, Any]:
        return (low if a <= lo else tidy(a)), (high if b >= hi else tidy(b))

    def visit(node: dict, alpha: Any, beta: Any, depth_here: int, probe: bool = False,
              may_recall: bool = True) -> Any:
        if may_recall and node is not game.root:
            value = recalled(node, alpha, beta, depth_here)
            if value is not None:
                return value
        if node["id"] not in entered:
            entered.add(node["id"])
            search.order.append(node["id"])
        value = terminal(node, depth_here, depth, search)
        if value is None:
            if probe:
                value = visit(node["children"][0], alpha, beta, depth_here + 1)
            elif node["type"] == "chance":
                value = chance(node, alpha, beta, depth_here)
            elif node["random"]:
                found = [visit(child, low, high, depth_here + 1) for child in node["children"]]
                optimal = max(found) if node["type"] == "max" else min(found)
                search.best[node["id"]] = node["children"][found.index(optimal)]["id"]
                value = mix(node["random"], optimal, mean(found))
            else:
                value = decision(node, alpha, beta, depth_here)
        search.values[node["id"]] = value
        if not probe:
            remembered[node["id"]] = (value, alpha, beta)
        return value

    def decision(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        is_max = node["type"] == "max"
        v = -INF if is_max else INF
        for child in node["children"]:
            found = visit(child, alpha, beta, depth_here + 1)
            if (found > v) if is_max else (found < v):
                v = found
                search.best[node["id"]] = child["id"]
            if le(beta, v) if is_max else le(v, alpha):
                search.cut.append(node["id"])
                break
            if is_max:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        return v

    def probing(node: dict, depth_here: int) -> bool:
        return depth_here + 1 != depth and all(
            child["type"] in ("max", "min") and child["children"] and not child["random"] and exact(child["p"]) > 0
            for child in node["children"])

    def chance(node: dict, alpha: Any, beta: Any, depth_here: int) -> Any:
        children = node["children"]
        shares = [exact(child["p"]) for child in children]
        lows, highs = [lo] * len(children), [hi] * len(children)

        def cut_by(upper: Any, lower: Any) -> Any:
            if alpha != -INF and le(upper, alpha):
                return upper
            if beta != INF and le(beta, lower):
                return lower
            return None

        if probing(node, depth_here):
            for i, (child, p) in enumerate(zip(children, shares)):
                others_high = sum((q * h for j, (q, h) in enumerate(zip(shares, highs)) if j != i), Fraction(0))
                others_low = sum((q * w for j, (q, w) in enumerate(zip(shares, lows)) if j != i), Fraction(0))
                a = (alpha - others_high) / p if alpha != -INF else -INF
                b = (beta - others_low) / p if beta != INF else INF
                a, b = clip(a, b)
                r = visit(child, a, b, depth_here + 1, probe=True, may_recall=False)
                side = None
                if child["type"] == "max" and r > a:
                    side, lows[i] = "lower", exact(r)
                elif child["type"] == "min" and r < b:
                    side, highs[i] = "upper", exact(r)
                search.bound[child["id"]] = (side, r)
                bound = cut_by(sum(q * h for q, h in zip(shares, highs)), sum(q * w for q, w in zip(shares, lows)))
                if bound is not None:
                    search.cut.append(node["id"])
                    return tidy(bound)
        done = Fraction(0)
        seen: list[tuple[Any, Any]] = []
        for i, (child, p) in enumerate(zip(children, shares)):
            rest_high = sum((q * h for q, h in zip(shares[i + 1:], highs[i + 1:])), Fraction(0))
            rest_low = sum((q * w for q, w in zip(shares[i + 1:], lows[i + 1:])), Fraction(0))
            if p == 0:
                window = (low, high)
            else:
                window = clip((alpha - done - rest_high) / p if alpha != -INF else -INF,
                              (beta - done - rest_low) / p if beta != INF else INF)
            found = visit(child, *window, depth_here + 1)
            seen.append((child["p"], found))
            done += p * exact(found)
            bound = cut_by(done + rest_high, done + rest_low)
            if bound is not None:
                search.cut.append(node["id"])
                return tidy(bound)
        return weighted_sum(seen)

    search.value = visit(game.root, -INF, INF, 0)
    visited, parents, depths = set(search.values), parent_of(game), depth_of(game)
    search.pruned = [node["id"] for node in game.nodes() if node["id"] not in visited and node["id"] in parents
                     and parents[node["id"]]["id"] in visited
                     and not at_horizon(parents[node["id"]], depths[parents[node["id"]]["id"]], depth)]
    return search


def parent_of(game: Game) -> dict[str, dict]:
    """node id -> its parent node."""
    parents = {}
    for node in game.nodes():
        for child in node["children"]:
            parents[child["id"]] = node
    return parents


def depth_of(game: Game) -> dict[str, int]:
    """node id -> its depth (plies below the root)."""
    depths = {game.root["id"]: 0}
    for node in game.nodes():
        for child in node["children"]:
            depths[child["id"]] = depths[node["id"]] + 1
    return depths


# -- n players: max-n, shallow pruning, paranoid ----------------------------------------------

TIE_RULES = ("left", "right", "paranoid", "altruistic")


def prefers(new: tuple, best: tuple, who: int, rule: str, root: int) -> bool:
    """Does the player to move (``who``) take ``new`` over ``best``? The tie rules, spelled out."""
    if new[who] != best[who]:
        return new[who] > best[who]
    if rule == "right":
        return True
    if rule == "paranoid":
        return new[root] < best[root]
    if rule == "altruistic":
        return new[root] > best[root]
    return False  # left: keep the earlier


def expected_vector(pairs: list[tuple[Any, tuple]]) -> tuple:
    width = len(pairs[0][1])
    return tuple(weighted_sum([(p, vector[part]) for p, vector in pairs]) for part in range(width))


def maxn(game: Any, ties: str = "left", depth: int | None = None) -> Search:
    """Max-n (Luckhardt & Irani 1986): each mover takes the child best for them,
    ties by ``ties``; a chance node takes the expected vector."""
    game = read(game)
    root = game.root_player()
    search = Search()

    def visit(node: dict, depth_here: int) -> tuple:
        search.order.append(node["id"])
        value = terminal(node, depth_here, depth, search)
        if value is None:
            children = node["children"]
            found = [visit(child, depth_here + 1) for child in children]
            if node["type"] == "chance":
                value = expected_vector([(child["p"], v) for child, v in zip(children, found)])
            else:
                chosen = 0
                for position in range(1, len(found)):
                    if prefers(found[position], found[chosen], node["player"], ties, root):
                        chosen = position
                value = found[chosen]
                search.best[node["id"]] = children[chosen]["id"]
        search.values[node["id"]] = value
        return value

    search.value = visit(game.root, 0)
    return search


def shallow(game: Any, total: Any, ties: str = "left", depth: int | None = None) -> Search:
    """Korf's shallow pruning, exactly as the course's pseudo-code::

        shallow(node, Bound):
            Best = shallow(first child, Sum)
            for each further child:
                if Best[p] >= Bound: return Best              # cut-off
                Current = shallow(child, Sum - Best[p])
                if Current[p] > Best[p]: Best = Current
            return Best

    A child whose player is the node's own gets ``Sum``; under a tie rule other
    than ``left`` the cut needs ``Best[p] > Bound`` and ``Current`` replaces
    ``Best`` by the rule (docs/n-player.md).
    """
    game = read(game)
    root = game.root_player()
    search = Search()

    def cuts(best: tuple, who: int, bound: Any) -> bool:
        return best[who] >= bound if ties == "left" else best[who] > bound

    def visit(node: dict, bound: Any, depth_here: int) -> tuple:
        node_id = node["id"]
        search.order.append(node_id)
        value = terminal(node, depth_here, depth, search)
        if value is not None:
            search.values[node_id] = value
            return value
        search.bound[node_id] = bound
        who = node["player"]
        children = node["children"]
        best = visit(children[0], total, depth_here + 1)
        search.best[node_id] = children[0]["id"]
        for position in range(1, len(children)):
            if cuts(best, who, bound):
                search.cut.append(node_id)
                search.skip(children[position:])
                break
            child = children[position]
            same = child["type"] == "player" and child["player"] == who
            current = visit(child, total if same else total - best[who], depth_here + 1)
            if prefers(current, best, who, ties, root):
                best = current
                search.best[node_id] = child["id"]
        search.values[node_id] = best
        return best

    search.value = visit(game.root, total, 0)
    search.pruned = in_tree_order(game, search.pruned)
    return search


def paranoid_game(game: Any) -> Game:
    """The two-player tree paranoid search sees (Sturtevant & Korf 2000): the root
    player's nodes are ``max``, everyone else's ``min``, every vector reduced to
    the root player's number."""
    game = read(game)
    root = game.root_player()

    def convert(node: dict) -> dict:
        copy = dict(node)
        if node["type"] == "player":
            copy["type"] = "max" if node["player"] == root else "min"
        copy["value"] = None if node["value"] is None else node["value"][root]
        copy["eval"] = None if node["eval"] is None else node["eval"][root]
        copy["children"] = [convert(child) for child in node["children"]]
        return copy

    return Game(convert(game.root), [game.players[root], "others"], False)


def paranoid(game: Any, depth: int | None = None, *, exhaustive: bool = False, **alphabeta_options: Any) -> Search:
    """The root player against the coalition of all others: alpha-beta (or, with
    ``exhaustive``, minimax) on :func:`paranoid_game`."""
    view = paranoid_game(game)
    return minimax(view, depth) if exhaustive else alphabeta(view, depth, **alphabeta_options)


# -- what a search's value is: exact, or a bound (docs/solving.md, "Exact values and bounds") --------


def settled_intervals(game: Any, values: dict[str, Any], horizon: set[str], bounds: tuple[Any, Any] | None = None,
                      models: bool = True) -> dict[str, tuple[Any, Any]]:
    """Visited node -> ``(lowest, highest)``: the values it could still have given what the search saw.

    A visited leaf (or a node valued by ``eval`` at the depth limit) is what it is; a node the search
    never visited could be anything within the tree's ``bounds`` (``-inf``..``inf`` without them),
    whatever its subtree holds; a visited inner node is its rule (max, min, expectation, an opponent
    model's mix when ``models``: alpha-beta has none) over its children's lowest, and over their
    highest (each rule only grows with its children, and a tree shares no leaf between subtrees, so
    these are the extremes reached).
    """
    unknown = bounds if bounds is not None else (-math.inf, math.inf)
    found: dict[str, tuple[Any, Any]] = {}

    def combine(node: dict, ends: list[Any]) -> Any:
        if node["type"] == "chance":
            if any(isinstance(end, float) and math.isinf(end) for end in ends):
                return sum(exact(child["p"]) * end for child, end in zip(node["children"], ends) if child["p"])
            return weighted_sum([(child["p"], end) for child, end in zip(node["children"], ends)])
        best = max(ends) if node["type"] == "max" else min(ends)
        return mix(node["random"], best, mean(ends)) if models and node["random"] else best

    def visit(node: dict) -> tuple[Any, Any]:
        node_id = node["id"]
        if node_id not in values:
            return unknown
        if not node["children"] or node_id in horizon:
            found[node_id] = (values[node_id], values[node_id])
            return found[node_id]
        ends = [visit(child) for child in node["children"]]
        found[node_id] = (combine(node, [low for low, _ in ends]), combine(node, [high for _, high in ends]))
        return found[node_id]

    visit(game.root)
    return found


def settled_kind(low: Any, high: Any, value: Any) -> str | None:
    """The bound kind a value must be shown with, from :func:`settled_intervals`: None (exact) when
    the node can only be ``value`` (so it is its true value, and nothing the search skipped could
    change it); ``"lower"`` when it is at least ``value``, ``"upper"`` at most; ``"neither"`` when the
    search's value is no bound at all (a search bug)."""
    at_least, at_most = low >= value, high <= value
    if at_least and at_most:
        return None
    return "lower" if at_least else "upper" if at_most else "neither"
