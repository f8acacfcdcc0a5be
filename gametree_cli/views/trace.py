"""The text trace: one line per call, leaf, cut-off and return, streamed.

English by default; ``lang="es"`` speaks the vocabulary of the Spanish
course notes gametree grew from (contract section 2)::

    Invocacion maxValue(A, alfa=-inf, beta=inf):
    . Invocacion minValue(B, alfa=-inf, beta=inf):
    .. Invocacion maxValue(B3, alfa=-inf, beta=3):
    ... PODA en maxValue de B3 porque v=8 >= beta=3 -> le asigna valor 8

A line for a node's body (its leaves, cut-off and return) is indented one
level deeper than the node's own call, as in the notes. The return that
directly follows a node's cut-off is not printed again: the cut-off line
already says what the node returns (the JSON trace keeps both events).
"""

from __future__ import annotations

from typing import TextIO

from ..events import CALL, CUT, LEAF, RETURN, Event
from ..model import CHANCE, MAX, MIN, PLAYER, Tree
from ..numbers import Value, format_value

__all__ = ["TraceFormatter", "StreamingTrace", "LANGUAGES"]

LANGUAGES = ("en", "es")

_WORDS = {
    "en": {
        "alpha": "alpha",
        "call": "call {function}({node}{window})",
        "leaf": "leaf {node} = {value}",
        "horizon": "{node} evaluated by eval at the depth limit = {value}",
        "cut": "cut in {function} of {node}: {reason} -> returns {returns}",
        "return": "{function} of {node} returns {value}",
        "p": "p",
    },
    "es": {
        "alpha": "alfa",
        "call": "Invocacion {function}({node}{window}):",
        "leaf": "Nodo hoja {node} con valor {value}",
        "horizon": "Nodo {node} evaluado con eval en el limite de profundidad: valor {value}",
        "cut": "PODA en {function} de {node} porque {reason} -> le asigna valor {returns}",
        "return": "{function} de {node} asigna valor {value}",
        "p": "p",
    },
}


class TraceFormatter:
    """Turns events into trace lines for one tree, in one language."""

    def __init__(self, tree: Tree, lang: str = "en") -> None:
        if lang not in _WORDS:
            raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
        self.tree = tree
        self.lang = lang
        self.words = _WORDS[lang]
        self._last_cut: int | None = None

    def indent(self, depth: int) -> str:
        if self.lang == "es":
            return "." * depth + " " if depth else ""
        return "  " * depth

    def function(self, node: int, detail: dict | None = None) -> str:
        kind = self.tree.kind[node]
        if kind == MAX:
            return "maxValue"
        if kind == MIN:
            return "minValue"
        if kind == CHANCE:
            return "chanceValue"
        if kind == PLAYER:
            # paranoid search: the root player maximises, the coalition minimises
            role = detail.get("role") if detail else None
            return f"{role or 'maxn'}Value[{self.tree.player_name(node)}]"
        return "value"

    def window(self, alpha: Value | None, beta: Value | None) -> str:
        parts = []
        if alpha is not None:
            parts.append(f"{self.words['alpha']}={format_value(alpha)}")
        if beta is not None:
            parts.append(f"beta={format_value(beta)}")
        return (", " + ", ".join(parts)) if parts else ""

    def line(self, event: Event) -> str | None:
        """The trace line for ``event``, or None when it adds nothing."""
        words, tree = self.words, self.tree
        name = tree.node_id(event.node)
        detail = event.detail or {}
        if event.kind == CALL:
            self._last_cut = None
            window = self.window(event.alpha, event.beta)
            if "bound_value" in detail:  # shallow pruning: the Bound the parent passed
                window += f", Bound={format_value(detail['bound_value'])}"
            text = words["call"].format(function=self.function(event.node, detail), node=name, window=window)
            return self.indent(event.depth) + text
        if event.kind == LEAF:
            template = words["horizon"] if detail.get("horizon") else words["leaf"]
            shown = format_value(event.value)
            if "vector" in detail:  # paranoid: the vector, then the root player's number from it
                shown = f"{format_value(detail['vector'])} -> {shown}"
            return self.indent(event.depth) + template.format(node=name, value=shown)
        if event.kind == CUT:
            self._last_cut = event.node
            op = detail.get("op", ">=")
            bound = detail.get("bound", "beta")
            bound_value = event.beta if bound == "beta" else event.alpha
            if "bound_value" in detail:
                bound_value = detail["bound_value"]
            value_name = detail.get("value_name", "v")
            if value_name == "alpha":
                value_name = words["alpha"]
            bound_word = words["alpha"] if bound == "alpha" else bound
            reason = detail.get("reason") or f"{value_name}={format_value(event.value)} {op} {bound_word}={format_value(bound_value)}"
            returns = detail.get("returns", event.value)
            text = words["cut"].format(function=self.function(event.node, detail), node=name, reason=reason,
                                       returns=format_value(returns))
            return self.indent(event.depth + 1) + text
        if event.kind == RETURN:
            if self._last_cut == event.node:
                self._last_cut = None
                return None
            text = words["return"].format(function=self.function(event.node), node=name,
                                          value=format_value(event.value))
            return self.indent(event.depth + 1) + text
        return None


class StreamingTrace:
    """An observer that writes each trace line as soon as the search reports it."""

    def __init__(self, tree: Tree, stream: TextIO, lang: str = "en", also: list[Event] | None = None) -> None:
        self.formatter = TraceFormatter(tree, lang)
        self.stream = stream
        self.also = also

    def __call__(self, event: Event) -> None:
        if self.also is not None:
            self.also.append(event)
        text = self.formatter.line(event)
        if text is not None:
            self.stream.write(text + "\n")
