"""``gametree random``: a reproducible random exercise tree."""

import random
import sys
from typing import Annotated, Optional

import typer

from ..exits import reports_errors
from ...generate.random_tree import MAX_RANDOM_NODES, RandomTreeSpec, parse_range, random_tree
from .generate import ForceOption, OutputOption, ToOption, check_output, write_document


@reports_errors
def random_command(
    depth: Annotated[int, typer.Option("--depth", "-d", help="Plies from the root to every leaf (chance edges count).")],
    branching: Annotated[str, typer.Option("--branching", "-b", help="Children per inner node: B, or a range LOW..HIGH drawn per node.")],
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Seed: the same seed and options give a byte-identical file. Default: a fresh one, written in the title.")] = None,
    chance: Annotated[bool, typer.Option("--chance", help="A chance layer after every decision layer (exact random probabilities; adds bounds).")] = False,
    players: Annotated[int, typer.Option("--players", "-n", help="1 (max only), 2 (max/min) or more (max-n, payoff vectors).")] = 2,
    values: Annotated[str, typer.Option("--values", metavar="LO..HI", help="Range of leaf values, whole numbers.")] = "0..9",
    output: OutputOption = None,
    to: ToOption = None,
    force: ForceOption = False,
    max_nodes: Annotated[int, typer.Option("--max-nodes", help="Refuse to generate more nodes than this.")] = MAX_RANDOM_NODES,
) -> None:
    """Write a random exercise tree (YAML on standard output, or -o FILE)."""
    fresh = seed is None
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    spec = RandomTreeSpec(
        depth=depth,
        branching=parse_range(branching, "--branching", "2..3"),
        seed=seed,
        chance=chance,
        players=players,
        values=parse_range(values, "--values"),
    )
    check_output(output, force)
    document = random_tree(spec, max_nodes=max_nodes)
    if fresh:
        sys.stderr.write(f"random tree with seed {seed} (give --seed {seed} to get it again)\n")
    write_document(document, output, to, force)
