"""The Python API: load a tree, solve it, and read the answer in node ids and moves.

The command line and the notebook user see the same search: :func:`solve`
runs the registered algorithm once and wraps its
:class:`~gametree_cli.search.record.SearchRecord` (node numbers, arrays) in a
:class:`Solution`, whose public side speaks the tree file's language (ids
such as ``"B"``, moves such as ``"a1"``) and whose views (text, JSON, SVG,
LaTeX, trace) all read that one record.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from .search.options import Options
from .search.registry import solve as run_search
from .search.events import Event
from .io.document import DEFAULT_MAX_NODES
from .io.loader import EXTENSIONS, load_tree as load_tree_file, parse_tree
from .core.model import Tree
from .core.numbers import Value, format_value
from .search.record import SearchRecord
from .search.record_facts import EXACT, LOWER, UPPER

__all__ = ["load_tree", "solve", "Solution", "NodeValues"]

#: :meth:`Solution.bound`'s word for each bound kind of the record
_BOUND_WORDS = {EXACT: "exact", LOWER: "lower", UPPER: "upper", LOWER | UPPER: "unknown"}

#: file name endings that make a string a path, not tree text
_TREE_SUFFIXES = tuple(EXTENSIONS) + (".efg", ".gtb")


def load_tree(source: str | os.PathLike[str], *, fmt: str | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> Tree:
    """A tree from a file path, ``"-"`` (standard input), or the tree's own text.

    A string is read as a path when it names an existing file, or is one line
    ending in ``.yaml``/``.yml``/``.json``/``.efg``/``.gtb``; anything else
    (``"[[3, 12, 8], [2, 4, 6]]"``, a YAML document) is parsed as text.

    Raises:
        TreeFormatError, IllegalTreeError: the file or text is not a valid tree
            (the message names the file, line and node).
    """
    if isinstance(source, os.PathLike) or source == "-" or _names_a_file(source):
        return load_tree_file(source, fmt=fmt, max_nodes=max_nodes)
    return parse_tree(source, name="<text>", fmt=fmt, max_nodes=max_nodes)


def _names_a_file(text: str) -> bool:
    if "\n" in text or text.lstrip().startswith(("{", "[")):
        return False
    return text.lower().endswith(_TREE_SUFFIXES) or Path(text).is_file()


def solve(tree: Tree | str | os.PathLike[str], algorithm: str | None = None, *, trace: bool = False,
          options: Options | None = None, **settings: Any) -> Solution:
    """Search ``tree`` once with ``algorithm`` (default: chosen by its node types).

    Args:
        tree: a :class:`Tree`, or anything :func:`load_tree` reads.
        algorithm: ``minimax``, ``alphabeta``, ``expectiminimax``, ``star1``, ``maxn``, ...
        trace: keep the search's events, for :meth:`Solution.trace`.
        options: an :class:`Options`; or give its fields as keywords
            (``depth=2``, ``variant="hard"``, ``strict=True``, ``order="best"``,
            ``ties=...``, ``bounds=(lo, hi)``, ``sum=...``).

    Raises:
        AlgorithmError: unknown algorithm, one that does not fit the tree, or an option value of the wrong
            type (``depth="2"``): one line naming the option.
        TypeError: a keyword that is no option (a typo such as ``dpeth=2``).
    """
    if not isinstance(tree, Tree):
        tree = load_tree(tree)
    events: list[Event] | None = [] if trace else None
    record = run_search(tree, algorithm, options=options, observer=events.append if events is not None else None,
                        **settings)
    return Solution(record, events)


class NodeValues(dict):  # type: ignore[type-arg]
    """:attr:`Solution.values`: a dict whose missing ids are a KeyError saying why (``"'C.2' has no value:
    the search pruned it"``), where a plain dict would only echo the id."""

    why: Any = None

    def __missing__(self, node_id: str) -> Value:
        raise KeyError(self.why(node_id) if self.why is not None else node_id)


class Solution:
    """What one search found, in the tree's node ids and moves.

    Attributes:
        record: the search record (node numbers and arrays) that every view reads.
        tree: the searched tree.
    """

    def __init__(self, record: SearchRecord, events: list[Event] | None = None) -> None:
        self.record = record
        self.tree = record.tree
        self.events = events

    # -- the answer ------------------------------------------------------------------------------

    @property
    def algorithm(self) -> str:
        return self.record.algorithm

    @property
    def value(self) -> Value | None:
        """The root's value (a number, or a vector for n-player trees)."""
        return self.record.value

    @property
    def best_move(self) -> str | None:
        """The move the root player makes (the label of the edge to the chosen child)."""
        chosen = self.record.best_move()
        return None if chosen is None else self.tree.move(chosen)

    @property
    def best_moves(self) -> list[str] | None:
        """Every equally good root move; None where pruning leaves that open."""
        moves = self.record.best_moves()
        return None if moves is None else [self.tree.move(node) for node in moves]

    @property
    def principal_variation(self) -> list[str]:
        """The chosen moves from the root down (as the JSON result's ``principal_variation``)."""
        return self.record.moves(self.record.principal_variation())

    @property
    def values(self) -> NodeValues:
        """Node id -> the value (or bound, see :meth:`bound`) the search gave it; visited nodes only
        (any other id is a KeyError saying why it has none: pruned, below the depth limit, no such node)."""
        values = self.record.values
        found = NodeValues({self.tree.node_id(node): values[node] for node in self.record.visit_order()
                            if values[node] is not None})
        found.why = self._no_value
        return found

    def value_of(self, node_id: str) -> Value | None:
        """The value the search gave ``node_id`` (None when it never went there)."""
        return self.record.values[self.tree.index(node_id)]

    def bound(self, node_id: str) -> str:
        """``"exact"``, ``"upper"`` (the true value is at most it), ``"lower"`` (at least it), or
        ``"unknown"`` (a value the record calls neither exact nor a bound of a known side: shallow pruning's
        vectors once a cut happened, a Star2 probe that bounded nothing).

        Raises:
            KeyError: ``node_id`` has no value (as ``values[node_id]``: the search never visited it).
        """
        try:
            node = self.tree.index(node_id)
        except KeyError:
            node = None
        if node is None or self.record.values[node] is None:
            raise KeyError(self._no_value(node_id))
        kind = self.record.bound_kind(node)
        if kind == LOWER | UPPER and (self.tree.count[node] == 0 or self.record.at_horizon(node)):
            return "exact"  # a leaf's (or eval's) own value: what it is, whatever was cut elsewhere
        return _BOUND_WORDS[kind]

    def _no_value(self, node_id: object) -> str:
        """Why ``node_id`` has no value, in one line (a KeyError's message)."""
        try:
            node = self.tree.index(node_id)  # type: ignore[arg-type]
        except (KeyError, TypeError):
            return f"{node_id!r} is not a node of this tree"
        pruned, parents = set(self.record.pruned), self.tree.parents()
        here = node
        while here >= 0 and here not in pruned:
            here = int(parents[here])
        if here >= 0:
            within = "" if here == node else f" (within the pruned subtree of {self.tree.node_id(here)!r})"
            return f"{node_id!r} has no value: the search pruned it{within}"
        limit = self.record.depth_limit
        if limit is not None:
            return f"{node_id!r} has no value: it lies below the depth limit {limit}"
        return f"{node_id!r} has no value: the search never visited it"

    @property
    def pruned(self) -> list[str]:
        """Roots of the subtrees the search skipped."""
        return [self.tree.node_id(node) for node in self.record.pruned]

    @property
    def visit_order(self) -> list[str]:
        return [self.tree.node_id(node) for node in self.record.visit_order()]

    @property
    def stats(self) -> dict[str, int]:
        """``nodes_visited``, ``leaves_evaluated``, ``cutoffs`` (the contract's counters)."""
        return self.record.stats.as_dict()

    # -- views of the same record ----------------------------------------------------------------

    def text(self, *, width: int | None = None) -> str:
        """The annotated tree and summary as plain text: what ``gametree solve`` prints when piped (no line
        wrapped: a wrapped line breaks the tree's drawing); ``width``: rich wraps lines at that many columns."""
        from .views.annotated import render_result

        drawing = render_result(self.record)
        plain = drawing.plain_text() if width is None else None
        if plain is not None:
            return plain
        from rich.console import Console

        from .views.drawing import UNWRAPPED_WIDTH

        out = io.StringIO()
        Console(width=width or UNWRAPPED_WIDTH, no_color=True, file=out).print(drawing)
        return out.getvalue()

    def to_json(self) -> str:
        """The contract's JSON result (``gametree solve --format json``)."""
        from .views.result_json import write_record

        out = io.StringIO()
        write_record(self.record, out, events=self.events)
        return out.getvalue()

    def trace(self, lang: str = "en") -> list[str]:
        """The trace lines (``--trace``); needs ``solve(..., trace=True)``."""
        if self.events is None:
            raise ValueError("no events kept: solve(tree, algorithm, trace=True) keeps them")
        from .views.trace import TraceFormatter

        formatter = TraceFormatter(self.tree, lang)
        return [line for line in map(formatter.line, self.events) if line is not None]

    def dot(self) -> str:
        """The annotated tree in Graphviz's DOT language."""
        from .views.dot import render_dot

        return render_dot(self.record)

    def svg(self) -> str:
        """The annotated tree as SVG (needs Graphviz's ``dot``)."""
        from .views.dot import render_svg

        return render_svg(self.record)

    def latex(self) -> str:
        """The annotated tree as a LaTeX (forest) document."""
        from .views.latex import render_latex

        return render_latex(self.record)

    def _repr_svg_(self) -> str | None:
        """A notebook shows a solution as its picture (None, so the repr, without Graphviz)."""
        from .views.dot import notebook_svg

        return notebook_svg(self.record)

    def __repr__(self) -> str:
        parts = [f"{self.algorithm}: value {format_value(self.value) if self.value is not None else None}"]
        if self.best_move is not None:
            parts.append(f"best move {self.best_move!r}")
        stats = self.record.stats
        parts.append(f"{stats.nodes_visited} of {len(self.tree)} nodes visited")
        if self.record.pruned:
            shown = self.pruned[:6]
            more = ", ..." if len(self.record.pruned) > 6 else ""
            parts.append(f"pruned [{', '.join(map(repr, shown))}{more}]")
        return f"<Solution {', '.join(parts)}>"
