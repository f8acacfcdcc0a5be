"""Room for the page's texts: how wide a text is, and where an edge's label or a pruning test goes.

Why here: the page and the step slides draw every text at a place fixed once
for the whole search (nodes and labels never move between steps), so each
place must be clear of every edge, every other text and the current node's
ring at every step. The sizes are measured from DejaVu Sans (what Debian's
Chromium and librsvg use for the page's fonts), rounded up, so a text is at
most as wide as the room kept for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.model import CHANCE, MAX, MIN, PLAYER

__all__ = ["Box", "Segment", "text_width", "place_label", "place_pill", "shape_half", "ring_size", "union", "moved",
           "point_at", "AIR", "CUT"]

AIR = 4.0  # pixels kept between a text and anything else
CUT = 0.86  # where along an edge its ✂ sits: near the child, below the pills and the labels
_ALONG = (0.62, 0.66, 0.7, 0.74, 0.58, 0.55, 0.5, 0.45, 0.4, 0.3)  # where along its edge a label is tried
_NARROW = set("iljtfr.,:;'|!() ")
_WIDE = set("mwMW@%∞αβ≤≥−=+✂~<>#")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An upper bound of the text's width in pixels (DejaVu Sans, measured in Chromium: bold
    digits 0.70 em, regular 0.64 em; ∞, α, ≤ and the like 0.8 to 0.83 em; anything else 1 em)."""
    total = 0.0
    for char in text:
        if char in _NARROW:
            total += 0.42
        elif char in _WIDE:
            total += 0.9
        elif char.isascii():
            total += 0.74 if bold else 0.66
        else:
            total += 1.0
    return total * size


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: a text, a shape's outline, a ring."""

    left: float
    top: float
    right: float
    bottom: float

    def grown(self, by: float) -> Box:
        return Box(self.left - by, self.top - by, self.right + by, self.bottom + by)

    def meets(self, other: Box) -> bool:
        return self.left < other.right and other.left < self.right and self.top < other.bottom and other.top < self.bottom

    def overlap(self, other: Box) -> float:
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return width * height if width > 0 and height > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Segment:
    """An edge's line, with the half of its widest stroke (the best line's 7 px)."""

    x1: float
    y1: float
    x2: float
    y2: float
    half: float = 3.5

    def crosses(self, box: Box) -> bool:
        """Whether the stroked line touches the box (clipped to the box's rows, then compared in x)."""
        box = box.grown(self.half)
        low, high = min(self.y1, self.y2), max(self.y1, self.y2)
        top, bottom = max(box.top, low), min(box.bottom, high)
        if top > bottom:
            return False
        if self.y1 == self.y2:
            return min(self.x1, self.x2) < box.right and max(self.x1, self.x2) > box.left
        xs = [self.x1 + (self.x2 - self.x1) * (y - self.y1) / (self.y2 - self.y1) for y in (top, bottom)]
        return min(xs) < box.right and max(xs) > box.left

    def x_at(self, y: float) -> float:
        return self.x1 + (self.x2 - self.x1) * (y - self.y1) / (self.y2 - self.y1)


def _cost(box: Box, segments: list[Segment], boxes: list[Box], own: Segment | None, soft: list[Box]) -> float:
    """0 for a free place; else how much it hides: each crossing edge counts as a big overlap, a text
    covered by its area, and what shows only at some steps (a ring, a ✂, a pill: ``soft``) by a
    thousandth of its area, so it is avoided where it can be but never asks for width."""
    cost = sum(1000.0 for segment in segments if segment is not own and segment.crosses(box))
    cost += sum(box.overlap(other.grown(AIR)) for other in boxes)
    return cost + sum(box.overlap(other.grown(AIR)) for other in soft) / 1000


