"""The annotated tree as a Graphviz picture: DOT text, and SVG/PNG through ``dot``.

Drawn the way course slides draw game trees: ▲ triangles for max, ▼ inverted
triangles for min, circles for chance, rounded boxes named after the player
in n-player trees, squares for leaves; the value inside each node, its id
(and the alpha/beta it returned with) beside it; a value that is a bound
as ``≥ 8`` / ``≤ 2``; the principal variation bold and green, its ids
marked ★ (visible in black and white); pruned subtrees dashed and grey, with a ✂ on the edge where
the cut happened; nodes below a depth limit dotted. A view of one
:class:`SearchRecord`: it never searches.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from html import escape

from ..core.errors import GameTreeError
from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER
from ..core.numbers import Number, Value, format_number
from ..core.printable import printable
from ..search.record import Cut, SearchRecord
from .annotated import summary_line
from .picture import DEFAULT_MAX_NODES_SHOWN, Drawn, picture_nodes
from .words import PV_MARK, words

__all__ = ["render_dot", "render_image", "render_svg", "notebook_svg", "dot_program", "GRAPHVIZ_MISSING", "IMAGE_FORMATS"]

IMAGE_FORMATS = ("svg", "png", "pdf")
GRAPHVIZ_MISSING = (
    "Graphviz's dot program is not installed (needed for {format} output); install it with "
    "'apt-get install graphviz' (Debian/Ubuntu), 'brew install graphviz' (macOS) or from graphviz.org, "
    "or write --format dot and run dot yourself"
)
_SHAPES = {MAX: "triangle", MIN: "invtriangle", CHANCE: "circle", PLAYER: "box", LEAF: "box"}
_PV_COLOUR = "#1a7f37"
_GREY = "gray55"
_AIR = 16  # points of empty space left of an annotation: it reads as its own node's, not its left neighbour's


def dot_program() -> str | None:
    """The path of Graphviz's ``dot``, or None when it is not installed."""
    return shutil.which("dot")


