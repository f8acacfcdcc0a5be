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

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Where each public name lives. They are imported on first use (PEP 562), so
# that the command line, which imports this package first, pays only for the
# modules its command needs (start-up time matters: `gametree check` runs
# many times in a course's CI).
_EXPORTS = {
    "ALGORITHMS": ".algorithms",
    "Options": ".algorithms",
    "solve": ".algorithms",
    "AlgorithmError": ".errors",
    "GameTreeError": ".errors",
    "IllegalTreeError": ".errors",
    "TreeFormatError": ".errors",
    "load_tree": ".formats.loader",
    "parse_tree": ".formats.loader",
    "Tree": ".model",
    "SearchRecord": ".record",
    "result_document": ".views.result_json",
    "tree_to_document": ".formats.document_writer",
    "save_tree": ".formats.saver",
    "render_dot": ".views.dot",
    "render_svg": ".views.dot",
    "render_latex": ".views.latex",
}

if TYPE_CHECKING:
    from .algorithms import ALGORITHMS, Options, solve
    from .errors import AlgorithmError, GameTreeError, IllegalTreeError, TreeFormatError
    from .formats.document_writer import tree_to_document
    from .formats.loader import load_tree, parse_tree
    from .formats.saver import save_tree
    from .model import Tree
    from .record import SearchRecord
    from .views.dot import render_dot, render_svg
    from .views.latex import render_latex
    from .views.result_json import result_document


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


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
