"""Regression tests for the bugs the fuzzers (tests/test_fuzz.py, fuzz/) found.

Each test is the smallest input that used to end in a traceback (or in an
error message that broke the contract's one-line form), and now must end as
a clean :class:`~gametree_cli.errors.GameTreeError`.
"""

from __future__ import annotations

import pytest

from gametree_cli import GameTreeError, parse_tree


def assert_one_line_error(text: str, name: str = "--tree") -> GameTreeError:
    with pytest.raises(GameTreeError) as caught:
        parse_tree(text, name=name)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(name), message
    return caught.value


def test_control_character_in_a_plain_yaml_scalar() -> None:
    """yaml_rs read ``2\\x03`` as a string that PyYAML refuses; locating the bad leaf then crashed."""
    with pytest.raises(GameTreeError):
        parse_tree("root:\n  children: [1, 2\x03]\n", name="bad.yaml")


@pytest.mark.parametrize("text", ["root:\n  children: [1, \"2\x03\"]\n", "root:\n  title: é\x7f\n", "\x00"])
def test_character_yaml_forbids_is_one_located_line(text: str) -> None:
    """PyYAML's ReaderError was printed as it str()s: two lines, 'position N' instead of a line; then
    located at libyaml's position, which counts bytes (a wrong column after an 'é')."""
    error = assert_one_line_error(text, "bad.yaml")
    bad = next(index for index, character in enumerate(text) if character in "\x00\x03\x7f")
    assert (error.line, error.column) == (text.count("\n", 0, bad) + 1, bad - text.rfind("\n", 0, bad))
    assert f"U+{ord(text[bad]):04X}" in error.message


@pytest.mark.parametrize("text, says", [
    ("[1, !!timestamp 2001-02-30]", "day is out of range"),
    ("[1, !!int x]", "invalid literal for int()"),
    ("[1, !!float abc]", "could not convert"),
])
def test_unconvertible_yaml_scalar_is_not_called_a_long_integer(text: str, says: str) -> None:
    """Every ValueError PyYAML raised while constructing was reported as 'an integer is too large'."""
    error = assert_one_line_error(text)
    assert says in error.message and "too large" not in error.message


def test_long_integer_in_yaml_is_still_reported_as_such() -> None:
    error = assert_one_line_error("root:\n  children: [1, !!int " + "7" * 5000 + "]\n")
    assert "too large" in error.message and error.line == 2


@pytest.mark.parametrize("raw", [b"[1,\xff 2]", b'{"root": {"children": [1, "\xfe"]}}', b"root:\n  children: [1, \xc3]\n"])
def test_invalid_utf8_on_stdin_or_tree_option(raw: bytes) -> None:
    """Standard input and --tree text (decoded with surrogateescape) with a byte that is not UTF-8.

    A lone surrogate crashed libyaml's encoder (reported as 'an integer is too
    large') or became a leaf '\\udcff'; a file with the same bytes said 'not UTF-8'.
    """
    error = assert_one_line_error(raw.decode("utf-8", "surrogateescape"), "<stdin>")
    bad = next(index for index, byte in enumerate(raw) if byte >= 0x80)
    assert error.message == f"not UTF-8 text (byte {bad})"
    assert error.line == raw.count(b"\n", 0, bad) + 1


@pytest.mark.parametrize("text", ["[3, [1, 2]]", "root:\n  children: [3, [1, 2]]\n"])
def test_byte_order_mark_on_stdin(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file with a BOM loads (utf-8-sig); the same bytes on standard input were 'expected a tree'."""
    import io

    from gametree_cli import load_tree, solve

    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + text))
    assert solve(load_tree("-"), "minimax").value == 3
