"""Byte-level and token-level mutations of a seed input, as plain data.

A mutation is a tuple ``(kind, position, argument, extra)`` of small integers,
so Hypothesis can draw and shrink them and a failing case prints as
something a person can replay. Positions are taken modulo the current
length, so any integers make a valid mutation of any input.

``.gtb`` files also get header mutations: the JSON header is decoded, one
field is replaced by a hostile value and the file is packed again with a
consistent header length, so the reader's checks behind the header are
reached (byte flips in JSON mostly stop at the JSON parser).
"""

from __future__ import annotations

import json
import re
import struct
from typing import Any

from gametree_cli.io.binary import MAGIC

from .seeds import NASTY_TOKENS

__all__ = ["Mutation", "KINDS", "mutate", "HOSTILE_JSON"]

Mutation = tuple[int, int, int, int]

KINDS = ("flip", "delete", "duplicate", "truncate", "insert", "replace", "header", "number", "key", "line", "line")

#: Numbers put in place of a number of the text: parse, but break a rule (or the arithmetic)
HOSTILE_NUMBERS: tuple[bytes, ...] = tuple(token.encode() for token in (
    "0", "-1", "2", "-0", "0.0", "1e400", "-1e400", "1e-400", ".nan", ".inf", "-.inf", "\"1/0\"", "\"0/0\"",
    "\"1/3\"", "\"-7/3\"", "\"1/-3\"", "0.1", "0.30000000000000004", "1e15", "9007199254740993",
    "4611686018427387904", "9223372036854775808", "-9223372036854775809", "1" * 300, "9" * 4300, "9" * 4301,
    "\"x\"", "null", "true", "[]", "[1]", "[1, 2, 3]", "[1, 2, 3, 4]", "{}", "0x10", "1_0", "010",
))
#: Keys put in place of a key of the text (tree files and answer files)
HOSTILE_KEYS: tuple[bytes, ...] = tuple(key.encode() for key in (
    "id", "move", "type", "player", "children", "value", "eval", "p", "random", "comment", "label", "title",
    "players", "sum", "bounds", "root", "general_sum", "description", "unknown", "tree", "algorithm", "depth",
    "answers", "exercises", "nodes", "pruned", "visit_order", "best_move", "best_moves", "principal_variation",
    "stats", "cutoffs", "alpha", "beta", "variant", "strict", "order", "ties", "name",
))
_NUMBER = re.compile(rb"-?\d+(?:[./]\d+)?")
_KEY = re.compile(rb"\"?[A-Za-z_$]+\"?(?=\s*:)")

#: Values put in place of a ``.gtb`` header field.
HOSTILE_JSON: tuple[Any, ...] = (
    -1, 0, 1, 2, 7, 255, 2**31, 2**63, 10**30, -(2**63), 1.5, float("1e300"), "x", "", "O", "V100000000",
    ">i8", "<U4", "f2", "b1", "<i8", "S0", "M8", "c16", None, True, [], [1], {}, {"a": 1}, "1/0", "0/0", "9" * 5000,
    [[0, {"number": "1/0"}]], [[99, 1]], [[0, {"json": [1]}]], ["A"] * 3,
)


def mutate(data: bytes, mutations: list[Mutation], extension: str) -> bytes:
    """``data`` with each mutation applied in turn."""
    for kind, position, argument, extra in mutations:
        data = _apply(data, KINDS[kind % len(KINDS)], position, argument, extra, extension)
    return data


def _apply(data: bytes, kind: str, position: int, argument: int, extra: int, extension: str) -> bytes:
    at = position % (len(data) + 1)
    span = 1 + argument % 64
    if kind == "flip" and data:
        at %= len(data)
        return data[:at] + bytes([data[at] ^ (1 << (argument % 8))]) + data[at + 1:]
    if kind == "delete":
        return data[:at] + data[at + span:]
    if kind == "duplicate":
        return data[:at] + data[at:at + span] * (1 + extra % 3) + data[at:]
    if kind == "truncate":
        return data[:at]
    if kind == "insert":
        return data[:at] + NASTY_TOKENS[argument % len(NASTY_TOKENS)] + data[at:]
    if kind == "replace":
        return data[:at] + NASTY_TOKENS[argument % len(NASTY_TOKENS)] + data[at + 1 + extra % 16:]
    if kind == "header" and extension == ".gtb":
        return _mutate_header(data, position, argument)
    if kind == "number":
        return _replace_match(data, _NUMBER, position, HOSTILE_NUMBERS[argument % len(HOSTILE_NUMBERS)])
    if kind == "key":
        return _replace_match(data, _KEY, position, HOSTILE_KEYS[argument % len(HOSTILE_KEYS)])
    if kind == "line":
        return _mutate_lines(data, position, argument, extra)
    return data


def _replace_match(data: bytes, pattern: re.Pattern[bytes], which: int, replacement: bytes) -> bytes:
    """Replace the ``which``-th match of ``pattern`` (a number, a key) with ``replacement``."""
    matches = list(pattern.finditer(data))
    if not matches:
        return data
    match = matches[which % len(matches)]
    return data[:match.start()] + replacement + data[match.end():]


def _mutate_lines(data: bytes, position: int, argument: int, extra: int) -> bytes:
    """Delete, duplicate, move or re-indent one line: the structure mostly still parses."""
    lines = data.split(b"\n")
    at = position % len(lines)
    line = lines[at]
    action = extra % 4
    if action == 0:
        del lines[at]
    elif action == 1:
        lines.insert(at, line)
    elif action == 2:
        del lines[at]
        lines.insert(argument % (len(lines) + 1), line)
    else:
        lines[at] = b" " * (argument % 9) + line.lstrip(b" ")
    return b"\n".join(lines)


def _mutate_header(data: bytes, which: int, hostile: int) -> bytes:
    """Replace one field of a ``.gtb`` header (found by index in a walk of the JSON) with a hostile value."""
    start = len(MAGIC) + 8
    try:
        (length,) = struct.unpack_from("<Q", data, len(MAGIC))
        header = json.loads(data[start:start + length].decode("utf-8"))
    except (struct.error, ValueError):
        return data
    fields = list(_fields(header))
    if not fields:
        return data
    holder, key = fields[which % len(fields)]
    holder[key] = HOSTILE_JSON[hostile % len(HOSTILE_JSON)]
    text = json.dumps(header).encode("utf-8")
    return data[:len(MAGIC)] + struct.pack("<Q", len(text)) + text + data[start + length:]


def _fields(item: Any) -> Any:
    """Every (container, key) pair of a JSON document, depth first."""
    if isinstance(item, dict):
        for key, child in item.items():
            yield item, key
            yield from _fields(child)
    elif isinstance(item, list):
        for index, child in enumerate(item):
            yield item, index
            yield from _fields(child)
