"""Find the line and column of a node in a tree file, after the fact.

The fast parsers (``json.loads``, PyYAML's C loader) return plain data with
no positions. Rather than paying for positions on every load, a locator
parses the text again only when an error has to name a line. A node is
addressed by its *path*: the child positions from the root, following the
contract's shapes (``root`` -> ``children`` -> ...; compact lists directly).
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any, Callable, TypeVar

from ..core.lazy import lazy_module
yaml = lazy_module("yaml")


from . import scan_skip

# compiled only (setup.py's Cython extension); uncompiled, the regular-expression skipping below is faster
_c_skip = scan_skip.skip if scan_skip.COMPILED else None

__all__ = ["json_locator", "yaml_locator", "deep_call", "Locator"]

Locator = Callable[[tuple[Any, ...]], tuple[int | None, int | None]]
T = TypeVar("T")

_STACK_BYTES = 512 * 1024 * 1024


def deep_call(function: Callable[..., T], *args: Any) -> T:
    """Run ``function`` in a thread with a big stack and recursion limit.

    The C JSON scanner and PyYAML recurse once per nesting level; a
    100,000-deep chain needs far more than the main thread's 8 MiB stack.
    The stack is reserved, not committed: it costs memory only when used.
    The thread is a daemon and the wait for it is interruptible, so Ctrl-C
    ends the run at once instead of after the parse (the process does not
    wait for a daemon thread when it exits).
    """
    import threading  # here, not at the top: a small file is parsed without a thread (strict_json.py; start-up)

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
        worker = threading.Thread(target=run, name="gametree-parse", daemon=True)
        worker.start()
    except RuntimeError:  # "can't start new thread": a memory limit leaves no room to reserve its stack
        return function(*args)  # this thread's stack: a deep file ends in RecursionError, reported in one line
    finally:
        threading.stack_size(previous)
    # Poll with sleeps, not join(): Ctrl-C raised inside join()'s lock handling can surface as
    # "RuntimeError: release unlocked lock" instead of KeyboardInterrupt (seen under load); a
    # sleep is interrupted cleanly. The pause grows from 1 ms to 50 ms: a short parse waits little.
    pause = 0.001
    while worker.is_alive():
        time.sleep(pause)
        pause = min(pause * 2, 0.05)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # type: ignore[no-any-return]


# -- YAML ---------------------------------------------------------------------


def yaml_locator(text: str) -> Locator:
    """A locator for YAML text (composes the node graph once, on first use)."""
    cache: dict[str, Any] = {}

    def document() -> Any:
        if "doc" not in cache:
            from .deepyaml import DeepSafeLoader, read_by_depth  # PyYAML: only for YAML files

            libyaml = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            try:
                cache["doc"] = deep_call(read_by_depth, text, lambda deep: yaml.compose(text, DeepSafeLoader if deep else libyaml))
            except (yaml.YAMLError, RecursionError):  # an error without a line beats a traceback
                cache["doc"] = None
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
#
# A JSON locator walks the text along the one path it is asked for and skips
# every other value with C-speed searches (brackets and strings only; commas
# of scalar runs are counted, not visited), so naming the line of an error in
# a 10^7-node file takes a fraction of a second, not a full tokenisation.
# With the scanner compiled, a whole value is skipped in one call
# (``scan_skip.skip``): a 40 MB subtree (a bare root mapping's children, read
# past to look for ``root``) in tens of milliseconds instead of seconds.

_SPACE = re.compile(r"\s*")
_STRUCTURE = re.compile(r'[\[\]{}"]')
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.S)
_LITERAL = re.compile(r'[^\s,\]}]*')


def _after_space(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()  # type: ignore[union-attr]


def _skip_value(text: str, index: int) -> int:
    """The offset just past the JSON value starting at ``index``."""
    if index >= len(text):
        return index
    if _c_skip is not None:
        end: int = _c_skip(text, index, False)  # the grammar only: repeated keys are not a locator's business
        if end >= 0:
            return end
        # not JSON there (a locator may be asked about any text): the lenient search below
    first = text[index]
    if first == '"':
        rest = _STRING_REST.match(text, index + 1)
        return rest.end() if rest else len(text)
    if first not in "[{":
        return _LITERAL.match(text, index).end()  # type: ignore[union-attr]
    depth = 0
    while True:
        found = _STRUCTURE.search(text, index)
        if found is None:
            return len(text)
        char, at = found.group(), found.start()
        if char == '"':
            rest = _STRING_REST.match(text, at + 1)
            index = rest.end() if rest else len(text)
            continue
        depth += 1 if char in "[{" else -1
        index = at + 1
        if depth == 0:
            return index


def _member(text: str, index: int, key: str) -> int | None:
    """Offset of the value of ``key`` in the object at ``index`` (None: absent)."""
    index = _after_space(text, index + 1)
    while index < len(text) and text[index] == '"':
        end = _skip_value(text, index)
        name = text[index + 1 : end - 1]
        index = _after_space(text, end)
        if index >= len(text) or text[index] != ":":
            return None
        value = _after_space(text, index + 1)
        if name == key:
            return value
        index = _after_space(text, _skip_value(text, value))
        if index >= len(text) or text[index] != ",":
            return None
        index = _after_space(text, index + 1)
    return None


def _item(text: str, index: int, wanted: int) -> int | None:
    """Offset of item ``wanted`` of the array at ``index`` (None: absent)."""
    index = _after_space(text, index + 1)
    position = 0
    while position < wanted:
        if index >= len(text) or text[index] == "]":
            return None
        if text[index] in '[{"':
            index = _after_space(text, _skip_value(text, index))
            if index >= len(text) or text[index] != ",":
                return None
            index = _after_space(text, index + 1)
            position += 1
            continue
        # a run of scalars: count its commas in C and jump
        found = _STRUCTURE.search(text, index)
        run_end = found.start() if found else len(text)
        commas = text.count(",", index, run_end)
        if position + commas < wanted or (found is not None and found.group() != "]" and position + commas == wanted):
            if position + commas >= wanted:  # the wanted item is the container after the run
                return _after_space(text, text.rindex(",", index, run_end) + 1)
            position += commas
            index = run_end
            continue
        skip = wanted - position
        jump = re.compile(r"(?:[^,]*,){%d}" % skip).match(text, index)
        return _after_space(text, jump.end()) if jump else None
    return index


def json_locator(text: str) -> Locator:
    """A locator for JSON text (walks the text along the path asked for)."""

    def position(offset: int) -> tuple[int, int]:
        # counted for each error, not indexed once: an index of every line of a
        # pretty-printed 46 MB file would cost 150 MB, and an error is located once or twice
        line = text.count("\n", 0, offset) + 1
        return line, offset - (text.rfind("\n", 0, offset) + 1) + 1

    def locate(path: tuple[Any, ...]) -> tuple[int | None, int | None]:
        offset: int | None = _after_space(text, 0)
        if offset >= len(text):  # type: ignore[operator]
            return None, None
        if path and path[0] == "key":
            found = _member(text, offset, path[1]) if text[offset] == "{" else None  # type: ignore[index]
            return position(found) if found is not None else (None, None)
        if text[offset] == "{":  # type: ignore[index]
            root = _member(text, offset, "root")  # type: ignore[arg-type]
            if root is not None:
                offset = root
        for step in path:
            if offset is None or offset >= len(text):
                return None, None
            if text[offset] == "{":
                offset = _member(text, offset, "children")
                if offset is None or offset >= len(text):
                    return None, None
            if text[offset] != "[":
                return None, None
            offset = _item(text, offset, step)
        return position(offset) if offset is not None else (None, None)

    return locate
