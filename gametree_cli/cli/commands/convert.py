"""``gametree convert``: a tree file from one format to another (YAML, JSON, compact, EFG, ...).

Ids, moves, probabilities and exact values survive every conversion the
target format can hold; a target that cannot hold something says so (the
compact form refuses, an ``.efg`` file notes what it leaves out).
"""

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..output import write_out
from ..exits import reports_errors
from ..inputs import read_tree

if TYPE_CHECKING:
    from ...core.model import Tree

__all__ = ["convert_command", "efg_leaves_out"]


def efg_leaves_out(tree: "Tree") -> list[str]:
    """What a Gambit file has no place for: evals, bounds, sum, opponent models."""
    lost = []
    if tree.evals:
        lost.append(f"eval ({len(tree.evals)} node{'s' if len(tree.evals) != 1 else ''})")
    if tree.bounds is not None:
        lost.append("bounds")
    if tree.total is not None:
        lost.append("sum")
    if any("random" in extra for extra in tree.extra.values()):
        lost.append("random")
    return lost


@reports_errors
def convert_command(
    source: Annotated[str, typer.Argument(metavar="IN", help="Tree file (YAML, JSON, compact, .efg, ...) or '-' for standard input.")],
    output: Annotated[str, typer.Option("--output", "-o", metavar="OUT", help="File to write ('-' for standard output); its extension picks the format.")],
    to: Annotated[Optional[str], typer.Option("--to", help="Output format: yaml, json, compact, efg (default: from OUT's extension).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists (never the input).")] = False,
) -> None:
    """Convert a tree file between YAML, JSON, the compact nested list and Gambit .efg."""
    from ...io.document_writer import TEXT_WRITERS  # imported when run: start-up time of the other commands
    from ...io.files import check_target
    from ...io.saver import output_format, save_tree

    fmt = output_format(output, to)
    if output != "-":
        check_target(output, force=force, protect=(source,))  # refused before the work, not after
    tree = read_tree(source, None)
    if fmt == "efg":
        lost = efg_leaves_out(tree)
        if lost:
            sys.stderr.write(f"gametree: note: the .efg format has no place for {', '.join(lost)}; left out\n")
    if output == "-":
        if fmt not in TEXT_WRITERS:
            from ...core.errors import GameTreeError

            raise GameTreeError(f"the {fmt} format cannot be written to standard output: name a file with -o")
        write_out(TEXT_WRITERS[fmt](tree))
        return
    save_tree(tree, output, fmt=fmt, force=force, protect=(source,), force_hint="--force")
