"""How deep a YAML text nests, told from the text without parsing it.

Two questions, both about speed, never about the answer (the parsers have
the last word):

- :func:`nests_deeper_than`: may the text nest deeper than libyaml reads?
  A bound from counting brackets and measuring block indentation; a file
  it misjudges as shallow still reaches the deep loader when libyaml
  reports its nesting cap.
- :func:`opener_past_limit`: where a run of collection openers (``[[[[``,
  ``{children: [{children: [``, ``- - - -``) passes the depth limit. This
  lets the deep loader refuse a too-deep file without composing the
  hundreds of thousands of levels before the limit (PyYAML's pure-Python
  parser reads 25,000-50,000 levels a second). It answers only for runs whose
  every token is unambiguous, so its answer is the one the parser would
  reach; anything else gets None and the parser decides.
"""

from __future__ import annotations

import functools
import re

from ..core.lazy import lazy_module
np = lazy_module("numpy")

__all__ = ["nests_deeper_than", "opener_past_limit"]

#: bytes that are not brackets (deleted before the flow depth is measured)
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


@functools.cache
def _steps() -> "np.ndarray":
    """Per byte its step in depth (+1 for ``[{``, -1 for ``]}``): made at the first deep-looking file,
    so that reading a small YAML tree never imports NumPy."""
    step = np.zeros(256, dtype=np.int8)
    step[list(b"[{")] = 1
    step[list(b"]}")] = -1
    return step


_CHUNK_SIZE = 1 << 20


def _brackets_nest_deeper_than(text: str, levels: int) -> bool:
    """Do ``[{`` / ``]}`` nest deeper than ``levels`` in ``text``, strings and comments included?

    A megabyte at a time, so that a 2 GB file costs no more memory than that.
    """
    depth = 0
    for start in range(0, len(text), _CHUNK_SIZE):
        brackets = text[start : start + _CHUNK_SIZE].encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
        if brackets:
            running = np.cumsum(_steps()[np.frombuffer(brackets, dtype=np.uint8)], dtype=np.int64) + depth
            if running.max() > levels:
                return True
            depth = int(running[-1])
    return False


