"""The tree of the browser page and of the step slides, drawn as SVG in the course's notation.

One drawing for both: the page embeds it in the state before the first step
and its script changes only attributes and texts; a slide is the same
drawing with one step's state written in. ▲ max, ▼ min, ○ chance, a box
with the player's name in n-player trees, a square per leaf; states differ
in shape as well as colour (a ring and a thick outline for the current node,
dashes for pruned ones), so nothing is told by colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER
from ..core.numbers import format_number, format_value
from ..core.printable import printable
from .page_data import pretty
from .page_room import (AIR, CUT, Box, Segment, moved, place_label, place_pill, point_at, ring_size, shape_half,
                        text_width, union)
from .page_words import page_words
from .picture import Drawn

__all__ = ["Layout", "layout", "Look", "draw_svg", "pill_width", "KIND_NAMES"]

KIND_NAMES = {LEAF: "leaf", MAX: "max", MIN: "min", CHANCE: "chance", PLAYER: "player"}
LEVEL = 124  # pixels between levels
TOP = 56  # room above the root for its window
SIDE = 40


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
    """Where each drawn node and each of its texts sits, and the drawing's size: fixed for the
    whole search, so nothing moves from one step to the next."""

    x: list[float]
    y: list[float]
    width: float
    height: float
    end: list[int]  # per drawn node, the index after its drawn subtree (drawn is in preorder)
    parent: list[int]  # per drawn node, its parent's index in drawn (-1 for the root)
    half: list[float] = field(default_factory=list)  # the shape's half width (wider for a long value)
    ring: list[tuple[float, float]] = field(default_factory=list)  # the current-node ring's half width and height
    label: list[Box | None] = field(default_factory=list)  # the box of the edge's label above each node
    pill: list[Box | None] = field(default_factory=list)  # the box kept for the node's pruning test


def _label(item: Drawn) -> str:
    """The static text inside a node: a leaf's utility, or nothing."""
    if item.kind == LEAF and item.value is not None:
        return format_value(item.value)
    return ""


def _move(item: Drawn) -> str:
    """The text on the edge above a node: its probability under a chance node, else its move."""
    return pretty(format_number(item.p)) if item.p is not None else printable(item.move or "")


def _widest(texts: list[list[str]], size: float, bold: bool) -> list[float]:
    return [max((text_width(text, size, bold) for text in some), default=0.0) for some in texts]


def _shown_texts(size: int, steps: list[list[Any]], final: list[str | None] | None,
                 bound: str) -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
    """Every value, window line and pruning test each node shows at some step (the room kept for it)."""
    values: list[list[str]] = [[] for _ in range(size)]
    windows: list[list[str]] = [[] for _ in range(size)]  # room only where a window is shown
    tests: list[list[str]] = [[] for _ in range(size)]
    for step in steps:
        if step[2] is not None:
            values[step[1]].append(pretty(step[2]))
        for at, alpha, beta in step[3] or ():
            windows[at].extend(_window_text(alpha, beta, bound))
        if step[4]:
            tests[step[4][0]].append(step[4][1])
    for position, value in enumerate(final or ()):
        if value is not None:
            values[position].append(pretty(value))
    return values, windows, tests


