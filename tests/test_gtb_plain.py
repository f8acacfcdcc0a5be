"""A ``.gtb`` tree read into plain buffers (io/gtb_plain.py) is solved and drawn as the NumPy-read one is.

Why: ``gametree solve big.gtb`` (the default text view) reads a two-player
``.gtb`` file without NumPy, and its search record and view keep to plain
buffers (core/buffers.plain_for; docs/performance.md, issue 14, target 3b).
The NumPy reader and the text reader are the oracles: on random trees, every
alpha-beta variant and minimax draw the same text and give the same record;
files this reader does not take (chance, payoff vectors, decimals) and
damaged files come out exactly as the NumPy reader gives them; and a solve
of a big file loads no NumPy. ``lazy.SMALL_TREE`` is lowered so that small
trees take the big trees' paths (plain memory, the compiled scans).
"""

from __future__ import annotations

import importlib.util
import io
import json
import random
from array import array
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gametree_cli.core import buffers, lazy, plain_scans
from gametree_cli.core.errors import GameTreeError
from gametree_cli.exercises.record_answers import RecordAnswers
from gametree_cli.io.binary import binary_tree
from gametree_cli.io.binary_encode import encode_binary
from gametree_cli.io.document_writer import tree_to_document
from gametree_cli.io.loader import parse_tree
from gametree_cli.search.events import Recorder
from gametree_cli.search.registry import fitting_algorithms, solve
from gametree_cli.views.annotated import render_result
from gametree_cli.views.answer_key import answer_key
from gametree_cli.views.result_json import write_record
from gametree_cli.views.trace import TraceFormatter

from .test_drawn_facts import _document as drawn_document
from .test_startup import loaded_by


def _document(rng: random.Random, shape: str = "minmax") -> dict[str, Any]:
    """A random two-player tree (test_drawn_facts' generator) with evals left out, move labels and bounds
    here and there; ``chance``: with chance nodes; ``decimal``: decimals everywhere (stored as float64);
    ``fraction``: halves and thirds (stored as numerators over 6); ``vector``: three players."""
    document = drawn_document(rng, "minmax" if shape in ("decimal", "fraction") else shape)

    def number(value: int) -> Any:
        return value / 4 if shape == "decimal" else f"{value}/{rng.choice((2, 3))}" if shape == "fraction" else value

    def vary(node: Any) -> Any:
        if not isinstance(node, dict):
            return number(node) if isinstance(node, int) else node
        if rng.random() < 0.5:
            node.pop("eval", None)
        elif "eval" in node:
            node["eval"] = number(node["eval"])
        if rng.random() < 0.1:
            node["move"] = f"m{rng.randrange(100)}"
        node["children"] = [vary(child) for child in node["children"]]
        return node

    document["root"] = vary(document["root"])
    document["title"] = f"random {shape}"
    if shape in ("minmax", "decimal", "fraction") and rng.random() < 0.3:
        document["bounds"] = [-9, 9]
    return document


CASES = [("minimax", {}), ("alphabeta", {}), ("alphabeta", {"variant": "hard"}),
         ("alphabeta", {"variant": "practical", "strict": True}), ("alphabeta", {"strict": True, "order": "best"}),
         ("alphabeta", {"order": "worst", "variant": "hard"}), ("alphabeta", {"depth": 2}), ("minimax", {"depth": 3})]


@pytest.fixture(autouse=True)
def big_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trees of 8 nodes or more take the big trees' paths (plain memory and compiled scans, or NumPy)."""
    monkeypatch.setattr(lazy, "SMALL_TREE", 8)


def _encoded(document: dict[str, Any]) -> bytes:
    return encode_binary(parse_tree(json.dumps(document)))


def _shown(tree: Any, algorithm: str, options: dict[str, Any], **view: Any) -> tuple[str, Any]:
    try:
        record = solve(tree, algorithm, **options)
    except GameTreeError as error:  # (a depth limit at a node without eval)
        return f"error: {error}", None
    facts = (record.value, list(record.values), sorted(record.pruned), record.stats, record.principal_variation())
    return render_result(record, "en", **view).plain_text(), facts


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize(("algorithm", "options"), CASES)
def test_a_plain_tree_is_solved_and_drawn_as_the_numpy_one(seed: int, algorithm: str, options: dict[str, Any]) -> None:
    data = _encoded(_document(random.Random(seed)))
    plain = binary_tree(bytearray(data), "t.gtb", plain=True)
    assert plain.plain and isinstance(plain.count, memoryview)
    numpy_read = binary_tree(data, "t.gtb")
    assert not numpy_read.plain
    for view in ({}, {"max_nodes": 10 ** 6}, {"depth": 2}):
        assert _shown(plain, algorithm, options, **view) == _shown(numpy_read, algorithm, options, **view)


