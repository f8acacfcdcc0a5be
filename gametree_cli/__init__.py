"""gametree: solve explicit game trees and show the answer the way a course does.

Usable from Python (docs/api.md)::

    >>> from gametree_cli import load_tree, solve
    >>> tree = load_tree("trees/aima-5-2.yaml")
    >>> answer = solve(tree, "alphabeta")
    >>> answer.value, answer.best_move, answer.pruned
    (3, 'a1', ['C.2', 'C.3'])

In a notebook a solution shows itself as the annotated tree (SVG, with Graphviz).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# Where each public name lives. They are imported on first use (PEP 562), so
# that the command line, which imports this package first, pays only for the
# modules its command needs (start-up time matters: `gametree check` runs
# many times in a course's CI).
_EXPORTS = {
    "load_tree": ".api",
    "solve": ".api",
    "Solution": ".api",
    "ALGORITHMS": ".search.registry",
    "Options": ".search.options",
    "AlgorithmError": ".core.errors",
    "GameTreeError": ".core.errors",
    "IllegalTreeError": ".core.errors",
    "TreeFormatError": ".core.errors",
    "Tree": ".core.model",
    "save_tree": ".io.saver",
}

if TYPE_CHECKING:
    from .search.options import Options
    from .search.registry import ALGORITHMS
    from .api import Solution, load_tree, solve
    from .core.errors import AlgorithmError, GameTreeError, IllegalTreeError, TreeFormatError
    from .io.saver import save_tree
    from .core.model import Tree

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS",
    "AlgorithmError",
    "GameTreeError",
    "IllegalTreeError",
    "Options",
    "Solution",
    "Tree",
    "TreeFormatError",
    "load_tree",
    "save_tree",
    "solve",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    """The public names only (what ``from gametree_cli import *`` gives)."""
    return sorted(__all__ + ["__version__"])
