"""A fast YAML parse for plain tree files, PyYAML's answer guaranteed.

Why: PyYAML, even with its C loader, builds a 350,000-node tree file in
~10 s; ``yaml_rs`` (a Rust parser) reads the same file 10-30x faster. But
it speaks YAML 1.2 and PyYAML YAML 1.1, which read some plain scalars
differently (``010`` is 8 in 1.1 and 10 in 1.2; ``yes``/``on`` are booleans
in 1.1 only; ``1e3`` is a string in 1.1; ``1:30`` is 90 in 1.1), and it
crashes on very deep block nesting. So the fast parser is used only when a
scan of the text (vectorised with NumPy, ~10 ns a byte) finds none of those
constructs, nor anchors, aliases, tags, directives, complex keys, tabs,
escapes or deep indentation (or ``- - -`` runs); and any error it raises sends the text to
PyYAML, whose error messages carry the line and column. Files that need
PyYAML lose a few milliseconds to the scan; files that do not, seconds.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ..core.lazy import lazy_module
np = lazy_module("numpy")

__all__ = ["fast_yaml_document", "plain_enough"]



@functools.cache
def _byte_classes() -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
    """Per byte: starts a YAML feature the fast path leaves to PyYAML; continues a plain word (letters,
    digits, ``_``, ``.``, UTF-8 multibyte); is a digit. Made at the first file the fast path reads, so
    that importing this module (every YAML run) does not import NumPy."""
    forbidden = np.zeros(256, dtype=bool)
    forbidden[list(b"&*!%|>@`{}\\\t?\r")] = True
    word = np.zeros(256, dtype=bool)
    word[list(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")] = True
    word[128:] = True
    digit = np.zeros(256, dtype=bool)
    digit[list(b"0123456789")] = True
    return forbidden, word, digit

#: YAML 1.1 booleans (case-insensitively here; false alarms only cost the slow path)
_BOOLEAN_WORDS = (b"y", b"n", b"yes", b"no", b"on", b"off")
#: characters PyYAML's reader refuses (its NON_PRINTABLE; yaml_rs accepts some, e.g. control characters),
#: and the line breaks of YAML 1.1 only (NEL, LS, PS), which yaml_rs reads as ordinary characters
_LEFT_TO_PYYAML = re.compile("[^\x09\x0A\x0D\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
#: deeper indentation than this goes to PyYAML (the fast parser recurses per level, and a
#: 10,000-deep ``- - - -`` line overflows the stack): spaces, and dashes, which nest too
_MAX_INDENT = 256
_DEEP_PREFIX = re.compile(r"[ \-]{%d}" % _MAX_INDENT)
_DEEP_LINE = re.compile(r"\n[ \-]{%d}" % _MAX_INDENT)  # (a search for "\n" first: ~3 ns a byte)


def plain_enough(text: str) -> bool:
    """True when ``text`` reads the same in YAML 1.1 (PyYAML) and 1.2 (``yaml_rs``)."""
    if "<<" in text or "\n---" in text or text.startswith("---") or "\n..." in text:
        return False
    if _DEEP_PREFIX.match(text) or _DEEP_LINE.search(text):
        return False
    if _LEFT_TO_PYYAML.search(text):  # also lone surrogates, which cannot be encoded below
        return False
    data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    if not len(data):
        return False
    forbidden, word_byte, digit_byte = _byte_classes()
    if forbidden[data].any():
        return False
    digit = digit_byte[data]
    word = word_byte[data]
    before = np.concatenate(([False], word[:-1]))  # a word character just before
    # 0 followed by a digit, o, x, b or _ at the start of a word: octal and friends
    nxt = np.concatenate((data[1:], [0]))
    if ((data == ord("0")) & ~before & (digit_byte[nxt] | np.isin(nxt, list(b"oxbOXB_")))).any():
        return False
    # a digit or dot followed by e/E (exponents) or '_' (separators); digit ':' digit (sexagesimal)
    numeric = digit | (data == ord("."))
    if (numeric[:-1] & np.isin(data[1:], list(b"eE_"))).any():
        return False
    if len(data) > 2 and (digit[:-2] & (data[1:-1] == ord(":")) & digit[2:]).any():
        return False
    if ((data[:-1] == ord("_")) & numeric[1:]).any():
        return False
    # ``+5`` and ``-0``: integers written otherwise than as their digits, which PyYAML's reader keeps as
    # text for an id or move (yaml_rs cannot); a false alarm (``-0.5`` is not one) only costs the slow path
    if (((data[:-1] == ord("+")) & digit[1:]).any()
            or ((data[:-1] == ord("-")) & (data[1:] == ord("0")) & ~np.append(numeric[2:], False)).any()):
        return False
    # a sign before a dot (``-.5`` is a string to PyYAML, a number to YAML 1.2)
    if (np.isin(data[:-1], list(b"+-")) & (data[1:] == ord("."))).any():
        return False
    # a colon must end a key: after a word character or a quote, before a space or a line end,
    # and at most once a line (``title: a: b`` is an error to PyYAML)
    colon = np.flatnonzero(data == ord(":"))
    if len(colon):
        following = np.append(data, ord("\n"))[colon + 1]
        preceding = data[colon - 1] if colon[0] > 0 else np.append([ord(" ")], data[colon[1:] - 1])
        if not (np.isin(following, list(b" \n")) & (word_byte[preceding] | np.isin(preceding, list(b"\"'")))).all():
            return False
        lines = np.cumsum(data == ord("\n"))[colon]
        if len(lines) > 1 and (np.diff(lines) == 0).any():
            return False
    lower = data | 0x20  # ASCII letters to lower case (other bytes are never compared with letters)
    n = len(data)
    for token in _BOOLEAN_WORDS:
        size = len(token)
        if n < size:
            continue
        match = ~before[: n - size + 1]
        for offset, byte in enumerate(token):
            match &= lower[offset : n - size + 1 + offset] == byte
        match &= ~np.concatenate((word[size:], [False]))
        if match.any():
            return False
    return True


def fast_yaml_document(text: str) -> tuple[bool, Any]:
    """``(True, document)`` when the fast parser read ``text`` as PyYAML would; else ``(False, None)``."""
    try:
        import yaml_rs  # type: ignore[import-not-found]
    except ImportError:
        return False, None
    if not plain_enough(text):
        return False, None
    try:
        return True, yaml_rs.loads(text)
    except Exception:  # noqa: BLE001 - any complaint: PyYAML reads it again and says where
        return False, None
