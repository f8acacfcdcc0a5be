"""The search loop itself (gametree_cli/search/depth_first.py): which path runs, and both paths alike.

The loop is one Python file that Cython compiles when it can (setup.py);
``search.COMPILED`` says which path an install runs. Every oracle test of
alpha-beta and minimax (tests/test_crosscheck.py, tests/test_minimax.py)
runs twice through the ``search_path`` fixture: compiled, and from the
source. Here: the build is current, the source runs without Cython, and
the two paths leave the same record, field by field.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.views.result_json import result_document

from . import oracles
from .conftest import SEARCH


def test_which_search_loop_runs() -> None:
    """Says which path this install runs (pytest -rA shows it); a compiled one must be current."""
    source = Path(SEARCH.__file__).with_name("depth_first.py")
    if not SEARCH.COMPILED:
        pytest.skip(f"the search loop runs uncompiled from {source.name} (no Cython or C compiler at install time)")
    built = Path(SEARCH.__file__)
    assert built.suffix in (".so", ".pyd"), built
    assert os.path.getmtime(built) >= os.path.getmtime(source), (
        f"{built.name} is older than {source.name}: the compiled loop is stale (run make install)")
    print(f"the search loop runs compiled: {built.name}")


def test_the_source_runs_without_cython(monkeypatch: pytest.MonkeyPatch) -> None:
    """An install without Cython at run time: ``import cython`` fails and the stand-ins serve."""
    monkeypatch.setitem(sys.modules, "cython", None)  # makes ``import cython`` raise ImportError
    path = Path(SEARCH.__file__).with_name("depth_first.py")
    spec = importlib.util.spec_from_file_location("gametree_cli.search._search_no_cython", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    assert module.COMPILED is False
    monkeypatch.setattr(SEARCH, "walk", module.walk)
    record = solve(parse_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"), "alphabeta")
    assert record.value == 3 and record.stats.cutoffs == 2


extremes = st.sampled_from([1e308, -1e308, 5e-324, -5e-324, 0.0, -0.0, 1.5, -2.25, 3.0])
huge = st.sampled_from([2**70, -(2**70), 2**63 - 1, -(2**63), 0, 1, "1/3", "-5/2"])


@pytest.mark.parametrize("leaves", [extremes, huge], ids=["extreme decimals", "integers beyond int64 and fractions"])
def test_extreme_values_on_both_paths(leaves, search_path: str) -> None:
    """Keys at the ends of int64 (decimals' bits, ranks of big integers) order as the values do."""

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(raw=st.recursive(leaves, lambda inner: st.lists(inner, min_size=1, max_size=4), max_leaves=30),
           variant=st.sampled_from(["soft", "hard"]), strict=st.booleans())
    def check(raw, variant: str, strict: bool) -> None:
        raw = [raw]
        expected = oracles.alphabeta(raw, variant=variant, strict=strict)
        document = result_document(solve(parse_tree(json.dumps(raw)), "alphabeta", variant=variant, strict=strict))
        assert document["value"] == oracles.to_json(expected.value)
        assert document["visit_order"] == expected.order and document["pruned"] == expected.pruned
        values = {name: entry["value"] for name, entry in document["nodes"].items() if entry["visited"]}
        assert values == {name: oracles.to_json(value) for name, value in expected.values.items()}
        # as text too: 0.0 and -0.0, 3 and 3.0 are equal numbers but other answers
        assert json.dumps(values, sort_keys=True) == json.dumps(
            {name: oracles.to_json(value) for name, value in expected.values.items()}, sort_keys=True)

    check()


def test_the_loop_writes_the_records_flag_bits() -> None:
    from gametree_cli.search import record

    assert (SEARCH.LOWER, SEARCH.UPPER, SEARCH.CUT, SEARCH.HORIZON) == (record.LOWER, record.UPPER, record.CUT,
                                                                        record.HORIZON)
