"""The fixed choices of command-line options, as enums typer shows in --help.

Without typer: the quick path (:mod:`.quick`) gives commands the same members.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["OutputFormat", "Language", "Variant", "Order"]


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class Language(str, Enum):
    en = "en"
    es = "es"


class Variant(str, Enum):
    soft = "soft"
    hard = "hard"
    practical = "practical"


class Order(str, Enum):
    given = "given"
    best = "best"
    worst = "worst"
