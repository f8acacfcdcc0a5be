"""Writing ``.gtb`` files: a Tree's flat arrays, each as it is in memory (the layout: :mod:`.binary`).

Why a module of its own: reading is what every ``.gtb`` solve does and
what must start fast; writing (``convert``, ``random -o x.gtb``) needs the
arrays' smallest dtypes and the header's JSON facts, none of which reading
uses.
"""

from __future__ import annotations

import io
import json
import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.model import PLAYER, Tree
from ..core.numbers import Value, number_to_json
from ..core.numeric import _exact_probabilities, int64_view, numeric_values
from .binary import MAGIC, VERSION
from .binary_written import encode_probabilities
from .files import write_atomically

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["write_binary", "encode_binary"]

ALIGN = 64  # each array starts at a multiple of this offset (the header gives each offset)


def _json_value(value: Value) -> Any:
    if isinstance(value, tuple):
        return [number_to_json(part) for part in value]
    return number_to_json(value)


def encode_binary(tree: Tree) -> bytes:
    """The ``.gtb`` bytes of ``tree``."""
    n = len(tree.kind)
    count = int64_view(tree.count)
    arrays: dict[str, np.ndarray] = {"kind": np.frombuffer(bytes(tree.kind), dtype=np.uint8)}
    arrays["count"] = count.astype(np.int32) if n < 2**31 else count
    header: dict[str, Any] = {
        "version": VERSION,
        "nodes": n,
        "players": list(tree.players),
        "vector_payoffs": tree.vector_payoffs,
        "title": tree.title,
        "sum": None if tree.total is None else number_to_json(tree.total),
        "bounds": None if tree.bounds is None else [number_to_json(tree.bounds[0]), number_to_json(tree.bounds[1])],
    }
    if tree.is_nplayer or (np.frombuffer(bytes(tree.kind), dtype=np.uint8) == PLAYER).any():
        arrays["player"] = np.asarray(tree.player, dtype=np.int16)
    numeric = numeric_values(tree)
    if numeric is not None:
        leaves = count == 0
        if numeric.exact:
            arrays["value"] = numeric.leaf[leaves]
            header["denominator"] = str(numeric.denominator)
        else:
            arrays["value"] = numeric.leaf[leaves]
    else:
        leaf_nodes = np.flatnonzero(count == 0).tolist()
        header["values_json"] = [_json_value(tree.value[node]) for node in leaf_nodes]  # type: ignore[arg-type]
    if tree.prob is not None:
        decimals = float in set(map(type, tree.prob))
        exact = None if decimals else _exact_probabilities(tree.prob)
        written = encode_probabilities(tree.prob) if decimals else None  # version 2 (binary_written.py)
        if exact is not None:
            arrays["prob"] = exact[0]
            header["prob_denominator"] = str(exact[1])
        elif written is not None:
            arrays.update(written[0])
            header.update(written[1])
        else:
            header["prob_json"] = [None if p is None else number_to_json(p) for p in tree.prob]
    for name, labels in (("move", tree.moves), ("id", tree.explicit_ids)):
        if labels:
            nodes = sorted(labels)
            arrays[f"{name}_nodes"] = np.array(nodes, dtype=np.int64)
            header[f"{name}_labels"] = [labels[node] for node in nodes]
    if tree.evals:
        header["evals"] = [[node, _json_value(value)] for node, value in sorted(tree.evals.items())]
    if tree.extra:
        header["extra"] = [[node, {key: _tagged(item) for key, item in facts.items()}] for node, facts in sorted(tree.extra.items())]
    return _pack(header, arrays)


def _tagged(item: object) -> Any:
    """An extra fact as JSON; numbers are tagged so that fractions come back exact."""
    if isinstance(item, (int, float)) and not isinstance(item, bool) or type(item).__name__ == "Fraction":
        return {"number": number_to_json(item)}  # type: ignore[arg-type]
    return {"json": item}


def _narrow(data: np.ndarray) -> np.ndarray:
    """Integers in the smallest dtype that holds them (a tree of small numbers takes a byte or two a node)."""
    if data.dtype.kind != "i" or not len(data):
        return data
    low, high = int(data.min()), int(data.max())
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return data.astype(dtype)
    return data


def _pack(header: dict[str, Any], arrays: dict[str, np.ndarray]) -> bytes:
    directory: dict[str, Any] = {}
    offset = 0
    for name, data in arrays.items():
        data = np.ascontiguousarray(_narrow(data) if name in ("value", "prob", "count") else data)
        arrays[name] = data
        directory[name] = {"dtype": data.dtype.newbyteorder("<").str, "length": int(data.size), "offset": offset}
        offset += -(-data.nbytes // ALIGN) * ALIGN
    header["arrays"] = directory
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    start = len(MAGIC) + 8 + len(text)
    padding = -start % ALIGN
    out = io.BytesIO()
    out.write(MAGIC)
    out.write(struct.pack("<Q", len(text) + padding))
    out.write(text + b" " * padding)
    for name, data in arrays.items():
        raw = data.astype(data.dtype.newbyteorder("<"), copy=False).tobytes()
        out.write(raw)
        out.write(b"\x00" * (-len(raw) % ALIGN))
    return out.getvalue()


def write_binary(tree: Tree, path: Path) -> None:
    """Write ``tree`` to ``path`` as ``.gtb`` (atomically; see ``write_atomically``)."""
    write_atomically(path, encode_binary(tree))
