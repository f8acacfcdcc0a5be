"""Regression tests for the bugs the fuzzers (tests/test_fuzz.py, fuzz/) found.

Each test is the smallest input that used to end in a traceback (or in an
error message that broke the contract's one-line form), and now must end as
a clean :class:`~gametree_cli.core.errors.GameTreeError`.
"""

from __future__ import annotations

import pytest

from gametree_cli import GameTreeError
from gametree_cli.io import yaml_reader
from gametree_cli.io.loader import load_tree, parse_tree


@pytest.fixture(autouse=True, params=["pyyaml-first", "fast-first"])
def yaml_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every regression on both YAML paths: small texts go to PyYAML (yaml_reader.FAST_FROM), and the
    fast parser (yaml_rs), which several of these cases are about, reads them when the limit is 0."""
    if request.param == "fast-first":
        monkeypatch.setattr(yaml_reader, "FAST_FROM", 0)


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
    """Every ValueError PyYAML raised while constructing was reported as 'an integer is too large'
    (and, once that was fixed, without a line)."""
    error = assert_one_line_error(text)
    assert says in error.message and "too large" not in error.message
    assert (error.line, error.column) == (1, 5)


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
    assert error.message == f"not UTF-8 text (byte 0x{raw[bad]:02x} at offset {bad})"  # as for a file
    assert error.line == raw.count(b"\n", 0, bad) + 1


@pytest.mark.parametrize("text", ["[3, [1, 2]]", "root:\n  children: [3, [1, 2]]\n"])
def test_byte_order_mark_on_stdin(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file with a BOM loads (utf-8-sig); the same bytes on standard input were 'expected a tree'."""
    import io

    from gametree_cli.io.loader import load_tree
    from gametree_cli.search.registry import solve

    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + text))
    assert solve(load_tree("-"), "minimax").value == 3


# -- damaged .gtb files (the reader trusted everything behind a valid structure) ----


def _gtb_with(tree_text: str, change) -> bytes:  # type: ignore[no-untyped-def]
    """The .gtb bytes of a tree, with ``change(header)`` applied to its JSON header (arrays kept)."""
    import json
    import struct

    from gametree_cli.io.binary import MAGIC
    from gametree_cli.io.binary_encode import encode_binary

    data = encode_binary(parse_tree(tree_text))
    start = len(MAGIC) + 8
    (length,) = struct.unpack_from("<Q", data, len(MAGIC))
    header = json.loads(data[start:start + length])
    change(header)
    text = json.dumps(header).encode()
    return data[:len(MAGIC)] + struct.pack("<Q", len(text)) + text + data[start + length:]


def _set(path: str, value: object):  # type: ignore[no-untyped-def]
    def change(header: dict) -> None:
        *parents, last = path.split(".")
        for key in parents:
            header = header[key]
        header[last] = value
    return change


def _as_version_1_json_probabilities(shares: list):  # type: ignore[no-untyped-def]
    """A file as gametree wrote decimal probabilities before version 2: a JSON list in the header."""
    def change(header: dict) -> None:
        for key in ("prob", "prob_decimal"):
            header["arrays"].pop(key)
        header.pop("prob_denominator")
        header.update(version=1, prob_json=shares)
    return change


_NPLAYER = "players: [A, B, C]\nroot:\n  eval: [1, 1, 1]\n  children: [[1, 2, 3], {random: 0.5, children: [[3, 2, 1], [0, 0, 0]]}]\n"
_CHANCE = "bounds: [0, 9]\nroot:\n  children: [{type: chance, children: [{p: 1/4, value: 1}, {p: 3/4, value: 9}]}, 5]\n"
_DECIMAL_P = "root:\n  children: [{type: chance, children: [{p: 0.25, value: 1}, {p: 0.75, value: 9}]}, 5]\n"
_NAMED = "root:\n  id: A\n  children: [{id: B, move: b, children: [1, 2]}, 3]\n"


