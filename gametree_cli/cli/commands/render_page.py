"""``gametree render --format html`` and ``--steps DIR``: the search replayed, as a page or as slides.

Both need the search's events as well as its record, so the search runs
once with a recorder attached; the page and the pictures read that one run.
"""

from typing import Optional

from ...search.registry import Options, solve
from ..inputs import read_tree
from ..output import write_out
from ...core.errors import GameTreeError
from ...io.files import check_target, write_atomically

__all__ = ["render_stepping"]


def render_stepping(tree_file: Optional[str], tree_text: Optional[str], algo: Optional[str], options: Options, *,
                    chosen: str, output: Optional[str], force: bool, steps: Optional[str], lang: str,
                    show_depth: Optional[int], show_all: bool, blank: bool = False) -> None:
    """Write the page (``chosen == "html"``; ``blank``: it opens in practice mode) or the step pictures (``steps``)."""
    from ...views.page import PAGE_MAX_DRAWN, StepRecorder, render_page
    from ...views.steps import write_steps

    if steps is not None and chosen not in ("svg", "png"):
        raise GameTreeError("--steps writes one svg or png picture per step: give --format svg or --format png")
    if steps is not None and blank:
        raise GameTreeError("--steps draws the search step by step; --blank draws no answers: give one of them")
    if steps is not None and output is not None:
        raise GameTreeError("--steps DIR names where the pictures go: leave out -o")
    to_file = output is not None and output != "-"
    if to_file:
        check_target(output, force=force, protect=(tree_file,))  # refused before the work, not after
    tree = read_tree(tree_file, tree_text)
    recorder = StepRecorder()
    record = solve(tree, algo, options=options, observer=recorder)
    max_nodes = len(tree) if show_all else PAGE_MAX_DRAWN
    if steps is not None:
        write_steps(record, recorder.events, steps, chosen, lang=lang, depth=show_depth, max_nodes=max_nodes,
                    force=force)
        return
    page = render_page(record, recorder.events, lang=lang, options=options, depth=show_depth, max_nodes=max_nodes,
                       practise=blank)
    if to_file:
        write_atomically(output, page, force=force, protect=(tree_file,))  # type: ignore[arg-type]
    else:
        write_out(page)
