"""The browser page's data: the drawn nodes and one entry per event of the search, as compact arrays.

Why here and not in JavaScript: the page must say exactly what the record
says. Every text it shows (the trace line, a value, a window, a bound) is
written by Python from the search's events and its record, with the same
trace wording as ``solve --trace`` (:mod:`gametree_cli.views.trace`); the
page's script only replays the steps. Nothing is searched again.

A step is ``[kind, node, value, windows, test, line, pruned]``:

* ``kind``: ``c`` call, ``l`` leaf, ``x`` cut, ``r`` return; ``b`` a cut at the last child, which
  skips nothing (the record's :meth:`~gametree_cli.search.record.SearchRecord.skipped_nothing`):
  the bound was reached there, so no ✂, as ``solve``, the trace and ``render`` say;
* ``node``: the drawn node the event is at (a node below the drawn levels
  counts as its drawn ancestor);
* ``value``: the value the node shows from this step on (leaf, return), or null;
* ``windows``: ``[[node, alpha, beta], ...]``, the bounds a course writes beside
  a node, as they stand after this step (shallow pruning: ``[node, "Bound", b]``);
* ``test``: ``[node, text, id]``, the pruning test in force at the node deciding
  now (``prune if v ≤ α = 3``), or the cut that held (``✂ v=2 ≤ α=3``; at the last
  child ``v=2 ≤ α=3 (at the last child)``); or 0;
* ``line``: the trace line of the step, in the page's language, exactly as ``solve --trace`` prints
  it; ``""`` for the return right after a cut, which the trace does not print (the page shows
  the cut's line there);
* ``pruned``: drawn nodes whose subtrees the cut skips (cut steps), else 0.
"""

from __future__ import annotations

from typing import Any

from ..search.events import CALL, CUT, LEAF, RETURN, Event
from ..core.model import CHANCE, LEAF as LEAF_KIND, MAX, MIN
from ..core.numbers import format_value
from ..core.printable import printable
from ..search.record import SearchRecord
from .marks import bound_sign
from .page_words import page_words, said_name
from .picture import Drawn
from .trace import TraceFormatter

__all__ = ["page_steps", "pretty", "final_values", "pv_positions", "KIND_CODES"]

KIND_CODES = {CALL: "c", LEAF: "l", CUT: "x", RETURN: "r"}
_OPS = {">=": "≥", "<=": "≤", ">": ">", "<": "<"}
_GREEK = {"alpha": "α", "beta": "β"}


def pretty(text: str) -> str:
    """A value as a slide writes it: ``∞``, ``−3`` (a real minus sign)."""
    text = text.replace("-inf", "−∞").replace("inf", "∞")
    return text.replace("-", "−")


