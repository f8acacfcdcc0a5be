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

import shutil
import subprocess
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import GameTreeError
from ..search.events import Event
from ..io.files import write_atomically
from ..search.record import SearchRecord
from .page import PAGE_MAX_DRAWN
from .page_data import final_values, page_steps, pv_positions
from .page_svg import Look, draw_svg, layout
from .page_words import page_words
from .picture import picture_nodes

__all__ = ["write_steps", "step_looks", "RSVG_MISSING"]

RSVG_MISSING = ("--steps with --format png needs librsvg's rsvg-convert: install it with 'apt-get install "
                "librsvg2-bin' (Debian/Ubuntu) or 'brew install librsvg' (macOS), or write --format svg")
CAPTION = 64  # pixels under the tree for the step's trace line


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
    """Write ``step-001.svg`` … (or ``.png``) into ``folder``; returns the files written."""
    if fmt not in ("svg", "png"):
        raise GameTreeError(f"--steps writes svg or png pictures, not {fmt}: give --format svg or --format png")
    converter = shutil.which("rsvg-convert") if fmt == "png" else None
    if fmt == "png" and converter is None:
        raise GameTreeError(RSVG_MISSING)
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise GameTreeError(f"--steps {folder}: not a directory")
    drawn = picture_nodes(record, blank=True, max_nodes=max_nodes, depth=depth)
    spot = layout(drawn)
    steps = page_steps(record, events, drawn, lang)
    names = [target / f"step-{k:0{max(3, len(str(len(steps))))}d}.{fmt}" for k in range(len(steps))]
    clash = [name for name in names if name.exists()]
    if clash and not force:
        raise GameTreeError(f"{clash[0]} exists: give --force to replace the step pictures in {folder}")
    target.mkdir(parents=True, exist_ok=True)
    final, pv = final_values(record, drawn), set(pv_positions(record, drawn))
    style = (resources.files("gametree_cli.views") / "page_assets" / "page.css").read_text(encoding="utf-8")
    style = style[style.index("/* the tree */"):style.index("/* practice */")]
    for k, name in enumerate(names):
        last = k == len(steps) - 1
        looks = step_looks(steps, k, spot.end, final if last else None, pv if last else set())
        caption = f"{k}/{len(steps) - 1}  {steps[k][5].strip()}"
        svg = _with_caption(draw_svg(drawn, spot, looks, standalone=True, style=style + _SLIDE_STYLE,
                                     said=page_words(lang)),
                            spot.width, spot.height, caption)
        if fmt == "svg":
            write_atomically(name, svg, force=True)
        else:
            _png(converter, svg, name)  # type: ignore[arg-type]
    return names


_SLIDE_STYLE = ".caption { font: 18px 'DejaVu Sans Mono', monospace; fill: #1b1f24; }"


def _with_caption(svg: str, width: float, height: float, caption: str) -> str:
    """The tree with the step's trace line under it (the picture grows by CAPTION pixels)."""
    taller = height + CAPTION
    svg = svg.replace(f'viewBox="0 0 {width:.0f} {height:.0f}"', f'viewBox="0 0 {width:.0f} {taller:.0f}"', 1)
    svg = svg.replace(f'height="{height:.0f}"', f'height="{taller:.0f}"', 1)
    return svg.replace("</svg>", f'<text class="caption" x="20" y="{height + 36:.0f}">{escape(caption)}</text></svg>')


def _png(converter: str, svg: str, name: Path) -> None:
    done = subprocess.run([converter, "--format", "png", "--zoom", "2", "--background-color", "white", "-o", str(name)],
                          input=svg.encode("utf-8"), capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GameTreeError(f"rsvg-convert could not write {name}: {message[-1] if message else 'failed'}")

