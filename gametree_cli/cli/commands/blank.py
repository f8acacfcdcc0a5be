"""``gametree blank TREE``: the tree to hand out as an exercise (no computed values)."""

from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..output import print_drawing
from ..exits import reports_errors
from ..inputs import check_show_depth, read_tree
from ..options import Language, ShowDepthOption

if TYPE_CHECKING:
    from ...core.model import Tree
    from ...views.drawing import Drawing

__all__ = ["blank_view"]


def blank_view(tree: "Tree", *, max_nodes: int | None = None, depth: int | None = None, lang: str = "en") -> "Drawing":
    """Title and tree with structure, moves, types, probabilities, evals and leaf values only
    (at most ``max_nodes`` nodes drawn: default ``DEFAULT_MAX_NODES_SHOWN``)."""
    from ...search.record import SearchRecord
    from ...views.annotated import DEFAULT_MAX_NODES_SHOWN, annotated_tree
    from ...views.drawing import Line

    if max_nodes is None:
        max_nodes = DEFAULT_MAX_NODES_SHOWN
    unsolved = SearchRecord("blank", tree, None, [None] * len(tree))
    drawing = annotated_tree(unsolved, max_nodes=max_nodes, depth=depth, blank=True, lang=lang)
    if tree.title:
        drawing.parts.insert(0, Line(tree.title, style="bold underline"))
    return drawing


@reports_errors
def blank_command(
    tree_file: Annotated[Optional[str], typer.Argument(metavar="TREE", help="Tree file or '-' for standard input.")] = None,
    tree_text: Annotated[Optional[str], typer.Option("--tree", help="The tree inline, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.")] = None,
    show_depth: ShowDepthOption = None,
    show_all: Annotated[bool, typer.Option("--show-all", help="Draw the whole tree, however big.")] = False,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the drawing's words: en or es.")] = Language.en,
) -> None:
    """Draw the tree without any computed value: an exercise to hand out."""
    check_show_depth(show_depth)
    tree = read_tree(tree_file, tree_text)
    max_nodes = len(tree) if show_all else None
    print_drawing(blank_view(tree, max_nodes=max_nodes, depth=show_depth, lang=lang.value))
