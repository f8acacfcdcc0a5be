"""Tree documents as YAML, JSON and compact text, written iteratively.

No recursion, so a 100,000-deep chain is written like any other tree; the
indentation stays bounded: below :data:`BLOCK_DEPTH` nesting levels a subtree
is written on one line in flow style, which YAML and JSON read alike.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable

from ..core.errors import GameTreeError
from ..core.numbers import Number, is_fraction

__all__ = ["document_to_json", "document_to_yaml", "flow_json", "number_to_document", "BLOCK_DEPTH"]

#: Nesting depth (of mappings and lists) written in block style; deeper parts go on one line.
BLOCK_DEPTH = 40


def number_to_document(number: Number) -> int | float | str:
    """A number as a document holds it: int, float (a decimal input), or ``"a/b"``."""
    if is_fraction(number):
        if number.denominator == 1:  # type: ignore[union-attr]
            return number.numerator
        return f"{number.numerator}/{number.denominator}"
    return number


def flow_json(item: Any) -> str:
    """``item`` as JSON on one line (flow style, which YAML reads too), iteratively."""
    pieces: list[str] = []
    _flow(item, _json_scalar, pieces, _json_string)
    return "".join(pieces)


# -- document -> text -----------------------------------------------------------

_NON_PRINTABLE = re.compile("[\x7f-\x84\x86-\x9f\ud800-\udfff\ufeff\ufffe\uffff]")
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
#: Plain text outside flow lists (titles): words, spaces and harmless punctuation.
_PLAIN_BLOCK = re.compile(r"^[^\W\d][\w .,()'/+=&;!?\-]*(?<! )$")
#: Plain words some YAML reader takes for a boolean or null.
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null", "nan", "inf"})


def _json_string(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    if _NON_PRINTABLE.search(quoted):
        quoted = _NON_PRINTABLE.sub(lambda match: f"\\u{ord(match.group()):04x}", quoted)
    return quoted


def _yaml_string(text: str) -> str:
    if _PLAIN.match(text) and text.lower() not in _YAML_WORDS:
        return text
    return _json_string(text)


def _yaml_block_string(text: str) -> str:
    if _PLAIN_BLOCK.match(text) and text.lower() not in _YAML_WORDS:
        return text
    return _json_string(text)


def _json_scalar(item: Any) -> str:
    if isinstance(item, str):
        return _json_string(item)
    if item is None:
        return "null"
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if not math.isfinite(item):
            raise GameTreeError(f"{item!r} is not a finite number")
        return repr(item)
    if is_fraction(item):
        return _json_string(str(number_to_document(item))) if item.denominator != 1 else str(item.numerator)
    raise TypeError(f"cannot write {type(item).__name__} in a tree document")


def _yaml_scalar(item: Any) -> str:
    if isinstance(item, str):
        return _yaml_string(item)
    if isinstance(item, float) and math.isfinite(item):
        text = repr(item)
        if "e" in text and "." not in text:
            mantissa, exponent = text.split("e")
            text = f"{mantissa}.0e{exponent}"  # YAML 1.1 reads a float only with a dot
        return text
    return _json_scalar(item)


def _flow(item: Any, scalar: Callable[[Any], str], pieces: list[str], key: Callable[[str], str]) -> None:
    """Append ``item`` in flow style (one line, JSON-like) to ``pieces``, without recursion."""
    stack: list[Any] = [item]
    while stack:
        current = stack.pop()
        if isinstance(current, _Text):
            pieces.append(current.text)
        elif isinstance(current, dict):
            pieces.append("{")
            pending: list[Any] = []
            for position, (name, value) in enumerate(current.items()):
                pending.append(_Text(("" if position == 0 else ", ") + key(str(name)) + ": "))
                pending.append(value)
            pending.append(_Text("}"))
            stack.extend(reversed(pending))
        elif isinstance(current, (list, tuple)):
            pieces.append("[")
            pending = []
            for position, value in enumerate(current):
                if position:
                    pending.append(_Text(", "))
                pending.append(value)
            pending.append(_Text("]"))
            stack.extend(reversed(pending))
        else:
            pieces.append(scalar(current))


class _Text:
    """A literal piece of output waiting on the writers' stacks."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _is_flat(item: Any) -> bool:
    """Lists without mappings inside (vectors, compact subtrees) are written on one line."""
    if isinstance(item, dict):
        return False
    if not isinstance(item, (list, tuple)):
        return True
    stack = [item]
    while stack:
        for part in stack.pop():
            if isinstance(part, dict):
                return False
            if isinstance(part, (list, tuple)):
                stack.append(part)
    return True