def layout(drawn: list[Drawn], steps: list[list[Any]] | None = None, final: list[str | None] | None = None,
           said: dict[str, str] | None = None) -> Layout:
    """Leaves (and collapsed nodes) side by side in tree order, each parent centred over its children;
    each node as wide as the longest value it shows at any step (``steps``, ``final``: the page's
    data), and its edge's label and pruning test where nothing covers them (:mod:`.page_room`)."""
    size = len(drawn)
    said = said or page_words("en")
    values, windows, tests = _shown_texts(size, steps or [], final, said["bound_label"])
    for position, item in enumerate(drawn):
        values[position].append(_label(item))
    half = [shape_half(item.kind, width) for item, width in zip(drawn, _widest(values, 18, True))]
    ring = [ring_size(item.kind, width) for item, width in zip(drawn, half)]
    window = _widest(windows, 15, True)
    y, end = [0.0] * size, [0] * size
    children: list[list[int]] = [[] for _ in drawn]
    index = {item.node: position for position, item in enumerate(drawn)}
    parent = [index[item.parent] if item.parent >= 0 else -1 for item in drawn]
    for position, item in enumerate(drawn):
        y[position] = TOP + item.depth * LEVEL
        if parent[position] >= 0:
            children[parent[position]].append(position)
    for position in range(size - 1, -1, -1):  # children before parents
        end[position] = max([end[child] for child in children[position]], default=position + 1)
    slots = [_slot(item, half[position], ring[position][0], window[position], said) if not children[position] else 0.0
             for position, item in enumerate(drawn)]
    tested, gaps = _widest(tests, 15, True), [0.0] * size
    for _round in range(12):  # room made where a text found none, until every one has its place
        x, right = _across(children, slots, gaps)
        spot = Layout(x, list(y), right + SIDE, max(y, default=TOP) + 80, end, parent, half, ring)
        wanted = _place(drawn, spot, window, tested, said, children)
        if not wanted:
            break
        for position, more in wanted.items():
            gaps[position] += more
    _fit(spot)
    return spot


def _across(children: list[list[int]], slots: list[float], gaps: list[float]) -> tuple[list[float], float]:
    """Each leaf in its slot left to right (after the room asked before it), each parent centred over its children."""
    x, cursor = [0.0] * len(slots), float(SIDE)
    for position, slot in enumerate(slots):
        if not children[position]:
            cursor += gaps[position]
            x[position] = cursor + slot / 2
            cursor += slot
    for position in range(len(slots) - 1, -1, -1):
        if children[position]:
            x[position] = (x[children[position][0]] + x[children[position][-1]]) / 2
    return x, cursor


def _slot(item: Drawn, half: float, ring: float, window: float, said: dict[str, str]) -> float:
    """The width a leaf (or a collapsed node) takes in its row: its shape, its id, its window."""
    more = text_width(said["more"].format(count=f"{item.hidden:,}"), 13) if item.hidden else 0.0
    if item.kind == LEAF:
        return max(64.0, 2 * half + 16, text_width(printable(item.name), 12) + 12, more + 12)
    side = ring + 3 + AIR + max(text_width(printable(item.name), 14), window)
    return max(150.0 if item.kind == PLAYER else 136.0, 2 * side + 8, more + 12)


def _node_boxes(item: Drawn, spot: Layout, position: int, window: float, said: dict[str, str]) -> list[Box]:
    """What a node always covers: its ring, its id, its window, the count of what is collapsed."""
    x, y = spot.x[position], spot.y[position]
    across, down = spot.ring[position]
    boxes = [Box(x - across - 3, y - down - 3, x + across + 3, y + down + 3)]
    name = text_width(printable(item.name), 12 if item.kind == LEAF else 14)
    if item.kind == LEAF:
        boxes.append(Box(x - name / 2, y + down + 3 + AIR, x + name / 2, y + down + 3 + AIR + 14))
    else:
        side = across + 3 + AIR
        boxes.append(Box(x - side - name, y - 8, x - side, y + 9))
        boxes.append(Box(x + side, y - 19, x + side + window, y + 17))
    if item.hidden:
        more = text_width(said["more"].format(count=f"{item.hidden:,}"), 13)
        boxes.append(Box(x - more / 2, y + down + 18, x + more / 2, y + down + 34))
    return boxes


