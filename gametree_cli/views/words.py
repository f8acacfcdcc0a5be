"""The words the views print, in English and in Spanish (``--lang es``).

Why one table: ``--lang es`` covers the whole output (the annotated tree,
its summary, the pictures' labels, ``check``'s report), and a reader of one
view meets the same word in the next. The trace keeps its own table in
:mod:`.trace`: it follows the course notes' spellings (``Invocacion``, no
accents), while these are written in correct Spanish. Machine output (JSON,
JUnit XML) is never translated.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..search.record_facts import Cut

__all__ = ["LANGUAGES", "PV_MARK", "CUT_NAMES", "words", "translate_note", "cut_name", "cut_reason"]

LANGUAGES = ("en", "es")

#: marks the principal variation's nodes in every view, so it shows without colour (piped, NO_COLOR, slides)
PV_MARK = "★"

#: The names a cut's reason gives its two numbers, per language: the one wording of every view (the
#: annotated tree, the trace, the pictures, the page). English is the record's own (the JSON's ``cut``).
CUT_NAMES = {
    "en": {"alpha": "alpha", "upper": "upper", "lower": "lower",
           "probed lower": "probed lower", "probed upper": "probed upper"},
    "es": {"alpha": "alfa", "upper": "cota superior", "lower": "cota inferior",
           "probed lower": "cota inferior de los sondeos", "probed upper": "cota superior de los sondeos"},
}


_EN = {
    # the annotated tree and the pictures
    "cut": "✂ cut: {reason}",
    "last_child": "bound reached at the last child: {reason}",
    "last_child_short": "at the last child",
    "pruned": "✂ pruned",
    "eval_at_limit": "(eval at depth limit)",
    "eval": "eval",
    "expected": "(expected)",
    "averaged": "(averaged: uniformly random opponent)",
    "random": "(random {share})",
    "more_children": "… {count} more children not drawn",
    "more_nodes": "… {count} more node{s} below",
    "more": "… {count} more",
    "probe": "(probe: {shown})",
    "probe_short": "probe",
    "no_bound": "no bound",
    "order_note": "(children drawn in the order searched, --order {order}; #n is the child's position in the file)",
    "wide_note": "(nodes with more than {cap} children: {count} of them left out, with what is below them; "
                 "use --show-all to see them)",
    "levels_note": "(showing {limit} level{s} of the tree; {count} nodes below them left out: "
                   "use --show-depth N or --show-all to see more)",
    "bound": "bound",
    # the summary line
    "value": "value",
    "for": "for",
    "best_move": "best move",
    "equally_good": "equally good",
    "and_more": "… and {count} more",
    "nodes_visited": "nodes visited",
    "leaves_evaluated": "leaves evaluated",
    "cutoffs": "cut-offs",
    "pruned_subtrees": "pruned subtrees",
    "depth_limit": "depth limit",
    "order": "order",
    "pv_legend": "{mark} principal variation",
    # check's report
    "exercise": "exercise",
    "tree": "tree",
    "algorithm": "algorithm",
    "result": "result",
    "expected_vs_actual": "expected vs actual",
    "right": "right",
    "WRONG": "WRONG",
    "error": "error",
    "all_right": "all answers right",
    "mismatch": "{field}: expected {expected}, got {actual}",
    "never_visited": "nothing (never visited)",
    "exercises": "{count} exercise{s}: ",
    "n_right": "{count} right",
    "n_wrong": "{count} wrong",
    "n_error": "{count} could not be checked",
}

_ES = {
    "cut": "✂ corte: {reason}",
    "last_child": "cota alcanzada en el último hijo: {reason}",
    "last_child_short": "en el último hijo",
    "pruned": "✂ podado",
    "eval_at_limit": "(eval en el límite de profundidad)",
    "eval": "eval",
    "expected": "(esperado)",
    "averaged": "(promediado: rival aleatorio uniforme)",
    "random": "(aleatorio {share})",
    "more_children": "… {count} hijos más sin dibujar",
    "more_nodes": "… {count} nodo{s} más debajo",
    "more": "… {count} más",
    "probe": "(sondeo: {shown})",
    "probe_short": "sondeo",
    "no_bound": "sin cota",
    "order_note": "(hijos dibujados en el orden de búsqueda, --order {order}; #n es la posición del hijo en el fichero)",
    "wide_note": "(nodos con más de {cap} hijos: {count} de ellos omitidos, con lo que hay debajo; "
                 "use --show-all para verlos)",
    "levels_note": "(se muestra{n} {limit} nivel{es} del árbol; {count} nodos por debajo omitidos: "
                   "use --show-depth N o --show-all para ver más)",
    "bound": "cota",
    "value": "valor",
    "for": "para",
    "best_move": "mejor jugada",
    "equally_good": "igual de buenas",
    "and_more": "… y {count} más",
    "nodes_visited": "nodos visitados",
    "leaves_evaluated": "hojas evaluadas",
    "cutoffs": "cortes",
    "pruned_subtrees": "subárboles podados",
    "depth_limit": "límite de profundidad",
    "order": "orden",
    "pv_legend": "{mark} variante principal",
    "exercise": "ejercicio",
    "tree": "árbol",
    "algorithm": "algoritmo",
    "result": "resultado",
    "expected_vs_actual": "esperado frente a obtenido",
    "right": "bien",
    "WRONG": "MAL",
    "error": "error",
    "all_right": "todas las respuestas bien",
    "mismatch": "{field}: se esperaba {expected}, se obtuvo {actual}",
    "never_visited": "nada (nunca visitado)",
    "exercises": "{count} ejercicio{s}: ",
    "n_right": "{count} bien",
    "n_wrong": "{count} mal",
    "n_error": "{count} sin poder comprobar",
}

# a cut's names as the pictures say them (``w["name upper"]``): the pictures are given the table, not the language
_EN.update({f"name {name}": text for name, text in CUT_NAMES["en"].items()})
_ES.update({f"name {name}": text for name, text in CUT_NAMES["es"].items()})

_TABLES = {"en": _EN, "es": _ES}


def words(lang: str = "en") -> dict[str, str]:
    """The word table of ``lang`` (``en`` or ``es``)."""
    try:
        return _TABLES[lang]
    except KeyError:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})") from None


#: check's notes on a wrong answer (gametree_cli.exercises.check writes them in English), in Spanish
_NOTES_ES = [
    (re.compile(r"^never visited$"), "nunca visitado"),
    (re.compile(r"^the algorithm keeps no (\w+)$"), r"el algoritmo no guarda \1"),
    # the English verb says whether one node is named or several: the Spanish one agrees with it
    (re.compile(r"missed cut-off: (.*?) is never visited"), r"corte no visto: \1 nunca se visita"),
    (re.compile(r"missed cut-off: (.*?) are never visited"), r"corte no visto: \1 nunca se visitan"),
    (re.compile(r"not pruned: (.*?) is visited"), r"no podado: \1 se visita"),
    (re.compile(r"not pruned: (.*?) are visited"), r"no podado: \1 se visitan"),
    (re.compile(r"(.*?) lies inside a pruned subtree: list only the topmost pruned nodes"),
     r"\1 está dentro de un subárbol podado: liste solo los nodos podados más altos"),
    (re.compile(r"(.*?) lie inside a pruned subtree: list only the topmost pruned nodes"),
     r"\1 están dentro de un subárbol podado: liste solo los nodos podados más altos"),
    (re.compile(r"missing: "), "faltan: "),
    (re.compile(r"not expected: "), "sobran: "),
]


def translate_note(note: str, lang: str) -> str:
    """A note of :mod:`gametree_cli.exercises.check` in ``lang`` (known phrasings; anything else as it is)."""
    if lang != "es":
        return note
    for pattern, replacement in _NOTES_ES:
        note = pattern.sub(replacement, note)
    return note


def cut_name(name: str, lang: str = "en") -> str:
    """A cut's value or bound name (``alpha``, ``probed upper``) in ``lang``; others (``v``, ``beta``) as they are."""
    return CUT_NAMES.get(lang, CUT_NAMES["en"]).get(name, name)


def cut_reason(cut: "Cut", lang: str = "en") -> str:
    """A cut's reason (``v=8 >= beta=3``), its bound names in ``lang`` (``alfa`` in Spanish)."""
    if lang != "es":
        return cut.reason()
    from ..core.numbers import format_value

    value_name, bound_name = (cut_name(name, lang) for name in (cut.value_name, cut.bound_name))
    return f"{value_name}={format_value(cut.value)} {cut.op} {bound_name}={format_value(cut.bound)}"
