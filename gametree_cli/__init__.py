"""gametree: solve explicit game trees and show the answer the way a course does.

Usable from Python::

    from gametree_cli import load_tree, solve
    tree = load_tree("trees/aima-5-2.yaml")
    record = solve(tree, "alphabeta")
    record.value, tree.move(record.best_move())
"""

from __future__ import annotations

from .algorithms import ALGORITHMS, Options, solve
from .errors import AlgorithmError, GameTreeError, IllegalTreeError, TreeFormatError
from .formats.loader import load_tree, parse_tree
from .model import Tree
from .record import SearchRecord
from .views.result_json import result_document

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS",
    "AlgorithmError",
    "GameTreeError",
    "IllegalTreeError",
    "Options",
    "SearchRecord",
    "Tree",
    "TreeFormatError",
    "load_tree",
    "parse_tree",
    "result_document",
    "solve",
]
