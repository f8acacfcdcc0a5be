"""``gametree generate``: the course's big example trees, written as tree files.

Tic-tac-toe from any position (the full game tree has 549,946 nodes) and
mini-backgammon (chance nodes at every turn). The generators build plain
documents; this module only chooses the format and where the text goes.
"""

from typing import Annotated, Any, Optional

import typer

from ..output import write_out
from ..exits import reports_errors
from ...core.errors import GameTreeError
from ...generate import backgammon_tree, tictactoe_tree
from ...generate.tictactoe import EMPTY_BOARD

__all__ = ["generate_app", "write_document", "check_output"]

generate_app = typer.Typer(
    name="generate",
    help="Write the game tree of a classic game (tic-tac-toe, mini-backgammon) as a tree file.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

#: formats a generated document is written in directly (the others go through a tree)
_DOCUMENT_FORMATS = ("yaml", "json", "efg")


def _document_writer(fmt: str) -> Any:
    """The writer of a document format, imported when used (start-up time of the other commands)."""
    if fmt == "efg":
        from ...io.efg import write_efg

        return write_efg
    from ...io.document_text import document_to_json, document_to_yaml

    return document_to_yaml if fmt == "yaml" else document_to_json


def check_output(output: str | None, force: bool) -> None:
    """Refuse an existing FILE before generating (which can take seconds), not after."""
    from ...io.files import check_target  # here, not at the top: --help's start-up time
    if output is not None and output != "-":
        check_target(output, force=force)


def write_document(document: Any, output: str | None, to: str | None, force: bool) -> None:
    """Write a generated document: to standard output (YAML unless ``to``) or a file."""
    from ...io.files import write_atomically  # here, not at the top: --help's start-up time
    if output is None or output == "-":
        fmt = (to or "yaml").strip().lower()
        if fmt == "yml":
            fmt = "yaml"
        if fmt not in _DOCUMENT_FORMATS:
            raise GameTreeError(f"cannot write {to!r} to standard output (known: {', '.join(_DOCUMENT_FORMATS)})")
        write_out(_document_writer(fmt)(document))
        return
    from ...io.saver import output_format, save_tree

    fmt = output_format(output, to)
    if fmt in _DOCUMENT_FORMATS:
        write_atomically(output, _document_writer(fmt)(document), force=force)
    else:  # compact, or a format of its own: through the tree
        from ...io.document import build_tree

        save_tree(build_tree(document), output, fmt=fmt, force=force, force_hint="--force")


OutputOption = Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="File to write (its extension picks the format); default: YAML on standard output.")]
ToOption = Annotated[Optional[str], typer.Option("--to", help="Output format: yaml, json, efg (default: from FILE's extension, else yaml).")]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")]


@generate_app.command("tictactoe")
@reports_errors
def tictactoe_command(
    position: Annotated[str, typer.Option("--position", "-p", help="The board: 9 cells row by row from X, O and '.', e.g. X.O...... (X moves first).")] = EMPTY_BOARD,
    depth: Annotated[Optional[int], typer.Option("--depth", "-d", help="Stop N plies below the position and score it (lines open for X) - (lines open for O).")] = None,
    output: OutputOption = None,
    to: ToOption = None,
    force: ForceOption = False,
) -> None:
    """Tic-tac-toe's game tree from a position (X is max; a win is +9, a loss -9, a draw 0: beyond every evaluation)."""
    if depth is not None and depth < 0:  # in the option's words (the generator's speak Python: "or None")
        raise GameTreeError(f"--depth must be 0 or more (or left out for the whole game), not {depth}")
    check_output(output, force)
    write_document(tictactoe_tree(position, depth), output, to, force)


@generate_app.command("backgammon-mini")
@reports_errors
def backgammon_command(
    position: Annotated[str, typer.Option("--position", "-p", help="MAX's pieces a,b and MIN's c,d on fields 0..5 (MAX moves up to 5, MIN down to 0), e.g. 3,4,1,2.")] = "3,4,1,2",
    plies: Annotated[int, typer.Option("--plies", help="Stop this many edges below the root (coin edges count) and score a+b+c+d.")] = 5,
    roll: Annotated[Optional[int], typer.Option("--roll", help="Start at MAX's decision with this coin (1 or 2) already shown.")] = None,
    output: OutputOption = None,
    to: ToOption = None,
    force: ForceOption = False,
) -> None:
    """The course's mini-backgammon (a coin for a die: chance nodes at every turn)."""
    try:
        fields = tuple(int(part) for part in position.replace(" ", "").split(","))
    except ValueError:
        raise GameTreeError(f"--position: expected four fields like 3,4,1,2, found {position!r}") from None
    if len(fields) != 4:
        raise GameTreeError(f"--position: expected four fields like 3,4,1,2, found {position!r}")
    if plies < 0:  # in the options' words (the generator's speak Python: "or None")
        raise GameTreeError(f"--plies must be 0 or more, not {plies}")
    if roll is not None and roll not in (1, 2):
        raise GameTreeError(f"--roll must be 1 or 2 (or left out: MAX's coin toss first), not {roll}")
    check_output(output, force)
    write_document(backgammon_tree(fields, plies, roll=roll), output, to, force)
