"""A two-player ``.gtb`` tree read into plain buffers, without NumPy, for a view that reads few nodes.

Why: importing NumPy costs ~45 ms of CPU, half of a ``gametree solve
big.gtb`` that draws the top of a 1.4-million-node tree (docs/performance.md,
issue 14, target 3b), while the compiled passes that read the file
(:mod:`.gtb_columns`) and the depth-first search write into any buffer. So
the text view asks for a plain tree (:func:`read_binary` ``plain=True``):
the same columns, in one block of plain memory
(:func:`~gametree_cli.core.buffers.plain_block`), marked ``Tree.plain``;
its search record and view keep to plain buffers as a small tree's do
(:func:`~gametree_cli.core.buffers.plain_for`).

Only the usual file is read so: two players, integer leaf values, no chance
nodes, stored players, payoff vectors or JSON-held values; and only with the
compiled passes (:mod:`.gtb_columns`, :mod:`~gametree_cli.core.plain_scans`).
Any other file, and any file that fails a check here, gets ``None`` and
:func:`.binary._decode` reads it with NumPy, which reports a damaged file
with its one error (the same checks, so the same answers).
"""

from __future__ import annotations

import sys
from typing import Any

from ..core.buffers import plain_block
from ..core.errors import TreeFormatError
from ..core.model import PLAYER, Source, Tree
from ..core.numeric import LIMIT, LazyValues, Numeric
from ..core import plain_scans
from . import gtb_columns
from .binary_checks import check_tree

__all__ = ["plain_tree", "plain_buffer"]

#: the stored element types read here, as memoryview formats (the file is little-endian)
_FORMATS = {"|u1": "B", "|i1": "b", "<i2": "h", "<i4": "i", "<i8": "q"}
#: a stored integer array's format -> its C type, the key of the compiled passes' version for it. Why not
#: call them as they are: a fused function's dispatch imports NumPy to see whether it was given an array
_C_TYPES = {"b": "signed char", "h": "short", "i": "int", "q": "long long"}


def plain_buffer(size: int) -> memoryview:
    """The buffer a ``.gtb`` file is read into for a plain read (2 MB pages for a big file)."""
    return plain_block(size)


def plain_tree(reader: Any) -> Tree | None:
    """The tree of a ``.gtb`` file whose header ``reader`` (:class:`.binary._Reader`) has read, in plain
    buffers; None when this reader does not take the file (the NumPy reader then does)."""
    header, n = reader.header, reader.n
    arrays = header["arrays"]
    if not (gtb_columns.COMPILED and plain_scans.COMPILED and sys.byteorder == "little" and n < (1 << 31)
            and len(header["players"]) == 2 and header.get("vector_payoffs", False) is False
            and "values_json" not in header and not {"player", "prob", "prob_decimal"} & set(arrays)):
        return None
    kind, raw, stored = _load(reader, "kind", "B"), _load(reader, "count", "bhiq"), _load(reader, "value", "bhiq")
    if kind is None or raw is None or stored is None or len(kind) != n or len(raw) != n:
        return None
    kinds = bytearray(kind)
    if PLAYER in kinds:
        return None
    columns = _Columns(n)
    problem, leaves = gtb_columns.structure[_C_TYPES[raw.format]](kinds, raw, columns.count, columns.totals,
                                                                  columns.first, columns.leaves, columns.player)
    if problem != gtb_columns.FINE or len(stored) != leaves:
        return None
    numbers = _numbers(reader, stored)
    if numbers is None:
        return None
    denominator, total, bounds = numbers
    labels = {key: _labels(reader, key) for key in ("move", "id")}
    if labels["move"] is None or labels["id"] is None:
        return None
    gtb_columns.scatter[_C_TYPES[stored.format]](columns.leaves, stored, columns.values)
    tree = Tree(kind=kinds, first=columns.first, count=columns.count,  # type: ignore[arg-type]
                value=LazyValues(columns.values, denominator, columns.leaves),  # type: ignore[arg-type]
                player=columns.player,  # type: ignore[arg-type]
                explicit_ids=labels["id"], moves=labels["move"], players=tuple(header["players"]),
                total=total, bounds=bounds, title=header.get("title"), source=Source(reader.name))
    tree._totals = columns.totals  # type: ignore[assignment]
    tree.plain = True
    check_tree(tree, None, None, header.get("evals", []), header.get("extra", []), reader.damaged)
    tree._numeric = Numeric(columns.values, denominator, None, 1, None, columns.spare)
    return tree