class _StepWriter:
    """Turns the event stream into page steps (see the module docstring)."""

    def __init__(self, record: SearchRecord, drawn: list[Drawn], lang: str) -> None:
        tree = record.tree
        self.record, self.tree = record, tree
        self.index = {item.node: position for position, item in enumerate(drawn)}
        self.parent = tree.parents()
        self.formatter, self.lang, self.said = TraceFormatter(tree, lang), lang, page_words(lang)
        self.windows: dict[int, tuple[str, str]] = {}
        self.shallow: dict[int, str] = {}
        self.roles: dict[int, str] = {}
        # fail-hard and the course notes' form state their cut as bound against bound (β ≤ α), as their trace does
        self.hard = record.options.get("variant") in ("hard", "practical")
        self.strict = bool(record.options.get("strict"))

    def shown(self, node: int) -> int:
        """The drawn node standing for ``node`` (itself, or its deepest drawn ancestor)."""
        while node not in self.index:
            node = self.parent[node]
        return self.index[node]

    def line(self, event: Event) -> str:
        return printable(self._line(event))

    def _line(self, event: Event) -> str:
        """``solve --trace``'s line, or ``""`` where it prints none: the return right after a cut,
        whose value the cut's line already gives (the page keeps the step, to move the value up)."""
        return self.formatter.line(event) or ""

    def updates_after(self, events: list[Event]) -> list[list[tuple[int, str, str]]]:
        """Per event, the windows that stand after it: the event's own node's, and, after a child
        leaf or return, the parent's as the next event there reveals it (a decision node passes its
        window unchanged to the next child; a chance node's children get windows of their own)."""
        tree, parent = self.tree, self.parent
        updates: list[list[tuple[int, str, str]]] = [[] for _ in events]
        waiting: dict[int, list[int]] = {}
        for position, event in enumerate(events):
            if event.alpha is None or event.beta is None:
                continue
            window = (format_value(event.alpha), format_value(event.beta))
            node = event.node
            above = parent[node] if node else -1
            revealed = None
            if event.kind in (CALL, LEAF) and above >= 0 and tree.kind[above] != CHANCE:
                revealed = above
            elif event.kind in (CUT, RETURN):
                revealed = node
            if revealed is not None:
                for earlier in waiting.pop(revealed, ()):
                    updates[earlier].append((revealed, *window))
            if event.kind != LEAF and tree.count[node]:
                updates[position].append((node, *window))
            if event.kind in (LEAF, RETURN) and above >= 0 and tree.kind[above] != CHANCE:
                waiting.setdefault(above, []).append(position)
        return updates

    def test(self, node: int) -> str:
        """The pruning test in force at ``node`` now, or ``""`` where none applies."""
        said = self.said
        if node in self.shallow:
            return said["test_shallow"].format(player=self.tree.player_name(node), bound=pretty(self.shallow[node]))
        window = self.windows.get(node)
        if window is None:
            return ""
        alpha, beta = (pretty(part) for part in window)
        kind, role = self.tree.kind[node], self.roles.get(node)
        up, down = (">", "<") if self.strict else ("≥", "≤")
        if kind == CHANCE:
            return said["test_chance"].format(down=down, up=up, alpha=alpha, beta=beta)
        if kind == MAX or role == "max":
            return said["test"].format(name="α" if self.hard else "v", op=up, bound="β", value=beta)
        if kind == MIN or role == "min":
            return said["test"].format(name="β" if self.hard else "v", op=down, bound="α", value=alpha)
        return ""

    def placed(self, node: int, text: str) -> list[Any]:
        """``[drawn node, text, id]``: a node below the drawn levels says its id on its ancestor's label
        (the id as shown: control characters and lone surrogates escaped)."""
        name = printable(self.tree.node_id(node))
        return [self.shown(node), text if node in self.index else f"{name}: {text}", name]

    def cut_text(self, event: Event, last_child: bool = False) -> str:
        """``✂ v=2 ≤ α=3``; a cut at the last child skips nothing: ``v=2 ≤ α=3 (at the last child)``."""
        detail = event.detail or {}
        op = _OPS.get(detail.get("op", ">="), detail.get("op", ""))
        bound = detail.get("bound", "beta")
        bound_value = detail.get("bound_value", event.beta if bound == "beta" else event.alpha)
        name = detail.get("value_name", "v")
        name, bound = said_name(name, self.said), said_name(bound, self.said)  # upper, Bound…: in the page's language
        reason = (f"{_GREEK.get(name, name)}={pretty(format_value(event.value))} {op} "
                  f"{_GREEK.get(bound, bound)}={pretty(format_value(bound_value))}")
        return f"{reason} ({self.said['last_child']})" if last_child else f"✂ {reason}"

    def steps(self, events: list[Event]) -> list[list[Any]]:
        updates = self.updates_after(events)
        parent, steps = self.parent, []
        for event, windows in zip(events, updates):
            node, detail = event.node, event.detail or {}
            if event.kind == CALL:
                if "bound_value" in detail:
                    self.shallow[node] = format_value(detail["bound_value"])
                if "role" in detail:
                    self.roles[node] = detail["role"]
            drawn_windows = []
            for at, alpha, beta in windows:
                self.windows[at] = (alpha, beta)
                if at in self.index:
                    drawn_windows.append([self.index[at], alpha, beta])
            if event.kind == CALL and node in self.shallow and node in self.index:
                drawn_windows.append([self.index[node], "Bound", self.shallow[node]])
            deciding = node if event.kind in (CALL, CUT) else (parent[node] if node else -1)
            test: Any = 0
            kind = KIND_CODES[event.kind]
            if event.kind == CUT:
                kind = "b" if self.record.skipped_nothing(node) else kind
                test = self.placed(node, self.cut_text(event, kind == "b"))
            elif deciding >= 0 and self.tree.kind[deciding] != LEAF_KIND and self.test(deciding):
                test = self.placed(deciding, self.test(deciding))
            value = None  # a leaf shows its utility from the start; a horizon node its eval when reached
            if event.value is not None and node in self.index and self.tree.count[node]:
                value = self.value_text(event) if event.kind in (LEAF, RETURN) else None
            pruned = sorted({self.shown(child) for child in self.skipped(event)
                             if self.shown(child) != self.shown(node)}) if event.kind == CUT else 0
            steps.append([kind, self.shown(node), value, drawn_windows or 0, test,
                          self.line(event), pruned or 0])
        return steps

    def skipped(self, event: Event) -> list[int]:
        """What a cut skips: its children left, or (Star2's cut after the probes) the rest of the
        probed children, which the record lists among the pruned nodes below the cut node."""
        detail = event.detail or {}
        skipped = list(detail.get("skipped", ()))
        if not skipped and str(detail.get("value_name")).startswith("probed"):
            parents = self.tree.parents()
            skipped = [top for top in self.record.pruned if top and parents[top] >= 0 and parents[parents[top]] == event.node]
        return skipped

    def value_text(self, event: Event) -> str:
        mark = bound_sign(self.record, event.node) if event.kind == RETURN else ""
        return mark + format_value(event.value)


def page_steps(record: SearchRecord, events: list[Event], drawn: list[Drawn], lang: str = "en") -> list[list[Any]]:
    """The page's steps, one per event of the search (see the module docstring)."""
    return _StepWriter(record, drawn, lang).steps(events)



def final_values(record: SearchRecord, drawn: list[Drawn]) -> list[str | None]:
    """What each drawn inner node shows once the search is over: its value, ``≥``/``≤`` where only a bound."""
    tree, values = record.tree, record.values
    return [None if values[item.node] is None or not tree.count[item.node] or item.hidden
            else bound_sign(record, item.node) + format_value(values[item.node]) for item in drawn]


def pv_positions(record: SearchRecord, drawn: list[Drawn]) -> list[int]:
    """The drawn positions of the root and the principal variation."""
    index = {item.node: position for position, item in enumerate(drawn)}
    return sorted(index[node] for node in {0, *record.principal_variation()} if node in index)
