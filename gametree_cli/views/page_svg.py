"""The tree of the browser page and of the step slides, drawn as SVG in the course's notation.

One drawing for both: the page embeds it in the state before the first step
and its script changes only attributes and texts; a slide is the same
drawing with one step's state written in. ▲ max, ▼ min, ○ chance, a box
with the player's name in n-player trees, a square per leaf; states differ
in shape as well as colour (a ring and a thick outline for the current node,
dashes for pruned ones), so nothing is told by colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER
from ..core.numbers import format_number, format_value
from ..core.printable import printable
from .page_data import pretty
from .page_words import page_words
from .picture import Drawn

__all__ = ["Layout", "layout", "Look", "draw_svg", "pill_width", "KIND_NAMES"]

KIND_NAMES = {LEAF: "leaf", MAX: "max", MIN: "min", CHANCE: "chance", PLAYER: "player"}
LEVEL = 124  # pixels between levels
TOP = 56  # room above the root for its window
SIDE = 40
CHAR = 10.4  # width of a character of the value font (bold, 18 px), for sizing leaves


@dataclass(slots=True)
class Look:
    """What one node shows at one step (the page's script keeps the same facts)."""

    state: str = "unvisited"
    value: str = ""
    alpha: str = ""
    beta: str = ""
    test: str = ""
    cut: bool = False  # its edge carries the ✂ of the cut that skipped it
    pv: bool = False


@dataclass(slots=True)
class Layout:
    """Where each drawn node sits, and the drawing's size."""

    x: list[float]
    y: list[float]
    width: float
    height: float
    end: list[int]  # per drawn node, the index after its drawn subtree (drawn is in preorder)
    parent: list[int]  # per drawn node, its parent's index in drawn (-1 for the root)


def _label(item: Drawn) -> str:
    """The static text inside a node: a leaf's utility, or nothing."""
    if item.kind == LEAF and item.value is not None:
        return format_value(item.value)
    return ""


def layout(drawn: list[Drawn]) -> Layout:
    """Leaves (and collapsed nodes) side by side in tree order, each parent centred over its children."""
    size = len(drawn)
    x, y, end = [0.0] * size, [0.0] * size, [0] * size
    children: list[list[int]] = [[] for _ in drawn]
    index = {item.node: position for position, item in enumerate(drawn)}
    parent = [index[item.parent] if item.parent >= 0 else -1 for item in drawn]
    for position, item in enumerate(drawn):
        y[position] = TOP + item.depth * LEVEL
        if parent[position] >= 0:
            children[parent[position]].append(position)
    cursor = float(SIDE)
    for position in range(size - 1, -1, -1):  # children before parents
        end[position] = max([end[child] for child in children[position]], default=position + 1)
    for position, item in enumerate(drawn):
        if not children[position]:
            text = _label(item) or (f"+{item.hidden:,} more" if item.hidden else "")
            inner = 150.0 if item.kind == PLAYER else 136.0 if item.kind != LEAF else 0.0  # name, shape, window
            slot = max(64.0, len(text) * CHAR + 16, inner)
            x[position] = cursor + slot / 2
            cursor += slot
    for position in range(size - 1, -1, -1):
        if children[position]:
            x[position] = (x[children[position][0]] + x[children[position][-1]]) / 2
    height = max(y, default=TOP) + 80
    return Layout(x, y, cursor + SIDE, height, end, parent)


def _shape(item: Drawn) -> str:
    if item.kind == MAX:
        return '<path class="shape" d="M0,-22 L25,18 L-25,18 Z"/>'
    if item.kind == MIN:
        return '<path class="shape" d="M0,22 L25,-18 L-25,-18 Z"/>'
    if item.kind == CHANCE:
        return '<circle class="shape" r="21"/>'
    if item.kind == PLAYER:
        return '<rect class="shape" x="-52" y="-20" width="104" height="40" rx="9"/>'
    width = max(36.0, len(_label(item)) * CHAR + 12)
    return f'<rect class="shape" x="{-width / 2:.0f}" y="-17" width="{width:.0f}" height="34" rx="3"/>'


def _node(position: int, item: Drawn, x: float, y: float, look: Look, said: dict[str, str]) -> str:
    kind = KIND_NAMES[item.kind]
    value_y = {MAX: 12, MIN: -2, PLAYER: 14}.get(item.kind, 6)
    parts = [
        f'<g class="node {kind}" id="n{position}" data-node="{_text(item.name)}" data-kind="{kind}" '
        f'data-state="{look.state}" data-value="{escape(look.value)}" data-alpha="{escape(look.alpha)}" '
        f'data-beta="{escape(look.beta)}" transform="translate({x:.1f},{y:.1f})">',
        '<circle class="halo" r="33"/>',
        _shape(item),
    ]
    if item.kind == PLAYER:
        parts.append(f'<text class="who" y="-4">{_text(item.player or "")}</text>')
    shown = _label(item) or look.value
    parts.append(f'<text class="val" y="{value_y}">{escape(pretty(shown))}</text>')
    if item.kind == LEAF:
        parts.append(f'<text class="name" y="34">{_text(item.name)}</text>')
    else:
        left = -58 if item.kind == PLAYER else -30
        parts.append(f'<text class="name" x="{left}" y="5">{_text(item.name)}</text>')
        right = 58 if item.kind == PLAYER else 30
        alpha = _window_text(look.alpha, look.beta, said["bound_label"])
        parts.append(f'<text class="win" x="{right}" y="-4"><tspan class="a">{escape(alpha[0])}</tspan>'
                     f'<tspan class="b" x="{right}" dy="17">{escape(alpha[1])}</tspan></text>')
    if item.hidden:
        parts.append(f'<text class="more" y="40">{escape(said["more"].format(count=f"{item.hidden:,}"))}</text>')
    pill = pill_width(look.test)
    parts.append(f'<g class="test"{_hidden(look.test)}><rect class="pill" x="{-pill / 2:.0f}" y="26" '
                 f'width="{pill:.0f}" height="24" rx="12"/><text y="43">{escape(look.test)}</text></g>')
    parts.append("</g>")
    return "".join(parts)


def _text(name: str) -> str:
    """A name from the tree file as SVG text: control characters and lone surrogates escaped
    (XML cannot hold them), then ``<``, ``&`` and quotes."""
    return escape(printable(name))


def _hidden(shown: object) -> str:
    return "" if shown else ' visibility="hidden"'


def _window_text(alpha: str, beta: str, bound: str = "Bound") -> tuple[str, str]:
    if not alpha and not beta:
        return "", ""
    if alpha == "Bound":
        return f"{bound}={pretty(beta)}", ""
    return f"α={pretty(alpha)}", f"β={pretty(beta)}"


def _edge(position: int, item: Drawn, parent: int, spot: Layout, look: Look) -> str:
    x1, y1, x2, y2 = spot.x[parent], spot.y[parent] + 20, spot.x[position], spot.y[position] - 20
    classes = "edge" + (" pv" if look.pv else "") + (" pruned" if look.state == "pruned" else "")
    label = pretty(format_number(item.p)) if item.p is not None else printable(item.move or "")
    middle_x, middle_y = x1 + (x2 - x1) * 0.55, y1 + (y2 - y1) * 0.55 + 5
    side = -1 if x2 < x1 else 1
    cut_x, cut_y = x1 + (x2 - x1) * 0.78, y1 + (y2 - y1) * 0.78
    return (f'<g class="{classes}" data-edge="{_text(item.name)}" data-child="{position}">'
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
            f'<line class="hit" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
            f'<text class="move" x="{middle_x + side * 8:.1f}" y="{middle_y:.1f}" text-anchor="{"start" if side > 0 else "end"}">'
            f'{escape(label)}</text>'
            f'<text class="scissors" x="{cut_x:.1f}" y="{cut_y + 7:.1f}"{_hidden(look.cut)}>✂</text>'
            "</g>")


def pill_width(test: str) -> float:
    """The width of the pill behind a pruning test, from its length (15 px bold sans: about
    9.2 px a character, plus the rounded ends); the page's script measures the text instead."""
    return max(180.0, len(test) * 9.2 + 28)


def draw_svg(drawn: list[Drawn], spot: Layout, looks: list[Look] | None = None, *, standalone: bool = False,
             style: str = "", said: dict[str, str] | None = None) -> str:
    """The tree as one ``<svg>``; ``looks`` gives each node's state (default: before the first step);
    ``said``: the page's words (:mod:`.page_words`), English by default."""
    said = said or page_words("en")
    looks = looks or [Look() for _ in drawn]
    head = f'<svg xmlns="http://www.w3.org/2000/svg" id="tree" viewBox="0 0 {spot.width:.0f} {spot.height:.0f}"'
    head += f' width="{spot.width:.0f}" height="{spot.height:.0f}"' if standalone else ""
    parts = [head + f' role="img" aria-label="{escape(said["svg"])}">']
    if style:
        parts.append(f"<style>{style}</style>")
    parts.append('<rect class="paper" width="100%" height="100%"/>' if standalone else "")
    parts.append('<g class="edges">')
    for position, item in enumerate(drawn):
        if item.parent >= 0:
            parts.append(_edge(position, item, spot.parent[position], spot, looks[position]))
    parts.append('</g><g class="nodes">')
    for position, item in enumerate(drawn):
        parts.append(_node(position, item, spot.x[position], spot.y[position], looks[position], said))
    parts.append("</g></svg>")
    return "".join(parts)