def _every_view(tree: Any, algorithm: str, options: dict[str, Any]) -> Any:
    """What the views that read every node make of ``tree``'s search: the JSON result with and without the
    trace, the trace's lines, the check's answers, the answer key; and the tree written again (``.gtb``, a
    document)."""
    try:
        record = solve(tree, algorithm, **options)
    except GameTreeError as error:  # (a depth limit at a node without eval)
        return f"error: {error}"
    recorder = Recorder()
    traced = solve(tree, algorithm, observer=recorder, **options)
    results = []
    for solved, events in ((record, None), (traced, recorder.events)):
        stream = io.StringIO()
        write_record(solved, stream, events=events)
        results.append(stream.getvalue())
    formatter = TraceFormatter(tree, "es")
    answers = RecordAnswers(record)
    return (results, [formatter.line(event) for event in recorder.events],
            [answers.get(key) for key in ("value", "best_move", "best_moves", "pruned", "principal_variation",
                                          "visit_order")],
            answers.nodes(tree.ids()), answer_key(record, tree="t.gtb"), encode_binary(tree),
            json.dumps(tree_to_document(tree), default=str))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("algorithm", "options"), CASES)
def test_every_view_of_a_plain_tree_is_the_numpy_ones(seed: int, algorithm: str, options: dict[str, Any]) -> None:
    """A plain tree is read for the text view, but the library gives it to any view: those that write every
    node take their node-by-node path for it (the small trees' one), with the same bytes."""
    data = _encoded(_document(random.Random(200 + seed)))
    plain = binary_tree(data, "t.gtb", plain=True)
    assert plain.plain
    assert _every_view(plain, algorithm, options) == _every_view(binary_tree(data, "t.gtb"), algorithm, options)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("shape", ["minmax", "fraction"])
def test_every_algorithm_that_fits_sees_a_plain_tree_as_the_numpy_one(seed: int, shape: str) -> None:
    """Not only alpha-beta and minimax: any search that fits a two-player tree (expectiminimax over no chance
    node, the others), traced or not, on a plain tree of integers or fractions (the fuzz harness found one
    reading NumPy's dtype of fractions)."""
    data = _encoded(_document(random.Random(400 + seed), shape))
    plain, numpy_read = binary_tree(data, "t.gtb", plain=True), binary_tree(data, "t.gtb")
    assert plain.plain
    algorithms = fitting_algorithms(numpy_read)
    assert {"minimax", "alphabeta", "expectiminimax"} <= set(algorithms)
    for algorithm in algorithms:
        assert _every_view(plain, algorithm, {}) == _every_view(numpy_read, algorithm, {}), algorithm


@pytest.mark.parametrize("seed", range(12))
def test_a_plain_tree_in_spanish_reads_the_same(seed: int) -> None:
    data = _encoded(_document(random.Random(100 + seed)))
    plain, numpy_read = binary_tree(data, "t.gtb", plain=True), binary_tree(data, "t.gtb")
    assert plain.plain
    shown = [render_result(solve(tree, "alphabeta"), "es").plain_text() for tree in (plain, numpy_read)]
    assert shown[0] == shown[1]


@pytest.mark.parametrize("shape", ["chance", "decimal", "vector"])
def test_files_it_does_not_take_are_read_with_numpy(shape: str) -> None:
    rng = random.Random(7)
    has = {"chance": '"chance"', "decimal": ".", "vector": "["}[shape]  # (the JSON of a decimal, a payoff vector)
    document = _document(rng, shape)
    while has not in json.dumps(document["root"]).replace('"children": [', ""):
        document = _document(rng, shape)
    data = _encoded(document)
    tree = binary_tree(data, "t.gtb", plain=True)
    assert not tree.plain
    record, again = solve(tree), solve(binary_tree(data, "t.gtb"))
    assert render_result(record, "en").plain_text() == render_result(again, "en").plain_text()


def _outcome(data: bytes, plain: bool) -> str:
    try:
        tree = binary_tree(bytearray(data), "bad.gtb", plain=plain)
    except GameTreeError as error:
        return f"error: {error}"
    try:
        return render_result(solve(tree), "en").plain_text()
    except GameTreeError as error:
        return f"solve error: {error}"