@pytest.mark.parametrize("tree_text, change, says", [
    (_NAMED, _set("arrays", "x"), "array directory"),                          # AttributeError: 'str' has no .get
    (_NAMED, _set("arrays.count.dtype", "(9999999999999999999999)i1"), "element type"),  # SyntaxError from numpy
    (_NAMED, _set("arrays.move_nodes.dtype", "<c16"), "element type"),         # complex node numbers: sorted() TypeError
    (_NAMED, _set("arrays.kind.dtype", "<i8"), "element type"),
    (_NAMED, _set("title", 7), "title"),                                       # rich: int has no .translate
    (_NAMED, _set("players", ["A", "B", "C"]), "max/min node"),                # a 3-player tree of numbers: maxn crashed
    (_NAMED, _set("vector_payoffs", True), "max/min node"),
    (_NAMED, _set("id_labels", ["A", ""]), "ids"),                             # YAML written back was unreadable
    (_NAMED, _set("id_labels", ["A", "A"]), "ids"),
    (_NAMED, _set("id_labels", ["A", "A.2"]), "default id"),
    (_NPLAYER, _set("values_json", [7, [3, 2, 1], [0, 0, 0]]), "list of 3 numbers"),
    (_NPLAYER, _set("values_json", [[1, 2], [3, 2, 1], [0, 0, 0]]), "has 2 numbers"),
    (_NPLAYER, _set("evals", [[0, 7]]), "eval must be a list"),                # answer key could not be read back
    (_NPLAYER, _set("evals", [[1, [1, 1, 1]]]), "eval on a leaf"),
    (_NPLAYER, _set("extra", [[2, 5]]), "opponent model"),                     # AttributeError: int has no .items
    (_NPLAYER, _set("extra", [[2, {"random": {"number": 2}}]]), "between 0 and 1"),
    (_CHANCE, _set("prob_denominator", "3"), "do not sum to 1"),
    (_CHANCE, lambda header: header.pop("prob_denominator") and header["arrays"].pop("prob"), "without probabilities"),
    (_CHANCE, _set("bounds", [0, 4]), "outside the declared bounds"),
    (_CHANCE, _set("bounds", [9, 0]), "lowest value is not below"),
    (_DECIMAL_P, _as_version_1_json_probabilities([None, None, None, 0.5, 0.75]), "sum to 1.25"),
    (_DECIMAL_P, _set("prob_denominator", "80"), "do not sum to 1"),           # version 2: decimals in columns
    (_DECIMAL_P, _set("arrays.prob_decimal.length", 4), "decimal flags of the wrong size"),
])
def test_damaged_gtb_header_is_a_clean_error(tmp_path, tree_text: str, change, says: str) -> None:  # type: ignore[no-untyped-def]
    from gametree_cli.io.loader import load_tree

    path = tmp_path / "damaged.gtb"
    path.write_bytes(_gtb_with(tree_text, change))
    with pytest.raises(GameTreeError) as caught:
        load_tree(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(path)) and says in message, message


