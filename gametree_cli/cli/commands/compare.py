"""``gametree compare TREE``: every algorithm that fits the tree, side by side."""

import json
from typing import Annotated, Optional

import typer

from ..output import stdout_console, write_out
from ..exits import reports_errors
from ..inputs import read_tree
from ..options import Language, Order, OutputFormat
@reports_errors
def compare_command(
    tree_file: Annotated[Optional[str], typer.Argument(metavar="TREE", help="Tree file or '-' for standard input.")] = None,
    tree_text: Annotated[Optional[str], typer.Option("--tree", help="The tree inline, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.")] = None,
    depth: Annotated[Optional[int], typer.Option("--depth", "-d", help="Stop N plies below the root and use the nodes' eval there.")] = None,
    order: Annotated[Order, typer.Option("--order", help="Children order for pruning searches: given, best or worst.")] = Order.given,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (a table) or json.")] = OutputFormat.text,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the table: en or es (JSON stays as it is).")] = Language.en,
) -> None:
    """Run every algorithm that fits the tree: value, best move, nodes visited, leaves, cut-offs, share pruned."""
    from ...search.registry import Options
    from ...exercises.comparison import compare_algorithms  # imported here: start-up time of the other commands (rich)
    from ...exercises.compare_table import comparison_document, comparison_table

    tree = read_tree(tree_file, tree_text)
    rows = compare_algorithms(tree, Options(depth=depth, order=order.value))
    if output is OutputFormat.json:
        write_out(json.dumps(comparison_document(rows), ensure_ascii=False, indent=1) + "\n")  # a lone surrogate: escaped
        return
    stdout_console().print(comparison_table(rows, title=tree.title, lang=lang.value))
