r"""The annotated tree as LaTeX: a standalone document drawn with the forest package.

forest is what computer-science slides use for search trees: the layout is
automatic and a teacher can restyle the picture by editing the ``gt ...``
styles at the top of the file. Same annotations as the terminal and Graphviz
views: triangles for max (apex up) and min (apex down), circles for chance,
rounded boxes named after the player in n-player trees, squares for leaves;
values inside (``$\geq 8$`` / ``$\leq 2$`` where a value is a bound), ids
and alpha/beta beside; the principal variation thick and green, its ids
marked with a star (visible in black and white); pruned branches dashed and grey with a red cut mark; ``blank`` for a
handout without answers. A view of one :class:`SearchRecord`: it never searches.

The file needs ``pdflatex`` (or lualatex) with the standalone class and the
forest and pgf/TikZ packages (Debian: texlive-latex-extra, texlive-pictures).
"""

from __future__ import annotations

import math
import re

from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER
from ..core.numbers import Number, Value, format_number, integer_text
from ..core.printable import printable
from ..search.record import Cut, SearchRecord
from .annotated import summary_line
from .picture import Drawn, picture_nodes
from .words import words

__all__ = ["render_latex", "forest_picture", "latex_escape", "FOREST_PREAMBLE", "MAX_LATEX_DEPTH", "DEFAULT_LATEX_NODES"]

#: TeX nests one group per tree level; deeper pictures are cut here (TeX's limit is 255 groups).
MAX_LATEX_DEPTH = 40
#: forest lays out about ten nodes a second on a slow machine, and a slide holds
#: far fewer: by default draw only the top levels holding at most this many nodes.
DEFAULT_LATEX_NODES = 120

_HEADER = r"""% Written by gametree render. Compile with: pdflatex FILE.tex
% Needs the standalone class and the forest package (Debian: texlive-latex-extra texlive-pictures).
\documentclass[border=8pt]{standalone}
"""

#: The packages and ``gt ...`` styles every drawing needs (documents that hold several trees use it too).
FOREST_PREAMBLE = r"""\usepackage{forest}
\usepackage{amsmath, amssymb}
\usetikzlibrary{shapes.geometric}
\forestset{
  gt node/.style={draw, inner sep=1.5pt, minimum size=1.6em, font=\small},
  gt max/.style={gt node, isosceles triangle, isosceles triangle apex angle=70,
    shape border rotate=90, inner sep=0.5pt, minimum height=2.1em},
  gt min/.style={gt node, isosceles triangle, isosceles triangle apex angle=70,
    shape border rotate=-90, inner sep=0.5pt, minimum height=2.1em},
  gt chance/.style={gt node, circle},
  gt player/.style={gt node, rectangle, rounded corners=3pt, align=center},
  gt leaf/.style={gt node, rectangle, minimum size=1.4em},
  gt pv/.style={very thick, draw=gtpv, text=gtpv, edge={very thick, gtpv}},
  gt pruned/.style={dashed, draw=gray, text=gray, edge={dashed, gray}},
  gt unsearched/.style={dotted, draw=gray, text=gray, edge={dotted, gray}},
  gt cut/.style={edge label={node[midway, sloped, inner sep=0pt, text=red]{$\boldsymbol{\|}$}}},
  gt more/.style={draw=none, text=gray, font=\scriptsize\itshape, edge={dotted, gray}},
}
\colorlet{gtpv}{green!45!black}
"""

_STYLES = {MAX: "gt max", MIN: "gt min", CHANCE: "gt chance", PLAYER: "gt player", LEAF: "gt leaf"}
_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
    "[": "{[}",
    "]": "{]}",
    ",": "{,}",
    "=": "{=}",
    # the OT1 font encoding (no fontenc: T1 would need bitmap fonts where cm-super is missing) prints
    # < > | " as ¡ ¿ — ”: the symbols from the math fonts, and the typewriter font's straight quote
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    '"': r"{\ttfamily\char34}",
}
_SPECIAL_PATTERN = re.compile("|".join(re.escape(key) for key in _SPECIAL))
_NON_ASCII = re.compile(r"[^\x20-\x7e]")


