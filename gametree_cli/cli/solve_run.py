"""``gametree solve``'s work: the annotated tree, the trace, or the contract's JSON result.

Without typer: typer's ``solve`` (:mod:`.commands.solve`) and the quick path
(:mod:`.quick`) both call :func:`run_solve` with the parsed options.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Optional

from .choices import Language, Order, OutputFormat, Variant
from .exits import reports_errors
from .inputs import check_show_depth, read_tree, search_options
from .output import print_drawing
from ..core.errors import GameTreeError

if TYPE_CHECKING:
    from ..search.events import Event, Observer

__all__ = ["run_solve"]

#: the searches a plain tree is read for (None: the default, alpha-beta for a two-player tree)
_PLAIN_ALGORITHMS = (None, "alphabeta", "minimax")


@reports_errors
def run_solve(
    tree_file: Optional[str] = None,
    tree_text: Optional[str] = None,
    algo: Optional[str] = None,
    depth: Optional[int] = None,
    trace: bool = False,
    lang: Language = Language.en,
    output: OutputFormat = OutputFormat.text,
    variant: Variant = Variant.soft,
    strict: bool = False,
    order: Order = Order.given,
    show_depth: Optional[int] = None,
    show_all: bool = False,
    ties: Optional[str] = None,
    constant_sum: Optional[str] = None,
    bounds: Optional[tuple[str, str]] = None,
    max_nodes: Optional[int] = None,
    answers_file: Optional[str] = None,
    force: bool = False,
) -> None:
    """Solve a tree and show the annotated tree, the trace, or the JSON result."""
    from ..io.files import check_target  # here, not at the top: --help's start-up time
    from ..search.registry import solve  # imported when run: start-up time of the other commands

    check_show_depth(show_depth)
    if answers_file is not None:
        if answers_file == "-":
            raise GameTreeError("--answers: name a file ('-' is not possible: standard output carries the result)")
        check_target(answers_file, force=force, protect=(tree_file,))  # refused before the work, not after
    # the default view of a two-player search reads a few hundred nodes: a big .gtb tree is then read and
    # searched in plain buffers, without NumPy's import (io/gtb_plain.py; docs/performance.md, issue 14.3)
    plain = (output is OutputFormat.text and not trace and not show_all and answers_file is None and depth is None
             and algo in _PLAIN_ALGORITHMS)
    tree = read_tree(tree_file, tree_text, max_nodes, plain=plain)
    options = search_options(depth, variant, strict, order, ties, constant_sum, bounds)
    events: list[Event] | None = None
    observer: Observer | None = None
    if trace and output is OutputFormat.json:
        events = []
        observer = events.append
    elif trace:
        from ..views.trace import StreamingTrace

        observer = StreamingTrace(tree, sys.stdout, lang.value)
    record = solve(tree, algo, options=options, observer=observer)
    if trace and output is not OutputFormat.json:
        observer.finish(record.value)  # type: ignore[union-attr]
    if answers_file is not None:
        from ..views.answer_key import write_answer_file

        write_answer_file(answers_file, record, tree_file=tree_file, tree_text=tree_text, options=options, force=force)
        sys.stderr.write(f"wrote the answer key {answers_file}\n")
    if output is OutputFormat.json:
        from ..views.result_json import write_record

        write_record(record, sys.stdout, events=events)
        return
    from ..views.annotated import DEFAULT_MAX_NODES_SHOWN, render_result

    shown = {"max_nodes": len(tree) if show_all else DEFAULT_MAX_NODES_SHOWN, "depth": show_depth}
    print_drawing(render_result(record, lang.value, **shown), blank_line_first=trace)
