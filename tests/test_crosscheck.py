"""Cross-checking at scale: every algorithm against an independent oracle on
thousands of seeded random trees, and every pruning algorithm's pruned set
against its own definition.

For each random tree and each algorithm that fits it (options drawn at
random: variant, strict, order, depth, ties, bounds, sum), the JSON result
(gametree's public document) must equal what the oracle of
``tests/oracles.py`` computes: value, best move(s), principal variation,
visit order, pruned set, every node's value, type, alpha/beta, cut and
horizon marks, and the counters. Then, independently of any implementation:

* coverage: the visited nodes, the pruned subtrees and what lies below the
  depth limit cover the tree exactly once; a pruned node's parent was visited
  and cut; a visited node that did not cut had every child visited; the visit
  order is a depth-first walk; the counters count what the lists hold;
* soundness: rewriting every leaf (and ``eval``) inside the pruned subtrees
  arbitrarily — within the bounds for Star1, non-negative with the constant sum
  for shallow pruning — changes neither the root value nor the optimality of
  the reported best move, as the exhaustive oracle computes them on the
  rewritten tree; and each visited node keeps the property its algorithm
  promises (see :func:`soundness_problems`);
* ``best_move`` is the first root child (in file order) of optimal exact value;
* Knuth and Moore: alpha-beta under the best order evaluates exactly
  ``b**ceil(d/2) + b**floor(d/2) - 1`` leaves of a uniform tree, and no order
  evaluates fewer.

How many trees: ``GAMETREE_CROSSCHECK_TREES`` (all families together; a
bounded default for ``make test``, ``make fuzz`` sets 50000), starting at seed
``GAMETREE_CROSSCHECK_SEED`` (default 0). A failure prints the family, the
seed, the tree and the ``gametree solve --tree ...`` command that reproduces it.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import shlex
import traceback
from collections import Counter
from fractions import Fraction
from typing import Any, Callable

import pytest
from typer.testing import CliRunner

from gametree_cli import Options
from gametree_cli.io.loader import parse_tree
from gametree_cli.views.result_json import result_document
from gametree_cli.exercises.answer_shape import expected_number
from gametree_cli.search.registry import solve
from gametree_cli.search.registry import default_algorithm, fitting_algorithms
from gametree_cli.cli.app import app
from gametree_cli.search.events import Recorder

from . import oracles
from .oracles import Game

FAMILIES = ("compact", "typed", "chance", "nplayer")
TOTAL = int(os.environ.get("GAMETREE_CROSSCHECK_TREES", "2000"))
FIRST_SEED = int(os.environ.get("GAMETREE_CROSSCHECK_SEED", "0"))
PER_FAMILY = max(1, TOTAL // len(FAMILIES))
#: every this many trees, the command line runs too (the reproduction command must reproduce)
CLI_EVERY = 97
#: stop a family after this many failures (the first ones say it all)
MAX_FAILURES = 5
BIG = 10**9

PRUNING = {"alphabeta", "star1", "shallow", "paranoid"}


# -- random trees ------------------------------------------------------------------------------


def number_style(rng: random.Random) -> Callable[[], Any]:
    """How a tree's numbers look: few values (many ties), wider ints, fractions,
    decimals, a mixture, or (rarely) integers too big for 64 bits."""
    style = rng.choice(["ties", "ties", "ints", "fractions", "decimals", "mixed", "huge"])

    def fraction() -> Any:
        numerator, denominator = rng.randint(-30, 30), rng.randint(1, 6)
        return numerator // denominator if numerator % denominator == 0 else f"{numerator}/{denominator}"

    def decimal() -> float:
        return round(rng.uniform(-10, 10), rng.choice([1, 1, 2]))

    makers = {
        "ties": lambda: rng.randint(-3, 3),
        "ints": lambda: rng.randint(-20, 20),
        "fractions": fraction,
        "decimals": decimal,
        "mixed": lambda: rng.choice([rng.randint(-5, 5), fraction(), decimal()]),
        "huge": lambda: rng.choice([rng.randint(-5, 5), 2**63 + rng.randint(-3, 3), -(2**70), 10**30]),
    }
    return makers[style]


def size_budget(rng: random.Random) -> list[int]:
    return [rng.choice([1, 4, 10, 20, 30, 45])]


def expand(rng: random.Random, budget: list[int], depth: int, max_depth: int) -> int:
    """How many children a node gets (0: a leaf), within the node budget."""
    if depth >= max_depth or budget[0] <= 0 or (depth > 0 and rng.random() < 0.3):
        return 0
    width = min(rng.choice([1, 2, 2, 3, 3, 4]), max(1, budget[0]))
    budget[0] -= width
    return width


def compact_tree(rng: random.Random) -> tuple[Any, dict]:
    leaf = number_style(rng)
    budget, max_depth = size_budget(rng), rng.randint(0, 6)

    def node(depth: int) -> Any:
        width = expand(rng, budget, depth, max_depth)
        return [node(depth + 1) for _ in range(width)] if width else leaf()

    root = node(0)
    return (root if isinstance(root, list) else {"root": root}), {}  # a bare "a/b" is no tree document


def probabilities(rng: random.Random, count: int) -> list[Any] | None:
    """None (equal shares), exact fractions (zero allowed), decimals summing to 1, or both."""
    style = rng.choice(["equal", "equal", "fractions", "decimals", "mixed"])
    if style == "equal":
        return None
    if style == "decimals" or style == "mixed":
        cuts = sorted(rng.randint(0, 100) for _ in range(count - 1))
        shares = [(high - low) / 100 for low, high in zip([0, *cuts], [*cuts, 100])]
        if style == "mixed" and count >= 2 and shares[0] in (0.25, 0.5, 0.75):
            return [f"{int(shares[0] * 4)}/4", *shares[1:]]
        return shares
    weights = [rng.randint(0, 4) for _ in range(count)]
    if not any(weights):
        weights[rng.randrange(count)] = 1
    return [f"{weight}/{sum(weights)}" for weight in weights]


def typed_tree(rng: random.Random, chance: bool) -> tuple[dict, dict]:
    """A two-player mapping tree: typed and untyped nodes, opponent models,
    evals on every inner node (so any depth limit works), ids and moves
    given or defaulted, chance nodes with every kind of probabilities."""
    leaf = number_style(rng)
    budget, max_depth = size_budget(rng), rng.randint(1, 6)
    id_style = rng.choice(["default", "explicit", "some"])
    counter = iter(range(10**6))
    kinds = [None, None, "max", "min", "player"] + (["chance", "chance"] if chance else [])
    models = rng.random() < 0.4
    players = rng.choice([None, None, ["Alice", "Bob"]])

    def node(depth: int, under_chance: bool) -> Any:
        number = next(counter)
        width = expand(rng, budget, depth, max_depth)
        out: dict[str, Any] = {}
        if id_style == "explicit" or (id_style == "some" and rng.random() < 0.3):
            out["id"] = f"n{number}"
        if rng.random() < 0.2:
            out["move"] = f"m{number}"
        if not width:
            if not out and not under_chance and rng.random() < 0.5:
                return leaf()  # a bare number
            out["value"] = leaf()
            return out
        kind = rng.choice(kinds)
        if kind == "player":  # a two-player tree may say whose move it is: player 0 is max, 1 is min
            out["player"] = rng.choice([0, 1, *(players or ["MAX", "MIN"])])
        elif kind:
            out["type"] = kind
        out["eval"] = leaf()
        if models and kind != "chance" and rng.random() < 0.3:
            out["random"] = rng.choice(["1/5", "1/2", 0, 1, 0.25, "3/4"])
        children = [node(depth + 1, kind == "chance") for _ in range(width)]
        if kind == "chance":
            shares = probabilities(rng, width)
            if shares is not None:
                children = [child if isinstance(child, dict) else {"value": child} for child in children]
                for child, share in zip(children, shares):
                    child["p"] = share
        out["children"] = children
        return out

    document: dict[str, Any] = {"root": node(0, False)}
    if players:
        document["players"] = players
    if rng.random() < 0.15:
        document["title"] = "random"
    return document, {"evals": True}


def nplayer_tree(rng: random.Random) -> tuple[dict, dict]:
    """Payoff vectors for 3-4 players (or 2 with general_sum): non-negative with
    a constant sum (small, so ties are frequent) or anything (negatives too);
    players named, numbered or left to the rotation; sometimes chance nodes."""
    n = rng.choice([3, 3, 4, 2])
    constant = rng.random() < 0.7
    total = rng.choice([0, 1, 3, 6, 9, "3/2"]) if constant else None
    exact_total = Fraction(total) if total is not None else None
    chance = rng.random() < 0.25
    budget, max_depth = size_budget(rng), rng.randint(1, 5)
    id_style = rng.choice(["default", "explicit"])
    counter = iter(range(10**6))

    decimals = rng.random() < 0.3

    def vector() -> list[Any]:
        if exact_total is None:
            return [round(rng.uniform(-4, 6), 1) if decimals else rng.randint(-4, 6) for _ in range(n)]
        denominator = exact_total.denominator * rng.choice([1, 1, 2])
        units = int(exact_total * denominator)
        cuts = sorted(rng.randint(0, units) for _ in range(n - 1))
        parts = [Fraction(high - low, denominator) for low, high in zip([0, *cuts], [*cuts, units])]
        return [int(part) if part.denominator == 1 else f"{part.numerator}/{part.denominator}" for part in parts]

    def node(depth: int, under_chance: bool) -> Any:
        number = next(counter)
        width = expand(rng, budget, depth, max_depth)
        out: dict[str, Any] = {"id": f"n{number}"} if id_style == "explicit" else {}
        if not width:
            if not out and not under_chance and rng.random() < 0.5:
                return vector()
            out["value"] = vector()
            return out
        out["eval"] = vector()
        is_chance = chance and rng.random() < 0.3
        if is_chance:
            out["type"] = "chance"
        else:
            who = rng.choice([None, None, "index", "name"])
            if who == "index":
                out["player"] = rng.randrange(n)
            elif who == "name":
                out["player"] = f"P{rng.randrange(n)}"
        children = [node(depth + 1, is_chance) for _ in range(width)]
        if is_chance:
            shares = probabilities(rng, width)
            if shares is not None:
                children = [child if isinstance(child, dict) else {"value": child} for child in children]
                for child, share in zip(children, shares):
                    child["p"] = share
        out["children"] = children
        return out

    document: dict[str, Any] = {"players": [f"P{i}" for i in range(n)], "root": node(0, False)}
    if n == 2:
        document["general_sum"] = True
    in_file = total is not None and rng.random() < 0.6
    if in_file:
        document["sum"] = total
    return document, {"evals": True, "sum": total, "sum_in_file": in_file}


GENERATORS: dict[str, Callable[[random.Random], tuple[Any, dict]]] = {
    "compact": compact_tree,
    "typed": lambda rng: typed_tree(rng, chance=False),
    "chance": lambda rng: typed_tree(rng, chance=True),
    "nplayer": nplayer_tree,
}


def leaf_range(game: Game) -> tuple[Any, Any]:
    """The lowest and highest leaf value and eval of a two-player tree."""
    numbers = [node["value"] if node["type"] == "leaf" else node["eval"] for node in game.nodes()
               if node["type"] == "leaf" or node["eval"] is not None]
    return min(numbers), max(numbers)


def add_bounds(document: Any, game: Game, rng: random.Random) -> tuple[Any, Any] | None:
    """Declare bounds in the file (tight or loose) for some trees; returns them."""
    if not isinstance(document, dict) or rng.random() < 0.4:
        return None
    low, high = widened(*leaf_range(game), rng.choice([0, 0, 1, 5]))
    document["bounds"] = [oracles.to_json(low), oracles.to_json(high)]
    return low, high


def widened(low: Any, high: Any, by: int) -> tuple[Any, Any]:
    """Bounds ``by`` beyond the lowest and highest value (never empty). A decimal
    stays a decimal: 9.05 as a float is a little above 181/20."""
    low, high = low - by, high + by
    if not low < high:
        high += 1
    return low, high


# -- which algorithms, with which options ---------------------------------------------------------


def depth_choice(rng: random.Random, facts: dict) -> int | None:
    return rng.choice([None, None, 0, 1, 2, 3]) if facts.get("evals") else None


def configurations(game: Game, facts: dict, rng: random.Random) -> list[tuple[str, dict]]:
    """Each algorithm that fits the tree, once, with options drawn at random."""
    configs: list[tuple[str, dict]] = []
    has_chance = any(node["type"] == "chance" for node in game.nodes())
    if game.nplayer:
        configs.append(("maxn", {"depth": depth_choice(rng, facts), "ties": rng.choice(oracles.TIE_RULES)}))
        if not has_chance:
            configs.append(("paranoid", {"depth": depth_choice(rng, facts), "variant": rng.choice(["soft", "hard"]),
                                         "strict": rng.random() < 0.3, "order": rng.choice(["given", "given", "best", "worst"])}))
            if facts.get("sum") is not None:
                options = {"depth": depth_choice(rng, facts), "ties": rng.choice(oracles.TIE_RULES)}
                if not facts["sum_in_file"]:
                    options["sum"] = facts["sum"]
                configs.append(("shallow", options))
        return configs
    if not has_chance:
        configs.append(("minimax", {"depth": depth_choice(rng, facts)}))
        configs.append(("alphabeta", {"depth": depth_choice(rng, facts), "variant": rng.choice(["soft", "soft", "hard"]),
                                      "strict": rng.random() < 0.3, "order": rng.choice(["given", "given", "best", "worst"])}))
    configs.append((rng.choice(["expectiminimax", "expectimax"]), {"depth": depth_choice(rng, facts)}))
    if facts.get("bounds") is not None or rng.random() < 0.5:
        options = {"depth": depth_choice(rng, facts), "strict": rng.random() < 0.3}
        if facts.get("bounds") is None:  # none in the file: --bounds, loose or tight
            options["bounds"] = widened(*leaf_range(game), rng.choice([0, 1, 10]))
        configs.append(("star1", options))
    return configs


def library_options(options: dict) -> Options:
    extra = {key: options[key] for key in ("ties", "sum", "bounds") if key in options}
    if "sum" in extra:  # as the command line reads --sum 3/2
        extra["sum"] = oracles.number(extra["sum"])
    return Options(depth=options.get("depth"), variant=options.get("variant", "soft"),
                   strict=options.get("strict", False), order=options.get("order", "given"), extra=extra)


def command_line(text: str, algorithm: str, options: dict) -> list[str]:
    argv = ["solve", "--tree", text, "--algo", algorithm, "--format", "json"]
    if options.get("depth") is not None:
        argv += ["--depth", str(options["depth"])]
    if options.get("variant", "soft") != "soft":
        argv += ["--variant", options["variant"]]
    if options.get("strict"):
        argv += ["--strict"]
    if options.get("order", "given") != "given":
        argv += ["--order", options["order"]]
    if "ties" in options:
        argv += ["--ties", options["ties"]]
    if "sum" in options:
        argv += ["--sum", str(options["sum"])]
    if "bounds" in options:
        argv += ["--bounds", *(str(part) for part in options["bounds"])]
    return argv


# -- the oracle's answer, as the JSON result writes it ------------------------------------------


def run_oracle(game: Game, algorithm: str, options: dict) -> tuple[oracles.Search, oracles.Search | None, Game]:
    """The oracle's search, its exhaustive counterpart (for soundness and the
    first optimal move), and the game as the search sees it (paranoid: the two-player view)."""
    depth = options.get("depth")
    if algorithm == "minimax":
        return oracles.minimax(game, depth), None, game
    if algorithm == "alphabeta":
        search = oracles.alphabeta(game, depth, variant=options["variant"], strict=options["strict"], order=options["order"])
        return search, oracles.minimax(game, depth), game
    if algorithm == "expectiminimax":
        return oracles.expectiminimax(game, depth), None, game
    if algorithm == "expectimax":
        return oracles.expectimax(game, depth), None, game
    if algorithm == "star1":
        low, high = options.get("bounds") or game.bounds
        return oracles.star1(game, low, high, depth, strict=options["strict"]), oracles.expectiminimax(game, depth), game
    if algorithm == "maxn":
        return oracles.maxn(game, options["ties"], depth), None, game
    if algorithm == "shallow":
        total = oracles.number(options["sum"]) if "sum" in options else game.total
        return oracles.shallow(game, total, options["ties"], depth), oracles.maxn(game, options["ties"], depth), game
    if algorithm == "paranoid":
        view = oracles.paranoid_game(game)
        search = oracles.alphabeta(view, depth, variant=options["variant"], strict=options["strict"], order=options["order"])
        return search, oracles.minimax(view, depth), view
    raise ValueError(algorithm)


def type_name(game: Game, node: dict) -> str:
    return game.players[node["player"]] if node["type"] == "player" else node["type"]


def expected_document(game: Game, algorithm: str, options: dict, search: oracles.Search,
                      exact_search: oracles.Search | None, seen_as: Game) -> dict:
    """The keys of the JSON result the oracle can speak for (cut reasons: only whether there is one)."""
    nodes = {}
    windowed = algorithm in ("alphabeta", "paranoid")
    settled = oracles.settled_intervals(seen_as, search.values, search.horizon, models=False) if windowed else {}
    for node in game.nodes():
        node_id = node["id"]
        entry: dict[str, Any] = {"visited": node_id in search.values}
        if entry["visited"]:
            entry["value"] = oracles.to_json(search.values[node_id])
            kind = bound_kind(node, search, settled) if windowed else None
            if kind is not None:
                entry["bound_kind"] = kind
            if node_id in search.returned:
                entry["alpha"], entry["beta"] = (oracles.to_json(bound) for bound in search.returned[node_id])
        entry["type"] = type_name(game, node)
        if node_id in search.cut:
            entry["cut"] = True
        if node_id in search.horizon:
            entry["horizon"] = True
        if node_id in search.bound:
            entry["bound"] = oracles.to_json(search.bound[node_id])
        nodes[node_id] = entry
    pruning = "window" if algorithm in ("alphabeta", "paranoid") else "other" if algorithm in PRUNING else None
    moves = oracles.best_moves(seen_as, search, pruning)
    return {
        "algorithm": algorithm,
        "value": oracles.to_json(search.value),
        "best_move": oracles.best_move(seen_as, search),
        **({"best_moves": moves} if moves is not None else {}),
        "principal_variation": oracles.principal_variation(seen_as, search),
        "pruned": search.pruned,
        "visit_order": search.order,
        "nodes": nodes,
        "stats": search.stats,
        "depth": options.get("depth"),
        "players": game.players,
    }


def bound_kind(node: dict, search: oracles.Search, settled: dict[str, tuple[Any, Any]]) -> str | None:
    """What an alpha-beta value is, from the window (a, b) the node was entered with: at most r when
    it returned r <= a, at least r when r >= b, nothing said for a leaf or eval, or when neither; when
    both (a == b, ``--strict``) what the visited part of the tree settles (:func:`oracles.settled_kind`)."""
    if not node["children"] or node["id"] in search.horizon:
        return None
    (low, high), value = search.window[node["id"]], search.values[node["id"]]
    at_most, at_least = value <= low, value >= high
    if at_most and at_least:
        return oracles.settled_kind(*settled[node["id"]], value)
    return "upper" if at_most else "lower" if at_least else None


def star_bound_problems(got: dict, exact_search: oracles.Search, game: Game, bounds: tuple[Any, Any]) -> list[str]:
    """Star1/Star2 say which values are bounds: ``lower`` must mean the exact expectiminimax value is at
    least the one shown, ``upper`` at most; a value shown exact must be all the visited part allows
    (:func:`oracles.settled_kind`; a Star2 probe that bounded nothing is no bound either way); a bound
    where that part settles the value is said only at a cut."""
    problems = []
    values = {node_id: expected_number(entry["value"]) for node_id, entry in got["nodes"].items() if entry["visited"]}
    horizon = {node_id for node_id, entry in got["nodes"].items() if entry.get("horizon")}
    settled = oracles.settled_intervals(game, values, horizon, bounds)
    probes = got.get("probes", {})
    for node_id, value in values.items():
        entry, kind = got["nodes"][node_id], got["nodes"][node_id].get("bound_kind")
        want = oracles.settled_kind(*settled[node_id], value)
        if kind is None and want is not None and not (want == "neither" and node_id in probes
                                                       and probes[node_id]["bound"] is None):
            problems.append(f"nodes.{node_id}: shown exact, but the visited part makes it {want}")
        if kind is not None and want is None and "cut" not in entry:
            problems.append(f"nodes.{node_id}: bound_kind {kind!r} at a settled node without a cut")
        if kind is None:
            continue
        shown, exact = value, exact_search.values[node_id]
        slack = 1e-9 if isinstance(shown, float) or isinstance(exact, float) else 0
        if (kind == "lower" and exact < shown - slack) or (kind == "upper" and exact > shown + slack):
            problems.append(f"nodes.{node_id}: {kind} bound {entry['value']} but the exact value is {exact}")
    return problems


def comparable(document: dict) -> dict:
    """gametree's JSON result without ``options`` and with a cut's reason reduced to its presence."""
    nodes = {node_id: {key: (True if key == "cut" else item) for key, item in entry.items()}
             for node_id, entry in document["nodes"].items()}
    return {**{key: item for key, item in document.items() if key != "options"}, "nodes": nodes}


def difference(expected: Any, actual: Any, where: str = "") -> str | None:
    """Where two JSON values first differ (a number's type counts: 3, 3.0 and "3/1" differ)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in actual:
                return f"{where}.{key}: missing (expected {expected[key]!r})"
            if key not in expected:
                return f"{where}.{key}: unexpected {actual[key]!r}"
            found = difference(expected[key], actual[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{where}: expected {expected!r}, got {actual!r}"
        for position, (left, right) in enumerate(zip(expected, actual)):
            if difference(left, right, f"{where}[{position}]"):
                return f"{where}: expected {expected!r}, got {actual!r}"
        return None
    if type(expected) is not type(actual) or expected != actual:
        return f"{where}: expected {expected!r}, got {actual!r}"
    return None


# -- definitions: coverage, soundness, best move ------------------------------------------------


def family_tree(game: Game) -> tuple[dict[str, dict], dict[str, str | None]]:
    by_id, parent = {}, {}
    for node in game.nodes():
        by_id[node["id"]] = node
        for child in node["children"]:
            parent[child["id"]] = node["id"]
    parent[game.root["id"]] = None
    return by_id, parent


def subtree(node: dict) -> list[str]:
    return [below["id"] for below in oracles.preorder(node)]


def coverage_problems(game: Game, document: dict, file_order: bool) -> list[str]:
    """The visited nodes, the pruned subtrees and what lies below the depth limit
    partition the tree; pruned nodes are topmost and sit under a cut; the visit
    order is a depth-first walk; the counters count what the lists hold."""
    problems = []
    by_id, parent = family_tree(game)
    nodes = document["nodes"]
    visited, pruned = document["visit_order"], document["pruned"]
    horizon = [node_id for node_id, entry in nodes.items() if entry.get("horizon")]
    cut = {node_id for node_id, entry in nodes.items() if "cut" in entry}
    seen = Counter(visited)
    for node_id in pruned:
        seen.update(subtree(by_id[node_id]))
    for node_id in horizon:
        seen.update(subtree(by_id[node_id])[1:])
    wrong = {node_id: seen[node_id] for node_id in by_id if seen[node_id] != 1}
    if wrong:
        problems.append(f"coverage: visited + pruned + below the depth limit do not cover each node once: {wrong}")
    visited_set = set(visited)
    for node_id in pruned:
        if parent[node_id] not in visited_set or parent[node_id] not in cut:
            problems.append(f"pruned {node_id} is not the child of a visited node that cut")
    pruned_set = set(pruned)
    for node_id in visited:
        children = [child["id"] for child in by_id[node_id]["children"]]
        if not children or node_id in horizon:
            continue
        unvisited = [child for child in children if child not in visited_set]
        if node_id not in cut and unvisited:
            problems.append(f"{node_id} did not cut, yet children {unvisited} were not visited")
        if any(child not in pruned_set for child in unvisited):
            problems.append(f"{node_id}: unvisited children {unvisited} are not all pruned")
        if file_order and unvisited and children[len(children) - len(unvisited):] != unvisited:
            problems.append(f"{node_id}: the pruned children {unvisited} are not the ones after the cut")
    open_nodes: list[str] = []
    for node_id in visited:  # a depth-first walk: each node's parent is on the path when it is entered
        while open_nodes and open_nodes[-1] != parent[node_id]:
            open_nodes.pop()
        if parent[node_id] is not None and not open_nodes:
            problems.append(f"visit order is not depth-first at {node_id}")
            break
        open_nodes.append(node_id)
    leaves = sum(1 for node_id in visited if not by_id[node_id]["children"]) + len(horizon)
    counted = {"nodes_visited": len(visited), "leaves_evaluated": leaves, "cutoffs": len(cut)}
    if document["stats"] != counted:
        problems.append(f"stats {document['stats']} but the lists hold {counted}")
    return problems


def first_optimal_move(seen_as: Game, exact_search: oracles.Search) -> str | None:
    """The contract's best move: the first root child, in file order, whose exact
    value is optimal for the mover; None where the root chooses nothing."""
    root = seen_as.root
    if root["id"] not in exact_search.best:
        return None
    values = [exact_search.values[child["id"]] for child in root["children"]]
    if seen_as.nplayer:
        return None  # the tie rule decides, not the file order
    target = max(values) if root["type"] == "max" else min(values)
    return root["children"][values.index(target)]["move"]


def numeric(raw: Any) -> Any:
    """A JSON number back into a number ("inf", "7/3" included)."""
    if raw in ("inf", "-inf"):
        return math.inf if raw == "inf" else -math.inf
    return oracles.number(raw)


def rewrite(game: Game, pruned: list[str], rewrite_value: Callable[[Any], Any]) -> Game:
    """A copy of the game whose leaves and evals inside the pruned subtrees are rewritten."""
    changed = copy.deepcopy(game)
    by_id, _ = family_tree(changed)
    for node_id in pruned:
        for node in oracles.preorder(by_id[node_id]):
            if node["value"] is not None:
                node["value"] = rewrite_value(node["value"])
            if node["eval"] is not None:
                node["eval"] = rewrite_value(node["eval"])
    return changed


def rewrites(game: Game, algorithm: str, options: dict, rng: random.Random) -> list[Callable[[Any], Any]]:
    """Ways to rewrite a pruned leaf that the algorithm's preconditions allow."""
    if algorithm == "star1":
        low, high = (oracles.exact(part) for part in (options.get("bounds") or game.bounds))

        def anywhere(_: Any) -> Any:
            return oracles.tidy(low + (high - low) * Fraction(rng.randint(0, 12), 12))

        return [lambda _: oracles.tidy(low), lambda _: oracles.tidy(high), anywhere]
    if algorithm == "shallow":
        total = oracles.exact(oracles.number(options["sum"]) if "sum" in options else game.total)
        n = len(game.players)

        def all_to(player: int) -> Callable[[Any], Any]:
            return lambda _: tuple(oracles.tidy(total) if part == player else 0 for part in range(n))

        def split(_: Any) -> Any:
            weights = [rng.randint(0, 3) for _ in range(n)]
            weights[rng.randrange(n)] += 1
            return tuple(oracles.tidy(total * weight / sum(weights)) for weight in weights)

        return [all_to(rng.randrange(n)), all_to(rng.randrange(n)), split]
    if algorithm == "paranoid":
        root = game.root_player()

        def vector(number: Callable[[], Any]) -> Callable[[Any], Any]:
            return lambda old: tuple(number() if part == root else rng.randint(-BIG, BIG) for part in range(len(old)))

        return [vector(lambda: BIG), vector(lambda: -BIG), vector(lambda: rng.randint(-BIG, BIG))]
    return [lambda _: BIG, lambda _: -BIG, lambda _: rng.randint(-BIG, BIG)]


def soundness_problems(game: Game, seen_as: Game, algorithm: str, options: dict, document: dict,
                       windows: dict[str, tuple[Any, Any]], rng: random.Random) -> list[str]:
    """The pruned set against the definition of pruning, on rewritten trees.

    What holds, for every rewrite of the leaves (and evals) inside the pruned
    subtrees that the algorithm's preconditions allow:

    * the root's exact value (exhaustive oracle on the rewritten tree) is the
      value gametree reported, and the reported best move is still a root
      child of optimal value (and, searching in file order, still the first);
    * alpha-beta, paranoid, Star1 (fail-soft or fail-hard alike): a visited
      node entered with window (a, b) that returned r has an exact value
      <= r if r <= a, >= r if r >= b, and == r otherwise. Nothing is claimed
      when a == b == r: ``--strict`` can enter a node with alpha == beta, and
      so can Star1 when a chance node clips a child's window to L or U; a
      return of that very number may then be a bound from either side;
    * shallow pruning: a visited node where no cut-off happened has its exact
      max-n value; where one did, the mover's component of what it returned
      is at most the mover's exact payoff there.

    Nothing is promised for an unvisited node, or for a best move's *rank*
    among equal ones once the order is not the file's: rewriting can make a
    pruned root child tie with the best one.
    """
    problems = []
    pruned = document["pruned"]
    depth = options.get("depth")
    by_id, _ = family_tree(game)
    nodes = document["nodes"]
    for rewrite_value in rewrites(game, algorithm, options, rng):
        changed = rewrite(game, pruned, rewrite_value)
        if algorithm in ("alphabeta", "paranoid"):
            truth = oracles.minimax(oracles.paranoid_game(changed) if algorithm == "paranoid" else changed, depth)
        elif algorithm == "star1":
            truth = oracles.expectiminimax(changed, depth)
        else:
            truth = oracles.maxn(changed, options["ties"], depth)
        if not agree(truth.value, numeric_value(document["value"])):
            problems.append(f"soundness: rewriting the pruned leaves changes the root value to {truth.value}")
        best = document["best_move"]
        if best is not None:
            root = (oracles.paranoid_game(changed) if algorithm == "paranoid" else changed).root
            worth = {child["move"]: truth.values[child["id"]] for child in root["children"]}
            if game.nplayer and algorithm != "paranoid":
                optimal = truth.value  # no opponent models among n players
            else:  # an opponent model at the root is worth a mix, but chooses the optimal child
                optimal = max(worth.values()) if root["type"] == "max" else min(worth.values())
            # A decimal and an exact number equal as written differ in binary (1e+30 > 10**30),
            # and searches compare in binary: such a tie may go either way, so it is no finding.
            if not (worth[best] == optimal or equal_as_written(optimal, worth[best])):
                problems.append(f"soundness: after rewriting the pruned leaves, best move {best} is worth "
                                f"{worth[best]}, not the best root child's {optimal}")
            if options.get("order", "given") == "given" and not game.nplayer:
                first = next(move for move, value in worth.items() if value == optimal)
                if first != best and first == next(move for move, value in worth.items() if equal_as_written(optimal, value)):
                    problems.append(f"soundness: after rewriting the pruned leaves the first optimal move is {first}, not {best}")
        for node_id in document["visit_order"]:
            reported, exact_value = numeric_value(nodes[node_id]["value"]), truth.values[node_id]
            if algorithm == "shallow":
                who = by_id[node_id]["player"]
                if "cut" not in nodes[node_id]:
                    if not agree(exact_value, reported):
                        problems.append(f"soundness: {node_id} did not cut but returned {reported}, not its max-n value {exact_value}")
                elif reported[who] > exact_value[who]:
                    problems.append(f"soundness: cut node {node_id} returned {reported}, above its mover's payoff {exact_value}")
                continue
            low, high = windows[node_id]
            fails_low = reported <= low or agree(low, reported)
            fails_high = reported >= high or agree(high, reported)
            if fails_low and fails_high:
                continue  # entered with alpha == beta (--strict, or Star1's window clipped to L or U)
            if fails_low:
                holds = exact_value <= reported or agree(exact_value, reported)
            elif fails_high:
                holds = exact_value >= reported or agree(exact_value, reported)
            else:
                holds = agree(exact_value, reported)
            if not holds:
                problems.append(f"soundness: {node_id} entered with ({low}, {high}) returned {reported}, "
                                f"but its exact value is {exact_value}")
        if problems:
            return problems
    return problems


def agree(exact_value: Any, reported: Any) -> bool:
    """Equal; where a decimal (float) is on either side, equal up to rounding: each
    expectation over decimals is rounded once, so two routes to one number may
    differ in the last digits (the oracle comparison checks the digits themselves)."""
    if isinstance(reported, tuple):
        return len(reported) == len(exact_value) and all(map(agree, exact_value, reported))
    if isinstance(reported, float) or isinstance(exact_value, float):
        return math.isclose(float(exact_value), float(reported), rel_tol=1e-12, abs_tol=1e-12)
    return exact_value == reported


def equal_as_written(left: Any, right: Any) -> bool:
    """The same number (or vector) once decimals are read as written (1e+30 is 10**30, not more)."""
    if isinstance(left, tuple):
        return len(left) == len(right) and all(map(equal_as_written, left, right))
    return oracles.exact(left) == oracles.exact(right)


def numeric_value(raw: Any) -> Any:
    return tuple(numeric(part) for part in raw) if isinstance(raw, list) else numeric(raw)


def trace_windows(document: dict) -> dict[str, tuple[Any, Any]]:
    """Each node's entry window, from the JSON trace's call and leaf events."""
    return {event["node"]: (numeric(event["alpha"]), numeric(event["beta"]))
            for event in document["trace"] if event["event"] in ("call", "leaf") and "alpha" in event}


# -- one tree ------------------------------------------------------------------------------------


def expected_fit(game: Game, facts: dict) -> set[str]:
    has_chance = any(node["type"] == "chance" for node in game.nodes())
    if game.nplayer:
        return {"maxn"} | (set() if has_chance else {"paranoid"} | ({"shallow"} if facts.get("sum_in_file") else set()))
    fit = {"expectiminimax", "expectimax"} | ({"star1", "star2"} if game.bounds else set())
    return fit if has_chance else fit | {"minimax", "alphabeta"}


def expected_default(game: Game) -> str:
    if game.nplayer:
        return "maxn"
    if any(node["type"] == "chance" or node["random"] for node in game.nodes()):
        return "expectiminimax"
    return "alphabeta"


def make_tree(family: str, seed: int) -> tuple[Any, dict, random.Random]:
    rng = random.Random(f"{family}-{seed}")
    document, facts = GENERATORS[family](rng)
    if family in ("typed", "chance"):
        facts["bounds"] = add_bounds(document, oracles.read(document), rng)
    return document, facts, rng


def library_document(tree: Any, algorithm: str, options: Options, observer: Recorder | None = None) -> dict:
    """gametree's JSON result, as ``solve --format json`` builds it (with the trace when observed)."""
    record = solve(tree, algorithm, options=options, observer=observer)
    events = observer.events if isinstance(observer, Recorder) else None
    return result_document(record, events=events)


def check_run(game: Game, tree: Any, text: str, algorithm: str, options: dict, seed: int,
              rng: random.Random) -> list[str]:
    """One algorithm on one tree: the oracle, the definitions, the other code paths."""
    search, exact_search, seen_as = run_oracle(game, algorithm, options)
    library = library_options(options)
    got = library_document(tree, algorithm, library)
    found = []
    claimed = got
    if algorithm in ("star1", "star2"):  # its bound kinds must be true of the exact values and the visited part
        found += star_bound_problems(got, exact_search, game, tuple(map(expected_number, got["options"]["bounds"])))
        claimed = {**got, "nodes": {node_id: {key: item for key, item in entry.items() if key != "bound_kind"}
                                    for node_id, entry in got["nodes"].items()}}
    found += [problem for problem in [difference(expected_document(game, algorithm, options, search, exact_search,
                                                                   seen_as), comparable(claimed))] if problem]
    found += coverage_problems(game, got, options.get("order", "given") == "given")
    if not game.nplayer or algorithm == "paranoid":
        first = first_optimal_move(seen_as, exact_search or search)
        if first != got["best_move"]:
            found.append(f"best_move {got['best_move']!r}, but the first optimal root child is {first!r}")
    if algorithm in ("alphabeta", "paranoid") and "best_moves" in got:  # what the bounds told must be so
        exact_moves = oracles.best_moves(seen_as, exact_search)
        if got["best_moves"] != exact_moves:
            found.append(f"best_moves {got['best_moves']}, but the exactly equal root moves are {exact_moves}")
    if algorithm in PRUNING or rng.random() < 0.25:  # the search that reports events (the trace's path)
        traced = library_document(tree, algorithm, library, Recorder())
        other = difference(got, {key: item for key, item in traced.items() if key != "trace"})
        if other:
            found.append(f"the search with an observer gives another result: {other}")
        elif algorithm in PRUNING:
            windows = trace_windows(traced) if algorithm != "shallow" else {}
            found += soundness_problems(game, seen_as, algorithm, options, got, windows, rng)
    if not found and seed % CLI_EVERY == 0:
        result = CliRunner().invoke(app, command_line(text, algorithm, options))
        if result.exit_code != 0 or difference(json.loads(json.dumps(got)), json.loads(result.stdout)):
            found.append(f"the command line disagrees with the library (exit {result.exit_code}): {result.output[:300]}")
    return found


def check_tree(family: str, seed: int, counts: Counter) -> list[str]:
    """Every check on one random tree; the problems found, each with how to reproduce it."""
    document, facts, rng = make_tree(family, seed)
    text = json.dumps(document)
    game = oracles.read(document)
    tree = parse_tree(text)
    problems = []

    def report(algorithm: str, options: dict, found: list[str]) -> None:
        command = "gametree " + shlex.join(command_line(text, algorithm, options))
        for problem in found[:3]:
            problems.append(f"{family} tree, seed {seed}: {algorithm} {options}: {problem}\n  reproduce: {command}")

    fitting, fit = sorted(fitting_algorithms(tree)), sorted(expected_fit(game, facts))
    if fitting != fit:
        report("(fit)", {}, [f"fitting algorithms {fitting}, expected {fit}"])
    if default_algorithm(tree) != expected_default(game):
        report("(default)", {}, [f"default algorithm {default_algorithm(tree)}, expected {expected_default(game)}"])
    for algorithm, options in configurations(game, facts, rng):
        counts[algorithm] += 1
        try:
            found = check_run(game, tree, text, algorithm, options, seed, rng)
        except Exception as error:  # a crash is a finding too: say which tree
            found = [f"raised {type(error).__name__}: {error}\n{traceback.format_exc(limit=-3)}"]
        if found:
            report(algorithm, options, found)
    return problems


@pytest.mark.parametrize("family", FAMILIES)
def test_every_algorithm_agrees_with_its_oracle_and_its_definition(family: str, search_path: str) -> None:
    """Once with the compiled search loop, once with its Python source (``search_path``)."""
    counts: Counter = Counter()
    failures: list[str] = []
    for seed in range(FIRST_SEED, FIRST_SEED + PER_FAMILY):
        failures += check_tree(family, seed, counts)
        if len(failures) >= MAX_FAILURES:
            break
    print(f"\ncrosscheck {family} ({search_path} search loop): {seed - FIRST_SEED + 1} trees; "
          f"runs per algorithm: {dict(sorted(counts.items()))}")
    assert not failures, f"{len(failures)} disagreement(s), the first ones:\n" + "\n".join(failures[:MAX_FAILURES])


# -- Knuth and Moore ------------------------------------------------------------------------------


def uniform_tree(rng: random.Random, branching: int, depth: int, spread: int) -> Any:
    if depth == 0:
        return rng.randint(0, spread)
    return [uniform_tree(rng, branching, depth - 1, spread) for _ in range(branching)]


def knuth_moore(branching: int, depth: int) -> int:
    return branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1


def test_knuth_moore_minimal_tree(search_path: str) -> None:
    """Under the best order alpha-beta evaluates exactly Knuth and Moore's minimal
    tree of a uniform tree (with or without ties, fail-soft or fail-hard; with
    --strict when the leaves are distinct), the same tree written best-first in
    the file does too, and no order evaluates fewer: any search that proves the
    value must look at a MAX strategy and a MIN strategy, which share one leaf."""
    trees = max(12, TOTAL // 40)
    failures = []
    for seed in range(FIRST_SEED, FIRST_SEED + trees):
        rng = random.Random(f"knuth-moore-{seed}")
        branching = rng.randint(1, 5)
        depth = rng.randint(1, 7)
        while branching ** depth > 2000:
            depth -= 1
        distinct = rng.random() < 0.5
        spread = 10**9 if distinct else rng.choice([1, 3])
        raw = uniform_tree(rng, branching, depth, spread)
        if distinct and len(set(leaf_values(raw))) != branching ** depth:
            continue
        text = json.dumps(raw)
        tree = parse_tree(text)
        minimal = knuth_moore(branching, depth)
        value = oracles.compact_value(raw)
        presorted = parse_tree(json.dumps(oracles.best_first(raw)))
        # fail-hard with --strict is left out: its clamped returns equal the bounds, and equal does not prune
        runs = [("best", "soft", False, tree), ("best", "hard", False, tree)] + ([("best", "soft", True, tree)] if distinct else [])
        runs += [("given", "soft", False, presorted)]
        for order, variant, strict, searched in runs:
            record = solve(searched, "alphabeta", order=order, variant=variant, strict=strict)
            if record.stats.leaves_evaluated != minimal or record.value != value:
                failures.append(f"seed {seed}: b={branching} d={depth} order={order} variant={variant} strict={strict}: "
                                f"{record.stats.leaves_evaluated} leaves (minimal tree {minimal}), value {record.value} "
                                f"(minimax {value})\n  gametree solve --tree '{text}' --order {order}")
        for order in ("given", "worst"):
            for variant in ("soft", "hard"):
                record = solve(tree, "alphabeta", order=order, variant=variant, strict=rng.random() < 0.5)
                if record.stats.leaves_evaluated < minimal:
                    failures.append(f"seed {seed}: order={order}: {record.stats.leaves_evaluated} leaves, fewer than "
                                    f"the minimal tree's {minimal}\n  gametree solve --tree '{text}' --order {order}")
    assert not failures, "\n".join(failures[:MAX_FAILURES])


def leaf_values(raw: Any) -> list[Any]:
    return [leaf for child in raw for leaf in leaf_values(child)] if isinstance(raw, list) else [raw]
