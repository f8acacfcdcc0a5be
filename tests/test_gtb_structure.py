"""The ``.gtb`` reader's structure: columns written in place by NumPy, and the checks on them.

Why: ``io/binary.py``'s ``_Reader.structure`` fills the Tree's ``count`` and
``first`` columns in place and checks breadth-first numbering through running
sums of ``count - 1`` (docs/performance.md, issue 14.3). These tests hold it to
the text reader (an independent path) on random trees of every shape, to the
oracle's values, and to a clean one-line error for each way the child counts
and kinds can be damaged.
"""

from __future__ import annotations

import json
import random
from array import array
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gametree_cli import GameTreeError
from gametree_cli.io.binary import _player_column, binary_tree, read_binary
from gametree_cli.io.files import read_input, read_input_into
from gametree_cli.io.binary_encode import _pack, encode_binary
from gametree_cli.core import lazy
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.events import Recorder
from gametree_cli.search.registry import fitting_algorithms, solve
from gametree_cli.views.result_json import result_document
from gametree_cli.views.annotated import render_result

from . import oracles
from .test_startup import loaded_by


def _random_document(rng: random.Random, nodes: int) -> dict[str, Any]:
    """A two-player tree of about ``nodes`` nodes: uneven branching, leaves at any depth, some labels."""
    def node(depth: int, budget: int, is_max: bool) -> Any:
        if budget <= 1 or depth >= 8 or rng.random() < 0.15:
            return rng.randint(-50, 50)
        width = rng.randint(1, 5)
        children = [node(depth + 1, (budget - 1) // width, not is_max) for _ in range(width)]
        made: dict[str, Any] = {"type": "max" if is_max else "min", "children": children}
        if rng.random() < 0.1:
            made["move"] = f"m{rng.randint(0, 99)}"
        return made

    root = node(0, nodes, True)
    return {"root": root if isinstance(root, dict) else {"type": "max", "children": [root]}}


def _gtb_and_text(seed: int) -> tuple[Any, Any, dict[str, Any]]:
    rng = random.Random(seed)
    document = _random_document(rng, rng.choice([3, 20, 300, 3000]))
    text_tree = parse_tree(json.dumps(document))
    return binary_tree(encode_binary(text_tree), "random.gtb"), text_tree, document


@pytest.mark.parametrize("seed", range(60))
def test_gtb_columns_match_the_text_reader(seed: int) -> None:
    """Kinds, child counts, first children, players, running sums and parents as the text reader makes them."""
    read, expected, _ = _gtb_and_text(seed)
    assert bytes(read.kind) == bytes(expected.kind)
    for column in ("count", "first", "player"):
        assert list(getattr(read, column)) == list(getattr(expected, column)), column
    assert list(read.running_sums()) == list(expected.running_sums())
    assert list(read.parents()) == list(expected.parents())
    assert [read.subtree_size(node) for node in range(len(read))] == \
        [expected.subtree_size(node) for node in range(len(expected))]


@pytest.mark.parametrize("seed", range(60, 100))
def test_gtb_solves_as_the_oracle_and_the_text_reader(seed: int) -> None:
    """Every node's minimax value is the oracle's; alpha-beta's drawing is the text tree's."""
    read, expected, document = _gtb_and_text(seed)
    oracle = oracles.minimax(document)
    record = solve(read, "minimax")
    assert [record.values[node] for node in range(len(read))] == [oracle.values[read.node_id(node)]
                                                                  for node in range(len(read))]
    for algorithm in ("minimax", "alphabeta"):
        drawn = [render_result(solve(tree, algorithm)).plain_text() for tree in (read, expected)]
        assert drawn[0] is not None and drawn[0] == drawn[1]


def _file(kinds: list[int], counts: list[int], count_dtype: Any = np.int8) -> bytes:
    leaves = sum(1 for count in counts if count == 0)
    header = {"version": 1, "nodes": len(kinds), "players": ["MAX", "MIN"], "vector_payoffs": False, "title": None,
              "sum": None, "bounds": None, "values_json": list(range(leaves))}
    return _pack(header, {"kind": np.array(kinds, dtype=np.uint8), "count": np.array(counts, dtype=count_dtype)})


@pytest.mark.parametrize("kinds, counts, says", [
    ([1, 0, 0], [3, -1, 0], "do not add up"),                      # a negative count (the sum is still n - 1)
    ([1, 0, 0], [3, 0, 0], "do not add up"),                       # a count of n: more children than nodes
    ([1, 0, 0], [1, 0, 0], "do not add up"),                       # too few children
    ([1, 2, 0, 0], [2, 2, 0, 0], "do not add up"),                 # too many
    ([1, 0, 0], [2, 0, 0 + (1 << 40)], "do not add up"),           # a count far beyond n (int64 in the file)
    ([5, 0, 0], [2, 0, 0], "kinds do not match"),                  # no such kind
    ([0, 0, 0], [2, 0, 0], "kinds do not match"),                  # a leaf with children
    ([1, 1, 0], [2, 0, 0], "kinds do not match"),                  # a max node without
    ([1, 0, 2, 0], [1, 0, 2, 0], "numbered before its parent"),    # node 2's children are numbered 2 and 3
    ([2, 1, 0, 0, 0], [0, 2, 2, 0, 0], "kinds do not match"),
    ([0, 1, 1, 0, 0], [0, 2, 2, 0, 0], "numbered before its parent"),  # the root a leaf, yet counts add up
    ([4, 0, 0], [2, 0, 0], "a player node in a two-player tree"),  # no players stored: binary_checks' fast test
    ([1, 4, 0, 0], [1, 2, 0, 0], "a player node in a two-player tree"),
])
def test_damaged_child_counts_and_kinds(kinds: list[int], counts: list[int], says: str) -> None:
    dtype = np.int64 if max(counts) > 127 else np.int8
    with pytest.raises(GameTreeError) as caught:
        binary_tree(_file(kinds, counts, dtype), "damaged.gtb")
    message = str(caught.value)
    assert message.startswith("damaged.gtb") and says in message and "\n" not in message, message


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_every_stored_count_width_reads(dtype: Any) -> None:
    """The writer narrows counts to the smallest integer type; the reader widens each into the int64 column."""
    tree = binary_tree(_file([1, 2, 0, 0, 0], [2, 2, 0, 0, 0], dtype), "widths.gtb")
    assert list(tree.count) == [2, 2, 0, 0, 0] and list(tree.first) == [1, 3, 0, 0, 0]
    assert tree.count.format == tree.first.format == "q" and tree.player.format == "h"  # no copy: see buffers.typed_view
    assert list(tree.player) == [0, 1, -1, -1, -1] and tree.subtree_size(0) == 5


def test_a_one_node_tree_reads() -> None:
    """No node but the root: nothing to check breadth-first (the check reads nodes 0..n-2)."""
    tree = binary_tree(encode_binary(parse_tree("7")), "one.gtb")
    assert (list(tree.count), list(tree.first), solve(tree).value) == ([0], [0], 7)


_EXAMPLES = sorted((Path(__file__).parent.parent / "trees").glob("*.yaml"))


@pytest.mark.parametrize("numpy_paths", [False, True])
@pytest.mark.parametrize("path", _EXAMPLES, ids=lambda path: path.stem)
def test_every_view_of_a_gtb_tree_is_the_text_trees(path: Path, numpy_paths: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Read back from ``.gtb`` (columns that are NumPy views, not ``array.array``), every example tree
    gives every fitting algorithm the text tree's JSON result, trace and drawing; ``numpy_paths``:
    as a big tree's (``lazy.SMALL_TREE`` 0), where searches and views take NumPy views of the columns."""
    if numpy_paths:
        monkeypatch.setattr(lazy, "SMALL_TREE", 0)
    expected = load_tree(path)
    read = binary_tree(encode_binary(expected), path.name)
    assert isinstance(read.count, memoryview) and isinstance(expected.count, array)
    for algorithm in fitting_algorithms(expected):
        shown = []
        for tree in (read, expected):
            recorder = Recorder()
            record = solve(tree, algorithm, observer=recorder)
            document = result_document(record, events=recorder.events)
            document.pop("file", None)
            shown.append((json.dumps(document, sort_keys=True, default=str), render_result(record).plain_text()))
        assert shown[0] == shown[1], algorithm


def test_a_gtb_solve_loads_no_pathlib(tmp_path: Path) -> None:
    """A ``.gtb`` file is read by name, as a text file is: pathlib (~5-8 ms of start-up with urllib.parse
    and ipaddress) stays out (the probe can see it: test_startup's typer case); a tree of integers
    without chance loads no fractions (with decimal, ~1 ms: binary_checks and binary_written import it
    where a fraction is made). The two-player one, drawn as text, loads no NumPy either (io/gtb_plain.py);
    the chance one does."""
    path = tmp_path / "course.gtb"
    path.write_bytes(encode_binary(load_tree(_EXAMPLES[0])))
    loaded, text = loaded_by(["solve", str(path)], ("pathlib", "numpy", "fractions", "decimal"))
    assert "value 3" in text and loaded == set()
    path.write_bytes(encode_binary(parse_tree('{"root": {"type": "chance", "children": [{"value": 1, "p": "1/3"}, '
                                                '{"value": 2, "p": "2/3"}]}}')))
    loaded, text = loaded_by(["solve", str(path)], ("numpy", "fractions"))
    assert "value 5/3" in text and loaded == {"numpy", "fractions"}


def test_players_from_kinds_are_the_table_lookup() -> None:
    """binary._player_column computes ``kind - 1`` and sets chance and player nodes apart; the table it
    replaced (leaf -1, max 0, min 1, chance -1, player -1) is the oracle, on every mix of kinds."""
    table = np.array([-1, 0, 1, -1, -1], dtype=np.int16)
    rng = np.random.default_rng(14)
    for highest in (1, 3, 4, 5):
        for n in (0, 1, 9, 5000):
            kinds = rng.integers(0, highest, n).astype(np.uint8)
            column = _player_column(kinds, None)
            assert column.format == "h" and list(column) == table[kinds].tolist(), (highest, n)


def test_a_gtb_file_read_into_numpy_is_the_same_tree(tmp_path: Path) -> None:
    """read_binary reads into a NumPy buffer (files.read_input_into), not bytes: the same tree, the same
    one-line errors (a truncated file)."""
    data = encode_binary(load_tree(_EXAMPLES[0]))
    path = tmp_path / "course.gtb"
    path.write_bytes(data)
    from_buffer, from_bytes = read_binary(str(path), "course.gtb"), binary_tree(data, "course.gtb")
    assert render_result(solve(from_buffer)).plain_text() == render_result(solve(from_bytes)).plain_text()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(GameTreeError, match=r"^course\.gtb: damaged \.gtb file"):
        read_binary(str(path), "course.gtb")


@pytest.mark.parametrize("change", [b"", b"grown", None], ids=["same", "grew", "shrank"])
def test_read_input_into_follows_a_file_that_changes_while_read(tmp_path: Path, change: bytes | None) -> None:
    """The buffer is made for the size the file had when opened; a file that then grows is read whole
    (as bytes), one that shrinks is cut to what was there: always what read_input reads."""
    path = tmp_path / "tree.gtb"
    path.write_bytes(b"0123456789" * 1000)

    def into(size: int) -> np.ndarray:
        if change is None:
            path.write_bytes(b"short")
        elif change:
            with open(path, "ab") as more:
                more.write(change)
        return np.empty(size, dtype=np.uint8)

    got = read_input_into(str(path), into)
    assert bytes(got) == read_input(str(path))
    assert isinstance(got, np.ndarray) == (change == b"" or change is None)


def _owner(column: memoryview) -> Any:
    """The NumPy array whose memory a Tree column is a view of (its base chain's end)."""
    array = column.obj
    while getattr(array, "base", None) is not None and isinstance(array.base, np.ndarray):
        array = array.base
    return array


@pytest.mark.parametrize("text", ["[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", "[[0.5, 1.25], [2.5, -0.75], [1e-9]]"])
def test_the_columns_of_a_gtb_tree_share_one_allocation(text: str) -> None:
    """binary._Columns: count, first, the running sums, the values and the players are views of one
    block (page faults, docs/performance.md 14.3), each its own stretch of it; values integer or decimal."""
    source = parse_tree(text)
    tree = binary_tree(encode_binary(source), "one-block.gtb")
    columns = [tree.count, tree.first, tree._totals, tree.player]
    assert len({id(_owner(column)) for column in columns}) == 1
    assert not any(np.shares_memory(np.asarray(a), np.asarray(b)) for i, a in enumerate(columns) for b in columns[i + 1:])
    assert render_result(solve(tree)).plain_text() == render_result(solve(source)).plain_text()


@pytest.mark.parametrize("seed", range(100, 110))
def test_alphabeta_keys_of_a_gtb_tree_are_its_values_without_a_copy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """keys.comparison_keys takes a ``.gtb`` tree's integer leaves where they lie (Numeric.spare: two free
    slots after them for the sentinels); the keys are those the copying path makes of the text tree,
    twice over (a second search writes the same sentinels), and a depth limit (evals) still copies."""
    from gametree_cli.core.numeric import numeric_values
    from gametree_cli.search.keys import comparison_keys

    monkeypatch.setattr(lazy, "SMALL_TREE", 0)  # the big trees' path, on trees small enough to check many
    read, expected, _ = _gtb_and_text(seed)
    leaves = numeric_values(read).leaf  # type: ignore[union-attr]
    for _ in range(2):
        keys = comparison_keys(read)
        assert np.shares_memory(keys, leaves) and keys.tolist() == comparison_keys(expected).tolist()
    assert render_result(solve(read, "alphabeta")).plain_text() == render_result(solve(expected, "alphabeta")).plain_text()
    text_tree = load_tree(Path(__file__).parent.parent / "trees" / "depth-limited.yaml")
    limited = binary_tree(encode_binary(text_tree), "depth-limited.gtb")
    assert not np.shares_memory(comparison_keys(limited, 2), numeric_values(limited).leaf)  # type: ignore[union-attr]
    shown = [render_result(solve(tree, "alphabeta", depth=2)).plain_text() for tree in (limited, text_tree)]
    assert shown[0] == shown[1] and "value 5" in shown[0]
