"""``gametree render``: the annotated tree as a picture (Graphviz DOT/SVG/PNG/PDF, or LaTeX).

Solves once, then hands the record to a view: the views never search.
Like every writer, it replaces an existing picture only with ``--force``,
and the input tree never (docs/safety.md).
"""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..output import write_out
from ..exits import reports_errors
from ..inputs import check_show_depth, read_tree, search_options
from ..options import (AlgoOption, BoundsOption, DepthOption, Language, Order, OrderOption, StrictOption, SumOption, TiesOption,
                           TreeArgument, TreeTextOption, Variant, VariantOption, ShowDepthOption)
from ...core.errors import GameTreeError

__all__ = ["render_command", "PictureFormat", "picture_format"]


class PictureFormat(str, Enum):
    dot = "dot"
    svg = "svg"
    png = "png"
    pdf = "pdf"
    tex = "tex"
    html = "html"


_EXTENSIONS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png", ".pdf": "pdf", ".tex": "tex", ".html": "html", ".htm": "html"}


def picture_format(given: PictureFormat | None, output: str | None) -> str:
    """``--format`` when given, else the output file's extension, else DOT."""
    if given is not None:
        return given.value
    if output is None or output == "-":
        return "dot"
    fmt = _EXTENSIONS.get(Path(output).suffix.lower())
    if fmt is None:
        raise GameTreeError(f"cannot tell the picture format from {output!r}: give --format (dot, svg, png, pdf, tex or html)")
    return fmt


@reports_errors
def render_command(
    tree_file: TreeArgument = None,
    tree_text: TreeTextOption = None,
    algo: AlgoOption = None,
    depth: DepthOption = None,
    variant: VariantOption = Variant.soft,
    strict: StrictOption = False,
    order: OrderOption = Order.given,
    ties: TiesOption = None,
    constant_sum: SumOption = None,
    bounds: BoundsOption = None,
    fmt: Annotated[Optional[PictureFormat], typer.Option("--format", "-f", help="dot (Graphviz text), svg, png or pdf (need Graphviz's dot), tex (LaTeX, forest), html (a page that steps through the search). Default: from -o's extension.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Picture file to write ('-' or none: standard output).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists (never the input).")] = False,
    blank: Annotated[bool, typer.Option("--blank", help="An exercise handout: the tree and leaf values, no answers.")] = False,
    show_depth: ShowDepthOption = None,
    show_all: Annotated[bool, typer.Option("--show-all", help="Draw the whole tree, however big.")] = False,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the labels, of the html page's trace and of the --steps pictures: en or es.")] = Language.en,
    steps: Annotated[Optional[str], typer.Option("--steps", metavar="DIR", help="Write one picture per step of the search into DIR (with --format svg or png).")] = None,
) -> None:
    """Draw the annotated tree: Graphviz DOT, SVG, PNG or PDF, or a standalone LaTeX (forest) document."""
    from ...io.files import check_target, write_atomically  # here, not at the top: --help's start-up time
    from ...search.registry import solve
    from ...views.dot import render_dot, render_image  # imported here: start-up time of the other commands (rich)
    from ...views.latex import render_latex

    check_show_depth(show_depth)
    chosen = picture_format(fmt, output)
    if steps is not None or chosen == "html":
        from .render_page import render_stepping  # the page and the step pictures: their own module

        options = search_options(depth, variant, strict, order, ties, constant_sum, bounds)
        render_stepping(tree_file, tree_text, algo, options, chosen=chosen, output=output, force=force, steps=steps,
                        lang=lang.value, show_depth=show_depth, show_all=show_all, blank=blank)
        return
    to_file = output is not None and output != "-"
    inputs = (tree_file,)
    if to_file:
        check_target(output, force=force, protect=inputs)  # refused before the work, not after
    tree = read_tree(tree_file, tree_text)
    record = solve(tree, algo, options=search_options(depth, variant, strict, order, ties, constant_sum, bounds))
    shown: dict[str, object] = {"blank": blank, "depth": show_depth, "lang": lang.value}
    if show_all:
        shown["max_nodes"] = len(tree)
    data: str | bytes
    if chosen == "tex":
        data = render_latex(record, **shown)  # type: ignore[arg-type]
    else:
        data = render_dot(record, **shown)  # type: ignore[arg-type]
        if chosen != "dot":
            data = render_image(data, chosen)
    if not to_file:
        if isinstance(data, bytes):
            if chosen != "svg" and sys.stdout.isatty():
                raise GameTreeError(f"a {chosen.upper()} image is binary: write it to a file with -o FILE")
        write_out(data)
        return
    write_atomically(output, data, force=force, protect=inputs)
