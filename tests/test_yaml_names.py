"""An ``id`` or ``move`` that YAML reads as something other than its text is refused, not renamed.

YAML 1.1 reads ``move: no`` as ``False``, ``id: 0x1F`` as 31 and ``move: 1.10`` as 1.1;
the tree would silently show ``False``, ``31`` or ``1.1``. Every reading path (PyYAML,
the fast YAML parser, the fast document builder, the general node rules, the JSON
scanner) must refuse them with one located line that says to put the name in quotes.
"""

from __future__ import annotations

import pytest

from gametree_cli import GameTreeError
from gametree_cli.io import yaml_reader
from gametree_cli.io.loader import parse_tree
from gametree_cli.io.node_rules import is_decimal_text

THREE_PLAYERS = "players: [A, B, C]\n"


@pytest.fixture(autouse=True, params=["pyyaml-first", "fast-first"])
def yaml_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both YAML paths: PyYAML, and the fast parser (yaml_rs) with its scan of what it may read."""
    if request.param == "fast-first":
        monkeypatch.setattr(yaml_reader, "FAST_FROM", 0)


def _tree(key: str, written: str, header: str = "") -> str:
    leaves = "[3, 4]" if not header else "[[1, 2, 3], [3, 2, 1]]"
    return (f"{header}root:\n  id: R\n  children:\n    - {{id: B, children: {leaves}}}\n"
            f"    - {{{key}: {written}, children: {leaves}}}\n")


def _refusal(text: str) -> str:
    with pytest.raises(GameTreeError) as caught:
        parse_tree(text, name="t.yaml")
    message = str(caught.value)
    assert "\n" not in message
    return message


BOOLEANS = ["true", "false", "yes", "no", "on", "off", "True", "OFF", "Yes"]  # (PyYAML: not y or n)
NON_DECIMAL_INTEGERS = {"0x1F": 31, "017": 15, "0b11": 3, "1_000": 1000, "1:30": 90, "+5": 5, "-0": 0, "-017": -15}


@pytest.mark.parametrize("header", ["", THREE_PLAYERS], ids=["two players", "three players"])
@pytest.mark.parametrize("key", ["id", "move"])
@pytest.mark.parametrize("written", BOOLEANS)
def test_a_boolean_name_is_refused(key: str, written: str, header: str) -> None:
    message = _refusal(_tree(key, written, header))
    assert message.startswith(f"t.yaml:{5 + header.count(chr(10))}:7: node ")
    assert f"{key} must be" in message and "found a boolean: put it in quotes" in message


@pytest.mark.parametrize("header", ["", THREE_PLAYERS], ids=["two players", "three players"])
@pytest.mark.parametrize("key", ["id", "move"])
@pytest.mark.parametrize("written", sorted(NON_DECIMAL_INTEGERS))
def test_an_integer_not_written_as_its_digits_is_refused(key: str, written: str, header: str) -> None:
    message = _refusal(_tree(key, written, header))
    assert message.startswith(f"t.yaml:{5 + header.count(chr(10))}:7: node ")
    assert message.endswith(f"{key} {written} is read by YAML as the number {NON_DECIMAL_INTEGERS[written]}: "
                            f"put it in quotes, e.g. '{written}'")


@pytest.mark.parametrize("key", ["id", "move"])
@pytest.mark.parametrize("written", ["1.10", "1.5", "1e3.0", ".inf", "-0.5", "1.0e+3"])
def test_a_decimal_name_is_refused(key: str, written: str) -> None:
    text = _tree(key, written)
    if written == "1e3.0":  # a string in YAML 1.1: its own text
        assert key != "move" or parse_tree(text, name="t.yaml").moves[2] == written
        return
    message = _refusal(text)
    assert f"{key} must be" in message and "put it in quotes as written" in message


@pytest.mark.parametrize("key", ["id", "move"])
@pytest.mark.parametrize("written", ["'true'", '"no"', "'0x1F'", "'1.10'", "12", "-3", "0", "1e3", "x0x1F", "'+5'"])
def test_names_read_as_their_text_are_kept(key: str, written: str) -> None:
    """Quoted names, integers written as their digits, and what YAML 1.1 reads as text (``1e3``)."""
    tree = parse_tree(_tree(key, written), name="t.yaml")
    named = tree.node_id(2) if key == "id" else tree.move(2)
    assert named == written.strip("'\"")


@pytest.mark.parametrize("key", ["id", "move"])
@pytest.mark.parametrize("raw", ["true", "false", "1.10", "1e2", "-0.5"])
def test_json_booleans_and_decimals_are_refused_too(key: str, raw: str) -> None:
    text = '{"root": {"children": [{"id": "B", "children": [3, 4]}, {"%s": %s, "children": [1, 2]}]}}' % (key, raw)
    with pytest.raises(GameTreeError) as caught:
        parse_tree(text, name="t.json", fmt="json")
    assert "put it in quotes" in str(caught.value) and str(caught.value).startswith("t.json:1:")


@pytest.mark.parametrize("text, decimal", [("0", True), ("12", True), ("-3", True), ("012", False), ("+3", False),
                                           ("-0", False), ("1_0", False), ("", False), ("-", False), ("١٢", False)])
def test_is_decimal_text(text: str, decimal: bool) -> None:
    assert is_decimal_text(text) is decimal