def test_gtb_child_counts_that_loop(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Counts [0, 2, 0] add up to n - 1, but node 1 would be its own child: a search never ended."""
    import numpy as np

    from gametree_cli.io.loader import load_tree
    from gametree_cli.io.binary_encode import _pack

    kind = np.array([1, 1, 0], dtype=np.uint8)
    count = np.array([0, 2, 0], dtype=np.int8)
    kind[0] = 0
    header = {"version": 1, "nodes": 3, "players": ["MAX", "MIN"], "vector_payoffs": False, "title": None,
              "sum": None, "bounds": None, "values_json": [1, 2]}
    path = tmp_path / "loop.gtb"
    path.write_bytes(_pack(header, {"kind": kind, "count": count}))
    with pytest.raises(GameTreeError, match="numbered before its parent"):
        load_tree(path)


@pytest.mark.parametrize("text", [_NAMED, _NPLAYER, _CHANCE, _DECIMAL_P, "[[3, 12, 8], [2, 4, 6]]"])
def test_undamaged_gtb_still_reads(tmp_path, text: str) -> None:  # type: ignore[no-untyped-def]
    from gametree_cli.io.loader import load_tree
    from gametree_cli.io.binary_encode import encode_binary
    from gametree_cli.io.document_writer import json_text

    path = tmp_path / "good.gtb"
    path.write_bytes(encode_binary(parse_tree(text)))
    assert json_text(load_tree(path)) == json_text(parse_tree(text))


@pytest.mark.parametrize("text", ["root: {children: [-1e400, 9]}", '{"root": {"children": ["1e309", 9]}}',
                                  "root: {type: chance, children: [{p: 1e400, value: 1}]}"])
def test_decimal_that_overflows_to_infinity(text: str) -> None:
    """PyYAML reads 1e400 (no dot) as the text '1e400', which parse_number turned into inf: the
    tree solved with an infinite leaf, and the answer key written from it did not read back."""
    error = assert_one_line_error(text)
    assert "not a finite number" in error.message


@pytest.mark.parametrize("tagged", ["!!timestamp 2001-12-14 x", "!!bool x", '!!int ""', '!!float ""'])
def test_yaml_value_that_does_not_fit_its_tag(tagged: str) -> None:
    """PyYAML's constructors raised AttributeError / KeyError / IndexError on these: a traceback."""
    error = assert_one_line_error(f"root:\n  children: [1, {tagged}]\n")
    assert "does not fit its tag" in error.message and (error.line, error.column) == (2, 17)


def test_computed_value_longer_than_python_prints() -> None:
    """5/7 of a 4300-digit leaf has a 4301-digit numerator: every view crashed turning it into text
    (Python refuses int -> str past 4300 digits). Exact text through Decimal; JSON as a string."""
    import json
    from io import StringIO

    from rich.console import Console

    from gametree_cli.views.result_json import result_document
    from gametree_cli.search.registry import solve
    from gametree_cli.views.annotated import render_result
    from gametree_cli.views.latex import render_latex
    from gametree_cli.views.result_json import write_record

    big = "9" * 4300
    tree = parse_tree(f"root:\n  type: chance\n  children: [{{p: 5/7, value: {big}}}, {{p: 2/7, value: 0}}]\n")
    record = solve(tree, "expectiminimax")
    console = Console(file=StringIO(), width=100)
    console.print(render_result(record))
    assert "/7" in console.file.getvalue()
    stream = StringIO()
    write_record(record, stream)
    value = json.loads(stream.getvalue())["value"]
    assert value == json.loads(json.dumps(result_document(record)["value"]))
    assert value == "4" + "9" * 4299 + "5/7"  # 5 * (10**4300 - 1) / 7
    assert r"\tfrac" in render_latex(record)


def test_integer_longer_than_python_prints() -> None:
    """A computed integer (a Star1 window, a shallow bound) may pass 4300 digits too: exact digits, a JSON string."""
    from gametree_cli.core.numbers import format_number, number_to_json
    from gametree_cli.views.json_text import dumps

    huge = 7 * 10**4300
    assert format_number(huge) == format_number(-huge)[1:] == "7" + "0" * 4300
    assert number_to_json(huge) == "7" + "0" * 4300 and number_to_json(10**4300 - 1) == 10**4300 - 1
    assert dumps(number_to_json(huge)) == b'"7' + b"0" * 4300 + b'"'
    assert dumps(number_to_json(10**4300 - 1)) == b"9" * 4300  # a JSON number, exact


def test_efg_reads_the_long_numbers_its_writer_writes() -> None:
    """A tree file may hold 4300-digit integers (and fractions of them); the .efg writer wrote them,
    and the .efg reader refused any number longer than 1000 characters."""
    from gametree_cli.io.document_writer import efg_text, json_text

    big = "9" * 4300
    tree = parse_tree(f'root:\n  type: chance\n  children: [{{p: "1/{big}", value: {big}}}, {{p: "{"9" * 4299 + "8"}/{big}", value: -{big}}}]\n')
    assert json_text(parse_tree(efg_text(tree), fmt="efg")) == json_text(tree)
    with pytest.raises(GameTreeError, match="too many digits"):
        parse_tree(efg_text(tree).replace(big, big + "9", 1), fmt="efg")


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\u2029"])
def test_yaml_11_line_breaks_are_read_as_pyyaml_reads_them(brk: str) -> None:
    """NEL, LS and PS break lines in YAML 1.1 (PyYAML) but not in 1.2 (yaml_rs): the fast path read
    'root: [1,<NEL>2]' as a leaf '\\x852' (an error) where PyYAML reads the tree [1, 2]."""
    from gametree_cli.search.registry import solve

    assert solve(parse_tree(f"root: [1,{brk}2]"), "minimax").value == 2
    with pytest.raises(GameTreeError):
        parse_tree(f"title: a{brk}b\nroot: 1\n")


@pytest.mark.parametrize("text", ["-7/3", '"-7/3"', "root: {value: 7/3}"])
def test_compact_form_of_a_one_leaf_fraction_tree_reads_back(text: str) -> None:
    """The compact writer writes a one-leaf tree whose value is a fraction as the JSON string "-7/3",
    which the reader refused ('expected a tree ... found the text'): now a number text is a one-leaf tree."""
    from gametree_cli.search.registry import solve
    from gametree_cli.io.document_writer import compact_text

    tree = parse_tree(text)
    assert solve(parse_tree(compact_text(tree)), "minimax").value == solve(tree, "minimax").value


def test_long_yaml_integer_with_underscores_is_located() -> None:
    """YAML 1.1 reads 9..9_000 as one integer: too long, but the locator looked for a plain digit run."""
    error = assert_one_line_error("root:\n  children: [1, " + "9" * 4000 + "_" + "9" * 400 + "]\n")
    assert "too large" in error.message and (error.line, error.column) == (2, 17)


def test_unknown_top_level_key_that_is_not_text_is_located() -> None:
    """A !!binary key is bytes: its line was not found, so the error had none; line 1, as for whole-file problems."""
    error = assert_one_line_error("# c\nroot: 1\n!!binary aGVsbG8=: 2\n")
    assert "unknown top-level key" in error.message and error.line == 1


@pytest.mark.parametrize("text", ["root: [1, !!map -3]", "root: [1, !!map [2]]", "root: !!map x"])
def test_map_tag_on_a_scalar_or_list(text: str) -> None:
    """The duplicate-key check iterated a scalar's text as if it were (key, value) pairs: a ValueError
    reported as 'a value that cannot be converted: not enough values to unpack', without a line."""
    error = assert_one_line_error(text)
    assert "expected a mapping node" in error.message and error.line == 1


def test_star1_with_bounds_beyond_a_float() -> None:
    """Star1's open window (alpha = -inf) met the bound U = 10^4300 - 1 in arithmetic: Python
    converted the int to a float and raised OverflowError. An infinite side stays infinite."""
    from gametree_cli.search.registry import solve

    big = "9" * 4300
    tree = parse_tree(f"bounds: [0, {big}]\nroot:\n  children:\n    - {{type: chance, children: [9, 0]}}\n    - 3\n")
    assert str(solve(tree, "star1").value) == str(solve(tree, "expectiminimax").value) == "9/2"


def test_decimals_meeting_a_huge_exact_probability() -> None:
    """Star1 weights a chance node's children by integer numerators over the common denominator;
    with a 400-digit denominator and decimal leaves, int * float raised OverflowError. Star1 now
    computes with decimals as the exact fractions they are written as, so it answers."""
    big = "9" * 400
    tree = parse_tree(f'bounds: [0, 10]\nroot:\n  children:\n    - type: chance\n      children: '
                      f'[{{p: "1/{big}", value: 0.5}}, {{p: "{"9" * 399}8/{big}", value: 1}}]\n    - 3\n')
    from gametree_cli.search.registry import solve

    assert solve(tree, "expectiminimax").value == 3  # the exact sum over Decimals copes
    assert solve(tree, "star1").value == 3


def test_an_error_quoting_a_name_with_a_line_break_stays_one_line(tmp_path) -> None:
    """Found by `make fuzz` (atheris): a Gambit player called "%YAML 1.1<newline>MIN" made the
    compact writer's refusal a two-line message. Control characters are shown escaped."""
    from gametree_cli.io.saver import save_tree

    efg = tmp_path / "names.efg"
    efg.write_text('EFG 2 R "" { "MAX" "%YAML 1.1\nMIN" }\n""\n\np "" 1 1 "" { "a" "b" } 0\n'
                   't "" 1 "" { 3 -3 }\nt "" 2 "" { 5 -5 }\n')
    tree = load_tree(efg)
    with pytest.raises(GameTreeError) as caught:
        save_tree(tree, tmp_path / "out.txt", fmt="compact")
    text = str(caught.value)
    assert "\n" not in text and "%YAML 1.1\\nMIN" in text


def test_an_efg_probability_sum_of_more_than_4300_digits_is_reported(tmp_path) -> None:
    """Found by `make fuzz` (atheris): chance probabilities 1/A and 1/B with 2,200-digit coprime
    denominators sum to a fraction of ~4,400 digits; reporting it crashed (Python refuses to
    print an int that long). It is printed exactly, as every other computed number."""
    a, b = 10**2200 + 1, 10**2200 + 3
    efg = tmp_path / "long.efg"
    efg.write_text(f'EFG 2 R "" {{ "MAX" "MIN" }}\n""\n\nc "" 1 "" {{ "h" 1/{a} "t" 1/{b} }} 0\n'
                   't "" 1 "" { 3 -3 }\nt "" 2 "" { 5 -5 }\n')
    with pytest.raises(GameTreeError) as caught:
        load_tree(efg)
    text = str(caught.value)
    assert "probabilities sum to" in text and str(a + b)[:50] in text and "\n" not in text


@pytest.mark.parametrize("kinds, players, names, vector, says", [
    ([1, 0, 0], [1, -1, -1], ["MAX", "MIN"], False, "player number does not fit"),     # a max node played by MIN
    ([1, 0, 0], [0, -1, 0], ["MAX", "MIN"], False, "player number does not fit"),      # a leaf with a player
    ([4, 0, 0], [0, -1, -1], ["MAX", "MIN"], False, "player node in a two-player tree"),
    ([4, 0, 0], [3, -1, -1], ["A", "B", "C"], True, "player number does not fit"),     # player 3 of three
    ([4, 0, 0], [0, 0, -1], ["A", "B", "C"], True, "player number does not fit"),      # a leaf with a player
    ([1, 0, 0], [0, -1, -1], ["A", "B", "C"], True, "max/min node in a tree of payoff vectors"),
])
def test_gtb_players_that_do_not_fit_their_nodes(tmp_path, kinds, players, names, vector, says) -> None:  # type: ignore[no-untyped-def]
    """A stored ``player`` array is checked against the kinds (two-player trees store none: theirs follow from the kinds)."""
    import numpy as np

    from gametree_cli.io.binary_encode import _pack

    values = [[1, 2, 3], [3, 2, 1]] if vector else [1, 2]
    header = {"version": 1, "nodes": 3, "players": names, "vector_payoffs": vector, "title": None,
              "sum": None, "bounds": None, "values_json": values}
    arrays = {"kind": np.array(kinds, dtype=np.uint8), "count": np.array([2, 0, 0], dtype=np.int8),
              "player": np.array(players, dtype=np.int16)}
    path = tmp_path / "players.gtb"
    path.write_bytes(_pack(header, arrays))
    with pytest.raises(GameTreeError, match=says):
        load_tree(path)
    arrays["player"] = np.array([0, -1, -1], dtype=np.int16) if not vector else np.array([1, -1, -1], dtype=np.int16)
    arrays["kind"] = np.array([1 if not vector else 4, 0, 0], dtype=np.uint8)
    path.write_bytes(_pack(header, arrays))
    assert len(load_tree(path)) == 3  # the same file with fitting players reads


@pytest.mark.parametrize("values, says", [
    ([1, 1 << 62], "too large"), ([-(1 << 62), 1], "too large"), ([-(1 << 63), 1], "too large"),
    ([1.5, float("nan")], "not a finite number"), ([float("-inf"), 1.0], "not a finite number"),
    ([1, 11], "outside the declared bounds"), ([1, (1 << 62) - 1], None), ([-(1 << 62) + 1, 0.5], None),
])
def test_gtb_stored_leaf_values_are_checked(tmp_path, values, says) -> None:  # type: ignore[no-untyped-def]
    """Leaf values stored as an int64 or float64 array: headroom (both ends, -2**63 too), finiteness, bounds."""
    import numpy as np

    from gametree_cli.io.binary_encode import _pack

    floats = any(isinstance(value, float) for value in values)
    bounded = says == "outside the declared bounds"
    header = {"version": 1, "nodes": 3, "players": ["MAX", "MIN"], "vector_payoffs": False, "title": None,
              "sum": None, "bounds": ["0", "10"] if bounded else None, "denominator": "1"}
    arrays = {"kind": np.array([1, 0, 0], dtype=np.uint8), "count": np.array([2, 0, 0], dtype=np.int8),
              "value": np.array(values, dtype=np.float64 if floats else np.int64)}
    path = tmp_path / "values.gtb"
    path.write_bytes(_pack(header, arrays))
    if says is None:
        assert len(load_tree(path)) == 3
    else:
        with pytest.raises(GameTreeError, match=says):
            load_tree(path)