def nests_deeper_than(text: str, levels: int) -> bool:
    """True when ``text`` may nest deeper than ``levels`` (False: surely not, give or take block quirks).

    Flow nesting is at most the bracket depth; block nesting needs an
    indentation or a ``- - -`` run of about half its depth, so a line
    indented ``levels // 5`` spaces or a run of ``levels // 10`` dashes
    (fast substring searches) sends the file to the deep loader.
    """
    quarter = levels // 4
    if text.count("[") + text.count("{") > quarter and _brackets_nest_deeper_than(text, quarter):
        return True
    return "\n" + " " * (levels // 5) in text or "- " * (levels // 10) in text


# -- runs of openers -----------------------------------------------------------
#
# Inside a run every token is one the scanner and the parser read one way
# only: plain scalars of ASCII word characters (spaces inside; never ': ',
# ' #', a leading '- ' or a document marker), quoted scalars without
# escapes, brackets, commas or line breaks, the indicators, and items that
# are flat flow collections of those. Tokens may be apart by spaces and line
# feeds, but a key and its ':' share a line (else PyYAML reads no key).

_WORD = r"[A-Za-z0-9_.+/-]"
_PLAIN = rf"(?!\.\.\.)(?:-(?=[A-Za-z0-9_.+/])|[A-Za-z0-9_.+/]){_WORD}{{0,200}}(?: {{1,8}}{_WORD}{{1,200}}){{0,8}}"
_IN_QUOTES = "[" + re.escape("".join(chr(code) for code in range(0x20, 0x7F) if chr(code) not in "\"'\\[]{},")) + "]"
_QUOTED = rf"\"(?:{_IN_QUOTES}|'){{0,500}}\"|'(?:{_IN_QUOTES}|\"|''){{0,500}}'"
_SCALAR = rf"(?:{_PLAIN}|{_QUOTED})"  # (bounded: a key's ':' must come within 1,024 characters)
_GAP = r"[ \n]*"
_PAIR = rf"{_SCALAR} *:[ \n]+{_SCALAR}"
_FLAT = rf"\[{_GAP}(?:{_SCALAR}{_GAP}(?:,{_GAP}{_SCALAR}{_GAP})*)?\]|\{{{_GAP}(?:{_PAIR}{_GAP}(?:,{_GAP}{_PAIR}{_GAP})*)?\}}"
_ITEM = rf"(?:{_SCALAR}|{_FLAT})"
#: one level of a run: an opener and the items before the next opener
_OPENER_UNIT = rf"\[{_GAP}(?:{_ITEM}{_GAP},{_GAP})*|\{{{_GAP}(?:{_SCALAR} *:[ \n]+{_ITEM}{_GAP},{_GAP})*{_SCALAR} *:{_GAP}"
#: the same without flat items (at the limit's level, a flat item would be past it)
_BARE_OPENER_UNIT = rf"\[{_GAP}(?:{_SCALAR}{_GAP},{_GAP})*|\{{{_GAP}(?:{_PAIR}{_GAP},{_GAP})*{_SCALAR} *:{_GAP}"
_DASH_UNIT = re.compile(r"- +")

# -- what the scanner reads past an opener before it emits it ------------------
#
# Tokens it reads one way only and without an error: flow indicators, ':',
# '-' before a space (an entry indicator, refused later by the parser),
# plain scalars of word characters that end at an indicator or a line end,
# and quoted scalars without escapes, brackets or commas.

_CHUNK = rf"{_WORD}(?:{_WORD}|:(?={_WORD}))*"
_AHEAD_PLAIN = rf"{_CHUNK}(?: +{_CHUNK})*(?= *(?:[,\[\]{{}}\n\0]|:[ ,\[\]{{}}\n\0]))"
_LOOKAHEAD_SAFE = rf"(?:[\[\]{{}},: ]|-(?=[ \n\0])|{_AHEAD_PLAIN}|{_QUOTED})*"
_BLANK = re.compile(_GAP)
_SPACES = re.compile(" *")
_INDICATOR = re.compile(r"[\[\]{},]")
#: how far past a flow opener the scanner may read before it must emit it (a simple key's reach)
_KEY_REACH = 1024


@functools.lru_cache(maxsize=None)
def _compiled(pattern: str) -> re.Pattern[str]:
    """The patterns above, compiled when first needed (7 ms that most runs never need)."""
    return re.compile(pattern)


def _scanner_is_safe_past(text: str, opener: int, run_depth: int) -> bool:
    """Does PyYAML's scanner read ahead from a flow opener without an error or a surprise?

    Before it emits a token that may start a simple key, the scanner reads
    on until the key is ruled out: to the first token that starts more than
    1,024 characters on, or the first token of the next line. Plain words
    and flow indicators raise no error there. A collection of the run that
    closes within that reach must not be followed by ``:`` (``[a]: b`` is a
    mapping around ``[a]``, one level more), nor may the whole run close.
    """
    end = _compiled(_LOOKAHEAD_SAFE).match(text, opener, opener + 2 * _KEY_REACH).end()  # type: ignore[union-attr]
    balance = 0
    for index in range(opener, min(end, opener + _KEY_REACH + 1)):
        character = text[index]
        if character in "[{":
            balance += 1
        elif character in "]}":
            balance -= 1
            if balance <= 0:  # the opener's collection, or one around it, closes
                after = _SPACES.match(text, index + 1).end()  # type: ignore[union-attr]
                if balance <= 1 - run_depth or text[after : after + 1] not in ("]", "}", ",", "\n", "\0", ""):
                    return False
    if _INDICATOR.search(text, opener + _KEY_REACH + 1, end):  # a token starts past the reach, in the window
        return True
    if text[end : end + 1] == "\0":  # the end of the text (the reader's sentinel)
        return True
    # a line end: the next token is the next line's first one (a plain word could go on
    # into it), so it must be an indicator that ends any plain scalar
    following = _BLANK.match(text, end).end()  # type: ignore[union-attr]
    return text[end] == "\n" and text[following : following + 1] in ("[", "]", "{", "}", ",")


def opener_past_limit(text: str, start: int, spare: int) -> tuple[int | None, int]:
    """Where a run of openers from ``start`` opens more than ``spare`` levels inside the one at ``start``.

    ``text`` is the reader's buffer (it ends with a NUL); ``text[start]``
    opens a collection the parser has just composed (``[``, ``{`` or a block
    ``-``). Returns ``(offset of the first opener past the limit, or None;
    how far the run was read)``: the openers before the second need no other
    look. One match a level: a regex repeating a group 200,000 times would
    keep a backtracking record of each.
    """
    dash = text[start] == "-"
    if not dash and text[start] not in "[{":  # a block mapping, or a collection with a tag or an anchor
        return None, start + 1
    position = start
    inner, last = (_DASH_UNIT, _DASH_UNIT) if dash else (_compiled(_OPENER_UNIT), _compiled(_BARE_OPENER_UNIT))
    for level in range(spare + 1):  # the last level's flat items would be past the limit themselves
        opened = (inner if level < spare else last).match(text, position)
        if opened is None:
            return None, max(position, start + 1)
        position = opened.end()
    if dash and not _DASH_UNIT.match(text, position) or not dash and text[position : position + 1] not in ("[", "{"):
        return None, position + 1
    if not dash and not _scanner_is_safe_past(text, position, spare + 2):
        return None, position
    return position, position + 1
