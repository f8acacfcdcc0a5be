"""The JSON result's fast paths give what the plain ones give (issue 14, target 3).

* the compiled paste loop (``views/paste_lines.py``) against NumPy's paste,
  on random pieces of every kind: tables of texts, constants, node_ids'
  bands (NULs inside a row), rows -1, very long texts;
* the cut reasons worded in bulk (``views/cut_words.py``) against each
  ``record.cuts[node].reason()``, for every alpha-beta variant, strict or
  not, with and without a depth limit and an ordering;
* the written result with every fast path against the same result written
  with the compiled paste switched off.

No timing here: docs/performance.md has the numbers and how they were measured.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.io.document import build_tree
from gametree_cli.search.registry import Options, solve
from gametree_cli.views import json_text, paste_lines, result_json
from gametree_cli.views.json_text import Piece, constant, paste_numpy, table
from gametree_cli.views.record_view import RecordView
from gametree_cli.views.result_json import write_record

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
compiled = pytest.mark.skipif(not paste_lines.COMPILED, reason="views/paste_lines.py is not compiled here")

#: texts as the writer's are: JSON text, never a raw NUL (some long, some empty)
TEXTS = st.binary(max_size=40).map(lambda text: text.replace(b"\0", b"x")) | st.sampled_from([b"", b"7" * 300])


@st.composite
def pieces(draw) -> tuple[list[Piece], int]:
    """A few pieces of every kind for ``lines`` lines."""
    lines = draw(st.integers(1, 30))
    made = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["table", "constant", "band", "each"]))
        texts = draw(st.lists(TEXTS, min_size=1, max_size=6))
        if kind == "table":  # rows chosen per line, -1 the empty last row
            rows = draw(st.lists(st.integers(-1, len(texts) - 1), min_size=lines, max_size=lines))
            made.append(table(texts).at(np.array(rows, dtype=np.int64)))
        elif kind == "constant":
            made.append(constant(texts[0] or b"x"))
        elif kind == "each":  # row i on line i, no index
            made.append(table([draw(TEXTS) for _ in range(lines)]))
        else:  # NUL-padded rows with NULs inside (an id, padding, its closing quote), no lengths
            width = max(map(len, texts)) + draw(st.integers(1, 9))
            band = np.zeros((len(texts) + 1, width), dtype=np.uint8)
            for row, text in enumerate(texts):
                band[row, : len(text)] = np.frombuffer(text, dtype=np.uint8)
                band[row, width - 1] = ord('"')
            rows = draw(st.lists(st.integers(-1, len(texts) - 1), min_size=lines, max_size=lines))
            made.append(Piece(band, np.array(rows, dtype=np.int64)))
    return made, lines


@compiled
@SETTINGS
@given(pieces(), st.booleans())
def test_compiled_paste_is_numpys(drawn, exact_size):
    made, lines = drawn
    saved = json_text._ROOMY
    json_text._ROOMY = 0 if exact_size else saved  # 0: the exact size is summed, never the bound
    try:
        assert bytes(json_text._assemble(made, lines)) == bytes(paste_numpy(made, lines))
    finally:
        json_text._ROOMY = saved


@compiled
def test_compiled_paste_refuses_a_row_out_of_its_table():
    piece = table([b"a", b"b"]).at(np.array([0, 5], dtype=np.int64))
    with pytest.raises(IndexError):
        json_text._assemble([piece], 2)


def random_tree(rng: np.random.Generator, chance_values: bool = False):
    """A two-player tree of up to a few hundred nodes, values drawn from a small range (many ties)."""
    def node(level: int) -> dict:
        if level >= 5 or rng.random() < 0.2:
            value = int(rng.integers(-6, 7))
            return {"value": value / 2 if chance_values and value % 3 == 0 else value}
        return {"type": "max" if level % 2 == 0 else "min", "eval": int(rng.integers(-6, 7)),
                "children": [node(level + 1) for _ in range(int(rng.integers(1, 5)))]}
    return build_tree({"root": node(0)})


@pytest.mark.parametrize("seed", range(12))
def test_bulk_cut_reasons_are_the_records(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, chance_values=seed % 2 == 1)
    for variant in ("soft", "hard", "practical"):
        for strict in (False, True):
            for depth in (None, 3):
                for order in ("given", "best"):
                    options = Options(variant=variant, strict=strict, depth=depth, order=order)
                    record = solve(tree, "alphabeta", options=options)
                    found = RecordView(record).cuts(np.arange(len(tree), dtype=np.int64))
                    want = {node: cut.reason() for node, cut in record.cuts.items()}
                    if found is None:
                        assert not want
                        continue
                    codes, reasons = found
                    assert {node: reasons[code] for node, code in enumerate(codes.tolist()) if code >= 0} == want


def written(record, chunk: int) -> str:
    stream = io.StringIO()
    saved = result_json.CHUNK
    result_json.CHUNK = chunk
    try:
        write_record(record, stream)
    finally:
        result_json.CHUNK = saved
    return stream.getvalue()


@compiled
@pytest.mark.parametrize("seed", range(6))
def test_fast_paths_write_what_numpy_paste_writes(seed, monkeypatch):
    """Chunks of 7 nodes: most share their distinct values with the chunk before (the reused tables)."""
    tree = random_tree(np.random.default_rng(100 + seed))
    for algorithm in ("minimax", "alphabeta"):
        record = solve(tree, algorithm)
        fast = written(record, 7)
        monkeypatch.setattr(json_text, "_compiled", lambda: False)
        plain = written(solve(tree, algorithm), 1 << 16)
        monkeypatch.undo()
        assert fast == plain


@pytest.mark.parametrize("seed", range(3))
def test_one_cut_at_a_time_is_the_records(seed):
    """A big record words a cut when asked (``record_facts.one_cut``): the same Cut as wording every
    cut at once, for every variant; past ONE_CUT_FROM questions it words them all."""
    from gametree_cli.io.loader import parse_tree
    from gametree_cli.search import record_facts

    rng = np.random.default_rng(300 + seed)
    document = [[[[int(rng.integers(-20, 20)) for _ in range(int(rng.integers(1, 6)))]
                  for _ in range(int(rng.integers(1, 8)))] for _ in range(int(rng.integers(1, 8)))] for _ in range(90)]
    tree = parse_tree(json.dumps(document), fmt="json")
    assert len(tree) >= record_facts.ONE_CUT_FROM
    for variant in ("soft", "hard", "practical"):
        for strict in (False, True):
            options = Options(variant=variant, strict=strict, order="best" if seed == 2 else "given")
            want = solve(tree, "alphabeta", options=options).cuts
            assert want
            record = solve(tree, "alphabeta", options=options)
            asked = [*want, *rng.integers(0, len(tree), size=500).tolist()][: record_facts.ONE_CUT_FROM]
            for node in asked:
                found = record.cut(node)
                assert (found is None) == (node not in want)
                if found is not None:
                    assert found == want[node] and found.reason() == want[node].reason()
            assert record._derived_cuts is None  # each worded alone
            for node in range(record_facts.ONE_CUT_FROM + 1):
                record.cut(node)
            assert record._derived_cuts == want  # then all at once
