"""Find the line and column of a node in a tree file, after the fact.

The fast parsers (``json.loads``, PyYAML's C loader) return plain data with
no positions. Rather than paying for positions on every load, a locator
parses the text again only when an error has to name a line. A node is
addressed by its *path*: the child positions from the root, following the
contract's shapes (``root`` -> ``children`` -> ...; compact lists directly).
"""

from __future__ import annotations

import bisect
import re
import sys
import threading
from typing import Any, Callable, TypeVar

import yaml

__all__ = ["json_locator", "yaml_locator", "deep_call", "Locator"]

Locator = Callable[[tuple[Any, ...]], tuple[int | None, int | None]]
T = TypeVar("T")

_STACK_BYTES = 512 * 1024 * 1024


def deep_call(function: Callable[..., T], *args: Any) -> T:
    """Run ``function`` in a thread with a big stack and recursion limit.

    The C JSON scanner and PyYAML recurse once per nesting level; a
    100,000-deep chain needs far more than the main thread's 8 MiB stack.
    The stack is reserved, not committed: it costs memory only when used.
    """
    outcome: dict[str, Any] = {}

    def run() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 2_000_000))
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # re-raised in the caller's thread
            outcome["error"] = error
        finally:
            sys.setrecursionlimit(old)

    previous = threading.stack_size()
    threading.stack_size(_STACK_BYTES)
    try:
        worker = threading.Thread(target=run, name="gametree-parse")
        worker.start()
    finally:
        threading.stack_size(previous)
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


# -- YAML ---------------------------------------------------------------------


def yaml_locator(text: str) -> Locator:
    """A locator for YAML text (composes the node graph once, on first use)."""
    cache: dict[str, Any] = {}

    def document() -> Any:
        if "doc" not in cache:
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            cache["doc"] = deep_call(yaml.compose, text, loader)
        return cache["doc"]

    def mapping_get(node: Any, key: str) -> Any:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if getattr(key_node, "value", None) == key:
                    return value_node
        return None

    def locate(path: tuple[Any, ...]) -> tuple[int | None, int | None]:
        node = document()
        if node is None:
            return None, None
        if path and path[0] == "key":
            for key_node, _ in node.value if isinstance(node, yaml.MappingNode) else ():
                if key_node.value == path[1]:
                    return key_node.start_mark.line + 1, key_node.start_mark.column + 1
            return None, None
        root = mapping_get(node, "root")
        if root is not None:
            node = root
        for position in path:
            if isinstance(node, yaml.MappingNode):
                node = mapping_get(node, "children")
            if not isinstance(node, yaml.SequenceNode):
                return None, None
            node = node.value[position]
        return node.start_mark.line + 1, node.start_mark.column + 1

    return locate


# -- JSON ---------------------------------------------------------------------

_TOKEN = re.compile(
    r'\s*(?:(?P<open>[\[{])|(?P<close>[\]}])|(?P<string>"(?:[^"\\]|\\.)*")|(?P<colon>:)|(?P<comma>,)|(?P<literal>[^\s,\]}:\[{"]+))',
    re.S,
)


class _Box:
    """A JSON container's position and its members' boxes (positions only)."""

    __slots__ = ("offset", "items", "keys")

    def __init__(self, offset: int, is_object: bool) -> None:
        self.offset = offset
        self.items: list[Any] = []  # child _Box or scalar offset
        self.keys: list[str] | None = [] if is_object else None


def _scan_json(text: str) -> Any:
    """Positions of every value of a JSON text: a _Box tree (iterative)."""
    stack: list[_Box] = []
    top: Any = None
    pending_key: str | None = None
    expect_key = False
    index = 0
    length = len(text)
    while index < length:
        match = _TOKEN.match(text, index)
        if match is None or match.end() == index:
            break
        index = match.end()
        kind = match.lastgroup
        start = match.start(kind) if kind else index
        if kind == "open":
            box = _Box(start, match.group("open") == "{")
            if stack:
                _attach(stack[-1], box, pending_key)
                pending_key = None
            else:
                top = box
            stack.append(box)
            expect_key = box.keys is not None
        elif kind == "close":
            stack.pop()
            expect_key = False
        elif kind == "comma":
            expect_key = bool(stack) and stack[-1].keys is not None
        elif kind == "colon":
            expect_key = False
        elif kind in ("string", "literal"):
            token = match.group(kind)
            if expect_key and stack and stack[-1].keys is not None:
                pending_key = token[1:-1] if kind == "string" else token
                expect_key = False
            elif stack:
                _attach(stack[-1], start, pending_key)
                pending_key = None
            else:
                top = start
    return top


def _attach(box: _Box, item: Any, key: str | None) -> None:
    box.items.append(item)
    if box.keys is not None:
        box.keys.append(key or "")


def json_locator(text: str) -> Locator:
    """A locator for JSON text (scans it once, on first use)."""
    cache: dict[str, Any] = {}
    newlines = [match.start() for match in re.finditer("\n", text)]

    def position(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(newlines, offset - 1)
        column = offset - (newlines[line - 1] + 1 if line else 0)
        return line + 1, column + 1

    def member(box: Any, key: str) -> Any:
        if isinstance(box, _Box) and box.keys is not None:
            for name, item in zip(box.keys, box.items):
                if name == key:
                    return item
        return None

    def locate(path: tuple[Any, ...]) -> tuple[int | None, int | None]:
        if "doc" not in cache:
            cache["doc"] = _scan_json(text)
        node = cache["doc"]
        if node is None:
            return None, None
        if path and path[0] == "key":
            found = member(node, path[1])
            if found is None:
                return None, None
            return position(found.offset if isinstance(found, _Box) else found)
        root = member(node, "root")
        if root is not None:
            node = root
        for step in path:
            if isinstance(node, _Box) and node.keys is not None:
                node = member(node, "children")
            if not isinstance(node, _Box) or node.keys is not None:
                return None, None
            node = node.items[step]
        return position(node.offset if isinstance(node, _Box) else node)

    return locate