def _place(drawn: list[Drawn], spot: Layout, window: list[float], tests: list[float], said: dict[str, str],
           children: list[list[int]]) -> dict[int, float]:
    """Each edge's label beside its edge, then each pruning test, where no edge crosses them and no
    text (nor the ring, nor a ✂) covers them; returns the room (before which leaf, how much) still
    wanted: where two nodes' texts meet, or a label or a test found no free place."""
    size = len(drawn)
    first = [position if not children[position] else 0 for position in range(size)]
    for position in range(size - 1, -1, -1):
        if children[position]:
            first[position] = first[children[position][0]]
    owned = [_node_boxes(item, spot, position, window[position], said) for position, item in enumerate(drawn)]
    wanted = _apart(drawn, spot, owned, first)
    segments: dict[int, Segment] = {}
    rings = [some[0] for some in owned]  # a ring shows only round the current node: covering it never asks for width
    texts = [box for some in owned for box in some[1:]]
    cuts = []
    for position in range(size):
        if spot.parent[position] >= 0:
            segment = segments[position] = _segment(spot, position)
            cut_x, cut_y = point_at(segment, CUT)
            cuts.append(Box(cut_x - 12, cut_y - 12, cut_x + 12, cut_y + 9))
    lines = list(segments.values())
    spot.label, spot.pill = [None] * size, [None] * size
    for position, width in enumerate(tests):  # first: opaque, over edges, off every node and text
        if width:
            spot.pill[position] = place_pill(spot.x[position], width + 28, union(owned[position]),
                                             (0.0, spot.width), texts + rings, cuts)
    soft = rings + cuts + [box for box in spot.pill if box is not None]
    for position, item in enumerate(drawn):
        text = _move(item) if position in segments else ""
        if text:
            segment = segments[position]
            side = -1 if segment.x2 < segment.x1 else 1
            box, cost = place_label(segment, text_width(text, 14) + 2, 16, side, lines, texts, soft)
            spot.label[position] = box
            texts.append(box)
            if cost >= 1:  # crossed by an edge or over a text: room beside it, 16 px a round
                siblings = children[spot.parent[position]]
                at = siblings.index(position)
                if len(siblings) > 1:
                    wanted[first[siblings[max(at, 1)]]] = wanted.get(first[siblings[max(at, 1)]], 0.0) + 16
    return wanted


def _apart(drawn: list[Drawn], spot: Layout, owned: list[list[Box]], first: list[int]) -> dict[int, float]:
    """The room wanted where two nodes of one row come closer than their texts allow."""
    rows: dict[int, list[int]] = {}
    for position, item in enumerate(drawn):
        rows.setdefault(item.depth, []).append(position)
    wanted: dict[int, float] = {}
    for row in rows.values():
        row.sort(key=lambda position: spot.x[position])
        for left, right in zip(row, row[1:]):
            short = union(owned[left]).right + AIR - union(owned[right]).left
            if short > 0:
                wanted[first[right]] = max(wanted.get(first[right], 0.0), short + 1)
    return wanted


def _segment(spot: Layout, position: int) -> Segment:
    above = spot.parent[position]
    return Segment(spot.x[above], spot.y[above] + 20, spot.x[position], spot.y[position] - 20)


def _fit(spot: Layout) -> None:
    """Grow the drawing (and move everything right or down) so that every label and test is inside it."""
    kept = [box for box in spot.label + spot.pill if box is not None]
    if not kept:
        return
    every = union(kept)
    dx, dy = max(0.0, 8 - every.left), max(0.0, 8 - every.top)
    if dx or dy:
        spot.x = [value + dx for value in spot.x]
        spot.y = [value + dy for value in spot.y]
        spot.label = [moved(box, dx, dy) for box in spot.label]
        spot.pill = [moved(box, dx, dy) for box in spot.pill]
    spot.width = max(spot.width + dx, every.right + dx + 8)
    spot.height = max(spot.height + dy, every.bottom + dy + 8)


def _shape(item: Drawn, half: float) -> str:
    if item.kind == MAX:
        return f'<path class="shape" d="M0,-22 L{half:.1f},18 L{-half:.1f},18 Z"/>'
    if item.kind == MIN:
        return f'<path class="shape" d="M0,22 L{half:.1f},-18 L{-half:.1f},-18 Z"/>'
    if item.kind == CHANCE:
        return f'<ellipse class="shape" rx="{half:.1f}" ry="21"/>'
    if item.kind == PLAYER:
        return f'<rect class="shape" x="{-half:.1f}" y="-20" width="{2 * half:.1f}" height="40" rx="9"/>'
    return f'<rect class="shape" x="{-half:.1f}" y="-17" width="{2 * half:.1f}" height="34" rx="3"/>'


