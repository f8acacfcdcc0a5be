"""The options commands share, and turning them into the library's :class:`Options` and :class:`Tree`."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..core.errors import GameTreeError

if TYPE_CHECKING:  # the library is imported when a command runs, not to parse its options (start-up time)
    from ..core.model import Tree
    from ..core.numbers import Number
    from ..search.options import Options

__all__ = ["OutputFormat", "Language", "Variant", "Order", "search_options", "read_tree", "parse_option_number",
           "check_show_depth"]


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class Language(str, Enum):
    en = "en"
    es = "es"


class Variant(str, Enum):
    soft = "soft"
    hard = "hard"
    practical = "practical"


class Order(str, Enum):
    given = "given"
    best = "best"
    worst = "worst"


# The options every command that reads and searches a tree shares (solve, render, ...).
TreeArgument = Annotated[Optional[str], typer.Argument(metavar="TREE", help="Tree file (YAML, JSON, .efg, .gtb) or '-' for standard input.")]
TreeTextOption = Annotated[Optional[str], typer.Option("--tree", help="The tree inline, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.")]
AlgoOption = Annotated[Optional[str], typer.Option("--algo", "-a", help="Algorithm (minimax, alphabeta, expectiminimax, expectimax, star1, star2, maxn, shallow, paranoid). Default: chosen by the tree's node types.")]
DepthOption = Annotated[Optional[int], typer.Option("--depth", "-d", help="Stop N plies below the root and use the nodes' eval there.")]
VariantOption = Annotated[Variant, typer.Option("--variant", help="Alpha-beta form: soft (returns v, AIMA), hard (fail-hard: returns beta/alpha after a cut) or practical (the course notes: returns its own alpha/beta, cut or not).")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Prune only on v > beta / v < alpha.")]
OrderOption = Annotated[Order, typer.Option("--order", help="Children order for pruning searches: given, best or worst.")]
TiesOption = Annotated[Optional[str], typer.Option("--ties", help="max-n tie rule: left (default), right, paranoid or altruistic.")]
SumOption = Annotated[Optional[str], typer.Option("--sum", help="Constant sum of leaf vectors for shallow pruning (overrides the file's sum).")]
BoundsOption = Annotated[Optional[tuple[str, str]], typer.Option("--bounds", help="Lowest and highest leaf value for star1 and star2 (overrides the file's bounds).")]
ShowDepthOption = Annotated[Optional[int], typer.Option("--show-depth", help="Draw this many levels of the tree (1 or more).")]
MaxNodesOption = Annotated[Optional[int], typer.Option("--max-nodes", help="Refuse trees with more nodes than this (default 10,000,000).")]


def search_options(
    depth: int | None = None,
    variant: Variant = Variant.soft,
    strict: bool = False,
    order: Order = Order.given,
    ties: str | None = None,
    constant_sum: str | None = None,
    bounds: tuple[str, str] | None = None,
) -> Options:
    """The library's :class:`Options` from the shared command-line options."""
    from ..search.options import Options

    options = Options(depth=depth, variant=variant.value, strict=strict, order=order.value)
    if ties is not None:
        options.extra["ties"] = ties
    if constant_sum is not None:
        options.extra["sum"] = parse_option_number("--sum", constant_sum)
    if bounds is not None:
        options.extra["bounds"] = (parse_option_number("--bounds", bounds[0]), parse_option_number("--bounds", bounds[1]))
    return options


def read_tree(path: Optional[str], tree_text: Optional[str], max_nodes: int | None = None) -> Tree:
    """The tree named on the command line: a path, ``-``, or ``--tree`` text."""
    from ..io.document import DEFAULT_MAX_NODES
    from ..io.loader import load_tree, parse_tree

    limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    if tree_text is not None:
        if path is not None:
            raise GameTreeError("give either a TREE file or --tree, not both")
        return parse_tree(tree_text, name="--tree", max_nodes=limit)
    if path is None:
        raise GameTreeError("no tree given: name a TREE file, '-' for standard input, or use --tree TEXT")
    return load_tree(path, max_nodes=limit)


def parse_option_number(option: str, text: str) -> Number:
    """A number given on the command line (``7``, ``1/3``, ``0.5``)."""
    from ..core.numbers import parse_number

    try:
        return parse_number(text)
    except ValueError as error:
        raise GameTreeError(f"{option}: {error}") from None


def check_show_depth(show_depth: int | None) -> None:
    """``--show-depth`` draws that many levels: fewer than one would draw the root alone and call it 0
    levels, so it is refused like ``--depth -1``, in one line (exit 2), before the tree is read."""
    if show_depth is not None and show_depth < 1:
        raise GameTreeError(f"--show-depth must be 1 or more, not {show_depth}")
