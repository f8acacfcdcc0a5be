"""The browser page's words, in English and in Spanish (``render --format html --lang es``).

Why one table per language here, in Python: the page's template
(``page_assets/page.html``) takes its buttons, labels and help text from it
(``{{w:key}}``), :mod:`.page_data` writes the pruning tests with it, and the
page's script reads the same table from the page's JSON data (``words``)
for everything it writes itself (the play button, the practice mode's help,
check results and reasons). So a page speaks one language throughout, and a
new word is added in one place. Where :mod:`.words` (the text views) has the
word, the page uses the same one. ``{name}`` marks a value filled in later,
in Python (``str.format``) or in the script (the same syntax).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .words import CUT_NAMES, cut_reason, words

if TYPE_CHECKING:
    from ..search.record_facts import Cut

__all__ = ["page_words", "said_name", "page_reason"]

_EN = {
    # the page's frame (page.html)
    "title": "game tree",
    "modes": "mode",
    "watch": "Watch",
    "watch_tip": "Watch the search step by step (w)",
    "practise": "Practise",
    "practise_tip": "Fill in the values yourself and check them (p)",
    "practise_off": "Practice needs the whole tree drawn (render with --show-all)",
    "canvas": "the tree",
    "step": "Step",
    "log": "trace so far",
    "legend": "legend",
    "current": "current",
    "visited": "visited",
    "unvisited": "not yet",
    "pruned": "pruned ✂",
    "pv": "best line",
    "keys": "← → step · Home/End · Space play · #step=N links here",
    "check": "Check",
    "download": "Download answers",
    "clear": "Clear",
    "first_tip": "First step (Home)",
    "first": "first step",
    "back_tip": "Back (←)",
    "back": "back",
    "play_tip": "Play / pause (Space)",
    "play": "play",
    "play_button": "▶ Play",
    "pause": "pause",
    "pause_button": "⏸ Pause",
    "forward_tip": "Forward (→)",
    "forward": "forward",
    "last_tip": "Last step (End)",
    "last": "last step",
    "slider": "step",
    "speed": "speed",
    "fit_tip": "Fit the tree to the window, or show it full size (z)",
    "fit": "Fit",
    "full_size": "Full size",
    # the drawing (page_svg)
    "svg": "game tree",
    "more": "+{count} more",
    # the steps (page.js) and the pruning tests (page_data)
    "kind_c": "call",
    "kind_l": "leaf",
    "kind_x": "cut ✂",
    "kind_b": "bound reached",
    "last_child": "at the last child",
    "kind_r": "return",
    "not_drawn": "{count} nodes not drawn",
    "bound_label": "Bound",
    "best": "Best[{player}]",
    "test": "prune if {name} {op} {bound} = {value}",
    "test_chance": "prune if upper {down} α = {alpha} or lower {up} β = {beta}",
    "test_shallow": "prune if Best[{player}] ≥ Bound = {bound}",
    "upper": CUT_NAMES["en"]["upper"],
    "lower": CUT_NAMES["en"]["lower"],
    "probed lower": CUT_NAMES["en"]["probed lower"],
    "probed upper": CUT_NAMES["en"]["probed upper"],
    # the practice mode (practice.js)
    "help": "Type each inner node's value",
    "help_bounds": " (and α, β as it returns)",
    "help_prunes": "; click an edge (or Tab to it and press Enter) to mark the branch pruned",
    "help_end": ", then Check.",
    "col_node": "node",
    "col_value": "value",
    "col_check": "check",
    "field_value": "value",
    "field_alpha": "alpha",
    "field_beta": "beta",
    "field_of": "{field} of {node}",
    "empty": "empty: the search gives {expected}",
    "not_number": "not a number: {given}",
    "wrong_value": "{what}: the search gives {expected}, not {given}",
    "leaves_bound": "the search leaves {mark} here",
    "not_bound": "an exact value, not a bound",
    "never_visited": "never visited: a cut skips it, leave it empty",
    "right": "✓ right",
    "score": "{right} of {total} right",
    "cut_before": "cut before {node} ({why})",
    "missed_cut": "missed cut: {node} is never visited ({why})",
    "no_cut": "{node} is visited: no cut there",
    "mark_edge": "mark the branch to {node} pruned",
}

_ES = {
    "title": "árbol de juego",
    "modes": "modo",
    "watch": "Ver",
    "watch_tip": "Ver la búsqueda paso a paso (w)",
    "practise": "Practicar",
    "practise_tip": "Rellene usted los valores y compruébelos (p)",
    "practise_off": "Para practicar hay que dibujar el árbol entero (render con --show-all)",
    "canvas": "el árbol",
    "step": "Paso",
    "log": "traza hasta ahora",
    "legend": "leyenda",
    "current": "actual",
    "visited": "visitado",
    "unvisited": "aún no",
    "pruned": words("es")["pruned"].removeprefix("✂ ") + " ✂",
    "pv": words("es")["pv_legend"].format(mark="").strip(),
    "keys": "← → paso · Inicio/Fin · Espacio reproducir · #step=N enlaza aquí",
    "check": "Comprobar",
    "download": "Descargar respuestas",
    "clear": "Borrar",
    "first_tip": "Primer paso (Inicio)",
    "first": "primer paso",
    "back_tip": "Atrás (←)",
    "back": "atrás",
    "play_tip": "Reproducir / pausa (Espacio)",
    "play": "reproducir",
    "play_button": "▶ Reproducir",
    "pause": "pausa",
    "pause_button": "⏸ Pausa",
    "forward_tip": "Adelante (→)",
    "forward": "adelante",
    "last_tip": "Último paso (Fin)",
    "last": "último paso",
    "slider": "paso",
    "speed": "velocidad",
    "fit_tip": "Ajustar el árbol a la ventana, o verlo a tamaño real (z)",
    "fit": "Ajustar",
    "full_size": "Tamaño real",
    "svg": "árbol de juego",
    "more": "+{count} más",
    "kind_c": "invocación",
    "kind_l": "hoja",
    "kind_x": "corte ✂",
    "kind_b": "cota alcanzada",
    "last_child": "en el último hijo",
    "kind_r": "retorno",
    "not_drawn": "{count} nodos sin dibujar",
    "bound_label": "Cota",
    "best": "Mejor[{player}]",
    "test": "poda si {name} {op} {bound} = {value}",
    "test_chance": "poda si cota superior {down} α = {alpha} o cota inferior {up} β = {beta}",
    "test_shallow": "poda si Mejor[{player}] ≥ Cota = {bound}",
    "upper": CUT_NAMES["es"]["upper"],
    "lower": CUT_NAMES["es"]["lower"],
    "probed lower": CUT_NAMES["es"]["probed lower"],
    "probed upper": CUT_NAMES["es"]["probed upper"],
    "help": "Escriba el valor de cada nodo interior",
    "help_bounds": " (y α, β al retornar)",
    "help_prunes": "; pulse una arista (o llegue a ella con Tab y pulse Intro) para marcar la rama como podada",
    "help_end": " y después Comprobar.",
    "col_node": "nodo",
    "col_value": words("es")["value"],
    "col_check": words("es")["result"],
    "field_value": words("es")["value"],
    "field_alpha": "alfa",
    "field_beta": "beta",
    "field_of": "{field} de {node}",
    "empty": "vacío: la búsqueda da {expected}",
    "not_number": "no es un número: {given}",
    "wrong_value": "{what}: la búsqueda da {expected}, no {given}",
    "leaves_bound": "la búsqueda deja {mark} aquí",
    "not_bound": "un valor exacto, no una cota",
    "never_visited": "nunca visitado: un corte lo salta, déjelo vacío",
    "right": "✓ " + words("es")["right"],
    "score": "{right} de {total} bien",
    "cut_before": "corte antes de {node} ({why})",
    "missed_cut": "corte no visto: {node} nunca se visita ({why})",
    "no_cut": "{node} se visita: ahí no hay corte",
    "mark_edge": "marcar como podada la rama hacia {node}",
}

_TABLES = {"en": _EN, "es": _ES}


def page_words(lang: str = "en") -> dict[str, str]:
    """The page's word table in ``lang`` (``en`` or ``es``; anything else is refused by :func:`.words` first)."""
    words(lang)  # the one place that knows the languages, and says so clearly
    return _TABLES[lang]


_BEST = re.compile(r"\bBest\[([^\]]*)\]")
_NAMES = {"upper": "upper", "lower": "lower", "probed lower": "probed lower", "probed upper": "probed upper",
          "Bound": "bound_label"}


def said_name(name: str, said: dict[str, str]) -> str:
    """A cut's value or bound name (``upper``, shallow pruning's ``Best[P3]`` and ``Bound``) in the page's words."""
    best = _BEST.fullmatch(name)
    if best:
        return said["best"].format(player=best.group(1))
    return said[_NAMES[name]] if name in _NAMES else name


def page_reason(cut: "Cut", lang: str = "en") -> str:
    """A cut's reason as the practice mode quotes it: :func:`.words.cut_reason`, and in Spanish
    shallow pruning's ``Best[P3]=7 >= Bound=6`` as ``Mejor[P3]=7 >= Cota=6``."""
    text = cut_reason(cut, lang)
    if lang == "en":
        return text
    said = page_words(lang)
    text = _BEST.sub(lambda match: said["best"].format(player=match.group(1)), text)
    return re.sub(r"\bBound=", said["bound_label"] + "=", text)
