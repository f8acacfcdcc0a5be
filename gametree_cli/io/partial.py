"""Refuse a bad JSON tree file from a small part of it: the nodes on one path.

Why: the JSON scanner (:mod:`~gametree_cli.io.jsonscan`) stops at the
first thing it cannot build, and in a bad file that is usually the mistake:
an unknown key at the root of a file written for another tool, a leaf whose
value is a word. Reading the whole file with ``json.loads`` and building it
just to word the error took seconds and hundreds of MB for a 46 MB file
(docs/limits.md). Here only the nodes on the path from the root to where the
scanner stopped are read, each with its own keys and its children counted,
into a *partial document*; the validating builder
(:func:`~gametree_cli.io.document.build_tree`) then runs on it as on any
document. The rules and their messages stay in that one place, and the error
is the one the whole file gets when it has that one mistake.

The children off the path are *stand-ins*: leaves with a value the header
accepts, plus their real ``p`` (a chance node checks its children's) and
``id`` (an explicit id clashes with the default id of an unnamed node, so a
named stand-in must stay named). A stand-in breaks no rule, so whatever the
builder finds is a mistake of the file; when it finds none, the caller reads
the whole file as before. Everything else is skipped in C with its grammar,
repeated keys and integer lengths checked: a syntax error, a key given twice
or an over-long integer anywhere in the text leaves it to the caller's
``json.loads``, which says what is wrong with it, as before.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # json's own string reader (C)
from typing import Any, Generator

from ..core.errors import GameTreeError, IllegalTreeError, TreeFormatError
from ..core.model import Source
from .document import build_tree
from .jsonscan import ID_REASON, NOT_MISTAKES, Declined, check_scan

try:
    from .._jsonscan import skip as _skip, skip_items as _skip_items
except ImportError:  # built without a C compiler: no scanner stops early, nothing to read here
    _skip = _skip_items = None

__all__ = ["first_error", "partial_error"]

_SPACE = re.compile(r"[ \t\n\r]*")
_SPACES = (" ", "\n", "\t", "\r")
#: node keys whose values a rule reads (comment, label and unknown keys are refused or ignored by name)
_READ_KEYS = frozenset({"id", "move", "type", "player", "value", "eval", "p", "random"})
#: top-level keys whose values the header reads
_HEADER_KEYS = frozenset({"title", "players", "sum", "bounds", "general_sum"})
#: a ``children`` mapping longer than this is not decoded: any mapping there is refused, named by its kind
_DECODED_MAPPING = 1 << 16
#: the first this many children of a node are read (mappings for their p and id, numbers as written);
#: the others are counted in C, and read again only when that turns out to matter (a p or an id)
_EAGER = 64
#: read again no more children than this (a chance node of a million outcomes reads as fast whole)
_REREAD = 100_000
#: deeper paths are left to the whole file: each level costs microseconds of Python, so a chain
#: (a file that is mostly its path) reads faster whole: 100,000 levels took 1.0 s here, 0.6 s whole
MAX_DEPTH = 10_000


class _NotJson(Exception):
    """The text is not JSON as ``json.loads`` reads it (or repeats a key), or the path is not in it:
    the whole file decides."""


def first_error(text: str, declined: Declined, source: Source, max_nodes: int) -> GameTreeError | None:
    """The error the builder gives for the nodes around where the scanner stopped, or None.

    A scanner stopped by an ``id`` (which the fast builders cannot build) has
    not looked further: it scans again reading ids (and stops at the same node
    if the node has a mistake), so that a mistake in a named tree is found
    without reading the whole file into Python objects.
    """
    if declined.reason == ID_REASON:
        again = check_scan(text, max_nodes)
        if again is None:
            return None
        declined = again
    if declined.reason in NOT_MISTAKES or len(declined.path) > MAX_DEPTH:
        return None
    return partial_error(text, declined.path, source, max_nodes)


def partial_error(text: str, path: tuple[int, ...], source: Source, max_nodes: int) -> GameTreeError | None:
    """Build the partial document of the nodes on ``path``; the error the builder raises, or None."""
    if _skip is None:
        return None
    try:
        document = _Partial(text).document(path)
    except _NotJson:
        return None
    try:
        build_tree(document, source, max_nodes=max_nodes, may_alias=False)
    except (TreeFormatError, IllegalTreeError) as error:
        return error
    return None


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) != len(pairs):
        raise _NotJson
    return document


_DECODER = json.JSONDecoder(object_pairs_hook=_unique)


class _Reader:
    """JSON values of a big text by position: skipped in C (``_jsonscan.skip``, which checks the
    grammar as it goes), decoded only when small and wanted."""

    def __init__(self, text: str) -> None:
        self.text = text

    def space(self, index: int) -> int:
        if self.text[index : index + 1] in _SPACES:
            return _SPACE.match(self.text, index).end()  # type: ignore[union-attr]
        return index

    def at(self, index: int) -> str:
        return self.text[index : index + 1]

    def end(self, index: int) -> int:
        end: int = _skip(self.text, index)  # type: ignore[misc]
        if end < 0:
            raise _NotJson
        return end

    def items(self, index: int, limit: int) -> tuple[int, int, bool]:
        """Skip ``limit`` elements of an array (all: -1) from the one at ``index``:
        how many, and where the next starts (False) or the array ends (True)."""
        count, index, closed = _skip_items(self.text, index, limit)  # type: ignore[misc]
        if count < 0:
            raise _NotJson
        return count, index, closed

    def decode(self, start: int, end: int) -> Any:
        """The value from ``start`` to ``end``, as json.loads makes it."""
        try:
            value, stop = _DECODER.raw_decode(self.text, start)
        except (ValueError, RecursionError):  # not JSON, or an integer of more than 4,300 digits
            raise _NotJson from None
        if stop != end:
            raise _NotJson
        return value

    def first(self, at: int, close: str) -> tuple[int, bool]:
        """Past the opening bracket at ``at``: (first entry, True), or (the empty container's end, False)."""
        index = self.space(at + 1)
        if self.at(index) == close:
            return index + 1, False
        return index, True

    def next(self, end: int, close: str) -> tuple[int, bool]:
        """Past an entry that ends at ``end``: (next entry, True), or (the container's end, False)."""
        index = self.space(end)
        if self.at(index) == close:
            return index + 1, False
        if self.at(index) != ",":
            raise _NotJson
        return self.space(index + 1), True

    def key(self, index: int) -> tuple[str, int]:
        """The key of the object entry at ``index``, and where its value starts."""
        if self.at(index) != '"':
            raise _NotJson
        try:
            key, end = scanstring(self.text, index + 1)
        except ValueError:
            raise _NotJson from None
        colon = self.space(end)
        if self.at(colon) != ":":
            raise _NotJson
        return key, self.space(colon + 1)


#: what reading a node yields when it comes to the next node down (where it starts; whether it is
#: the root of a header mapping rather than a step of the path), and is sent back (that node, its end)
_Down = Generator[tuple[int, bool], tuple[Any, int], Any]


class _Level:
    """A node read on the path: the raw node, and where its children past the first few start."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.rest: tuple[int, int] | None = None  # (position, start) of the first child only counted
        self.has_p = False  # a child read has a p


class _StandIn:
    """A child off the path with a p or an id; a leaf once the header is known."""

    def __init__(self, keys: dict[str, Any]) -> None:
        self.keys = keys


#: a child off the path with neither p nor id (or not read for them); all become one shared leaf
_PLAIN = _StandIn({})


class _Partial:
    """One partial document: the nodes on a path with their own keys, stand-ins for the other children.

    Each node on the path is read by a generator that stops at the child on
    the path and goes on once that child's end is known, so every byte of the
    file is skipped once, in C (its grammar checked on the way: a syntax error
    anywhere leaves the file to json.loads, which says where).
    """

    def __init__(self, text: str) -> None:
        self.read = _Reader(text)
        self.header: dict[str, Any] = {}
        self.levels: list[_Level] = []

    def document(self, path: tuple[int, ...]) -> Any:
        read = self.read
        above: list[_Down] = []
        at, depth, top = read.space(0), 0, True
        while True:
            walk = self._node(at, path[depth] if depth < len(path) else -1, top)
            try:
                at, is_root = next(walk)
            except StopIteration as stop:
                node, end = stop.value
                break
            above.append(walk)
            depth += not is_root
            top = False
        if depth < len(path):
            raise _NotJson  # the path goes on below a leaf: not this text
        while above:  # each node above finishes now that its child's end is known
            try:
                above.pop().send((node, end))
            except StopIteration as stop:
                node, end = stop.value
        if read.space(end) != len(read.text):
            raise _NotJson  # more after the tree (json.loads: "Extra data")
        value = _stand_in_value(self.header)
        plain = {"value": value}  # one leaf for them all: the builder reads, never changes, its document
        named = any(isinstance(level.raw, dict) and "id" in level.raw for level in self.levels)
        for level in self.levels:
            raw = level.raw
            children = raw.get("children") if isinstance(raw, dict) else raw
            if not isinstance(children, list):
                continue
            if level.rest is not None and (named or level.has_p):
                self._read_rest(children, *level.rest)  # a chance node checks every p; ids clash
            children[:] = [plain if child is _PLAIN else {**child.keys, "value": value}
                           if type(child) is _StandIn else child for child in children]
        return node

    def _node(self, at: int, target: int, top: bool) -> _Down:
        """Read the node at ``at`` (at the top: the header mapping, or the root itself), going down
        to child ``target`` (-1: none); return the node and its end."""
        read = self.read
        first = read.at(at)
        if first == "[":
            level = _Level([])
            self.levels.append(level)
            end = yield from self._children(at, target, level, level.raw)
            return level.raw, end
        if first != "{":
            if target >= 0:
                raise _NotJson
            end = read.end(at)
            return read.decode(at, end), end
        raw: dict[str, Any] = {}
        level = _Level(raw)
        self.levels.append(level)
        header = went_down = False
        index, more = read.first(at, "}")
        while more:
            key, start = read.key(index)
            if key in raw:
                raise _NotJson  # json.loads refuses a repeated key
            if top and key == "root" and not went_down:
                header = went_down = True
                self.levels.remove(level)  # a header mapping, not a node
                raw[key], end = yield start, True
            elif key == "children" and read.at(start) == "[" and not header:
                went_down = True
                raw[key] = []
                end = yield from self._children(start, target, level, raw[key])
            else:
                end = read.end(start)
                if top and key == "root":
                    raise _NotJson  # a root after a node's children: too odd to read in part
                if key == "children" and read.at(start) == "{" and end - start > _DECODED_MAPPING:
                    raw[key] = {}  # refused for its kind alone: "children must be a list, found a mapping"
                elif key in _READ_KEYS or key == "children" or (top and key in _HEADER_KEYS):
                    raw[key] = read.decode(start, end)
                else:
                    raw[key] = None  # comment, label, unknown keys: ignored or refused by name
            index, more = read.next(end, "}")
        if header:
            self.header = raw
        elif target >= 0 and not went_down:
            raise _NotJson
        return raw, index

    def _children(self, at: int, target: int, level: _Level, children: list[Any]) -> _Down:
        """Read the array of children at ``at`` into ``children``: the one at ``target`` as the next
        node down, mappings and lists as stand-ins, anything else as written; return its end."""
        read = self.read
        index, more = read.first(at, "]")
        while more:
            position = len(children)
            first = read.at(index)
            if position == target:
                child, end = yield index, False
                children.append(child)
                level.has_p |= isinstance(child, dict) and "p" in child
            elif position >= _EAGER:  # the rest counted in C, up to the child on the path if it is there
                if level.rest is None:
                    level.rest = (position, index)
                count, index, closed = read.items(index, target - position if target > position else -1)
                children.extend([_PLAIN] * count)
                if closed:
                    break
                continue
            elif first == "{":
                stand_in, end = self._stand_in(index)
                children.append(stand_in)
                level.has_p |= "p" in stand_in.keys
            elif first == "[":
                end = read.end(index)
                children.append(_PLAIN)
            else:
                end = read.end(index)
                children.append(read.decode(index, end))
            index, more = read.next(end, "]")
        if target >= len(children):
            raise _NotJson
        return index

    def _read_rest(self, children: list[Any], position: int, index: int) -> None:
        """Read the p and id of the children only counted (the one on the path is read already)."""
        if len(children) - position > _REREAD:
            raise _NotJson
        read = self.read
        more = True
        while more:
            if children[position] is _PLAIN and read.at(index) == "{":
                children[position], end = self._stand_in(index)
            else:
                end = read.end(index)
            position += 1
            index, more = read.next(end, "]")

    def _stand_in(self, at: int) -> tuple[_StandIn, int]:
        """The child mapping at ``at``, off the path: its p and id; and its end."""
        read = self.read
        keys: dict[str, Any] = {}
        seen: set[str] = set()
        index, more = read.first(at, "}")
        while more:
            key, start = read.key(index)
            end = read.end(start)
            if key in seen:
                raise _NotJson  # json.loads refuses a repeated key
            seen.add(key)
            if key in ("p", "id"):
                keys[key] = read.decode(start, end)
            index, more = read.next(end, "}")
        return (_StandIn(keys) if keys else _PLAIN), index


def _stand_in_value(header: dict[str, Any]) -> Any:
    """A leaf value every rule accepts under this header (any header the builder accepts).

    Two players: the lowest bound, or 0. Vectors (three or more players, or
    ``general_sum``): the declared sum to the first player, 0 to the others.
    """
    players = header.get("players")
    count = len(players) if isinstance(players, list) else 2
    if count > 2 or header.get("general_sum") is True:
        total = header.get("sum")
        return [0 if total is None else total] + [0] * (count - 1)
    bounds = header.get("bounds")
    return bounds[0] if isinstance(bounds, list) and bounds else 0
