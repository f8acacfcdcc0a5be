"""The plain drawer (views/drawing.py) prints exactly what rich prints when piped.

A piped text view is written without rich (issue 14, target 1: rich's import
and layout cost more than a small solve). It must be byte for byte what the
console of cli/output.py would print, on every kind of tree, option and
language; where it cannot vouch for that (a character of unknown width, a
line rich would crop, a tab), it must hand the drawing to rich.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.cells import cell_len
from rich.console import Console

from gametree_cli.cli import output
from gametree_cli.cli.commands.blank import blank_view
from gametree_cli.core.errors import GameTreeError
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.views import drawing as drawing_module
from gametree_cli.views.annotated import render_result
from gametree_cli.views.drawing import Branch, Drawing, Line, one_cell_each
from gametree_cli.views.words import words

from . import oracles
from .test_crosscheck import FAMILIES, configurations, library_options, make_tree

TREES = 60


def printed(drawing: Drawing, plain: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            **options: bool) -> str:
    """What ``print_drawing`` writes to a pipe, by the plain drawer or (``plain=False``) by rich."""
    monkeypatch.setattr(output, "rich_writes_plain", lambda stream: plain)
    capsys.readouterr()
    output.print_drawing(drawing, **options)
    return capsys.readouterr().out


def both(drawing: Drawing, monkeypatch, capsys, **options: bool) -> tuple[str, str]:
    return printed(drawing, True, monkeypatch, capsys, **options), printed(drawing, False, monkeypatch, capsys, **options)


@pytest.mark.parametrize("family", FAMILIES)
def test_plain_and_rich_print_the_same_characters(family: str, monkeypatch, capsys) -> None:
    drawn = 0
    for seed in range(TREES):
        document, facts, rng = make_tree(family, seed)
        tree = parse_tree(json.dumps(document), fmt="json")
        for algorithm, options in configurations(oracles.read(document), facts, rng):
            try:
                record = solve(tree, algorithm, options=library_options(options))
            except GameTreeError:
                continue
            shown = rng.choice([{}, {"depth": 1}, {"depth": 2}, {"max_nodes": 3}, {"max_nodes": 12}])
            lang = rng.choice(["en", "es"])
            for view in (render_result(record, lang, **shown), blank_view(tree, lang=lang, **shown)):
                assert view.plain_text() is not None, f"{family} seed {seed}: the plain drawer declined"
                plain, rich = both(view, monkeypatch, capsys, blank_line_first=rng.random() < 0.2)
                assert plain == rich, f"{family} seed {seed} {algorithm} {options} {shown} {lang}"
                drawn += 1
    assert drawn > TREES


ODD = {
    "wide": "中文",                   # two cells a character in rich
    "combining": "e\u0301",          # zero cells
    "emoji": "😀",
}


@pytest.mark.parametrize("name", sorted(ODD))
def test_what_the_plain_drawer_cannot_vouch_for_goes_to_rich(name: str, monkeypatch, capsys) -> None:
    label = ODD[name]
    tree = parse_tree(json.dumps({"root": {"type": "max", "children": [
        {"id": "a", "move": label, "value": 1}, {"id": "b", "value": 2}]}}), fmt="json")
    view = render_result(solve(tree, "minimax"))
    assert view.plain_text() is None
    plain, rich = both(view, monkeypatch, capsys)
    assert plain == rich  # print_drawing gave it to rich both times


@pytest.mark.parametrize("label, shown", [("a\tb", "a\\tb"), ("a\nb", "a\\nb"), ("a\x07b", "a\\x07b"),
                                          ("a\u00adb", "a\\xadb"), ("\ud800", "\\ud800")])
def test_control_characters_are_shown_escaped_by_both(label: str, shown: str, monkeypatch, capsys) -> None:
    """A tab, a line break, a control character, a soft hyphen, a lone surrogate: escaped in the label
    (core/printable.py), so each is printable text the plain drawer draws as rich does."""
    tree = parse_tree(json.dumps({"root": {"type": "max", "children": [
        {"id": "a", "move": label, "value": 1}, {"id": "b", "value": 2}]}}), fmt="json")
    view = render_result(solve(tree, "minimax"))
    assert view.plain_text() is not None
    plain, rich = both(view, monkeypatch, capsys)
    assert plain == rich and f"├── {shown} → a  = 1\n" in plain


def test_labels_the_plain_drawer_keeps(monkeypatch, capsys) -> None:
    """Markup-like text, backslashes, spaces at either end, Latin letters, and a line exactly as wide as rich's width."""
    moves = ["[bold]x[/]", "a\\[b]", " lead", "trail ", "¿año?", "ÿŁ", ""]
    children = [{"id": f"n{index}", "move": move, "value": index} for index, move in enumerate(moves) if move]
    children.append({"id": "w" * 200, "value": 9})
    tree = parse_tree(json.dumps({"title": "  a title  ", "root": {"type": "max", "children": children}}), fmt="json")
    view = render_result(solve(tree, "alphabeta"))
    assert view.plain_text() is not None
    plain, rich = both(view, monkeypatch, capsys)
    assert plain == rich and "best move " in plain and "[bold]x[/]" in plain
    long = Drawing(Branch(Line("r")), Line("s"))
    long.parts[0].add(Line("y" * 300)).add(Line("z" * 1000))
    plain, rich = both(long, monkeypatch, capsys)
    assert plain == rich and "└── " + "y" * 300 + "\n" in plain and "    └── " + "z" * 1000 + "\n" in plain


