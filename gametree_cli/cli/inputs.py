"""Turning command-line values into the library's :class:`Tree` and :class:`Options`.

Without typer (the quick path, :mod:`.quick`, runs commands without it), and
without the library at import time: each helper imports what it needs when run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .choices import Order, Variant
from .collector import start_up_over
from ..core.errors import GameTreeError

if TYPE_CHECKING:
    from ..core.model import Tree
    from ..core.numbers import Number
    from ..search.options import Options

__all__ = ["search_options", "read_tree", "parse_option_number", "check_show_depth", "apply_global_options"]


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


def read_tree(path: Optional[str], tree_text: Optional[str], max_nodes: int | None = None, *,
              plain: bool = False) -> Tree:
    """The tree named on the command line: a path, ``-``, or ``--tree`` text (``plain``: see
    :func:`~gametree_cli.io.loader.load_tree`)."""
    from ..io.document import DEFAULT_MAX_NODES
    from ..io.loader import load_tree, parse_tree

    if max_nodes is not None and max_nodes < 1:  # refused up front, as --depth -1 is, not as a tree too big
        raise GameTreeError(f"--max-nodes must be 1 or more, not {max_nodes}")
    limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    if tree_text is not None:
        if path is not None:
            raise GameTreeError("give either a TREE file or --tree, not both")
        tree = parse_tree(tree_text, name="--tree", max_nodes=limit)
    elif path is None:
        raise GameTreeError("no tree given: name a TREE file, '-' for standard input, or use --tree TEXT")
    else:
        tree = load_tree(path, max_nodes=limit, plain=plain)
    start_up_over()  # the reader's imports (NumPy's for a big tree) are done: the collector back on (collector.py)
    return tree


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


def apply_global_options(max_input_size: str, *, from_environment: bool = False) -> None:
    """The options before the command: ``--max-input-size`` (or ``GAMETREE_MAX_INPUT_SIZE``, named in the
    error when it came from there), the biggest input file any reader accepts. A bad size is refused when
    an input is read (one line, exit 2): a command's ``--help`` still shows."""
    from ..io.files import limit_inputs  # not at the top: --help needs none of io's modules

    limit_inputs(max_input_size, "GAMETREE_MAX_INPUT_SIZE" if from_environment else "--max-input-size")
