"""What the ``answers`` of an exercise may hold: numbers, node ids and moves, stats, node entries.

Why apart from :mod:`~gametree_cli.exercises.answers` (which reads the file's
shape): the same readings of a number or an id are used when grading
(:mod:`~gametree_cli.exercises.check`).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..core.numbers import Number, parse_number
from ..io.node_rules import is_decimal_text

__all__ = ["expected_number", "answer_id", "split_bound", "validate_answers", "NODE_KEYS", "STATS_KEYS", "BOUND_KINDS"]

NODE_KEYS = ("value", "bound_kind", "alpha", "beta", "visited", "type", "cut", "horizon")
#: a node value that is only a bound, as the JSON result says it (``bound_kind``); "exact" when it is not one
BOUND_KINDS = ("exact", "upper", "lower")
#: a node value written with its bound, as the text views show it (``≤2``: at most 2, an upper bound)
_BOUND_SIGNS = (("≤", "upper"), ("<=", "upper"), ("≥", "lower"), (">=", "lower"))
STATS_KEYS = ("nodes_visited", "leaves_evaluated", "cutoffs")
_INFINITIES = {"inf": math.inf, "+inf": math.inf, "infinity": math.inf, "-inf": -math.inf, "-infinity": -math.inf}


def expected_number(raw: Any) -> Number:
    """A number as an answer gives it: ``3``, ``"7/3"``, ``0.5``, ``inf`` / ``-inf``.

    Raises:
        ValueError: not a number (the message is for the user).
    """
    if isinstance(raw, str) and raw.strip().lower() in _INFINITIES:
        return _INFINITIES[raw.strip().lower()]
    if isinstance(raw, float) and math.isinf(raw):
        return raw
    return parse_number(raw)


def split_bound(raw: Any) -> tuple[Any, str | None]:
    """A node value as written and the bound it names: ``"≤2"`` -> ``("2", "upper")``,
    ``">= 7/3"`` -> ``("7/3", "lower")``, ``3`` -> ``(3, None)`` (a plain number names no bound)."""
    if isinstance(raw, str):
        text = raw.strip()
        for sign, kind in _BOUND_SIGNS:
            if text.startswith(sign):
                return text[len(sign):].strip(), kind
    return raw, None


def answer_id(raw: Any) -> str:
    """A node id or move as an answer gives it; a bare YAML integer (``1``) is its digits.

    Raises:
        ValueError: a value that YAML read as something other than a name (``1.10`` is the float 1.1).
    """
    if isinstance(raw, str):
        return raw
    if isinstance(raw, int) and not isinstance(raw, bool):
        return str(raw)
    if isinstance(raw, float):
        raise ValueError(f"{raw!r} is a number, not a node id or move: put the id in quotes, e.g. '1.10'")
    shown = "null" if raw is None else str(raw).lower() if isinstance(raw, bool) else repr(raw)
    raise ValueError(f"{shown} is not a node id or move: put it in quotes")


def validate_answers(answers: dict[str, Any], fail: Callable[..., Exception],
                     written: Callable[..., str | None] | None = None) -> None:
    """Check the answers' types up front, so a typo is exit 2 with a line, not a wrong answer.

    ``fail(message, *key_path, key=False)`` makes the located error (``Exercise.error``);
    ``written(key_path, key=False)``, the text of a plain scalar there (None when not known):
    an id or move that YAML read as an integer from other text (``0x1F``, ``017``) is refused.
    """

    def number(raw: Any, *path: Any, at: tuple[Any, ...] | None = None) -> None:
        """``at``: where the number is written, when not at ``path`` (``B: 3`` is ``nodes[B].value``)."""
        where = path if at is None else at
        if isinstance(raw, list) and path[-1] == "value":
            for index, part in enumerate(raw):
                number(part, *path, index, at=(*where, index))
            return
        try:
            expected_number(raw)
        except ValueError as error:
            raise fail(f"{_field(path)}: {error}", "answers", *where) from None

    def name(raw: Any, *path: Any, key: bool = False) -> None:
        try:
            answer_id(raw)
        except ValueError as error:
            raise fail(f"{_field(path)}: {error}", "answers", *path, key=key) from None
        if type(raw) is int and written is not None:
            text = written(("answers", *path), key=key)
            if text is not None and not is_decimal_text(text):
                raise fail(f"{_field(path)}: {text} is read as the number {raw}: put it in quotes, e.g. '{text}'",
                           "answers", *path, key=key)

    def names(raw: Any, key: str) -> None:
        if not isinstance(raw, list):
            raise fail(f"{key}: expected a list", "answers", key)
        for index, item in enumerate(raw):
            name(item, key, index)

    for key, raw in answers.items():
        if key == "value":
            number(raw, "value")
        elif key == "best_move":
            if raw is not None:
                name(raw, "best_move")
        elif key in ("best_moves", "principal_variation", "pruned", "visit_order"):
            names(raw, key)
        elif key == "stats":
            if not isinstance(raw, dict):
                raise fail("stats: expected a mapping, e.g. {cutoffs: 2}", "answers", "stats")
            for stat, count in raw.items():
                if stat not in STATS_KEYS:
                    raise fail(f"stats: unknown key {stat!r} (known: {', '.join(STATS_KEYS)})",
                                         "answers", "stats", stat, key=True)
                if isinstance(count, bool) or not isinstance(count, int):
                    raise fail(f"stats.{stat}: expected a whole number", "answers", "stats", stat)
        elif key == "nodes":
            if not isinstance(raw, dict):
                raise fail("nodes: expected a mapping of node id to value, e.g. {B: 3}", "answers", "nodes")
            for node_key, entry in raw.items():
                name(node_key, "nodes", node_key, key=True)
                if isinstance(entry, dict):
                    for item_key, item in entry.items():
                        if item_key not in NODE_KEYS:
                            raise fail(
                                f"nodes[{node_key}]: unknown key {item_key!r} (known: {', '.join(NODE_KEYS)})",
                                "answers", "nodes", node_key, item_key, key=True)
                        if item_key == "value":
                            value, sign = split_bound(item)
                            number(value, "nodes", node_key, item_key)
                            written_kind = entry.get("bound_kind")
                            if sign is not None and written_kind is not None and written_kind != sign:
                                bound = "an upper" if sign == "upper" else "a lower"
                                raise fail(f"nodes[{node_key}]: the value {item} is {bound} bound but bound_kind "
                                           f"says {written_kind}", "answers", "nodes", node_key, item_key)
                        elif item_key == "bound_kind":
                            if item not in BOUND_KINDS:
                                raise fail(f"nodes[{node_key}].bound_kind: expected one of {', '.join(BOUND_KINDS)}",
                                           "answers", "nodes", node_key, item_key)
                        elif item_key in ("alpha", "beta"):
                            number(item, "nodes", node_key, item_key)
                        elif item_key in ("visited", "horizon") and not isinstance(item, bool):
                            raise fail(f"nodes[{node_key}].{item_key}: expected true or false",
                                                 "answers", "nodes", node_key, item_key)
                else:  # the short form, ``B: 3``: the value is the entry itself
                    number(split_bound(entry)[0], "nodes", node_key, "value", at=("nodes", node_key))
        elif key == "depth":
            if raw is not None and (isinstance(raw, bool) or not isinstance(raw, int)):
                raise fail("depth: expected a whole number or null", "answers", "depth")


def _field(path: tuple[Any, ...]) -> str:
    """``("nodes", "B.1", "value")`` -> ``nodes[B.1].value``; ``("pruned", 2)`` -> ``pruned[2]``."""
    text = str(path[0]) if path else ""
    for index, part in enumerate(path[1:], start=1):
        bracketed = isinstance(part, int) or (path[0] == "nodes" and index == 1)
        text += f"[{part}]" if bracketed else f".{part}"
    return text