def document_to_json(document: Any) -> str:
    """A document as indented JSON (one line per key; flat lists and deep parts on one line)."""
    lines: list[str] = []
    # stack entries: (item, depth, lead, trail); lead goes before, trail after the item
    stack: list[tuple[Any, int, str, str]] = [(document, 0, "", "")]
    while stack:
        item, depth, lead, trail = stack.pop()
        if isinstance(item, _Text):
            lines.append(item.text)
            continue
        if depth >= BLOCK_DEPTH or _is_flat(item) or not item:
            pieces = [lead]
            _flow(item, _json_scalar, pieces, _json_string)
            pieces.append(trail)
            lines.append("".join(pieces))
            continue
        pad = "  " * (depth + 1)
        if isinstance(item, dict):
            lines.append(lead + "{")
            pending: list[Any] = []
            keys = list(item)
            for position, name in enumerate(keys):
                comma = "," if position < len(keys) - 1 else ""
                pending.append((item[name], depth + 1, pad + _json_string(str(name)) + ": ", comma))
            pending.append((_Text("  " * depth + "}" + trail), 0, "", ""))
        else:
            lines.append(lead + "[")
            pending = []
            for position, value in enumerate(item):
                comma = "," if position < len(item) - 1 else ""
                pending.append((value, depth + 1, pad, comma))
            pending.append((_Text("  " * depth + "]" + trail), 0, "", ""))
        stack.extend(reversed(pending))
    return "\n".join(lines) + "\n"


def document_to_yaml(document: Any, *, header: str | None = None) -> str:
    """A document as block-style YAML, the way the shipped tree files are written.

    Mappings are written one key per line; lists without mappings inside
    (payoff vectors, compact subtrees) on one line in flow style; anything
    nested deeper than :data:`BLOCK_DEPTH` on one line too, so indentation
    stays bounded however deep the tree.
    """
    lines: list[str] = []
    if header:
        lines.extend(f"# {line}".rstrip() for line in header.splitlines())
    # stack entries: (item, column, lead): lead is the text before the item's
    # first line (indentation, "key: " or "- "), later lines start at column.
    stack: list[Any] = [(document, 0, "")]
    while stack:
        entry = stack.pop()
        if isinstance(entry, _Text):
            lines.append(entry.text)
            continue
        item, column, lead = entry
        if isinstance(item, str):
            lines.append(lead + _yaml_block_string(item))
            continue
        if not isinstance(item, (dict, list, tuple)) or column >= 2 * BLOCK_DEPTH or not item or _is_flat(item):
            pieces = [lead]
            _flow(item, _yaml_scalar, pieces, _yaml_string)
            lines.append("".join(pieces))
            continue
        pending: list[Any] = []
        if isinstance(item, dict):
            for position, (name, value) in enumerate(item.items()):
                key_lead = (lead if position == 0 else " " * column) + _yaml_string(str(name)) + ":"
                if isinstance(value, (dict, list, tuple)) and value and column + 2 < 2 * BLOCK_DEPTH and not _is_flat(value):
                    pending.append(_Text(key_lead))
                    pending.append((value, column + 2, " " * (column + 2)))
                else:  # a scalar, a flat list, or too deep for block style: on this line
                    flow = column if not isinstance(value, (dict, list, tuple)) else max(column, 2 * BLOCK_DEPTH)
                    pending.append((value, flow, key_lead + " "))
        else:
            for position, value in enumerate(item):
                pending.append((value, column + 2, (lead if position == 0 else " " * column) + "- "))
        stack.extend(reversed(pending))
    return "\n".join(lines) + "\n"
