"""A big depth-first search's record coded once per result (``views/slot_codes.py``), and the paste's
stops: the same bytes as the chunk-by-chunk path, and every entry what the record says node by node.

The trees here are small, so the tests lower ``BULK_FROM`` (the size from
which the writer codes a record once) to reach the bulk path, and check
that it was taken. No timing: docs/performance.md has the numbers.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from gametree_cli.core.numeric import LazyValues
from gametree_cli.core.numbers import format_value, value_to_json
from gametree_cli.io.document import build_tree
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.record import LOWER, UPPER
from gametree_cli.search.registry import Options, solve
from gametree_cli.views import json_text, paste_lines, result_json, slot_codes
from gametree_cli.views.json_text import Piece, paste_numpy, table
from gametree_cli.views.record_view import RecordView, dense_codes
from gametree_cli.views.slot_codes import SlotCodes

compiled = pytest.mark.skipif(not paste_lines.COMPILED, reason="views/paste_lines.py is not compiled here")


@pytest.fixture(autouse=True)
def numpy_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records of NumPy arrays, as a big tree's are: below ``lazy.SMALL_TREE`` nodes a search keeps
    plain arrays (a small solve imports no NumPy), and the bulk path reads only NumPy columns."""
    from gametree_cli.core import lazy

    monkeypatch.setattr(lazy, "SMALL_TREE", 0)


def random_document(rng: np.random.Generator, leaf: str) -> dict:
    """A two-player tree of up to a few hundred nodes with evals; leaves small integers (many ties),
    or with a few floats or integers beyond 64 bits among them (the general decoding)."""
    def value() -> object:
        number = int(rng.integers(-6, 7))
        if leaf == "float" and number % 3 == 0:
            return number / 2
        if leaf == "big" and number == 5:
            return 2**70
        return number

    def node(level: int) -> dict:
        if level >= 5 or rng.random() < 0.2:
            return {"value": value()}
        return {"type": "max" if level % 2 == 0 else "min", "eval": int(rng.integers(-6, 7)),
                "children": [node(level + 1) for _ in range(int(rng.integers(1, 5)))]}
    return {"root": node(0)}


def numpy_leaves(tree):
    """The tree with its integer leaf values in NumPy, as the JSON scanner and .gtb reader keep them."""
    values = list(tree.value)
    present = np.array([value is not None for value in values])
    tree.value = LazyValues(np.array([0 if value is None else value for value in values], dtype=np.int64), 1, present)
    return tree


def written(record, bulk_from: int, chunk: int = 1 << 16) -> str:
    saved = slot_codes.BULK_FROM, result_json.CHUNK
    slot_codes.BULK_FROM, result_json.CHUNK = bulk_from, chunk
    try:
        stream = io.StringIO()
        result_json.write_record(record, stream)
        return stream.getvalue()
    finally:
        slot_codes.BULK_FROM, result_json.CHUNK = saved


def entries_agree_with_the_record(record, text: str) -> None:
    """Each node's entry against the record's one-node API (not the writer's bulk reading)."""
    nodes = json.loads(text)["nodes"]
    tree = record.tree
    for node in range(len(tree)):
        entry = nodes[tree.node_id(node)]
        value = record.values[node]
        assert entry["visited"] is (value is not None)
        if value is None:
            assert set(entry) == {"visited", "type"}
            continue
        assert json.dumps(entry["value"]) == json.dumps(value_to_json(value))
        kind = record.bound_kind(node)
        assert entry.get("bound_kind") == {LOWER: "lower", UPPER: "upper"}.get(kind)
        bounds = record.bounds(node)
        if bounds is None:
            assert "alpha" not in entry and "beta" not in entry
        else:
            assert [entry["alpha"], entry["beta"]] == [value_to_json(bound) for bound in bounds]
        cut = record.cut(node)
        assert entry.get("cut") == (None if cut is None else cut.reason())


@pytest.mark.parametrize("seed", range(9))
def test_bulk_codes_write_what_chunks_write(seed):
    leaf = ("int", "float", "big")[seed % 3]
    tree = build_tree(random_document(np.random.default_rng(200 + seed), leaf))
    if leaf == "int" and seed % 2 == 0:
        numpy_leaves(tree)
    taken = 0
    for algorithm in ("minimax", "alphabeta"):
        for variant in ("soft", "hard", "practical"):
            for strict in (False, True):
                for depth in (None, 3):
                    for order in ("given", "best"):
                        if algorithm == "minimax" and (variant != "soft" or strict):
                            continue
                        options = Options(variant=variant, strict=strict, depth=depth, order=order)
                        record = solve(tree, algorithm, options=options)
                        saved = slot_codes.BULK_FROM
                        slot_codes.BULK_FROM = 0
                        try:
                            taken += SlotCodes.fits(record)
                        finally:
                            slot_codes.BULK_FROM = saved
                        bulk = written(record, 0, chunk=int(np.random.default_rng(seed).integers(1, 40)))
                        assert bulk == written(record, 1 << 62), (algorithm, variant, strict, depth, order)
                        entries_agree_with_the_record(record, bulk)
    assert taken >= 20  # the bulk path was the one tested