def latex_escape(text: str) -> str:
    """Text from a tree file made safe inside a forest node or a TikZ label.

    TeX's special characters are escaped; ``[``, ``]``, ``,`` and ``=`` are
    braced, as forest and TikZ read them as syntax; characters outside
    printable ASCII are written as ``?`` unless pdflatex's UTF-8 input knows
    them (Latin letters with accents), so any file compiles; control characters
    and lone surrogates are shown escaped first (``\\x01``, :func:`printable`).
    ``< > | "`` are written so that they print as themselves in the default
    (OT1) font encoding, which would show ``¡ ¿ — ”``.
    """
    escaped = _SPECIAL_PATTERN.sub(lambda match: _SPECIAL[match.group()], printable(text))
    return _NON_ASCII.sub(_non_ascii, escaped)


def _non_ascii(match: re.Match[str]) -> str:
    character = match.group()
    if "\u00c0" <= character <= "\u017f" and character not in "\u00d7\u00f7":
        return character  # Latin-1 and Latin Extended-A letters: inputenc's utf8 has them
    return "?"


def _number(number: Number) -> str:
    """A number in math mode: ``-3``, ``\\frac{7}{3}``, ``\\infty``."""
    if isinstance(number, float) and math.isinf(number):
        return r"\infty" if number > 0 else r"-\infty"
    from fractions import Fraction

    if isinstance(number, Fraction) and number.denominator != 1:
        sign = "-" if number < 0 else ""
        return rf"{sign}\tfrac{{{integer_text(abs(number.numerator))}}}{{{integer_text(number.denominator)}}}"
    return format_number(number)


def _value(value: Value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_number(part) for part in value) + ")"
    return _number(value)


_OPS = {">=": r"\geq", "<=": r"\leq", ">": ">", "<": "<"}
_GREEK = {"alpha": r"\alpha", "beta": r"\beta"}


def _cut(cut: Cut, last: bool, w: dict[str, str]) -> list[str]:
    """``cut: $v=8 \\geq \\beta=3$``; a cut at the last child (nothing pruned) says so instead, on a line of
    its own (one long line ran into the next node's label: forest leaves labels out of its spacing)."""
    value_name, bound_name = (_GREEK.get(name) or r"\mathit{" + latex_escape(w.get(f"name {name}", name)).replace(" ", r"\ ") + "}"
                              for name in (cut.value_name, cut.bound_name))
    reason = rf"${value_name}{{=}}{_value(cut.value)} {_OPS.get(cut.op, cut.op)} {bound_name}{{=}}{_value(cut.bound)}$"
    if last:
        return [reason, latex_escape(f"({w['last_child_short']})")]
    return [latex_escape(w["cut"].format(reason="").replace("✂ ", "")) + reason]


def _node_options(item: Drawn, side: str, w: dict[str, str]) -> list[str]:
    options = [_STYLES[item.kind]]
    if item.on_pv:
        options.append("gt pv")
    elif item.pruned:
        options.append("gt pruned")
    elif item.unsearched:
        options.append("gt unsearched")
    if item.cut_edge:
        options.append("gt cut")
    name = (r"$\star$\," if item.on_pv else "") + latex_escape(item.name) + (f" ({w['eval']})" if item.horizon else "")
    options.append(f"label={{[font=\\scriptsize, text=gray!70!black]left:{{{name}}}}}")
    notes = []
    if item.alpha is not None and item.beta is not None:
        notes.append(rf"$\alpha{{=}}{_value(item.alpha)},\ \beta{{=}}{_value(item.beta)}$")
    if item.bound is not None:
        notes.append(latex_escape(w["bound"]) + rf" $= {_value(item.bound)}$")
    if item.probe is not None:  # Star2's probe of the node's first move
        side, found = item.probe
        notes.append(rf"{w['probe_short']} ${_OPS['>=' if side == 'lower' else '<=']} {_value(found)}$" if side
                     else rf"{w['probe_short']} ${_value(found)}$: {latex_escape(w['no_bound'])}")
    if item.cut is not None:
        notes += [r"\textcolor{red}{" + line + "}" for line in _cut(item.cut, item.cut_last, w)]  # \\ ends a line
        # outside a group only: TikZ refuses it inside \textcolor's braces
    if notes:
        text = r"\\".join(notes)
        options.append(f"label={{[font=\\tiny, align=left]right:{{{text}}}}}")
    edge = []
    if item.move is not None:
        edge.append(latex_escape(item.move))
    if item.p is not None:
        edge.append(f"${_number(item.p)}$")
    if edge and item.parent >= 0:
        anchor = "left" if side == "left" else "right"
        options.append(f"edge label={{node[midway, {anchor}, font=\\scriptsize]{{{' '.join(edge)}}}}}")
    return options


