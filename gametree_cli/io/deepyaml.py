"""PyYAML's safe loader for YAML nested deeper than libyaml reads.

Why: libyaml (PyYAML's C loader) refuses nesting past its own cap (1,000
levels in PyYAML 6.0.4's wheels) and its scanner's time grows with the
square of the depth. PyYAML's pure-Python Reader, Scanner and Parser are
state machines and its SafeConstructor builds nested data without
recursion; only its Composer recurses, once per level. This module keeps
all of PyYAML's classes (so every document, error and mark is PyYAML's) and
replaces the Composer with one that keeps an explicit stack, plus two
Scanner bookkeeping methods whose PyYAML versions walk every saved simple
key for every token (a cost that grows with the flow depth).
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any, Callable, TypeVar

from ..core.lazy import lazy_module
yaml = lazy_module("yaml")
from yaml.composer import ComposerError
from yaml.error import Mark
from yaml.events import AliasEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent
from yaml.nodes import MappingNode, Node, SequenceNode

from .yamldepth import nests_deeper_than, opener_past_limit

__all__ = ["DeepSafeLoader", "DepthExceeded", "read_by_depth"]

_SPACES = re.compile(" *")


class DepthExceeded(Exception):
    """The document nests deeper than the loader's ``max_depth``; ``mark`` is where."""

    def __init__(self, mark: Any) -> None:
        super().__init__("nesting too deep")
        self.mark = mark


class _LinearScanning(yaml.SafeLoader):
    """PyYAML's safe loader with its Scanner's simple-key bookkeeping in amortised constant time.

    Keys are saved in token order, so their positions only grow: the stale
    ones are always the oldest, and the oldest live one has the smallest
    token number. A queue of saved keys (checked against the dict, which
    stays the truth) finds both without walking every flow level.
    """

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._saved_keys: deque[tuple[int, Any]] = deque()
        self._settled = False  # need_more_tokens() said no, and nothing has moved since

    def need_more_tokens(self) -> bool:
        """PyYAML's answer, remembered until the next fetch or take (the parser asks ~8 times a token)."""
        if self._settled:
            return False
        more = bool(super().need_more_tokens())
        self._settled = not more
        return more

    def fetch_more_tokens(self) -> None:
        self._settled = False
        super().fetch_more_tokens()

    def get_token(self) -> Any:
        token = super().get_token()
        self._settled = False
        return token

    def save_possible_simple_key(self) -> None:
        saving = self.allow_simple_key
        super().save_possible_simple_key()
        if saving:
            self._saved_keys.append((self.flow_level, self.possible_simple_keys[self.flow_level]))

    def _oldest_key(self) -> tuple[int, Any] | None:
        """The oldest saved key still in the dict (dropping the ones removed since)."""
        saved, live = self._saved_keys, self.possible_simple_keys
        while saved:
            level, key = saved[0]
            if live.get(level) is key:
                return level, key
            saved.popleft()
        return None

    def next_possible_simple_key(self) -> int | None:
        oldest = self._oldest_key()
        return None if oldest is None else oldest[1].token_number

    def stale_possible_simple_keys(self) -> None:
        while (oldest := self._oldest_key()) is not None:
            level, key = oldest
            if key.line == self.line and self.index - key.index <= 1024:
                return
            if key.required:
                raise yaml.scanner.ScannerError("while scanning a simple key", key.mark,
                                                "could not find expected ':'", self.get_mark())
            del self.possible_simple_keys[level]

    def scan_to_next_token(self) -> None:
        """PyYAML's, but a run of spaces (a deep block file's indentation) is skipped at once."""
        if self.index == 0 and self.peek() == "\uFEFF":
            self.forward()
        while True:
            while self.peek() == " ":  # (spaces never end a line: only the position moves)
                spaces = _SPACES.match(self.buffer, self.pointer).end() - self.pointer  # type: ignore[union-attr]
                self.pointer += spaces
                self.index += spaces
                self.column += spaces
            if self.peek() == "#":
                while self.peek() not in "\0\r\n\x85\u2028\u2029":
                    self.forward()
            if not self.scan_line_break():
                return
            if not self.flow_level:
                self.allow_simple_key = True