@pytest.mark.parametrize("seed", range(40))
def test_a_damaged_file_gives_what_the_numpy_reader_gives(seed: int) -> None:
    """Bytes changed at random, in the header's JSON or the arrays: the same error (or the same tree)."""
    rng = random.Random(seed)
    data = bytearray(_encoded(_document(rng)))
    for _ in range(rng.randint(1, 3)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    assert _outcome(bytes(data), plain=True) == _outcome(bytes(data), plain=False)


def test_a_solve_of_a_big_gtb_file_loads_no_numpy_unless_a_writer_needs_it(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Default text view: no NumPy (and the drawing is the NumPy reader's); ``--format json``: NumPy (else this
    test could not fail)."""
    monkeypatch.setattr(lazy, "SMALL_TREE", 4096)
    rng = random.Random(3)
    leaves = iter(rng.randint(-50, 50) for _ in range(10 ** 5))

    def node(depth: int) -> Any:
        return next(leaves) if depth == 6 else {"children": [node(depth + 1) for _ in range(4)]}

    path = tmp_path / "big.gtb"
    tree = parse_tree(json.dumps({"root": node(0)}))
    assert len(tree) >= 4096
    path.write_bytes(encode_binary(tree))
    for algorithm in ("alphabeta", "minimax"):
        loaded, shown = loaded_by(["solve", str(path), "--algo", algorithm])
        assert "numpy" not in loaded
        expected = render_result(solve(binary_tree(path.read_bytes(), str(path)), algorithm), "en").plain_text()
        assert shown.rstrip("\n") == expected.rstrip("\n")
    loaded, _ = loaded_by(["solve", str(path), "--format", "json"])
    assert "numpy" in loaded


# -- the compiled scans, and the same loops from their source ------------------------------------

_source: list[ModuleType] = []


def _source_module() -> ModuleType:
    """plain_scans.py run from its source (whether or not it is compiled)."""
    if not _source:
        source = Path(plain_scans.__file__).with_name("plain_scans.py")
        spec = importlib.util.spec_from_file_location("gametree_cli.core._plain_scans_source", source)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        _source.append(module)
    return _source[0]


@pytest.fixture(params=["compiled", "source"])
def scans(request: pytest.FixtureRequest) -> ModuleType:
    if request.param == "compiled" and not plain_scans.COMPILED:
        pytest.skip("core/plain_scans.py is not compiled here (no C compiler or Cython at install)")
    return plain_scans if request.param == "compiled" else _source_module()


@pytest.mark.parametrize("seed", range(20))
def test_the_scans_give_what_python_gives(seed: int, scans: ModuleType) -> None:
    rng = random.Random(seed)
    flags = bytearray(rng.randrange(16) for _ in range(rng.randint(0, 300)))
    for mask in (1, 3, 4, 12):
        assert scans.positions_with(flags, mask, False).tolist() == [j for j, bits in enumerate(flags) if bits & mask]
        assert scans.positions_with(flags, mask, True).tolist() == [j for j, bits in enumerate(flags)
                                                                      if bits & mask == mask]
    size = rng.randint(1, 200)
    order = array("q", rng.sample(range(size), rng.randint(0, size)))
    table = array("i", [7]) * size
    scans.fill_slots(order, table)
    assert table.tolist() == [order.index(node) if node in order else -1 for node in range(size)]
    for code in "bhiq":
        bits = 8 * array(code).itemsize
        values = array(code, [rng.randrange(-(1 << (bits - 1)), 1 << (bits - 1)) for _ in range(rng.randint(1, 50))])
        extremes = scans.extremes[{"b": "signed char", "h": "short", "i": "int", "q": "long long"}[code]] \
            if scans is plain_scans else scans.extremes
        assert extremes(values) == (min(values), max(values))


def test_the_compiled_module_is_built_from_this_source() -> None:
    """When compiled, the .so is not older than its source (else the record's scans run yesterday's loops)."""
    if not plain_scans.COMPILED:
        pytest.skip("core/plain_scans.py is not compiled here (no C compiler or Cython at install)")
    source = Path(plain_scans.__file__).with_name("plain_scans.py")
    assert Path(plain_scans.__file__).stat().st_mtime >= source.stat().st_mtime, "stale build: make install"


@pytest.mark.parametrize("size", [0, 1, 4 << 20, (4 << 20) + 3])
def test_plain_blocks_are_zeros_of_the_size_asked(size: int) -> None:
    block = buffers.plain_block(size)
    assert len(block) == size and block.format == "B" and not any(block[:4096]) and not any(block[-4096:])
    if size:
        block[size - 1] = 7
        assert block[size - 1] == 7


def test_without_the_compiled_passes_the_file_is_read_with_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Uncompiled, the plain reader declines (the passes from their source would take ~0.5 s a million nodes)."""
    from gametree_cli.io import gtb_plain

    data = _encoded(_document(random.Random(5)))
    monkeypatch.setattr(gtb_plain.gtb_columns, "COMPILED", False)
    assert not binary_tree(data, "t.gtb", plain=True).plain
    monkeypatch.undo()
    monkeypatch.setattr(lazy, "SMALL_TREE", 8)
    monkeypatch.setattr(gtb_plain.plain_scans, "COMPILED", False)
    assert not binary_tree(data, "t.gtb", plain=True).plain
