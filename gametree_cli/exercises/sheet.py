"""The handout's LaTeX documents: the exercise sheet (blank trees) and the key (solved trees).

Both draw trees exactly as ``gametree render --format tex`` does (the same
forest styles and :func:`~gametree_cli.views.latex.forest_picture`), so the
sheet looks like the course's slides. The sheet draws each tree blank (leaf
utilities and node ids only) with room beside every inner node to write
alpha and beta when alpha-beta is asked; the key draws the one search of
each exercise: values, alpha/beta, cut conditions, pruned branches, the
principal variation. A tree wider than the page is scaled down to fit.
Views only: nothing here searches.
"""

from __future__ import annotations

from ..core.numbers import format_value
from ..search.record import SearchRecord
from ..views.latex import FOREST_PREAMBLE, forest_picture, latex_escape
from .choose import Chosen, Variant
from .wording import words

__all__ = ["sheet_document", "key_document"]

_HEADER = r"""% Written by gametree handout. Compile with: pdflatex FILE.tex
% Needs the forest package (Debian: texlive-latex-extra texlive-pictures; or `make latex`).
\documentclass[a4paper,11pt]{article}
\usepackage[margin=1.8cm]{geometry}
\usepackage[utf8]{inputenc}
\usepackage{graphicx}
"""

_HANDOUT_STYLES = r"""\forestset{
  gt room/.style={label={[font=\scriptsize, text=gray, align=left, inner sep=1pt, xshift=0.8em]right:{%
    $\alpha$\,\rule{1.9em}{0.3pt}\\[3pt]$\beta$\,\rule{1.9em}{0.3pt}}}},
  gt leaf/.append style={for parent={s sep=1.8em}},  % leaves need no room beside them: narrower trees
}
\newsavebox\gtbox
% a tree wider than the text is scaled down to the text's width
\newcommand\gtshow{\ifdim\wd\gtbox>\linewidth\resizebox{\linewidth}{!}{\usebox\gtbox}\else\usebox\gtbox\fi}
\pagestyle{empty}
\setlength\parindent{0pt}
"""

#: forest distances: the sheet leaves room to write; the key room for the alpha/beta labels.
_SHEET_SPACING = "l sep=2.4em, s sep=2.2em"
_ROOM_SPACING = "l sep=2.4em, s sep=2.8em"
_KEY_SPACING = "l sep=2.6em, s sep=3.4em"


def _preamble() -> list[str]:
    return [_HEADER + FOREST_PREAMBLE + _HANDOUT_STYLES.rstrip("\n"), r"\begin{document}"]


def _picture(record: SearchRecord, *, blank: bool, spacing: str, room: bool = False, lang: str = "en") -> list[str]:
    """The tree in a box, shown centred and at most as wide as the text."""
    lines = [r"\begin{lrbox}{\gtbox}"]
    if room:  # local to the box's group: only this tree's inner nodes get the lines to write on
        lines.append(r"\forestset{gt max/.append style={gt room}, gt min/.append style={gt room}}")
    lines.append(forest_picture(record, blank=blank, max_nodes=len(record.tree), spacing=spacing, lang=lang))
    lines += [r"\end{lrbox}", r"\begin{center}\gtshow\end{center}"]
    return lines


def _blank_line(width: str) -> str:
    return rf"\rule{{{width}}}{{0.4pt}}"


def _exercise_heading(number: int, chosen: Chosen, lang: str) -> str:
    text = words(lang)
    return rf"\textbf{{{text['exercise']} {number}}} ({text['algorithm ' + chosen.algorithm]})."


def sheet_document(variant: Variant, lang: str) -> str:
    """The exercise sheet of one variant: a heading with the student's name (or a line to write it),
    a legend, and every exercise with its question, its blank tree and lines for the answers."""
    text = words(lang)
    name = latex_escape(variant.name) if variant.name else _blank_line("7cm")
    lines = _preamble()
    lines.append(rf"{{\Large\bfseries {text['sheet title']}}}\hfill {text['name']}: {name}\par\smallskip")
    lines.append(rf"{{\small {text['legend']}}}\par\medskip\hrule\bigskip")
    for number, chosen in enumerate(variant.exercises, start=1):
        alphabeta = chosen.algorithm == "alphabeta"
        lines.append(r"\begin{minipage}{\linewidth}")  # an exercise is never split across pages
        form = chosen.record.options.get("variant", "soft") if alphabeta else "soft"
        lines.append(_exercise_heading(number, chosen, lang) + " " + text["question " + chosen.algorithm]
                     + ("" if form == "soft" else " " + text["form " + form]))
        lines += _picture(chosen.record, blank=True, spacing=_ROOM_SPACING if alphabeta else _SHEET_SPACING,
                          room=alphabeta, lang=lang)
        lines.append(rf"{text['root value']}: {_blank_line('3cm')}\hfill {text['best move']}: {_blank_line('3cm')}\par")
        if alphabeta:
            lines.append(rf"\medskip {text['pruned nodes']}: \hrulefill\par")
        lines.append(r"\end{minipage}\par\bigskip\bigskip")
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"


def _moves(record: SearchRecord, nodes: list[int]) -> str:
    return ", ".join(latex_escape(record.move(node)) for node in nodes)


def _summary(record: SearchRecord, lang: str) -> str:
    """Value, best move, principal variation; for alpha-beta also what was pruned and the counts."""
    text = words(lang)
    best = record.best_move()
    parts = [
        rf"{text['value']} ${format_value(record.value)}$",
        rf"{text['best move (summary)']} \textbf{{{latex_escape(record.move(best)) if best is not None else '--'}}}",
        rf"{text['principal variation']} {_moves(record, record.principal_variation())}",
    ]
    if record.algorithm == "alphabeta":
        pruned = ", ".join(latex_escape(record.node_id(node)) for node in record.pruned) or text["none"]
        parts.append(rf"{text['pruned']}: {pruned}")
        parts.append(rf"{text['cutoffs']}: {record.stats.cutoffs}")
        parts.append(rf"{text['visited']}: {record.stats.nodes_visited} {text['of']} {len(record.tree)}")
    return r"; ".join(parts) + "."


def key_document(variants: list[Variant], lang: str) -> str:
    """The key: every variant's exercises solved, one student to a page when there is a roster."""
    text = words(lang)
    lines = _preamble()
    lines.append(rf"{{\Large\bfseries {text['key title']}}}\par\smallskip")
    lines.append(rf"{{\small {text['key legend']}}}\par\medskip\hrule\bigskip")
    for position, variant in enumerate(variants):
        if variant.name:
            if position:
                lines.append(r"\clearpage")
            lines.append(rf"{{\large\bfseries {latex_escape(variant.name)}}}\par\medskip")
        for number, chosen in enumerate(variant.exercises, start=1):
            lines.append(r"\begin{minipage}{\linewidth}")
            lines.append(_exercise_heading(number, chosen, lang).rstrip(".") + ": " + _summary(chosen.record, lang))
            lines += _picture(chosen.record, blank=False, spacing=_KEY_SPACING, lang=lang)
            lines.append(r"\end{minipage}\par\bigskip")
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"
