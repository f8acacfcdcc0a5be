"""The JSON result's per-node sections for a small tree, node by node in plain Python.

Why a second way to write them: the writer of :mod:`.result_json` makes
``pruned``, ``visit_order`` and ``nodes`` a chunk of nodes at a time in
NumPy (:mod:`.node_entries`, :mod:`.node_ids`, :mod:`.json_text`), which a
million-node result needs; but importing NumPy costs more CPU than the
whole of a small solve (docs/performance.md, "Issue 14, target 1: a small
solve without NumPy"). Below
:data:`~gametree_cli.core.lazy.SMALL_TREE` nodes :func:`small_sections`
writes the same bytes from the record's per-node API (``values[node]``,
:meth:`~gametree_cli.search.record.SearchRecord.bound_kind`, ``bounds``,
``cut``...) and the standard library's json (:mod:`.plain_json`, orjson's bytes). An entry holds the keys :mod:`.node_entries`
defines, in its order; ``tests/test_small_paths.py`` checks that both
writers give the same bytes for every algorithm on many random trees.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from ..core.model import KIND_NAMES, PLAYER
from ..core.numbers import number_to_json, value_to_json
from ..search.record import LOWER, UPPER, SearchRecord
from .plain_json import dumps
from .node_ids import LINE

__all__ = ["small_sections", "small_document", "node_entry"]

_SIDES = {LOWER: "lower", UPPER: "upper"}


def small_sections(record: SearchRecord) -> list[Iterator[bytes]]:
    """The text of ``pruned``, ``visit_order`` and ``nodes``, as the chunked writer makes them."""
    tree = record.tree
    ids = tree.ids()
    quoted = [LINE + dumps(name) for name in ids]  # (a derived id quotes as its parent's id, ".", digits)
    visit_order = record.order if record.order is not None else list(tree.preorder(record.depth_limit))
    lines = [quoted[node] + b": " + dumps(node_entry(record, node)) for node in tree.preorder()]
    return [_listed(quoted, record.pruned), _listed(quoted, visit_order), _joined(b"{", lines, b"\n  }")]


def small_document(record: SearchRecord) -> tuple[list[str], list[str], dict[str, dict[str, Any]]]:
    """``pruned``, ``visit_order`` and ``nodes`` as Python values (``result_document``), node by node."""
    tree = record.tree
    ids = tree.ids()
    visit_order = record.order if record.order is not None else tree.preorder(record.depth_limit)
    nodes = {ids[node]: node_entry(record, node) for node in tree.preorder()}
    return [ids[node] for node in record.pruned], [ids[node] for node in visit_order], nodes


def _listed(quoted: list[bytes], nodes: Sequence[int]) -> Iterator[bytes]:
    return _joined(b"[", [quoted[node] for node in nodes], b"\n  ]")


def _joined(opening: bytes, lines: list[bytes], closing: bytes) -> Iterator[bytes]:
    """``opening``, the lines (the first without its comma) and ``closing``; ``[]`` or ``{}`` when empty."""
    if not lines:
        yield opening + closing[-1:]
        return
    yield opening + b"".join(lines)[1:] + closing


def node_entry(record: SearchRecord, node: int) -> dict[str, Any]:
    """One node's entry in ``nodes`` (the keys of :mod:`.node_entries`, in its order)."""
    tree = record.tree
    value = record.values[node]
    entry: dict[str, Any] = {"visited": value is not None}
    if value is not None:
        entry["value"] = value_to_json(value)
        side = _SIDES.get(_bound_kind(record, node))
        if side is not None:
            entry["bound_kind"] = side
        bounds = record.bounds(node)
        if bounds is not None:
            entry["alpha"], entry["beta"] = number_to_json(bounds[0]), number_to_json(bounds[1])
    kind = tree.kind[node]
    entry["type"] = tree.players[tree.player[node]] if kind == PLAYER else KIND_NAMES[kind]
    cut = record.cut(node)
    if cut is not None:
        entry["cut"] = cut.reason()
    if node in record.horizon:
        entry["horizon"] = True
    if record.bound and node in record.bound:
        entry["bound"] = value_to_json(record.bound[node])
    return entry


def _bound_kind(record: SearchRecord, node: int) -> int:
    """The bound kind the JSON result shows: the record's, as every view shows it
    (:meth:`~gametree_cli.search.record.SearchRecord.bound_kind`; a side unknown shows none)."""
    return record.bound_kind(node)
