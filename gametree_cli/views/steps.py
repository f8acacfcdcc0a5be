"""``gametree render --steps DIR``: one picture per step of the search, numbered, for slides.

Each picture is the page's drawing (:mod:`.page_svg`) with one step's state
written in, as AIMA's figure 5.5 shows alpha-beta in stages: the current
node ringed, values as they return, windows beside the nodes, the test at
the deciding node, cuts with ✂ and the pruned subtrees dashed, and the trace
line of the step as the caption. SVG is written directly; PNG goes through
``rsvg-convert`` (librsvg), which turns an SVG into a PNG the same way on
every machine.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import GameTreeError
from ..search.events import Event
from ..search.record import SearchRecord
from .page import PAGE_MAX_DRAWN
from .page_data import final_values, page_steps, pv_positions
from .page_svg import Look, draw_svg, layout
from .page_words import page_words
from .picture import picture_nodes
from .slide_frame import SlideFrame
from .step_files import check_steps_folder, publish_steps, step_names, steps_folder

__all__ = ["write_steps", "step_looks", "png_zoom", "RSVG_MISSING", "PNG_ZOOM", "RSVG_MAX_SIDE"]

RSVG_MISSING = ("--steps with --format png needs librsvg's rsvg-convert: install it with 'apt-get install "
                "librsvg2-bin' (Debian/Ubuntu) or 'brew install librsvg' (macOS), or write --format svg")
PNG_ZOOM = 2.0  # a PNG step picture is drawn at twice the SVG's size (sharp on a projector)...
RSVG_MAX_SIDE = 32_767  # ...unless a side would pass rsvg-convert's (cairo's) limit, in pixels


def step_looks(steps: list[list[Any]], k: int, end: list[int], final: list[str | None] | None = None,
               pv: frozenset[int] | set[int] = frozenset()) -> list[Look]:
    """Every drawn node's look after step ``k`` (the page's script replays the same way)."""
    looks = [Look() for _ in end]
    for step in steps[: k + 1]:
        _kind, node, value, windows, _test, _line, pruned = step
        if looks[node].state == "unvisited":
            looks[node].state = "visited"
        if value is not None:
            looks[node].value = value
        for at, alpha, beta in windows or ():
            looks[at].alpha, looks[at].beta = alpha, beta
        for top in pruned or ():
            looks[top].cut = True
            for below in range(top, end[top]):
                looks[below].state = "pruned"
    current = steps[k]
    looks[current[1]].state = "current"
    if current[4]:
        looks[current[4][0]].test = current[4][1]
    if final is not None:  # the last step: the values as the record leaves them, and the best line
        for position, value in enumerate(final):
            if value is not None:
                looks[position].value = value
        for position in pv:
            looks[position].pv = True
    return looks


def write_steps(record: SearchRecord, events: list[Event], folder: str, fmt: str, *, lang: str = "en",
                depth: int | None = None, max_nodes: int = PAGE_MAX_DRAWN, force: bool = False) -> list[Path]:
    """Write ``step-000.svg`` … (or ``.png``) into ``folder``, all of them or none (:mod:`.step_files`);
    returns the files written."""
    if fmt not in ("svg", "png"):
        raise GameTreeError(f"--steps writes svg or png pictures, not {fmt}: give --format svg or --format png")
    converter = shutil.which("rsvg-convert") if fmt == "png" else None
    if fmt == "png" and converter is None:
        raise GameTreeError(RSVG_MISSING)
    check_steps_folder(folder, fmt, force=force)  # refused before the work, not after
    drawn = picture_nodes(record, blank=True, max_nodes=max_nodes, depth=depth)
    steps = page_steps(record, events, drawn, lang)
    final, pv = final_values(record, drawn), set(pv_positions(record, drawn))
    spot = layout(drawn, steps, final, page_words(lang))  # the pruning tests are placed inside the drawing
    names = step_names(len(steps), fmt)
    captions, said = [], ""
    for k, step in enumerate(steps):  # as the page shows it: a return right after a cut prints no line, the cut's stays
        said = step[5] or said
        captions.append(f"{k}/{len(steps) - 1}  {said.lstrip('. ').rstrip()}")
    frame = SlideFrame.around(spot.width, spot.height, captions)
    zoom = png_zoom(frame.width, frame.height)
    style = (resources.files("gametree_cli.views") / "page_assets" / "page.css").read_text(encoding="utf-8")
    style = style[style.index("/* the tree */"):style.index("/* practice */")] + _SLIDE_STYLE
    with steps_folder(folder) as staged:
        for k, name in enumerate(names):
            last = k == len(steps) - 1
            looks = step_looks(steps, k, spot.end, final if last else None, pv if last else set())
            svg = frame.slide(draw_svg(drawn, spot, looks, standalone=True, style=style, said=page_words(lang)),
                              captions[k])
            if fmt == "svg":
                (staged / name).write_text(svg, encoding="utf-8")
            else:
                _png(converter, svg, staged / name, zoom, str(Path(folder) / name))  # type: ignore[arg-type]
        publish_steps(staged, folder, names, fmt, force=force)
    return [Path(folder) / name for name in names]


_SLIDE_STYLE = ".caption { font: 18px 'DejaVu Sans Mono', monospace; fill: #1b1f24; }"


def png_zoom(width: float, height: float) -> float:
    """Twice the size, or less where rsvg-convert's (cairo's) limit of 32,767 pixels a side says so:
    Graphviz shrinks the single ``render --format png`` picture to its limit the same way."""
    side = max(width, height, 1.0)
    return min(PNG_ZOOM, math.floor((RSVG_MAX_SIDE - 8) / side * 1000) / 1000)


def _png(converter: str, svg: str, path: Path, zoom: float, name: str) -> None:
    done = subprocess.run([converter, "--format", "png", "--zoom", f"{zoom:g}", "--background-color", "white",
                           "-o", str(path)], input=svg.encode("utf-8"), capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GameTreeError(f"rsvg-convert could not write {name}: {message[-1] if message else 'failed'}")
