"""The algorithm registry and :func:`solve`, the one entry point to every search.

Each algorithm family lives in its own module and registers an
:class:`Algorithm` here: its name, which trees it fits, and how to run it.
:func:`solve` checks the fit and the options once, up front, so searches can
assume their preconditions.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..core.errors import AlgorithmError
from .events import Observer
from ..core.model import CHANCE, Tree
from ..core.progress import tick
from .record import SearchRecord
from ..core.levels import level_bounds
from .minimax import alphabeta, minimax
from .options import VARIANTS, Algorithm, Options
from .option_values import checked_options

__all__ = [
    "Algorithm",
    "Options",
    "ALGORITHMS",
    "register",
    "get_algorithm",
    "default_algorithm",
    "fitting_algorithms",
    "solve",
    "check_depth_limit",
    "VARIANTS",
]


ALGORITHMS: dict[str, Algorithm] = {}


def register(algorithm: Algorithm) -> Algorithm:
    ALGORITHMS[algorithm.name] = algorithm
    return algorithm


def get_algorithm(name: str) -> Algorithm:
    """The algorithm called ``name``; AlgorithmError when there is none."""
    if not isinstance(name, str):
        raise AlgorithmError(f"algorithm: expected a name such as 'alphabeta' (known: {', '.join(ALGORITHMS)}), "
                             f"not {name!r}")
    try:
        return ALGORITHMS[name.strip().lower()]
    except KeyError:
        from ..core.suggest import did_you_mean

        hint = did_you_mean(name, ALGORITHMS)
        raise AlgorithmError(f"unknown algorithm {name!r}{hint} (known: {', '.join(ALGORITHMS)})") from None


def default_algorithm(tree: Tree) -> str:
    """What the tree's node types choose (contract section 2)."""
    if tree.is_nplayer:
        return "maxn"
    if tree.has_chance or any(extra.get("random") for extra in tree.extra.values()):
        return "expectiminimax"  # chance nodes, or opponent models (random: r)
    return "alphabeta"


def fitting_algorithms(tree: Tree, options: Options | None = None) -> list[str]:
    """Names of every registered algorithm that can search ``tree``."""
    options = options or Options()
    return [name for name, algorithm in ALGORITHMS.items() if algorithm.unfit(tree, options) is None]


#: the keyword settings solve() takes besides ``depth``: the fields of Options and its algorithm-specific extras
SETTINGS = ("variant", "strict", "order", "ties", "sum", "bounds")


def solve(
    tree: Tree,
    algorithm: str | None = None,
    *,
    depth: int | None = None,
    observer: Observer | None = None,
    options: Options | None = None,
    **extra: Any,
) -> SearchRecord:
    """Search ``tree`` and return the record of what happened.

    Args:
        tree: a loaded tree (:func:`gametree_cli.load_tree`).
        algorithm: a registered name; default: chosen by the tree's node types.
        depth: depth limit in plies (uses ``eval`` there).
        observer: called with every :class:`~gametree_cli.search.events.Event`;
            None (default) makes the search skip building events entirely.
        options: full options; keyword arguments ``variant``, ``strict``,
            ``order`` and algorithm-specific ones (:data:`SETTINGS`) fill a fresh
            one, or override a copy of the given one.

    Raises:
        AlgorithmError: unknown algorithm, one that does not fit the tree, or an option of the wrong type
            or value (``depth="2"``, ``strict="no"``; :mod:`.option_values`).
        IllegalTreeError: the depth limit lands on a node without ``eval``.
        TypeError: a keyword that is not one of :data:`SETTINGS` (a typo would
            otherwise run the plain search).
    """
    unknown = [key for key in extra if key not in SETTINGS]
    if unknown:  # a misspelt keyword would otherwise run the plain search and give a wrong answer silently
        named = ", ".join(map(repr, unknown))
        raise TypeError(f"solve() got an unexpected keyword argument{'s' if len(unknown) > 1 else ''} {named} "
                        f"(known: depth, {', '.join(SETTINGS)})")
    if options is None:
        options = Options(depth=depth)
    else:
        if extra or depth is not None:  # settings given with options: on a copy, so the caller's options stay as they were
            options = options.copy()
        if depth is not None:
            options.depth = depth
    for key in ("variant", "strict", "order"):
        if key in extra:
            setattr(options, key, extra.pop(key))
    options.extra.update(extra)
    options = checked_options(options)  # once, here: the searches assume the right types
    chosen = get_algorithm(default_algorithm(tree) if algorithm is None or algorithm == "" else algorithm)
    reason = chosen.unfit(tree, options)
    if reason is not None:
        fitting = fitting_algorithms(tree, options)
        hint = f" (algorithms that fit: {', '.join(fitting)})" if fitting else ""
        message = f"{chosen.name} does not fit this tree: {reason}{hint}"
        if reason == HAS_CHANCE:  # point at the first chance node, where a user looks
            raise tree.error(AlgorithmError, message, tree.kind.index(CHANCE))
        raise AlgorithmError(message, file=tree.source.name if tree.source else None)
    if options.depth is not None:
        check_depth_limit(tree, options.depth)
    tick("solve")
    try:
        return chosen.run(tree, options, observer)
    except OverflowError:  # a decimal (float) met an exact number beyond a float's range
        raise AlgorithmError(
            f"{chosen.name}: a number beyond a decimal's range (about 1e308) arose where decimals meet "
            "integers or fractions of hundreds of digits; write those as decimals, or the decimals as fractions",
            file=tree.source.name if tree.source else None) from None