class _Columns:
    """The Tree's columns in one zeroed block, as :class:`.binary._Columns` lays them out: int64 ``count``,
    ``first`` and ``values`` with two spare slots after them (the search's key sentinels: ``spare``),
    int32 running sums, int16 players, uint8 leaf flags."""

    __slots__ = ("count", "first", "values", "spare", "totals", "player", "leaves")

    def __init__(self, n: int) -> None:
        wide_end = 8 * (3 * n + 2)
        block = plain_block(wide_end + 4 * (n + 1) + 3 * n)
        wide = block[:wide_end].cast("q")
        self.count, self.first, self.spare = wide[:n], wide[n : 2 * n], wide[2 * n :]
        self.values = self.spare[:n]
        self.totals = block[wide_end : wide_end + 4 * (n + 1)].cast("i")
        narrow = block[wide_end + 4 * (n + 1) :]
        self.player, self.leaves = narrow[: 2 * n].cast("h"), narrow[2 * n :]


def _load(reader: Any, key: str, formats: str) -> memoryview | None:
    """The array ``key`` as a typed view of the file's bytes; None when the file has none or its entry is
    not what the writer makes with one of ``formats``."""
    entry = reader.header["arrays"].get(key)
    if not isinstance(entry, dict):
        return None
    code, length, offset = _FORMATS.get(entry.get("dtype")), entry.get("length"), entry.get("offset")  # type: ignore[arg-type]
    if code is None or code not in formats or type(length) is not int or type(offset) is not int \
            or length < 0 or offset < 0:
        return None
    size = {"B": 1, "b": 1, "h": 2, "i": 4, "q": 8}[code]
    begin = reader.body + offset
    end = begin + length * size
    if end > len(reader.buffer):
        return None
    return reader.buffer[begin:end].cast(code)


def _numbers(reader: Any, stored: memoryview) -> tuple[int, Any, Any] | None:
    """``(denominator, sum, bounds)`` of the file, its values checked as the NumPy reader checks them
    (within int64 headroom and the bounds); None when a check fails."""
    try:
        denominator = int(reader.header.get("denominator", "1"))
        total, bounds = reader.sum_and_bounds()
    except (ValueError, TypeError, TreeFormatError):
        return None
    if denominator < 1:
        return None
    if len(stored):
        lowest, highest = plain_scans.extremes[_C_TYPES[stored.format]](stored)
        if lowest <= -LIMIT or highest >= LIMIT:
            return None
        if bounds is not None:
            from fractions import Fraction  # here, not at the top: a tree of integers needs no fractions (start-up)

            if not (bounds[0] <= Fraction(lowest, denominator) and Fraction(highest, denominator) <= bounds[1]):
                return None
    return denominator, total, bounds


def _labels(reader: Any, key: str) -> dict[int, str] | None:
    """Node -> its move label (``key`` "move") or explicit id ("id"); None when they do not match their nodes."""
    names = reader.header.get(f"{key}_labels")
    if f"{key}_nodes" not in reader.header["arrays"]:
        return {}
    nodes = _load(reader, f"{key}_nodes", "bhiq")
    if nodes is None or names is None or len(names) != len(nodes):
        return None
    listed = nodes.tolist()
    if listed and (min(listed) < 0 or max(listed) >= reader.n):
        return None
    return dict(zip(listed, names if key == "id" else (str(label) for label in names)))
