"""What a search reports while it runs: calls, leaves, cut-offs and returns.

A search takes an optional observer (any callable taking an :class:`Event`).
With none, it does not build events at all: the check is one local-variable
test per step. The text trace, the JSON ``trace`` list and the tests are all
observers of the same stream.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..core.numbers import Value

__all__ = ["Event", "Observer", "Recorder", "CALL", "LEAF", "CUT", "RETURN"]

CALL = "call"
LEAF = "leaf"
CUT = "cut"
RETURN = "return"


class Event(NamedTuple):
    """One step of a search.

    Attributes:
        kind: ``call`` (entering an inner node), ``leaf`` (a leaf, or a node
            evaluated by ``eval`` at the depth limit), ``cut`` (the pruning
            condition held), ``return`` (leaving an inner node).
        node: the node's number in the tree.
        depth: plies below the root.
        alpha: the lower bound in force (None when the algorithm has none).
        beta: the upper bound in force (None when the algorithm has none).
        value: the value found (leaf, return) or that triggered the cut.
        detail: algorithm-specific facts, e.g. for a cut ``{"bound": "beta",
            "op": ">=", "returns": 8}``; for a chance node ``{"p": ...}``.
    """

    kind: str
    node: int
    depth: int
    alpha: Value | None = None
    beta: Value | None = None
    value: Value | None = None
    detail: dict[str, Any] | None = None


Observer = Callable[[Event], None]


class Recorder:
    """An observer that keeps every event (tests, the JSON ``trace`` list)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)
