"""gametree: solve explicit game trees and show the answer the way a course does.

Usable from Python::

    from gametree_cli import load_tree, render_svg, save_tree, solve
    tree = load_tree("trees/aima-5-2.yaml")
    record = solve(tree, "alphabeta")
    record.value, tree.move(record.best_move())
    render_svg(record)        # the annotated tree as SVG (needs Graphviz);
                              # in a notebook, `record` alone shows the picture
    save_tree(tree, "aima-5-2.json")
"""

from __future__ import annotations

from .algorithms import ALGORITHMS, Options, solve
from .errors import AlgorithmError, GameTreeError, IllegalTreeError, TreeFormatError
from .formats.loader import load_tree, parse_tree
from .model import Tree
from .record import SearchRecord
from .views.result_json import result_document
from .formats.document_writer import tree_to_document
from .formats.saver import save_tree
from .views.dot import render_dot, render_svg
from .views.latex import render_latex

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
    "render_dot",
    "render_latex",
    "render_svg",
    "result_document",
    "save_tree",
    "solve",
    "tree_to_document",
]