_SIGNS = {"≥": r"\geq ", "≤": r"\leq "}


def _content(item: Drawn) -> str:
    value = "" if item.value is None else f"${_SIGNS.get(item.sign, '')}{_value(item.value)}$"
    if item.kind == PLAYER:
        player = latex_escape(str(item.player))
        return f"{player}\\\\{value}" if value else player
    return value


def render_latex(
    record: SearchRecord,
    *,
    blank: bool = False,
    max_nodes: int = DEFAULT_LATEX_NODES,
    depth: int | None = None,
    lang: str = "en",
) -> str:
    """The annotated tree as a standalone LaTeX document (forest package).

    Args:
        record: the search to draw.
        blank: an exercise handout: the tree and leaf utilities, no answers.
        max_nodes: draw only the top levels holding at most this many nodes.
        depth: draw exactly this many levels (overrides ``max_nodes``); at
            most :data:`MAX_LATEX_DEPTH`.
        lang: ``en`` or ``es`` (:mod:`.words`).
    """
    tree = record.tree
    lines = [_HEADER + FOREST_PREAMBLE.rstrip("\n"), r"\begin{document}"]
    heading = []
    if tree.title:
        heading.append(r"\textbf{" + latex_escape(tree.title) + "}")
    if not blank:
        heading.append(r"\footnotesize " + latex_escape(summary_line(record, lang).plain.replace(" · ", "; ")))
    if heading:
        lines.append(r"\begin{tabular}{@{}c@{}}" + r"\\".join(heading) + r"\\[4pt]")
    lines.append(forest_picture(record, blank=blank, max_nodes=max_nodes, depth=depth, lang=lang))
    if heading:
        lines.append(r"\end{tabular}")
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def forest_picture(
    record: SearchRecord,
    *,
    blank: bool = False,
    max_nodes: int = DEFAULT_LATEX_NODES,
    depth: int | None = None,
    spacing: str = "l sep=2.2em, s sep=2.4em",
    lang: str = "en",
) -> str:
    """The tree alone: a ``forest`` environment for a document that has :data:`FOREST_PREAMBLE`.

    Args as :func:`render_latex`; ``spacing``: forest's level and sibling
    distances (a handout leaves room to write beside each node).
    """
    w = words(lang)
    tree = record.tree
    items = picture_nodes(record, blank=blank, max_nodes=max_nodes, depth=depth)
    if any(item.depth > MAX_LATEX_DEPTH for item in items):
        items = picture_nodes(record, blank=blank, max_nodes=max_nodes, depth=MAX_LATEX_DEPTH)
    lines = [r"\begin{forest}", f"  for tree={{{spacing}, fit=band}}"]
    # The bracket form nests children inside their parent: close each node's
    # bracket after its last descendant (preorder with a stack of open nodes).
    open_nodes: list[Drawn] = []
    count = tree.count
    for item in items:
        while open_nodes and open_nodes[-1].node != item.parent:
            _close(lines, open_nodes.pop(), w)
        position = item.node - tree.first[item.parent] if item.parent >= 0 else 0
        siblings = count[item.parent] if item.parent >= 0 else 1
        side = "left" if position < siblings / 2 - 0.25 else "right"
        options = ", ".join(_node_options(item, side, w))
        lines.append("  " * (item.depth + 1) + f"[{{{_content(item)}}}, {options}")
        if item.hidden:
            more = latex_escape(w["more"].format(count=item.hidden).removeprefix("… "))
            lines.append("  " * (item.depth + 2) + f"[{{\\dots\\ {more}}}, gt more]")
        open_nodes.append(item)
    while open_nodes:
        _close(lines, open_nodes.pop(), w)
    lines.append(r"\end{forest}")
    return "\n".join(lines)


def _close(lines: list[str], item: Drawn, w: dict[str, str]) -> None:
    """Close ``item``'s bracket, after a note on the children a wide node leaves out, if any."""
    if item.omitted:
        more = latex_escape(w["more_children"].format(count=f"{item.omitted:,}").removeprefix("… "))
        lines.append("  " * (item.depth + 2) + f"[{{\\dots\\ {more}}}, gt more]")
    lines.append("  " * (item.depth + 1) + "]")
