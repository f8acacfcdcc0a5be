"""``gametree solve``: the annotated tree, the trace, or the contract's JSON result."""

from typing import Annotated, Optional

import typer

from ..options import (AlgoOption, BoundsOption, DepthOption, Language, MaxNodesOption, Order, OrderOption,
                           OutputFormat, StrictOption, SumOption, TiesOption, TreeArgument, TreeTextOption, Variant,
                           VariantOption, ShowDepthOption)
from ..solve_run import run_solve

__all__ = ["solve_command"]


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
    run_solve(**locals())  # the parameters, by name (typer's parsing; the work is typer-free: solve_run.py)
