"""Gambit .efg records -> a tree document: constant sums, player names and node ids (see efg.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..core.errors import TreeFormatError
from .efg_lexer import _Num
from .efg_parse import _Record


def _check_constant_sum(records: list[_Record], filename: str, allow: bool) -> bool:
    """True when the two-player game is general-sum (and that is allowed)."""
    first: tuple[Fraction, _Record] | None = None
    for record in records:
        if record.kind != "t":
            continue
        total = record.payoffs[0].exact + record.payoffs[1].exact
        if first is None:
            first = (total, record)
        elif total != first[0]:
            if allow:
                return True
            shown = [_Num(value, record.payoffs[0].decimal or record.payoffs[1].decimal).show() for value in (first[0], total)]
            raise TreeFormatError(
                f"not a constant-sum game: payoffs sum to {shown[0]} at line {first[1].line} but to {shown[1]}"
                " here; gametree's two-player algorithms need zero- or constant-sum payoffs",
                file=filename,
                line=record.line,
            )
    return False


def _player_names(names: list[str]) -> list[str]:
    """Player names as the document needs them: non-empty and distinct."""
    result: list[str] = []
    for number, name in enumerate(names, start=1):
        name = name.strip()
        candidate = name or f"Player {number}"
        while candidate in result:
            candidate += "'"
        result.append(candidate)
    return result


def _build_nodes(records: list[_Record], vectors: bool) -> dict[str, Any]:
    """Turn the preorder records into nested document nodes (children before parents)."""
    ids = _choose_ids(records)
    moves: list[str | None] = [None] * len(records)
    chances: list[_Num | None] = [None] * len(records)
    for record in records:
        for position, child in enumerate(record.children):
            moves[child] = record.labels[position] or None
            if record.kind == "c":
                chances[child] = record.probabilities[position]
    built: list[dict[str, Any] | None] = [None] * len(records)
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        node: dict[str, Any] = {}
        if ids[index] is not None:
            node["id"] = ids[index]
        if moves[index] is not None:
            node["move"] = moves[index]
        chance = chances[index]
        if chance is not None:
            node["p"] = chance.to_document()
        if record.kind == "t":
            payoffs = record.payoffs
            node["value"] = [p.to_document() for p in payoffs] if vectors else payoffs[0].to_document()
        else:
            if record.kind == "c":
                node["type"] = "chance"
            elif vectors:
                node["player"] = record.player - 1
            else:
                node["type"] = "max" if record.player == 1 else "min"
            node["children"] = [built[child] for child in record.children]
            for child in record.children:
                built[child] = None  # each dict is referenced once, from its parent
        built[index] = node
    root = built[0]
    assert root is not None
    return root


def _choose_ids(records: list[_Record]) -> list[str | None]:
    """Node names that can serve as ids: non-empty, unique, and not another node's default id."""
    counts: dict[str, int] = {}
    for record in records:
        if record.name:
            counts[record.name] = counts.get(record.name, 0) + 1
    chosen: list[str | None] = [record.name if record.name and counts[record.name] == 1 else None for record in records]
    while True:
        effective = _effective_ids(records, chosen)
        explicit = {name for name in chosen if name is not None}
        defaults = {name for index, name in enumerate(effective) if chosen[index] is None}
        clashes = explicit & defaults
        if not clashes:
            return chosen
        chosen = [None if name in clashes else name for name in chosen]


def _effective_ids(records: list[_Record], chosen: list[str | None]) -> list[str]:
    """Every node's id under the contract's default rule (``B.1``; ``1`` below an unnamed root)."""
    effective = [""] * len(records)
    effective[0] = chosen[0] or "root"
    for index, record in enumerate(records):
        prefix = f"{effective[index]}." if (index or chosen[0] is not None) else ""
        for position, child in enumerate(record.children, start=1):
            effective[child] = chosen[child] or f"{prefix}{position}"
    return effective