def test_a_deep_outline_draws_without_recursion(monkeypatch, capsys) -> None:
    root = Branch(Line("0"))
    branch = root
    for level in range(1, 2000):
        branch = branch.add(Line(str(level)))
    lines = root.plain_lines()
    assert lines is not None and len(lines) == 2000 and lines[-1] == " " * (4 * 1998) + "└── 1999"
    shallow = Branch(Line("0"))
    shallow.add(Line("1")).add(Line("2"))
    shallow.add(Line("3"))
    assert shallow.plain_lines() == ["0", "├── 1", "│   └── 2", "└── 3"]
    root.to_rich()  # built without recursion too


def test_every_character_the_views_write_is_one_cell_in_rich() -> None:
    """The plain drawer trusts these characters to be one cell wide; rich's own table must agree."""
    trusted = [chr(code) for code in range(0x20, 0x300) if one_cell_each(chr(code))]
    trusted += sorted(drawing_module._SYMBOLS)
    assert [char for char in trusted if cell_len(char) != 1] == []
    said = "".join(text for lang in ("en", "es") for text in words(lang).values() if isinstance(text, str))
    assert one_cell_each(said.replace("\n", " ")), [char for char in said if not one_cell_each(char)]


def test_styles_reach_rich_as_before() -> None:
    """A stylized line keeps each run's own style under the whole-line one (rich's Text.stylize order)."""
    line = Line("★ ", "bold green").append("a", "bold").append(" pruned", "yellow dim").stylize("dim")
    text = line.to_rich()
    assert text.plain == "★ a pruned"
    assert [str(span.style) for span in text.spans] == ["bold green dim", "bold dim", "yellow dim dim"]


@pytest.mark.parametrize("environ, isatty, encoding, expected", [
    ({}, False, "utf-8", True),
    ({}, True, "utf-8", False),
    ({}, False, "ascii", False),
    ({"FORCE_COLOR": "1"}, False, "utf-8", False),
    ({"FORCE_COLOR": ""}, True, "utf-8", True),
    ({"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, True, "utf-8", True),
    ({"TTY_COMPATIBLE": "1"}, False, "utf-8", False),
    ({"NO_COLOR": "1"}, True, "utf-8", False),  # a terminal without colour still wraps at its width: rich
])
def test_plain_exactly_when_rich_would_not_colour(environ, isatty, encoding, expected, monkeypatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)

    class Stream(io.StringIO):
        @property
        def encoding(self) -> str:  # type: ignore[override]
            return encoding

        def isatty(self) -> bool:
            return isatty

    stream = Stream()
    assert output.rich_writes_plain(stream) is expected
    console = Console(file=stream)
    rich_plain = not console.is_terminal and not console.options.ascii_only
    if "NO_COLOR" not in environ:
        assert rich_plain is expected


def test_random_labels_agree(monkeypatch, capsys) -> None:
    """Random printable labels drawn from the trusted characters, and random shapes."""
    rng = random.Random(7)
    alphabet = [chr(code) for code in range(0x20, 0x300) if one_cell_each(chr(code))] + sorted(drawing_module._SYMBOLS)
    for _ in range(40):
        root = Branch(Line("".join(rng.choices(alphabet, k=rng.randint(0, 30))), "bold"))
        branches = [root]
        for _ in range(rng.randint(0, 30)):
            parent = rng.choice(branches)
            label = Line()
            for _ in range(rng.randint(0, 3)):
                label.append("".join(rng.choices(alphabet, k=rng.randint(0, 20))), rng.choice(["", "dim", "bold red"]))
            branches.append(parent.add(label))
        view = Drawing(Line("title"), root, Line("note"))
        plain, rich = both(view, monkeypatch, capsys)
        assert plain == rich


def test_trace_then_tree_keeps_its_blank_line(monkeypatch, capsys) -> None:
    view = Drawing(Line("x"))
    assert both(view, monkeypatch, capsys, blank_line_first=True) == ("\nx\n", "\nx\n")


def test_one_cell_each_is_its_rule_character_by_character() -> None:
    """``one_cell_each`` searches for a foreign character with one regular expression; the rule it
    stands for, read a character at a time, on random strings of Latin, our symbols, controls, tabs,
    zero-width and wide characters, lone surrogates, and the characters a character class treats apart."""
    def by_rule(text: str) -> bool:
        return text.isprintable() and all(char < "\u0300" or char in drawing_module._SYMBOLS for char in text)

    rng = random.Random(14)
    alphabet = [chr(code) for code in range(0x400)] + sorted(drawing_module._SYMBOLS)
    alphabet += ["\t", "\n", "\u200b", "中", "\ud800", "\U0001F600", "]", "\\", "^", "-", "\u2500", "│"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        assert one_cell_each(text) == by_rule(text), repr(text)
