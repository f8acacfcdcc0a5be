"""The JSON scanner reads real probabilities itself (issue 14, target 2): decimals and "a/b" fractions.

The scanner (io/scan_share.py, io/scan_order.py) turns every ``p`` into an
exact numerator and denominator and checks each chance node's sum in
integers. Here, on random chance trees with every spelling of a ``p`` the
scanner reads: the scanned tree is the checking reader's (io/document.py)
field by field, and solves to the independent oracle's values; a file the
checking reader refuses gives its error word for word through the scanner
path; and fraction and decimal files big enough for the loader's scanner are
built by it (json.loads never runs) and solved by the NumPy sweep. Every test
runs with the compiled scanner and with its Python source.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.core.errors import GameTreeError
from gametree_cli.core.model import Source, Tree
from gametree_cli.core.numeric import numeric_values
from gametree_cli.io import jsonscan, loader
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.io.locate import json_locator
from gametree_cli.search.registry import solve
from gametree_cli.search.sweep import sweep
from gametree_cli.views.result_json import result_document

from . import oracles
from .scanner_paths import scanner  # noqa: F401 (fixture)
from .test_jsonscan import Raw, Writer, facts, loads_path
from .test_performance import general_python_search
from .test_real_probabilities import assert_matches_the_oracle

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def spelled(share: Fraction, style: str) -> Raw:
    """A share as a file may write it: a decimal (shortest, 17 digits, exponent, trailing zeros) or
    a fraction string (reduced or not, or a bare integer string)."""
    if style == "fraction":
        return Raw(json.dumps(str(share)))
    if style == "unreduced":
        return Raw(json.dumps(f"{share.numerator * 3}/{share.denominator * 3}"))
    value = float(share)
    text = {"decimal": repr(value), "digits17": f"{value:.17g}", "exponent": f"{value:.12e}",
            "zeros": f"{value!r}000" if "e" not in repr(value) else repr(value), "short": f"{value:e}"}[style]
    if "." not in text and "e" not in text.lower():
        text += ".0"
    return Raw(text)


STYLES = ["uniform", "decimal", "digits17", "exponent", "zeros", "short", "fraction", "unreduced"]


@st.composite
def chance_files(draw) -> tuple[str, dict]:
    """A two-player tree file with chance nodes (a JSON text), and its plain document for the oracle.
    Leaves are all integers or all decimals (the scanner builds no other mix); shares are spelled
    one way per chance node (or per file), or left out (uniform)."""
    decimal_leaves = draw(st.booleans())
    leaf = st.sampled_from([0.5, -1.25, 3.0, 0.1, 12.345, -7.0]) if decimal_leaves else st.integers(-60, 60)
    rng = random.Random(draw(st.integers(0, 2**32)))
    one_style = draw(st.sampled_from([None, None, "fraction", "unreduced", "decimal"]))  # or a mix

    def node(level: int) -> tuple[Any, Any]:
        """(what is written, the plain document's node)"""
        if level >= 4 or draw(st.integers(0, 9)) < 2:
            value = draw(leaf)
            return Raw(repr(value) if decimal_leaves else str(value)), value
        kind = draw(st.sampled_from(["max", "min", "chance", "chance"]))
        pairs = [node(level + 1) for _ in range(draw(st.integers(1, 4)))]
        style = draw(st.sampled_from(["uniform", one_style] if one_style else STYLES))
        if kind == "chance" and style != "uniform":
            weights = [draw(st.integers(0, 9)) for _ in pairs[1:]] + [draw(st.integers(1, 9))]
            with_p = []
            for (written, plain), weight in zip(pairs, weights):
                share = spelled(Fraction(weight, sum(weights)), style)
                written = written if isinstance(written, dict) else {"value": written}
                plain = plain if isinstance(plain, dict) else {"value": plain}
                with_p.append(({**written, "p": share}, {**plain, "p": json.loads(share.text)}))
            pairs = with_p
        return ({"type": Raw(json.dumps(kind)), "children": [written for written, _ in pairs]},
                {"type": kind, "children": [plain for _, plain in pairs]})

    written, document = node(0)
    return Writer(rng).write({"root": written}), {"root": document}


def scanned(text: str) -> Any:
    return jsonscan.scan_or_decline(text, source=Source("t.json", json_locator(text)), max_nodes=10**6)


def outcome(text: str) -> Any:
    """What the loader gives, the scanner running first (small texts too: the test lowers the threshold)."""
    try:
        return parse_tree(text, name="t.json", fmt="json", max_nodes=10**6)
    except GameTreeError as error:
        return str(error)


@SETTINGS
@given(file=chance_files())
def test_scanned_probabilities_are_the_checking_readers(scanner, monkeypatch, file):
    """Valid: the same tree (every field, the exact numerators and decimal flags too) and the oracle's
    values; invalid (a short spelling that misses 1): the same error, with its file, line and node."""
    monkeypatch.setattr(loader, "_SCAN_FROM", 0)
    monkeypatch.setattr(loader, "_SCAN_NODES_FROM", 0)
    text, document = file
    expected = loads_path(text)
    got = scanned(text)
    if isinstance(expected, str):
        assert not isinstance(got, Tree)
        assert outcome(text) == expected
        return
    assert isinstance(got, Tree), got  # every spelling here is one the scanner reads
    assert facts(got) == facts(expected)
    for field in ("prob", "prob_decimal"):
        mine, theirs = getattr(numeric_values(got), field), getattr(numeric_values(expected), field)
        assert (mine is None) == (theirs is None) and (mine is None or mine.tolist() == theirs.tolist()), field
    assert_matches_the_oracle(solve(got, "expectiminimax"), document)
    swept = sweep(got, name="expectiminimax", min_width=0)
    if swept is not None:  # the NumPy sweep; its JSON result prints the values as the Python search's does
        assert_matches_the_oracle(swept, document)
        python = general_python_search(got, "expectiminimax", None)
        assert json.dumps(result_document(swept)) == json.dumps(result_document(python))


def test_textbook_fixtures_through_the_scanner(scanner):
    """By hand: 1/3 * 3 + 2/3 * 6 = 5 (exact); 0.1 * 10 + 0.9 * 20 = 19.0 (a decimal); max of
    (1/4 * 8 + 3/4 * 4 = 5) and 2 is 5; 0.25 written three ways is still 1/4."""
    cases = [
        ('{"root": {"type": "chance", "children": [{"p": "1/3", "value": 3}, {"p": "2/3", "value": 6}]}}', 5, int),
        ('{"root": {"type": "chance", "children": [{"p": 0.1, "value": 10}, {"p": 0.9, "value": 20}]}}', 19.0, float),
        ('{"root": {"type": "max", "children": [{"type": "chance", "children": [{"p": "2/8", "value": 8}, '
         '{"p": "3/4", "value": 4}]}, 2]}}', 5, int),
        ('{"root": {"type": "chance", "children": [{"p": 2.5e-1, "value": 4}, {"p": 0.2500, "value": 8}, '
         '{"p": 0.5, "value": 0}]}}', 3.0, float),
    ]
    for text, value, kind in cases:
        tree = scanned(text)
        assert isinstance(tree, Tree), tree
        record = solve(tree, "expectiminimax")
        assert record.value == value and type(record.value) is kind
        assert record.value == oracles.expectiminimax(json.loads(text)).value


#: bad probabilities, valid spellings the scanner leaves to the builders, and mixes it reads, deep in a tree
P_CASES = [('"1/0"', '"1/2"'), ('"-1/2"', '"3/2"'), ('"abc"', '"1/2"'), ('"3/2"', '"0/1"'), ('"1/3"', '"1/3"'),
           ("0.5", "0.6"), ("-0.5", "1.5"), ("0.3", "null"), ('"1 / 2"', '"1/2"'), ('"+1/2"', '"0.5"'),
           ("1.5", "-0.5"), ("0.333333", '"2/3"'), ('""', "1"), ("-0.0", "1"), ("1e-30", "1.0"),
           ("1", "0.0"), ('"1/2"', "0.5"), ('"1/3"', "0.6666666667"), ("0.499999999", "0.5"),
           ("0.4999999995", "0.5"), ("0.4999999989", "0.5"), ("1e0", "0"), ("0.1e1", "0E5")]


@pytest.mark.parametrize("shares", P_CASES)
def test_bad_p_gives_the_checking_readers_error(scanner, monkeypatch, shares):
    """The same error (file, line, node, words), or the same tree; the scanner builds what it reads."""
    monkeypatch.setattr(loader, "_SCAN_FROM", 0)
    monkeypatch.setattr(loader, "_SCAN_NODES_FROM", 0)
    inner = '{"type": "chance", "children": [{"p": %s, "value": 1}, {"p": %s, "value": 2}]}' % shares
    good = '{"type": "chance", "children": [{"p": "1/4", "value": 1}, {"p": 0.75, "value": 2}]}'
    text = '{"root": {"type": "max", "children": [\n%s,\n[%s,\n %s]]}}' % (good, good, inner)
    expected = loads_path(text)
    if isinstance(expected, str):
        assert outcome(text) == expected
        assert expected.startswith("t.json:4:") and "node 2.2" in expected, expected  # the bad chance node
        return
    # (other: caches such as the parents, which the general builder fills on the way)
    assert {**facts(outcome(text)), "other": None} == {**facts(expected), "other": None}
    assert isinstance(scanned(text), Tree) == (shares[0] not in LEFT_TO_THE_BUILDERS)


#: valid spellings the scanner leaves to the builders: spaces and signs in a fraction, -0.0, 10**-30
LEFT_TO_THE_BUILDERS = {'"1 / 2"', '"+1/2"', "-0.0", "1e-30"}


def bench_shape(depth: int, shares: list[str]) -> str:
    """bench/gen.py's chance tree, smaller: max, chance, min, chance, ... with the given p."""
    leaves = iter(range(10**6))

    def node(level: int) -> str:
        if level == depth:
            return str(next(leaves) * 37 % 1999 - 999)
        kind = ("max", "chance", "min", "chance")[level % 4]
        children = [node(level + 1) for _ in shares]
        if kind == "chance":
            children = [f'{{"p": {share}, "value": {child}}}' if child[0] != "{" else
                        f'{{"p": {share}, {child[1:]}' for child, share in zip(children, shares)]
        return f'{{"type": "{kind}", "children": [{", ".join(children)}]}}'

    return '{"root": %s}' % node(0)


@pytest.mark.parametrize("shares", [['"1/10"', '"1/5"', '"3/10"', '"2/5"'], ["0.1", "0.2", "0.3", "0.4"]])
def test_big_real_probability_files_are_built_by_the_scanner(tmp_path, monkeypatch, scanner, shares):
    """Not the json.loads fallback (it would fail here), and solved exactly by the NumPy sweep."""
    path = tmp_path / "tree.json"
    path.write_text(bench_shape(6, shares))  # 5,461 nodes: past the loader's threshold

    def no_json_loads(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("json.loads ran")

    expected = loads_path(path.read_text())
    monkeypatch.setattr(loader, "loads_strict", no_json_loads)
    tree = load_tree(path)
    assert len(tree) >= loader._SCAN_FROM // 20 and len(path.read_text()) >= loader._SCAN_FROM
    assert {**facts(tree), "other": None} == {**facts(expected), "other": None}  # (other: the file's name)
    record = solve(tree, "expectiminimax")
    assert (record.engine, record.python_levels) == ("sweep", 0)
    assert record.value == oracles.expectiminimax(json.loads(path.read_text())).value
    assert type(record.value) is (Fraction if shares[0][0] == '"' else float)