def _quote(text: str) -> str:
    """A DOT quoted string; backslashes are doubled so labels show them literally."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _number(number: Number) -> str:
    if isinstance(number, float) and math.isinf(number):
        return "∞" if number > 0 else "−∞"
    text = format_number(number)
    return "−" + text[1:] if text.startswith("-") else text


def _value(value: Value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_number(part) for part in value) + ")"
    return _number(value)


_OPS = {">=": "≥", "<=": "≤", ">": ">", "<": "<"}
_GREEK = {"alpha": "α", "beta": "β"}


def _cut(cut: Cut, last: bool, w: dict[str, str]) -> str:
    """``✂ v=8 ≥ β=3``; a cut at the last child (nothing pruned) says so instead of ✂."""
    value_name = _GREEK.get(cut.value_name) or w.get(f"name {cut.value_name}", cut.value_name)  # words' wording
    bound_name = _GREEK.get(cut.bound_name) or w.get(f"name {cut.bound_name}", cut.bound_name)
    reason = f"{value_name}={_value(cut.value)} {_OPS.get(cut.op, cut.op)} {bound_name}={_value(cut.bound)}"
    return f"{reason}\n({w['last_child_short']})" if last else f"✂ {reason}"


def _node_lines(item: Drawn, w: dict[str, str], side: int = 0) -> list[str]:
    """The DOT statements of one node and the edge into it (``side``: see :func:`_edge_line`)."""
    key = f"n{item.node}"
    label = "" if item.value is None else (f"{item.sign} " if item.sign else "") + _value(item.value)
    if item.kind == PLAYER:
        label = printable(str(item.player)) + ("\n" + label if label else "")
    outside = [(f"{PV_MARK} " if item.on_pv else "") + printable(item.name) + (f"  ({w['eval']})" if item.horizon else "")]
    if item.alpha is not None and item.beta is not None:
        outside.append(f"α={_value(item.alpha)}, β={_value(item.beta)}")
    if item.bound is not None:
        outside.append(f"{w['bound']}={_value(item.bound)}")
    if item.probe is not None:  # Star2's probe of the node's first move
        side, found = item.probe
        outside.append(f"{w['probe_short']} {'≥' if side == 'lower' else '≤'} {_value(found)}" if side else
                       f"{w['probe_short']} {_value(found)}: {w['no_bound']}")
    if item.cut is not None:
        outside.append(_cut(item.cut, item.cut_last, w))
    attributes = [f"label={_quote(label)}", f"shape={_SHAPES[item.kind]}"]
    if item.kind == PLAYER:
        attributes.append('style="rounded"')
    if item.kind == LEAF:
        attributes.append("width=0.4")
    if item.on_pv:
        attributes.append(f'penwidth=3, color="{_PV_COLOUR}", fontcolor="{_PV_COLOUR}"')
    elif item.pruned:
        attributes.append(f'style="dashed{",rounded" if item.kind == PLAYER else ""}", color={_GREY}, fontcolor={_GREY}')
    elif item.unsearched:
        attributes.append(f'style="dotted{",rounded" if item.kind == PLAYER else ""}", color={_GREY}, fontcolor={_GREY}')
    lines = [f"  {key} [{', '.join(part for part in attributes if part)}];", *_annotation(item, outside)]
    if item.parent >= 0:
        lines.append(_edge_line(item, side))
    if item.hidden:
        more = f"m{item.node}"
        note = _quote(w["more"].format(count=f"{item.hidden:,}"))
        lines.append(f'  {more} [label={note}, shape=plaintext, margin="0.12,0.02", fontcolor={_GREY}];')  # air: notes abreast
        lines.append(f"  {key} -> {more} [style=dotted, color={_GREY}];")
    return lines


def _edge_line(item: Drawn, side: int) -> str:
    """The edge from the parent: its move, probability and ✂ as a label, the look of its line.

    dot sets an edge's label just right of the point where the edge crosses
    the middle of the ranks, and a slanting edge then grazes the label's top
    (edges to the left half of the children) or its bottom (the right half):
    ``side`` (-1, 0, 1) shifts the text a line away from the edge there.
    """
    edge_label = []
    if item.move is not None:
        edge_label.append(printable(item.move))
    if item.p is not None:
        edge_label.append(f"p={_number(item.p)}")
    if item.cut_edge:
        edge_label.append("✂")
    edge = []
    if edge_label:
        text = "  " + " ".join(edge_label) + " "  # air between the edge and its label
        edge.append(f"label={_quote({-1: chr(10) + text, 1: text + chr(10)}.get(side, text))}")
    if item.on_pv:
        edge.append(f'penwidth=3, color="{_PV_COLOUR}"')
    elif item.pruned:
        edge.append(f"style=dashed, color={_GREY}, fontcolor={'red' if item.cut_edge else _GREY}")
        if item.cut_edge:
            edge.append("fontsize=16")
    elif item.unsearched:
        edge.append(f"style=dotted, color={_GREY}, fontcolor={_GREY}")
    return f"  n{item.parent} -> n{item.node}" + (f" [{', '.join(edge)}]" if edge else "") + ";"


def _annotation(item: Drawn, outside: list[str]) -> list[str]:
    """The node's id, window and cut note as a text node of its own, left of the node in its rank.

    Why not an ``xlabel``: Graphviz places xlabels after the layout, clear of
    nodes but not of edges, so edges ran through them. A node of its own is
    laid out with the tree: dot keeps it beside the node (same rank, an
    invisible edge to the node's left) and routes every edge around it.
    """
    colour = f'"{_PV_COLOUR}"' if item.on_pv else _GREY if item.pruned or item.unsearched else "black"
    text = "<br/>".join(escape(line, quote=False) for line in "\n".join(outside).split("\n"))
    table = (f'<table border="0" cellborder="0" cellspacing="0" cellpadding="0"><tr><td width="{_AIR}"></td>'
             f'<td balign="right">{text}</td></tr></table>')
    return [f"  a{item.node} [label=<{table}>, shape=plaintext, width=0, height=0, margin=0, fontcolor={colour}];",
            f"  {{rank=same; a{item.node} -> n{item.node} [style=invis];}}"]


def _side(place: int, count: int) -> int:
    """Which half of its parent's ``count`` children the ``place``-th is in: -1 left, 1 right, 0 the middle one."""
    middle = (count - 1) / 2
    return -1 if place < middle else 1 if place > middle else 0


def render_dot(
    record: SearchRecord,
    *,
    blank: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES_SHOWN,
    depth: int | None = None,
    lang: str = "en",
) -> str:
    """The annotated tree as a Graphviz DOT graph.

    Args:
        record: the search to draw.
        blank: an exercise handout: the tree and leaf utilities, no answers.
        max_nodes: draw only the top levels holding at most this many nodes.
        depth: draw exactly this many levels (overrides ``max_nodes``).
        lang: ``en`` or ``es`` (:mod:`.words`).
    """
    w = words(lang)
    tree = record.tree
    heading = []
    if tree.title:  # names from the file are shown escaped (printable): a label holds no control character
        heading.append(printable(tree.title))
    if not blank:
        heading.append(printable(summary_line(record, lang).plain))
    lines = [
        "digraph gametree {",
        # nodesep: twice it parts a node from its annotation; annotations bring their own air (_AIR) on the left
        '  graph [ordering=out, nodesep=0.05, ranksep=0.75, fontname="Helvetica", labelloc=t'
        + (f", label={_quote(chr(10).join(heading))}" if heading else "") + "];",
        '  node [fontname="Helvetica", fontsize=12, width=0.55, height=0.45, margin="0.04,0.02"];',
        '  edge [dir=none, fontname="Helvetica", fontsize=10];',
    ]
    drawn = picture_nodes(record, blank=blank, max_nodes=max_nodes, depth=depth)
    shown: dict[int, int] = {}  # children of each parent drawn (a wide node's are capped)
    for item in drawn:
        if item.parent >= 0:
            shown[item.parent] = shown.get(item.parent, 0) + 1
    seen: dict[int, int] = {}  # children of each parent drawn so far
    for item in drawn:
        side = 0
        if item.parent >= 0:
            place = seen[item.parent] = seen.get(item.parent, -1) + 1
            side = _side(place, shown[item.parent])
        lines.extend(_node_lines(item, w, side))
    for item in drawn:  # after every edge: the note is drawn right of the children shown
        if item.omitted:
            note = w["more_children"].format(count=f"{item.omitted:,}")
            lines.append(f"  w{item.node} [label={_quote(note)}, shape=plaintext, fontcolor={_GREY}];")
            lines.append(f"  n{item.node} -> w{item.node} [style=dotted, color={_GREY}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_image(dot_text: str, image_format: str) -> bytes:
    """Lay out DOT text with Graphviz's ``dot`` and return the image (svg, png, pdf).

    Raises:
        GameTreeError: ``dot`` is not installed (the message says how to
            install it), or it failed.
    """
    if image_format not in IMAGE_FORMATS:
        raise GameTreeError(f"unknown image format {image_format!r} (known: {', '.join(IMAGE_FORMATS)})")
    program = dot_program()
    if program is None:
        raise GameTreeError(GRAPHVIZ_MISSING.format(format=image_format))
    try:
        done = subprocess.run([program, f"-T{image_format}"], input=dot_text.encode("utf-8"),
                              capture_output=True, check=False)
    except OSError as error:
        raise GameTreeError(f"cannot run Graphviz's dot: {error.strerror}") from None
    if done.returncode != 0:
        problem = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GameTreeError("Graphviz's dot failed: " + (problem[0] if problem else f"exit status {done.returncode}"))
    return done.stdout


def render_svg(record: SearchRecord, **options: object) -> str:
    """The annotated tree as SVG text (for notebooks and web pages); needs Graphviz.

    Options are those of :func:`render_dot`.
    """
    return render_image(render_dot(record, **options), "svg").decode("utf-8")  # type: ignore[arg-type]


def notebook_svg(record: SearchRecord) -> str | None:
    """SVG for a notebook's rich display; None when Graphviz is missing or fails."""
    if dot_program() is None:
        return None
    try:
        return render_svg(record)
    except GameTreeError:
        return None