def place_label(edge: Segment, width: float, height: float, side: int, segments: list[Segment],
                boxes: list[Box], soft: list[Box]) -> tuple[Box, float]:
    """The box beside ``edge`` (on ``side`` first, -1 left, 1 right) that no other edge crosses and
    no text covers, from a little below the edge's middle towards the child (where the edges of a fan
    are furthest apart), then up; with its cost (under 1 when it covers no text and no edge crosses it)."""
    near = Box(min(edge.x1, edge.x2) - width - 40, edge.y1 - 40, max(edge.x1, edge.x2) + width + 40, edge.y2 + 40)
    segments = [segment for segment in segments if segment.crosses(near)]
    boxes = [box for box in boxes if box.meets(near)]
    soft = [box for box in soft if box.meets(near)]
    pad = edge.half + AIR  # the stroke's reach above and below the box, where a shallow edge comes near
    best: tuple[float, float, Box] | None = None
    for rank, fraction in enumerate(_ALONG):
        for turn, facing in enumerate((side, -side)):
            y = edge.y1 + (edge.y2 - edge.y1) * fraction
            top, bottom = y - height / 2, y + height / 2
            ends = [edge.x_at(max(min(row, edge.y2), edge.y1)) for row in (top - pad, bottom + pad)]
            if facing > 0:
                left = max(ends) + edge.half + AIR
                box = Box(left, top, left + width, bottom)
            else:
                right = min(ends) - edge.half - AIR
                box = Box(right - width, top, right, bottom)
            cost = _cost(box, segments, boxes, edge, soft)
            if cost == 0:
                return box, 0.0
            if best is None or (cost, rank * 2 + turn) < best[:2]:
                best = (cost, rank * 2 + turn, box)
    assert best is not None
    return best[2], best[0]


def place_pill(x: float, width: float, room: Box, inside: tuple[float, float], boxes: list[Box],
               soft: list[Box]) -> Box:
    """Where the pruning test of the node at ``x`` goes: under its texts (``room``: the node with its
    name, window and ring), else above them, slid sideways to stay inside the drawing (``inside``: its
    left and right) and off other nodes and texts (and, where it can, off a ✂: ``soft``). Edges may run
    under it (the pill is opaque and framed, drawn over them), so a test never asks for width; if
    every place covers something, the one covering least."""
    height = 24.0
    low, high = inside[0] + AIR, inside[1] - AIR
    best: tuple[float, int, Box] | None = None
    rank = 0
    for top in (room.bottom + AIR, room.top - AIR - height):
        for shift in (0.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75, -1.0, 1.0):
            left = x - width / 2 + shift * width
            left = max(low, min(left, high - width))
            box = Box(left, top, left + width, top + height)
            cost = _cost(box, [], boxes, None, soft)
            if cost == 0:
                return box
            if best is None or (cost, rank) < best[:2]:
                best = (cost, rank, box)
            rank += 1
    assert best is not None
    return best[2]


def shape_half(kind: int, value: float) -> float:
    """Half the shape's width: today's size, or wide enough that the value fits inside at its
    middle row (a triangle is narrower there than at its base)."""
    if kind == MAX:
        return max(25.0, (value / 2 + 1) / 0.7)
    if kind == MIN:
        return max(25.0, (value / 2 + 1) / 0.75)
    if kind == CHANCE:
        return max(21.0, value / 2 + 5)
    if kind == PLAYER:
        return max(52.0, value / 2 + 8)
    return max(18.0, value / 2 + 6)


def ring_size(kind: int, half: float) -> tuple[float, float]:
    """The ring round the current node, clear of its shape: round for ▲ ▼ ○, a box for the others."""
    if kind in (MAX, MIN):
        return max(33.0, 1.25 * half + 4), 33.0
    if kind == CHANCE:
        return max(33.0, half + 12), 33.0
    return half + 8, 28.0 if kind == PLAYER else 24.0


def union(boxes: list[Box]) -> Box:
    return Box(min(b.left for b in boxes), min(b.top for b in boxes), max(b.right for b in boxes),
               max(b.bottom for b in boxes))


def moved(box: Box | None, dx: float, dy: float) -> Box | None:
    return None if box is None else Box(box.left + dx, box.top + dy, box.right + dx, box.bottom + dy)


def point_at(segment: Segment, fraction: float) -> tuple[float, float]:
    return (segment.x1 + (segment.x2 - segment.x1) * fraction, segment.y1 + (segment.y2 - segment.y1) * fraction)
