"""The options commands share, as typer parameters (their names, help and types)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .choices import Language, Order, OutputFormat, Variant

__all__ = ["OutputFormat", "Language", "Variant", "Order", "TreeArgument", "TreeTextOption", "AlgoOption", "DepthOption",
           "VariantOption", "StrictOption", "OrderOption", "TiesOption", "SumOption", "BoundsOption", "ShowDepthOption",
           "MaxNodesOption"]


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