def _halo(item: Drawn, ring: tuple[float, float]) -> str:
    across, down = ring
    if item.kind in (MAX, MIN, CHANCE):
        return f'<ellipse class="halo" rx="{across:.1f}" ry="{down:.1f}"/>'
    return f'<rect class="halo" x="{-across:.1f}" y="{-down:.1f}" width="{2 * across:.1f}" height="{2 * down:.1f}" rx="10"/>'


def _node(position: int, item: Drawn, spot: Layout, look: Look, said: dict[str, str]) -> str:
    kind = KIND_NAMES[item.kind]
    x, y, (across, down) = spot.x[position], spot.y[position], spot.ring[position]
    value_y = {MAX: 12, MIN: -2, PLAYER: 14}.get(item.kind, 6)
    parts = [
        f'<g class="node {kind}" id="n{position}" data-node="{_text(item.name)}" data-kind="{kind}" '
        f'data-state="{look.state}" data-value="{escape(look.value)}" data-alpha="{escape(look.alpha)}" '
        f'data-beta="{escape(look.beta)}" transform="translate({x:.1f},{y:.1f})">',
        _halo(item, spot.ring[position]),
        _shape(item, spot.half[position]),
    ]
    if item.kind == PLAYER:
        parts.append(f'<text class="who" y="-4">{_text(item.player or "")}</text>')
    shown = _label(item) or look.value
    parts.append(f'<text class="val" y="{value_y}">{escape(pretty(shown))}</text>')
    side = across + 3 + AIR  # clear of the ring
    if item.kind == LEAF:
        parts.append(f'<text class="name" y="{down + 3 + AIR + 11:.0f}">{_text(item.name)}</text>')
    else:
        parts.append(f'<text class="name" x="{-side:.1f}" y="5">{_text(item.name)}</text>')
        alpha = _window_text(look.alpha, look.beta, said["bound_label"])
        parts.append(f'<text class="win" x="{side:.1f}" y="-4"><tspan class="a">{escape(alpha[0])}</tspan>'
                     f'<tspan class="b" x="{side:.1f}" dy="17">{escape(alpha[1])}</tspan></text>')
    if item.hidden:
        parts.append(f'<text class="more" y="{down + 30:.0f}">'
                     f'{escape(said["more"].format(count=f"{item.hidden:,}"))}</text>')
    pill = spot.pill[position] if spot.pill else None
    if pill is not None:  # the room kept for the test; the page's script sizes the pill to the text
        middle_x, middle_y = (pill.left + pill.right) / 2 - x, (pill.top + pill.bottom) / 2 - y
        width = min(pill_width(look.test), pill.right - pill.left)
        parts.append(f'<g class="test" transform="translate({middle_x:.1f},{middle_y:.1f})"{_hidden(look.test)}>'
                     f'<rect class="pill" x="{-width / 2:.0f}" y="-12" width="{width:.0f}" height="24" rx="12"/>'
                     f'<text y="5">{escape(look.test)}</text></g>')
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
    box = spot.label[position] if spot.label else None
    label = escape(_move(item)) if box is not None else ""
    where = f' x="{box.left + 1:.1f}" y="{box.bottom - 4:.1f}"' if box is not None else ""
    cut_x, cut_y = x1 + (x2 - x1) * CUT, y1 + (y2 - y1) * CUT
    return (f'<g class="{classes}" data-edge="{_text(item.name)}" data-child="{position}">'
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
            f'<line class="hit" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
            f'<text class="move"{where}>{label}</text>'
            f'<text class="scissors" x="{cut_x:.1f}" y="{cut_y + 7:.1f}"{_hidden(look.cut)}>✂</text>'
            "</g>")


def pill_width(test: str) -> float:
    """The width of the pill behind a pruning test, from its length (15 px bold sans: at
    most about 0.74 em a character, plus the rounded ends); the page's script measures the text instead."""
    return text_width(test, 15, True) + 24


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
        parts.append(_node(position, item, spot, looks[position], said))
    parts.append("</g></svg>")
    return "".join(parts)
