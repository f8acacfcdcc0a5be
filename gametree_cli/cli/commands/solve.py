"""``gametree solve``: the annotated tree, the trace, or the contract's JSON result."""

import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..exits import reports_errors
from ..options import (AlgoOption, BoundsOption, DepthOption, Language, MaxNodesOption, Order, OrderOption,
                           OutputFormat, StrictOption, SumOption, TiesOption, TreeArgument, TreeTextOption, Variant,
                           VariantOption, ShowDepthOption, check_show_depth, read_tree, search_options)
from ..output import print_drawing
from ...core.errors import GameTreeError

if TYPE_CHECKING:
    from ...search.events import Event, Observer

__all__ = ["solve_command"]


@reports_errors
def solve_command(
    tree_file: TreeArgument = None,
    tree_text: TreeTextOption = None,
    algo: AlgoOption = None,
    depth: DepthOption = None,
    trace: Annotated[bool, typer.Option("--trace", help="Print one line per call, leaf, cut-off and return while searching.")] = False,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the whole output: en, or es (Spanish; the trace in the course notes' words).")] = Language.en,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (annotated tree) or json (contract's result).")] = OutputFormat.text,
    variant: VariantOption = Variant.soft,
    strict: StrictOption = False,
    order: OrderOption = Order.given,
    show_depth: ShowDepthOption = None,
    show_all: Annotated[bool, typer.Option("--show-all", help="Draw the whole tree, however big.")] = False,
    ties: TiesOption = None,
    constant_sum: SumOption = None,
    bounds: BoundsOption = None,
    max_nodes: MaxNodesOption = None,
    answers_file: Annotated[Optional[str], typer.Option("--answers", metavar="FILE", help="Also write the complete answer key (YAML) for `gametree check`.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --answers replace an existing file.")] = False,
) -> None:
    """Solve a tree and show the annotated tree, the trace, or the JSON result."""
    from ...io.files import check_target  # here, not at the top: --help's start-up time
    from ...search.registry import solve  # imported when run: start-up time of the other commands

    check_show_depth(show_depth)
    if answers_file is not None:
        if answers_file == "-":
            raise GameTreeError("--answers: name a file ('-' is not possible: standard output carries the result)")
        check_target(answers_file, force=force, protect=(tree_file,))  # refused before the work, not after
    tree = read_tree(tree_file, tree_text, max_nodes)
    options = search_options(depth, variant, strict, order, ties, constant_sum, bounds)
    events: list[Event] | None = None
    observer: Observer | None = None
    if trace and output is OutputFormat.json:
        events = []
        observer = events.append
    elif trace:
        from ...views.trace import StreamingTrace

        observer = StreamingTrace(tree, sys.stdout, lang.value)
    record = solve(tree, algo, options=options, observer=observer)
    if trace and output is not OutputFormat.json:
        observer.finish(record.value)  # type: ignore[union-attr]
    if answers_file is not None:
        from ...views.answer_key import write_answer_file

        write_answer_file(answers_file, record, tree_file=tree_file, tree_text=tree_text, options=options, force=force)
        sys.stderr.write(f"wrote the answer key {answers_file}\n")
    if output is OutputFormat.json:
        from ...views.result_json import write_record

        write_record(record, sys.stdout, events=events)
        return
    from ...views.annotated import DEFAULT_MAX_NODES_SHOWN, render_result

    shown = {"max_nodes": len(tree) if show_all else DEFAULT_MAX_NODES_SHOWN, "depth": show_depth}
    print_drawing(render_result(record, lang.value, **shown), blank_line_first=trace)
