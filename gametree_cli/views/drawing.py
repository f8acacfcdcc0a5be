"""What a text view is made of, without rich: styled lines and a tree outline.

The annotated tree and the handout are built once as a :class:`Drawing`. rich
draws it wherever it would colour or wrap (:meth:`Drawing.__rich_console__`);
when rich would print plain text (piped, in CI), :meth:`Drawing.plain_text`
gives the very same characters without importing rich, whose import and
layout cost more than a whole small solve (issue 14). Where this module cannot
vouch that rich would print a line unchanged (a character whose width it does
not know, a tab), it says so and rich draws it. Piped, no line is wrapped or
cropped, however long (rich is given a width of 65,536 columns there).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator, Union

from ..core.printable import printable

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType
    from rich.text import Text

__all__ = ["Line", "Branch", "Drawing", "one_cell_each", "UNWRAPPED_WIDTH"]

#: the width rich is given where a drawing must not be wrapped (a pipe, Solution.text()): no line is that long
UNWRAPPED_WIDTH = 1 << 16
#: rich's guides for a tree whose guide style is neither bold nor double: space, continue, fork, end
SPACE, CONTINUE, FORK, END = "    ", "│   ", "├── ", "└── "
#: the characters beyond Latin the views write; each is one cell wide in rich (tests/test_plain_drawing.py)
_SYMBOLS = frozenset("★▲▼○◆→✂≥≤…αβ—–×≠∞")


#: a character beyond Latin that is not one of ours (one search in C, where a loop over the characters in
#: Python took ~1 µs a line: ~0.5 ms of a big tree's text view; ``re`` is loaded anyway, core/numbers.py)
_FOREIGN = re.compile("[^\u0000-\u02ff" + re.escape("".join(sorted(_SYMBOLS))) + "]")


def one_cell_each(text: str) -> bool:
    """True when rich prints ``text`` as it is, one cell a character: printable (no tab,
    newline or control character, which rich expands or strips), and Latin or our symbols."""
    if text.isascii():
        return text.isprintable()
    return text.isprintable() and _FOREIGN.search(text) is None


class Line:
    """One line of text in runs of one style each (rich's style words: ``"bold green"``).

    A name's control characters and lone surrogates are shown escaped (core/printable.py):
    a node called ``"c\\rd"`` must not break its line of the tree or colour the terminal."""

    __slots__ = ("runs",)

    def __init__(self, text: str = "", style: str = "") -> None:
        self.runs: list[tuple[str, str]] = [(printable(text), style)] if text else []

    def append(self, text: str, style: str = "") -> Line:
        if text:
            self.runs.append((printable(text), style))
        return self

    def append_line(self, other: Line) -> Line:
        self.runs.extend(other.runs)
        return self

    def prepend(self, text: str, style: str = "") -> Line:
        if text:
            self.runs.insert(0, (printable(text), style))
        return self

    def stylize(self, style: str) -> Line:
        """Add ``style`` over what the line holds now (as rich's ``Text.stylize``: later words win)."""
        self.runs = [(text, f"{own} {style}".strip()) for text, own in self.runs]
        return self

    @property
    def plain(self) -> str:
        return "".join([text for text, _ in self.runs])

    def __bool__(self) -> bool:
        return bool(self.runs)

    def __str__(self) -> str:
        return self.plain

    def to_rich(self) -> Text:
        from rich.text import Text

        return Text.assemble(*((text, style or None) for text, style in self.runs))


class Branch:
    """A node of a drawn tree: its label and the branches under it, in order."""

    __slots__ = ("label", "children")

    def __init__(self, label: Line) -> None:
        self.label = label
        self.children: list[Branch] = []

    def add(self, label: Line) -> Branch:
        child = Branch(label)
        self.children.append(child)
        return child

    def to_rich(self) -> RenderableType:
        from rich.tree import Tree

        root = Tree(self.label.to_rich(), guide_style="dim")
        stack = [(self, root)]
        while stack:  # no recursion: a drawn chain may be deeper than Python's stack
            branch, drawn = stack.pop()
            for child in branch.children:
                stack.append((child, drawn.add(child.label.to_rich())))
        return root

    def plain_lines(self) -> list[str] | None:
        """The lines rich draws, guides included; None when one would not come out unchanged."""
        lines: list[str] = []
        labels: list[str] = []
        # (branch, guides of the levels above it, its own guide)
        stack: list[tuple[Branch, str, str]] = [(self, "", "")]
        while stack:
            branch, above, own = stack.pop()
            text = branch.label.plain
            labels.append(text)
            lines.append(above + own + text)
            children = branch.children
            if children:
                below = above + (SPACE if own == END else CONTINUE) if own else ""
                last = len(children) - 1
                for position in range(last, -1, -1):
                    stack.append((children[position], below, END if position == last else FORK))
        # the labels checked together (a check a line cost ~1 µs: ~0.5 ms of a big tree's text view)
        return lines if one_cell_each("".join(labels)) else None


Part = Union[Line, Branch]


class Drawing:
    """Lines and trees, one under the other: a whole text view."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Part) -> None:
        self.parts = list(parts)

    def plain_text(self) -> str | None:
        """What rich prints for this drawing when it writes plain text, or None when only rich can tell."""
        lines: list[str] = []
        for part in self.parts:
            if isinstance(part, Branch):
                drawn = part.plain_lines()
                if drawn is None:
                    return None
                lines.extend(drawn)
            else:
                text = part.plain
                if not one_cell_each(text):
                    return None
                lines.append(text)
        return "".join(line + "\n" for line in lines)

    def renderables(self) -> Iterator[RenderableType]:
        for part in self.parts:
            yield part.to_rich()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        yield from self.renderables()