def test_leaf_codes_merge_equal_values_and_infinities():
    """Integer leaves: the distinct values are coded (not the distinct leaves), -inf and inf as text."""
    tree = numpy_leaves(parse_tree("[[3, 12, 8], [2, 4, 6], [14, 5, 2], [3, 3]]", fmt="json"))
    record = solve(tree, "alphabeta")
    saved = slot_codes.BULK_FROM
    slot_codes.BULK_FROM = 0
    try:
        assert SlotCodes.fits(record)
        view = RecordView(record)
        nodes = np.arange(len(tree), dtype=np.int64)
        codes, items = view.values(nodes)
        low, high, bound_items = view.bounds(nodes, codes >= 0)
    finally:
        slot_codes.BULK_FROM = saved
    assert sorted(items) == sorted(set(items))  # each printed value once
    assert [items[code] if code >= 0 else None for code in codes.tolist()] == [
        None if value is None else value_to_json(value) for value in record.values]
    assert "-inf" in bound_items and "inf" in bound_items
    visited = np.flatnonzero(codes >= 0).tolist()
    assert [[bound_items[low[node]], bound_items[high[node]]] for node in visited] == [
        [value_to_json(bound) for bound in record.bounds(node)] for node in visited]
    assert slot_codes._leaf_codes(tree, [record.values.data], dense_codes) is not None  # by value
    assert format_value(record.value) == "3"


def test_bulk_codes_need_a_depth_first_record():
    tree = parse_tree('{"root": {"type": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": 4}]}}',
                      fmt="json")
    saved = slot_codes.BULK_FROM
    slot_codes.BULK_FROM = 0
    try:
        assert not SlotCodes.fits(solve(tree, "expectiminimax"))
        assert SlotCodes.fits(solve(parse_tree("[[1, 2], [3]]", fmt="json"), "alphabeta"))
    finally:
        slot_codes.BULK_FROM = saved
    assert not SlotCodes.fits(solve(parse_tree("[[1, 2], [3]]", fmt="json"), "alphabeta"))  # small: by chunks


def test_a_big_loaded_tree_with_evals_and_a_depth_limit():
    """A tree over BULK_FROM nodes as the JSON scanner loads it (leaves in NumPy): bulk as by chunks,
    with and without a depth limit (inner nodes' evals: the general decoding)."""
    rng = np.random.default_rng(7)
    document = {"root": {"type": "max", "eval": 1, "children": [
        {"type": "min", "eval": int(rng.integers(-50, 50)), "children": [
            {"type": "max", "eval": int(rng.integers(-50, 50)), "children": [
                {"value": int(rng.integers(-50, 50))} for _ in range(int(rng.integers(1, 30)))]}
            for _ in range(int(rng.integers(1, 12)))]} for _ in range(60)]}}
    tree = parse_tree(json.dumps(document), fmt="json")
    assert len(tree) >= slot_codes.BULK_FROM and isinstance(tree.value, LazyValues)
    for depth in (None, 2):
        for variant in ("soft", "hard"):
            record = solve(tree, "alphabeta", options=Options(depth=depth, variant=variant))
            assert SlotCodes.fits(record)
            bulk = written(record, slot_codes.BULK_FROM, chunk=1000)
            assert bulk == written(record, 1 << 62, chunk=1000)
            entries_agree_with_the_record(record, bulk)


@compiled
@pytest.mark.parametrize("seed", range(20))
def test_paste_with_stops_is_numpys(seed):
    """Lines that stop early (the pieces after the stop empty there) paste as NumPy pastes them all."""
    rng = np.random.default_rng(seed)
    lines = int(rng.integers(1, 300))
    pieces: list[Piece] = []
    for _ in range(int(rng.integers(1, 6))):
        texts = [bytes(rng.integers(33, 127, size=int(rng.integers(0, 30)), dtype=np.uint8)) for _ in range(4)]
        pieces.append(table(texts).at(rng.integers(-1, 4, size=lines)))
    stops = rng.integers(0, len(pieces) + 1, size=lines)
    for position, piece in enumerate(pieces):  # the promise: empty from the stop on
        piece.index[stops <= position] = -1
    assert bytes(json_text._assemble(pieces, lines, stops)) == bytes(paste_numpy(pieces, lines))


@compiled
def test_paste_refuses_a_stop_past_its_pieces():
    piece = table([b"a"]).at(np.zeros(2, dtype=np.int64))
    with pytest.raises(IndexError):
        json_text._assemble([piece], 2, np.array([1, 2]))
    with pytest.raises(IndexError):
        json_text._assemble([piece], 2, np.array([1]))


@pytest.mark.parametrize("seed", range(12))
def test_dense_codes_with_a_step_codes_each_key_once(seed: int) -> None:
    """Keys on the step's multiples take the table lookup, the others a sort; together every key
    has one code and equal keys the same (the split only runs when the keys span a wide range)."""
    rng = np.random.default_rng(seed)
    step = int(rng.choice([2, 6, 200_000, 2 * 10**9]))
    size = int(rng.integers(1, 5000))
    whole = rng.integers(-999, 1000, size) * step
    other = rng.integers(-(10**12), 10**12, size)
    keys = np.where(rng.random(size) < rng.random(), whole, other).astype(np.int64)
    for given in (keys, whole.astype(np.int64), other.astype(np.int64)):
        distinct, index = dense_codes(given, step)
        assert np.array_equal(distinct[index], given)
        assert len(np.unique(distinct)) == len(distinct) == len(np.unique(given))
        plain, _ = dense_codes(given)
        assert np.array_equal(np.sort(distinct), plain)
