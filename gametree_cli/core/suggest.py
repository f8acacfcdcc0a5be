"""The nearest known name to a misspelt one, for "did you mean ...?" hints.

Why: ``--algo alpha-beta`` or ``alpha_beta`` is the spelling a course or
another tool taught; naming the right word saves a trip to ``--help``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean"]


def _plain(name: str) -> str:
    """The name without case, spaces, dashes or underscores (``Alpha-Beta`` -> ``alphabeta``)."""
    return "".join(character for character in name.lower() if character.isalnum())


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` most likely meant, or None when none is close.

    Spelling variants (case, ``-``, ``_``, spaces) match exactly first; then
    :func:`difflib.get_close_matches` picks a near miss (``alphabta``).
    """
    choices = list(known)
    plain = _plain(name)
    for choice in choices:
        if _plain(choice) == plain:
            return choice
    by_plain = {_plain(choice): choice for choice in choices}
    matches = difflib.get_close_matches(plain, list(by_plain), n=1, cutoff=0.6)
    return by_plain[matches[0]] if matches else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean alphabeta?"`` for a near miss, else an empty string."""
    match = closest(name, known)
    return f"; did you mean {match}?" if match is not None else ""
