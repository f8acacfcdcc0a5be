"""The text trace: one line per call, leaf, cut-off and return, streamed.

English by default; ``lang="es"`` speaks the vocabulary of the Spanish
course notes gametree grew from (contract section 2)::

    Invocacion maxValue(A, alfa=-inf, beta=inf):
    . Invocacion minValue(B, alfa=-inf, beta=inf):
    .. Invocacion maxValue(B3, alfa=-inf, beta=3):
    ... PODA en maxValue de B3 porque v=8 >= beta=3 -> le asigna valor 8

In Spanish a leaf reads as the notes print it, as the call of the function
that would search it (``Invocacion maxValue(B.1) -> que retorna valor
terminal 3``), and the trace ends with ``valor encontrado: 3``
(:meth:`StreamingTrace.finish`). A cut at the last child prunes nothing:
its line says the bound was reached there instead of ``cut``/``PODA``.

A line for a node's body (its leaves, cut-off and return) is indented one
level deeper than the node's own call, as in the notes. The return that
directly follows a node's cut-off is not printed again: the cut-off line
already says what the node returns (the JSON trace keeps both events).
"""

from __future__ import annotations

from typing import TextIO

from ..search.events import CALL, CUT, LEAF, RETURN, Event
from ..core.model import CHANCE, MAX, MIN, PLAYER, Tree
from ..core.numbers import Value, format_value
from ..core.printable import printable
from .words import CUT_NAMES, cut_name

__all__ = ["TraceFormatter", "StreamingTrace", "LANGUAGES"]

LANGUAGES = ("en", "es")