class DeepSafeLoader(_LinearScanning):
    """``yaml.SafeLoader`` reading any depth: PyYAML's classes, with a Composer that keeps
    an explicit stack instead of calling itself once a level.

    It builds the same node graph in the same event order (anchors, aliases,
    resolver calls and errors included) and, when ``max_depth`` is set,
    stops at the first collection nested deeper.
    """

    #: deepest nesting composed (None: any); deeper raises DepthExceeded at the first opener past it
    max_depth: int | None = None

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._checked_until = 0  # openers before this offset belong to a run already measured

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        # a frame: [collection node, its end event class, pending mapping key or None, next sequence index]
        stack: list[list[Any]] = []
        while True:
            node = self._compose_start(parent, index, stack)
            if node is None:  # a collection was opened: compose its first item, or close it at once
                frame = stack[-1]
                parent, index = frame[0], (0 if frame[1] is SequenceEndEvent else None)
                if not self.check_event(frame[1]):
                    continue
                node = self._close(stack)
            while stack:  # hand the finished node to its parent; close every parent it completes
                frame = stack[-1]
                if frame[1] is SequenceEndEvent:
                    frame[0].value.append(node)
                    frame[3] += 1
                    parent, index = frame[0], frame[3]
                elif frame[2] is None:
                    frame[2] = node
                    parent, index = frame[0], node
                    break  # a key always has a value to compose
                else:
                    frame[0].value.append((frame[2], node))
                    frame[2] = None
                    parent, index = frame[0], None
                if not self.check_event(frame[1]):
                    break
                node = self._close(stack)
            else:
                return node

    def _compose_start(self, parent: Node | None, index: Any, stack: list[list[Any]]) -> Node | None:
        """The next node if it is a scalar or an alias; else open its collection on ``stack`` (None)."""
        if self.check_event(AliasEvent):
            event = self.get_event()
            if event.anchor not in self.anchors:
                raise ComposerError(None, None, "found undefined alias %r" % event.anchor, event.start_mark)
            return self.anchors[event.anchor]
        event = self.peek_event()
        anchor = event.anchor
        if anchor is not None and anchor in self.anchors:
            raise ComposerError("found duplicate anchor %r; first occurrence" % anchor,
                                self.anchors[anchor].start_mark, "second occurrence", event.start_mark)
        self.descend_resolver(parent, index)
        if self.check_event(ScalarEvent):
            node = self.compose_scalar_node(anchor)
            self.ascend_resolver()
            return node
        if self.max_depth is not None and len(stack) >= self.max_depth:
            raise DepthExceeded(event.start_mark)
        start = self.get_event()
        kind, end = (MappingNode, MappingEndEvent) if isinstance(start, MappingStartEvent) else (SequenceNode, SequenceEndEvent)
        tag = start.tag
        if tag is None or tag == "!":
            tag = self.resolve(kind, None, start.implicit)
        collection = kind(tag, [], start.start_mark, None, flow_style=start.flow_style)
        if anchor is not None:
            self.anchors[anchor] = collection
        stack.append([collection, end, None, 0])
        if self.max_depth is not None and start.start_mark.pointer >= self._checked_until and self.stream is None:
            self._refuse_early(start.start_mark, self.max_depth - len(stack))
        return None

    def _refuse_early(self, mark: Any, spare: int) -> None:
        """Refuse now if this collection starts a run of openers that opens more than ``spare``
        levels inside it (the parser would read every level of it first: 20-90 µs each)."""
        text, start = mark.buffer, mark.pointer
        opener, self._checked_until = opener_past_limit(text, start, spare)
        if opener is not None:  # the only line break in a run is "\n", and no character is a BOM
            lines = text.count("\n", start, opener)
            column = opener - text.rindex("\n", start, opener) - 1 if lines else mark.column + opener - start
            raise DepthExceeded(Mark(mark.name, mark.index + opener - start, mark.line + lines, column, text, opener))

    def _close(self, stack: list[list[Any]]) -> Node:
        """Take the end event of the innermost open collection and pop it."""
        collection = stack.pop()[0]
        collection.end_mark = self.get_event().end_mark
        self.ascend_resolver()
        return collection


#: libyaml's nesting cap (PyYAML 6.0.4's wheels: 1,000 levels, flow and block alike)
LIBYAML_DEPTH = 1000
T = TypeVar("T")


def read_by_depth(text: str, read: Callable[[bool], T]) -> T:
    """``read(deep)`` with libyaml's loader (``deep=False``) when ``text`` is shallow enough for it;
    with :class:`DeepSafeLoader` when it may be deeper, or when libyaml reports its nesting cap."""
    if not nests_deeper_than(text, LIBYAML_DEPTH):
        try:
            return read(False)
        except yaml.YAMLError as error:
            if "nesting depth" not in str(getattr(error, "problem", "")):
                raise
    return read(True)
