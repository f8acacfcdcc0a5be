"""``gametree render``: the annotated tree as a picture (Graphviz DOT/SVG/PNG/PDF, or LaTeX).

Solves once, then hands the record to a view: the views never search.
Pictures are rebuilt often (slides, handouts), so an existing picture is
replaced without asking; the input tree never is.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..algorithms import ALGORITHMS, Options, solve
from ..cli import app, read_tree, reports_errors
from ..errors import GameTreeError
from ..formats.loader import write_atomically
from ..views.dot import render_dot, render_image
from ..views.latex import render_latex

__all__ = ["render_command", "PictureFormat", "picture_format"]


class PictureFormat(str, Enum):
    dot = "dot"
    svg = "svg"
    png = "png"
    pdf = "pdf"
    tex = "tex"


_EXTENSIONS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png", ".pdf": "pdf", ".tex": "tex"}


def picture_format(given: PictureFormat | None, output: str | None) -> str:
    """``--format`` when given, else the output file's extension, else DOT."""
    if given is not None:
        return given.value
    if output is None or output == "-":
        return "dot"
    fmt = _EXTENSIONS.get(Path(output).suffix.lower())
    if fmt is None:
        raise GameTreeError(f"cannot tell the picture format from {output!r}: give --format (dot, svg, png, pdf or tex)")
    return fmt


@app.command("render")
@reports_errors
def render_command(
    tree_file: Annotated[Optional[str], typer.Argument(metavar="TREE", help="Tree file (YAML, JSON, .efg, ...) or '-' for standard input.")] = None,
    tree_text: Annotated[Optional[str], typer.Option("--tree", help="The tree inline, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.")] = None,
    algo: Annotated[Optional[str], typer.Option("--algo", "-a", help=f"Algorithm: {', '.join(ALGORITHMS)}. Default: chosen by the tree's node types.")] = None,
    depth: Annotated[Optional[int], typer.Option("--depth", "-d", help="Stop N plies below the root and use the nodes' eval there.")] = None,
    fmt: Annotated[Optional[PictureFormat], typer.Option("--format", "-f", help="dot (Graphviz text), svg, png or pdf (need Graphviz's dot), tex (LaTeX, forest). Default: from -o's extension.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Picture file to write (replaced if it exists); default: standard output.")] = None,
    blank: Annotated[bool, typer.Option("--blank", help="An exercise handout: the tree and leaf values, no answers.")] = False,
    show_depth: Annotated[Optional[int], typer.Option("--show-depth", help="Draw this many levels of the tree.")] = None,
    show_all: Annotated[bool, typer.Option("--show-all", help="Draw the whole tree, however big.")] = False,
) -> None:
    """Draw the annotated tree: Graphviz DOT, SVG, PNG or PDF, or a standalone LaTeX (forest) document."""
    chosen = picture_format(fmt, output)
    tree = read_tree(tree_file, tree_text)
    record = solve(tree, algo, options=Options(depth=depth))
    shown: dict[str, object] = {"blank": blank, "depth": show_depth}
    if show_all:
        shown["max_nodes"] = len(tree)
    data: str | bytes
    if chosen == "tex":
        data = render_latex(record, **shown)  # type: ignore[arg-type]
    else:
        data = render_dot(record, **shown)  # type: ignore[arg-type]
        if chosen != "dot":
            data = render_image(data, chosen)
    if output is None or output == "-":
        if isinstance(data, bytes):
            if chosen != "svg" and sys.stdout.isatty():
                raise GameTreeError(f"a {chosen.upper()} image is binary: write it to a file with -o FILE")
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            sys.stdout.write(data)
        return
    write_atomically(output, data, force=True, protect=tuple(name for name in (tree_file,) if name and name != "-"))
