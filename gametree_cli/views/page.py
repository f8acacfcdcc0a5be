"""``gametree render --format html``: one self-contained page that steps through the search.

The page is one HTML file: the tree drawn as SVG (:mod:`.page_svg`), one
JSON blob with the steps of the search (:mod:`.page_data`) and the answer
key of the practice mode (:mod:`.page_practice`), and the style sheet and
script from ``page_assets/`` inlined. It loads nothing: no network, no
fonts, no library (plain JavaScript, a few hundred lines), and a
Content-Security-Policy that forbids any request, so it opens from disk in
any current browser, offline, in a lecture hall.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from fractions import Fraction
from html import escape
from importlib import resources
from typing import Any

import orjson

from ..search.registry import Options
from ..core.errors import GameTreeError
from ..core.printable import printable
from ..search.events import Event, Recorder
from ..search.record import SearchRecord
from .annotated import summary_line
from .page_data import final_values, page_steps, pv_positions
from .page_practice import practice_data
from .page_svg import KIND_NAMES, draw_svg, layout
from .page_words import page_words
from .picture import picture_nodes

__all__ = ["render_page", "StepRecorder", "MAX_PAGE_STEPS", "PAGE_MAX_DRAWN", "page_assets"]

#: the most steps a page replays: about two per node searched, a few MB of page, replayed at once
MAX_PAGE_STEPS = 200_000
#: the page draws the top levels holding at most this many nodes, as the other pictures do
PAGE_MAX_DRAWN = 400


class StepRecorder(Recorder):
    """Keeps the search's events, and stops the search (GameTreeError) past ``MAX_PAGE_STEPS``:
    the page is refused as soon as it would be too big, not after a long search."""

    def __call__(self, event: Event) -> None:
        if len(self.events) >= MAX_PAGE_STEPS:
            raise GameTreeError(
                f"the search takes more than {MAX_PAGE_STEPS:,} steps; a browser page replays at most "
                f"{MAX_PAGE_STEPS:,} (docs/browser.md): limit it with --depth, or draw the tree with --format svg"
            )
        self.events.append(event)


def page_assets() -> dict[str, str]:
    """The page's template, style sheet and script (package data)."""
    folder = resources.files("gametree_cli.views") / "page_assets"
    return {name: (folder / name).read_text(encoding="utf-8") for name in ("page.html", "page.css", "practice.js", "page.js")}


#: characters JSON may hold raw but a ``<script>`` element may not (``</script>``, ``<!--``, ``]]>``,
#: and the line separators old JavaScript engines refused): written as JSON escapes instead
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _exact(value: Any) -> Any:
    if isinstance(value, (Fraction, Decimal)):
        return str(value)
    raise TypeError(f"not JSON: {value!r}")


def _json(data: Any) -> str:
    """JSON safe inside ``<script>``: no ``<``, ``>``, ``&``, U+2028 or U+2029 (each as its ``\\u``
    escape, which they can only be inside a JSON string), exact numbers as text. A lone surrogate
    (a node id JSON can write as ``"\\ud800"``) is kept as that escape: orjson refuses it, the
    standard library writes it, and the page's JavaScript string holds it as the tree file did."""
    try:
        text = orjson.dumps(data, default=_exact).decode("utf-8")
    except TypeError:  # a lone surrogate somewhere (rare): the slower writer that can say it
        text = json.dumps(data, default=_exact, ensure_ascii=False, separators=(",", ":"))
        text = _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
    for unsafe, escaped in _SCRIPT_UNSAFE.items():  # five passes of str.replace: faster than one re.sub
        text = text.replace(unsafe, escaped)
    return text


def render_page(record: SearchRecord, events: list[Event], *, lang: str = "en", options: Options | None = None,
                depth: int | None = None, max_nodes: int = PAGE_MAX_DRAWN, practise: bool = False) -> str:
    """The whole page for one search and the events it reported (``practise``: it opens in practice mode)."""
    said = page_words(lang)
    drawn = picture_nodes(record, blank=True, max_nodes=max_nodes, depth=depth)
    steps = page_steps(record, events, drawn, lang)
    final = final_values(record, drawn)
    spot = layout(drawn, steps, final, said)  # each node as wide as what it shows at any step
    title = record.tree.title or said["title"]
    shown_title = printable(title)  # the page shows names escaped; the data keeps them as the file wrote them
    data = {
        "title": title,
        "algorithm": record.algorithm,
        "lang": lang,
        "start": "practice" if practise else "watch",
        "summary": printable(summary_line(record, lang).plain),
        "ids": [item.name for item in drawn],  # as written: the downloaded answer file names nodes by them
        "names": [printable(item.name) for item in drawn],  # as shown
        "kinds": [KIND_NAMES[item.kind] for item in drawn],
        "parent": spot.parent,
        "end": spot.end,
        "hidden": sum(item.hidden + item.omitted_nodes for item in drawn),
        "pv": pv_positions(record, drawn),
        "final": final,
        "steps": steps,
        "practice": practice_data(record, drawn, options, complete=not any(item.hidden or item.omitted for item in drawn), lang=lang),
        "words": said,
    }
    assets = page_assets()
    parts = {"TITLE": escape(f"{shown_title} · {record.algorithm}"), "HEADING": escape(shown_title),
             "ALGORITHM": escape(record.algorithm), "LANG": lang, "STYLE": assets["page.css"],
             "SVG": draw_svg(drawn, spot, said=said), "DATA": _json(data),
             "SCRIPT": assets["practice.js"] + assets["page.js"]}
    parts.update({f"w:{key}": escape(text) for key, text in said.items()})  # {{w:key}}: the page's words
    # one pass over the template: nothing inserted (a node id, say) is read as a placeholder
    return re.sub(r"\{\{([A-Z]+|w:[a-z_]+)\}\}", lambda match: parts[match.group(1)], assets["page.html"])