def check_depth_limit(tree: Tree, depth: int) -> None:
    """Refuse a depth limit that lands on an inner node without ``eval``."""
    if depth < 0:
        raise AlgorithmError(f"--depth must be 0 or more, not {depth}")
    levels = level_bounds(tree, depth)
    if len(levels) <= depth:
        return
    start, end = levels[depth]
    count, evals = tree.count, tree.evals
    for node in range(start, end):
        if count[node] and node not in evals:
            from ..core.errors import IllegalTreeError

            raise tree.error(IllegalTreeError, f"the depth limit {depth} stops here, but the node has no eval", node)


# -- two-player family ---------------------------------------------------------


def _unfit_two_player(tree: Tree, options: Options) -> str | None:
    if tree.is_nplayer:
        if len(tree.players) > 2:
            return f"it has {len(tree.players)} players; minimax and alpha-beta need two"
        return "its leaves are payoff vectors (a general-sum game); minimax and alpha-beta need one number per leaf"
    if tree.has_chance:
        return HAS_CHANCE
    return None


HAS_CHANCE = "it has chance nodes"


register(Algorithm(
    "minimax",
    "exhaustive minimax value (max/min trees, also max-only)",
    _unfit_two_player,
    lambda tree, options, observer: minimax(tree, depth_limit=options.depth, observer=observer),
))


def _run_alphabeta(tree: Tree, options: Options, observer: Observer | None) -> SearchRecord:
    child_order = None
    if options.order != "given":
        from .ordering import child_order_for

        child_order = child_order_for(tree, options.order, options.depth)
    record = alphabeta(
        tree,
        depth_limit=options.depth,
        observer=observer,
        variant=options.variant,
        strict=options.strict,
        child_order=child_order,
    )
    record.options["order"] = options.order
    return record


register(Algorithm(
    "alphabeta",
    "alpha-beta pruning (fail-soft; --variant hard|practical, --strict)",
    _unfit_two_player,
    _run_alphabeta,
    prunes=True,
))


def _later(module: str, name: str) -> Any:
    """``search.<module>.<name>``, imported at its first call: a run imports only the algorithm it uses
    (the chance and n-player modules cost start-up time a minimax run need not pay)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(import_module(f"{__package__}.{module}"), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


# -- chance family (two players with chance nodes) -------------------------------


register(Algorithm(
    "expectiminimax",
    "expected value at chance nodes, max/min elsewhere (opponent models: random: r)",
    _later("expecti", "unfit_chance"),
    _later("expecti", "run_expectiminimax"),
))
register(Algorithm(
    "expectimax",
    "as expectiminimax, but min nodes averaged as a uniformly random opponent",
    _later("expecti", "unfit_chance"),
    _later("expecti", "run_expectimax"),
))
register(Algorithm(
    "star1",
    "expectiminimax value with Ballard's Star1 pruning at chance nodes (needs bounds)",
    _later("star1", "unfit_star1"),
    _later("star1", "run_star1"),
    prunes=True,
))

register(Algorithm(
    "star2",
    "Star1 with Ballard's probing phase at chance nodes (needs bounds)",
    _later("star1", "unfit_star1"),
    _later("star2", "run_star2"),
    prunes=True,
))


# -- n-player family (max-n, shallow pruning, paranoid) ----------------------------

register(Algorithm(
    "maxn",
    "max-n value vectors (3+ players; chance nodes averaged; --ties left|right|paranoid|altruistic)",
    _later("maxn", "unfit_maxn"),
    _later("maxn", "run_maxn"),
))
register(Algorithm(
    "shallow",
    "max-n with Korf's shallow pruning (non-negative vectors with a constant sum: sum: or --sum)",
    _later("maxn", "unfit_shallow"),
    _later("maxn", "run_shallow"),
    prunes=True,
))
register(Algorithm(
    "paranoid",
    "the root player against all others: alpha-beta on the root player's component",
    _later("paranoid", "unfit_paranoid"),
    _later("paranoid", "run_paranoid"),
    prunes=True,
))
