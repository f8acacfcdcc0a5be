"""Where Graphviz really put things: boxes and splines read from ``dot -Tjson``, for the layout tests.

A picture's annotations are every piece of text that is not inside its own
node's shape: the text of shapeless (``plaintext``/``none``) nodes, text a
shaped node draws outside its outline (an ``xlabel``), edge labels and the
graph's heading. :func:`problems` lists each annotation an edge's spline
runs through and each pair of annotations (or an annotation and a node)
that overlap, in words a failing test can print.
"""

from __future__ import annotations

import json
import math
import subprocess
from dataclasses import dataclass
from typing import Any

SHAPELESS = {"plaintext", "plain", "none"}
TOLERANCE = 0.75  # points: a spline grazing a box's corner, or boxes touching, are not faults
ASCENT, DESCENT = 0.78, 0.22  # of the font size, above and below a text line's baseline (Helvetica)
NEAR = 12.0  # points: an annotation farther than this from its node reads as nobody's
SPACE = 0.278  # of the font size: the width of a space (Helvetica)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in Graphviz points (y grows upwards), and what it is."""

    left: float
    bottom: float
    right: float
    top: float
    owner: str  # the node or edge it belongs to: boxes of one owner may touch each other
    what: str

    def shrunk(self, by: float) -> Box:
        return Box(self.left + by, self.bottom + by, self.right - by, self.top - by, self.owner, self.what)

    def overlaps(self, other: Box) -> bool:
        return self.left < other.right and other.left < self.right and self.bottom < other.top and other.bottom < self.top

    def holds(self, x: float, y: float) -> bool:
        return self.left < x < self.right and self.bottom < y < self.top


@dataclass
class Layout:
    """One laid-out picture: its annotations' boxes, its shaped nodes' boxes and its edges' sampled splines."""

    labels: list[Box]
    nodes: list[Box]
    splines: dict[str, list[tuple[float, float]]]


def lay_out(dot_program: str, dot_text: str) -> Layout:
    """Run ``dot -Tjson`` on the text and read back where everything went."""
    done = subprocess.run([dot_program, "-Tjson"], input=dot_text.encode("utf-8"), capture_output=True, check=True)
    return read_layout(json.loads(done.stdout))


def read_layout(graph: dict[str, Any]) -> Layout:
    """The boxes and splines of ``dot -Tjson``'s output."""
    labels = _text_boxes(graph.get("_ldraw_", []), "graph", "the heading")
    nodes: list[Box] = []
    names = {}
    for node in graph.get("objects", []):
        if "pos" not in node:  # a subgraph
            continue
        name = node["name"]
        names[node["_gvid"]] = name
        texts = _text_boxes(node.get("_ldraw_", []), name, f"{name}'s text")
        if node.get("shape") in SHAPELESS:
            labels.extend(texts)
            continue
        x, y = (float(part) for part in node["pos"].split(","))
        half_w, half_h = float(node["width"]) * 36, float(node["height"]) * 36
        outline = Box(x - half_w, y - half_h, x + half_w, y + half_h, name, f"node {name}")
        nodes.append(outline)
        labels.extend(text for text in texts if not _inside(text, outline))  # an xlabel: drawn beside the shape
    splines = {}
    for edge in graph.get("edges", []):
        if edge.get("style") == "invis":
            continue
        key = f"{names[edge['tail']]}->{names[edge['head']]}"
        labels.extend(_text_boxes(edge.get("_ldraw_", []), key, f"edge {key}'s label"))
        splines[key] = [point for op in edge.get("_draw_", []) if op["op"] in "bB" for point in _sample(op["points"])]
    return Layout(labels, nodes, splines)


def problems(layout: Layout) -> list[str]:
    """Every edge through an annotation, and every overlap of an annotation with another or with a node."""
    found = []
    for key, points in layout.splines.items():
        for label in layout.labels:
            inner = label.shrunk(TOLERANCE)
            if any(inner.holds(x, y) for x, y in points):
                found.append(f"edge {key} runs through {label.what}")
    for k, label in enumerate(layout.labels):
        inner = label.shrunk(TOLERANCE)
        for other in layout.labels[k + 1:]:
            if other.owner != label.owner and inner.overlaps(other):
                found.append(f"{label.what} overlaps {other.what}")
        for node in layout.nodes:
            if inner.overlaps(node):
                found.append(f"{label.what} overlaps {node.what}")
    return found


def strays(layout: Layout) -> list[str]:
    """Every annotation ``aK`` not right beside its node ``nK``: left of it, level with it, close
    (within ``NEAR`` points), and nothing else drawn between the two."""
    found = []
    nodes = {box.owner: box for box in layout.nodes}
    notes: dict[str, list[Box]] = {}
    for box in layout.labels:
        if box.owner[:1] == "a" and box.owner[1:].isdigit():
            notes.setdefault(box.owner, []).append(box)
    for owner, lines in notes.items():
        node = nodes["n" + owner[1:]]
        right = max(line.right for line in lines)
        level = min(line.bottom for line in lines) < node.top and node.bottom < max(line.top for line in lines)
        if not (level and 0 <= node.left - right <= NEAR):
            found.append(f"{owner}'s note is not beside {node.what}: {node.left - right:.1f} points to its left")
        between = Box(right, node.bottom, node.left, node.top, owner, "the gap")
        found.extend(f"{other.what} is between {owner}'s note and {node.what}"
                     for other in [*layout.nodes, *layout.labels]
                     if other.owner not in (owner, node.owner) and between.shrunk(TOLERANCE).overlaps(other))
    return found


def _text_boxes(ops: list[dict[str, Any]], owner: str, what: str) -> list[Box]:
    """One box per line of text an xdot draw list writes (``T`` ops, sized by the last ``F``)."""
    boxes, size = [], 14.0
    for op in ops:
        if op["op"] == "F":
            size = float(op["size"])
        elif op["op"] == "T" and op["text"].strip():
            x, y = op["pt"]
            width = float(op["width"])
            left = {"l": x, "c": x - width / 2, "r": x - width}[op["align"]]
            before = (len(op["text"]) - len(op["text"].lstrip(" "))) * SPACE * size  # blank, not ink
            after = (len(op["text"]) - len(op["text"].rstrip(" "))) * SPACE * size
            boxes.append(Box(left + before, y - DESCENT * size, left + width - after, y + ASCENT * size, owner,
                             f"{what} {op['text'].strip()!r}"))
    return boxes


def _inside(text: Box, outline: Box) -> bool:
    """The text's middle lies inside the node's bounding box: the node's own value, not an xlabel."""
    return outline.holds((text.left + text.right) / 2, (text.bottom + text.top) / 2)


def _sample(points: list[list[float]]) -> list[tuple[float, float]]:
    """Points along a chain of cubic Bézier pieces, about one point apart."""
    samples = [(points[0][0], points[0][1])]
    for start in range(0, len(points) - 3, 3):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[start:start + 4]
        polygon = math.dist((x0, y0), (x1, y1)) + math.dist((x1, y1), (x2, y2)) + math.dist((x2, y2), (x3, y3))
        steps = max(4, math.ceil(polygon))  # the control polygon is at least as long as the curve
        for step in range(1, steps + 1):
            t = step / steps
            u = 1 - t
            samples.append((u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                            u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3))
    return samples
