"""What the visited part of a tree settles about a node's value: an exact value, a bound, or which side.

Why apart from the search: the window a node was searched with tells a bound
from an exact value (docs/solving.md: at or below alpha ``≤ v``, at or above
beta ``≥ v``) except where it cannot: a window with alpha = beta (``--strict``
lets a node's own bound reach the other one without a cut, and fail-hard then
returns that bound whatever its children gave), and Star1/Star2 values above a
cut or a probe, which no window of their own describes. There the record asks
what the search actually saw: a visited leaf (or ``eval`` at the depth limit)
is known; a node never visited could be anything between the tree's bounds
(``-inf``/``inf`` without them); max, min, the mean and an opponent model's mix
only grow with their children, so the lowest and highest values a node could
still have are its rule applied to its children's lowest and highest.
"""

from __future__ import annotations

from typing import Any

from ..core.buffers import flagged_all
from ..core.model import CHANCE, MAX, MIN
from ..core.numbers import INF, NEG_INF, Number
from .record_facts import EXACT, LOWER, UPPER

__all__ = ["Settled", "kind_from_interval", "settle_flags"]


def kind_from_interval(low: Any, high: Any, value: Any) -> int:
    """EXACT when the node can only be ``value``; LOWER when it is at least that, UPPER at most;
    LOWER | UPPER when the visited part settles neither (a value inside the interval)."""
    at_least, at_most = low >= value, high <= value
    if at_least and at_most:
        return EXACT
    return LOWER if at_least else UPPER if at_most else LOWER | UPPER


class Settled:
    """The interval ``(lowest, highest)`` each visited node's true value can still have, asked node
    by node and remembered (a degenerate window's subtree, a Star1/Star2 record's nodes)."""

    def __init__(self, record: Any, bounds: tuple[Number, Number] | None, models: bool = True) -> None:
        """``models``: mix an opponent model's ``random`` share in (expectiminimax's searches; alpha-beta has none)."""
        self.record, self.tree = record, record.tree
        self.unknown = (bounds[0], bounds[1]) if bounds is not None else (NEG_INF, INF)
        self.shares = {node: extra["random"] for node, extra in self.tree.extra.items() if extra.get("random")} \
            if models else {}
        self.known: dict[int, tuple[Any, Any]] = {}

    @staticmethod
    def of(record: Any) -> "Settled":
        """The record's own (made once): a record of a search over ``bounds`` given in its options."""
        if getattr(record, "_settled", None) is None:
            record._settled = Settled(record, tuple(record.options["bounds"]))
        return record._settled  # type: ignore[no-any-return]

    def kind(self, node: int) -> int:
        """The bound kind the visited part of the tree settles for ``node``'s value."""
        low, high = self.interval(node)
        return kind_from_interval(low, high, self.record.values[node])

    def interval(self, node: int) -> tuple[Any, Any]:
        """Walks the node's visited subtree once, children before parents, without recursion
        (a chain a million nodes deep)."""
        if node in self.known:
            return self.known[node]
        tree, values, known = self.tree, self.record.values, self.known
        stack = [(node, False)]
        while stack:
            here, ready = stack.pop()
            if here in known:
                continue
            if values[here] is None:
                known[here] = self.unknown
            elif tree.count[here] == 0 or self.record.at_horizon(here):
                known[here] = (values[here], values[here])
            elif ready:
                known[here] = self._combine(here)
            else:
                stack.append((here, True))
                stack.extend((child, False) for child in tree.children(here) if child not in known)
        return known[node]

    def _combine(self, node: int) -> tuple[Any, Any]:
        tree = self.tree
        children = [self.known[child] for child in tree.children(node)]
        lows, highs = [low for low, _ in children], [high for _, high in children]
        kind = tree.kind[node]
        if kind == CHANCE:
            shares = [tree.prob[child] for child in tree.children(node)]  # type: ignore[index]
            return _mean(shares, lows), _mean(shares, highs)
        if kind not in (MAX, MIN):  # n-player searches keep vectors: nothing to settle here
            raise ValueError(f"node {node}: no interval for a {kind} node")
        share = self.shares.get(node)
        from .expectation import decide  # here, not at the top: it imports decimal and fractions (start-up)

        return decide(kind == MAX, share, lows)[1], decide(kind == MAX, share, highs)[1]


def _mean(shares: list[Any], values: list[Any]) -> Any:
    """The expectation, infinite where a child's bound is (an alpha-beta record has no tree bounds)."""
    if any(value in (INF, NEG_INF) for value in values):
        finite = [share * value for share, value in zip(shares, values) if share]
        return sum(finite)
    from .expectation import expected_value  # here, not at the top: it imports decimal and fractions (start-up)

    return expected_value(list(zip(shares, values)))


def settle_flags(record: Any) -> None:
    """The depth-first search's flags say both LOWER and UPPER where a value is at or below alpha and at
    or above beta at once (alpha = beta: ``--strict``); the visited part says which (or exact), in place."""
    flags, order = record.flags, record._order
    slots = flagged_all(flags, LOWER | UPPER)  # the few such slots, found at once
    if not slots:
        return
    settled = Settled(record, None, models=False)
    for slot in slots:
        flags[slot] = (int(flags[slot]) & ~(LOWER | UPPER)) | settled.kind(int(order[slot]))
