"""Generators of classic game trees as tree documents (contract section 1).

They give the course's larger examples (the full tic-tac-toe tree, the
mini-backgammon exercise) without anyone typing half a million nodes, and
serve as benchmarks for the solvers.
"""

from __future__ import annotations

from .backgammon import backgammon_tree
from .common import GeneratorError
from .tictactoe import tictactoe_tree

__all__ = ["GeneratorError", "backgammon_tree", "tictactoe_tree"]