_WORDS = {
    "en": {
        "alpha": "alpha",
        "call": "call {function}({node}{window}){p}",
        "leaf": "leaf {node} = {value}{p}",
        "horizon": "{node} evaluated by eval at the depth limit = {value}{p}",
        "cut": "cut in {function} of {node}: {reason} -> returns {returns}",
        "last_child": "bound reached at the last child in {function} of {node}: {reason} -> returns {returns}",
        "found": "value found: {value}",
        "return": "{function} of {node} returns {value}",
        "p": "p",
        "with_p": " with p={p}",
        "expected": "{function} of {node} returns the expected value {terms} = {value}",
        "mixed": "{function} of {node} returns {keep}*{best} {optimal} + {share}*mean {mean} = {value}",
        "upper": CUT_NAMES["en"]["upper"],
        "lower": CUT_NAMES["en"]["lower"],
        "probe_call": "probe {function}({node}{window}){p}: its first move only",
        "probe_bound": "probe of {node}: {function} {op} {value} ({side} bound from its first move)",
        "probe_none": "probe of {node}: first move {value}, outside the probe window: no bound",
        "recalled": "{node} = {value}: remembered from the probe, not searched again",
    },
    "es": {
        "alpha": "alfa",
        "call": "Invocacion {function}({node}{window}){p}:",
        "leaf": "Invocacion {function}({node}{window}){p} -> que retorna valor terminal {value}",
        "horizon": "Invocacion {function}({node}{window}){p} -> que retorna valor heuristico {value} (limite de profundidad)",
        "cut": "PODA en {function} de {node} porque {reason} -> le asigna valor {returns}",
        "last_child": "Cota alcanzada en el ultimo hijo en {function} de {node} porque {reason} -> le asigna valor {returns}",
        "found": "valor encontrado: {value}",
        "return": "{function} de {node} asigna valor {value}",
        "p": "p",
        "with_p": " con probabilidad {p}",
        "expected": "{function} de {node} asigna valor esperado {terms} = {value}",
        "mixed": "{function} de {node} asigna valor {keep}*{best} {optimal} + {share}*media {mean} = {value}",
        "upper": CUT_NAMES["es"]["upper"],
        "lower": CUT_NAMES["es"]["lower"],
        "probe_call": "Sondeo {function}({node}{window}){p}: solo su primera jugada",
        "probe_bound": "Sondeo de {node}: {function} {op} {value} ({side} por su primera jugada)",
        "probe_none": "Sondeo de {node}: primera jugada {value}, fuera de la ventana del sondeo: sin cota",
        "recalled": "{node} = {value}: recordado del sondeo, no se busca de nuevo",
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
        self._parents: object = None
        self._single: int | None = None  # the one kind of decision node of a single-agent tree
        #: paranoid search: the root player's number, once its node's event said it maximises
        self._maximiser: int | None = None

    def indent(self, depth: int) -> str:
        if self.lang == "es":
            return "." * depth + " " if depth else ""
        return "  " * depth

    def function(self, node: int, detail: dict | None = None) -> str:
        kind = self.tree.kind[node]
        if detail and detail.get("averaged"):  # expectimax: a min node averaged like a chance node
            return "chanceValue"
        if kind == MAX:
            return "maxValue"
        if kind == MIN:
            return "minValue"
        if kind == CHANCE:
            return "chanceValue"
        if kind == PLAYER:
            # paranoid search: the root player maximises, the coalition minimises
            role = detail.get("role") if detail else None
            if role == "max":
                self._maximiser = self.tree.player[node]
            return f"{role or 'maxn'}Value[{self.tree.player_name(node)}]"
        return "value"

    def _player_after(self, node: int) -> int:
        """The player who moves below ``node`` (a player's node): the one at its first inner child, or
        else the next in the players' order (A, B, C, A, ...)."""
        tree = self.tree
        start = tree.first[node]
        for child in range(start, start + tree.count[node]):
            if tree.count[child] and tree.kind[child] == PLAYER:
                return tree.player[child]
        return (tree.player[node] + 1) % len(tree.players)

    def _single_agent(self) -> int | None:
        """MAX (or MIN) when it is the tree's only kind of decision node and it moves again after
        itself somewhere (a max node under a max node, chance nodes between allowed): a single-agent
        search. A lone max root over leaves stays two-player: its leaves are where MIN would move."""
        tree, parents = self.tree, self._parents
        deciders = [kind for kind in (MAX, MIN) if kind in tree.kind]
        if len(deciders) != 1:
            return None
        kind = deciders[0]
        node = tree.kind.find(kind, 1)
        while node > 0:  # bytearray.find: only the nodes of that kind are looked at
            above = parents[node]  # type: ignore[index]
            while above >= 0 and tree.kind[above] == CHANCE:
                above = parents[above]  # type: ignore[index]
            if above >= 0 and tree.kind[above] == kind:
                return kind
            node = tree.kind.find(kind, node + 1)
        return None

    def leaf_function(self, node: int, detail: dict) -> str:
        """The function the notes call on a leaf: the one of the player to move there, i.e. the
        opposite of its nearest max/min ancestor's (maxValue below a min node); in a single-agent
        tree (one kind of decision node, e.g. max-only) that player's own, as its inner nodes are called."""
        tree = self.tree
        if self._parents is None:
            self._parents = tree.parents()
            self._single = self._single_agent()
        if self._single is not None:
            return "maxValue" if self._single == MAX else "minValue"
        parents = self._parents
        above = parents[node]  # type: ignore[index]
        while above >= 0 and tree.kind[above] == CHANCE:
            above = parents[above]  # type: ignore[index]
        if above < 0:
            return "maxValue"
        if tree.kind[above] == MAX:
            return "minValue"
        if tree.kind[above] == MIN:
            return "maxValue"
        if tree.kind[above] == PLAYER:  # the function of the player to move at the leaf, as in two-player trees
            player = self._player_after(above)
            role = None if self._maximiser is None else "max" if player == self._maximiser else "min"
            return f"{role or 'maxn'}Value[{tree.players[player]}]"
        return self.function(above, detail)

    def window(self, alpha: Value | None, beta: Value | None) -> str:
        parts = []
        if alpha is not None:
            parts.append(f"{self.words['alpha']}={format_value(alpha)}")
        if beta is not None:
            parts.append(f"beta={format_value(beta)}")
        return (", " + ", ".join(parts)) if parts else ""

    def line(self, event: Event) -> str | None:
        """The trace line for ``event``, or None when it adds nothing; a name's control characters
        shown escaped (core/printable.py: a name must not break the one line an event gets)."""
        text = self._line(event)
        return None if text is None else printable(text)

    def _line(self, event: Event) -> str | None:
        words, tree = self.words, self.tree
        name = tree.node_id(event.node)
        detail = event.detail or {}
        # a child of a chance node (or of an averaged min node) says its probability
        p = words["with_p"].format(p=format_value(detail["p"])) if detail.get("p") is not None else ""
        if event.kind == CALL:
            self._last_cut = None
            window = self.window(event.alpha, event.beta)
            if "bound_value" in detail:  # shallow pruning: the Bound the parent passed
                window += f", Bound={format_value(detail['bound_value'])}"
            template = words["probe_call"] if detail.get("probe") else words["call"]  # Star2's probe
            text = template.format(function=self.function(event.node, detail), node=name, window=window, p=p)
            return self.indent(event.depth) + text
        if event.kind == LEAF:
            horizon = detail.get("horizon")
            template = words["horizon"] if horizon else words["leaf"]
            shown = format_value(event.value)
            if "vector" in detail:  # paranoid: the vector, then the root player's number from it
                shown = f"{format_value(detail['vector'])} -> {shown}"
            function = self.function(event.node, detail) if horizon else self.leaf_function(event.node, detail)
            return self.indent(event.depth) + template.format(node=name, value=shown, p=p, function=function,
                                                              window=self.window(event.alpha, event.beta))
        if event.kind == CUT:
            self._last_cut = event.node
            op = detail.get("op", ">=")
            bound = detail.get("bound", "beta")
            bound_value = event.beta if bound == "beta" else event.alpha
            if "bound_value" in detail:
                bound_value = detail["bound_value"]
            value_name = detail.get("value_name", "v")
            value_name = cut_name(value_name, self.lang)  # Star1/Star2 chance bounds: the shared wording
            bound_word = words["alpha"] if bound == "alpha" else bound
            reason = detail.get("reason") or f"{value_name}={format_value(event.value)} {op} {bound_word}={format_value(bound_value)}"
            returns = detail.get("returns", event.value)
            # (Star2's cut after the probes prunes the rest of the probed children: never "nothing")
            skipped_nothing = "skipped" in detail and not detail["skipped"] and not str(detail.get("value_name")).startswith("probed")
            text = words["last_child" if skipped_nothing else "cut"].format(function=self.function(event.node, detail), node=name, reason=reason,
                                       returns=format_value(returns))
            return self.indent(event.depth + 1) + text
        if event.kind == RETURN:
            if self._last_cut == event.node:
                self._last_cut = None
                return None
            if detail.get("recalled"):  # Star2: a child settled by its probe's search, not entered again
                return self.indent(event.depth) + words["recalled"].format(node=name, value=format_value(event.value))
            function = self.function(event.node, detail)
            if "probe" in detail:  # Star2: what a probe's first move says of the node
                return self.indent(event.depth + 1) + self._probe_line(detail["probe"], function, name, event.value)
            if "terms" in detail:
                text = words["expected"].format(function=function, node=name, terms=expected_terms(detail["terms"]),
                                                value=format_value(event.value))
            elif "random" in detail:
                share = detail["random"]
                text = words["mixed"].format(function=function, node=name, keep=format_value(1 - share),
                                             best="max" if self.tree.kind[event.node] == MAX else "min",
                                             optimal=format_value(detail["optimal"]), share=format_value(share),
                                             mean=format_value(detail["mean"]), value=format_value(event.value))
            else:
                text = words["return"].format(function=function, node=name, value=format_value(event.value))
            return self.indent(event.depth + 1) + text
        return None


    def _probe_line(self, side: str, function: str, name: str, value: Value | None) -> str:
        if side == "none":
            return self.words["probe_none"].format(node=name, value=format_value(value))
        return self.words["probe_bound"].format(node=name, function=function, op=">=" if side == "lower" else "<=",
                                                value=format_value(value), side=self.words[side])


#: a chance node with more children than this shows its sum shortened
MAX_TERMS_SHOWN = 12


def expected_terms(terms: list[tuple[Value, Value]]) -> str:
    """``1/3*5 + 2/3*(-1)``: a chance node's expectation written out, as on the board."""
    parts = []
    for p, value in terms[:MAX_TERMS_SHOWN]:
        shown = format_value(value)
        parts.append(f"{format_value(p)}*({shown})" if shown.startswith("-") else f"{format_value(p)}*{shown}")
    if len(terms) > MAX_TERMS_SHOWN:
        parts.append(f"... ({len(terms) - MAX_TERMS_SHOWN} more)")
    return " + ".join(parts)


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

    def finish(self, value: Value) -> None:
        """The last line, once the search is over: ``valor encontrado: 3`` (the notes' ending)."""
        self.stream.write(self.formatter.words["found"].format(value=format_value(value)) + "\n")
