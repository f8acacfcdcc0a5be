"""The frame of a ``render --steps`` picture: the tree, with the step's trace line under it as the caption.

The caption is wrapped onto as many lines as it needs at the tree's width,
rather than the picture widened to one line of it. Why: a slide scales the
picture to fit, so a picture widened for a 110-character Spanish line would
shrink the tree itself; wrapped, the tree keeps its size. Every picture of
a run has the same frame (as many caption lines as the longest caption
needs), so flipping through the slides the tree never moves or rescales. A
tree narrower than :data:`MIN_CHARS` characters gets a wider frame, the tree
centred in it, so that a caption line holds a readable phrase.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from html import escape

__all__ = ["SlideFrame", "CHAR_WIDTH", "MIN_CHARS"]

FONT_SIZE = 18  # px, DejaVu Sans Mono (the caption's style in steps.py)
CHAR_WIDTH = 11.0  # px a character takes at that size: 0.602 em in DejaVu Sans Mono, rounded up for other monospace fonts
LINE = 24  # px from one caption line to the next
MARGIN = 20  # px left and right of the caption
MIN_CHARS = 44  # characters a caption line holds at least


@dataclass(frozen=True)
class SlideFrame:
    """Where the tree and the caption go in every step picture of one run."""

    tree_width: float
    tree_height: float
    width: float
    height: float
    chars: int  # characters per caption line

    @classmethod
    def around(cls, tree_width: float, tree_height: float, captions: list[str]) -> SlideFrame:
        """The frame that holds the tree and the longest of ``captions``, wrapped (every label is inside
        the tree's own width: views/page_room.py places them there)."""
        width = max(math.ceil(tree_width), math.ceil(2 * MARGIN + MIN_CHARS * CHAR_WIDTH))
        chars = int((width - 2 * MARGIN) // CHAR_WIDTH)
        lines = max((len(wrap(caption, chars)) for caption in captions), default=1)
        height = math.ceil(tree_height) + 36 + (lines - 1) * LINE + 28
        return cls(tree_width, tree_height, width, height, chars)

    def slide(self, tree_svg: str, caption: str) -> str:
        """The tree's standalone ``<svg>`` set in the frame (centred), and the caption's lines under it."""
        left = (self.width - self.tree_width) / 2
        inner = tree_svg.replace(' id="tree"', f' id="tree" x="{left:.0f}" y="0" overflow="visible"', 1)
        texts = "".join(f'<text class="caption" x="{MARGIN}" y="{self.tree_height + 36 + LINE * k:.0f}" '
                        f'xml:space="preserve">{escape(line)}</text>'
                        for k, line in enumerate(wrap(caption, self.chars)))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:.0f} {self.height:.0f}" '
                f'width="{self.width:.0f}" height="{self.height:.0f}">'
                f'<rect width="100%" height="100%" fill="#fff"/>{inner}{texts}</svg>')


def wrap(caption: str, chars: int) -> list[str]:
    """The caption in lines of at most ``chars`` characters, broken between words; the lines after the
    first are indented past its ``14/16`` (the step number stands out on its own)."""
    number = caption.split(" ", 1)[0]
    indent = " " * min(len(number) + 2, chars // 4)
    return textwrap.wrap(caption, chars, subsequent_indent=indent, break_on_hyphens=False,
                         drop_whitespace=True) or [""]
