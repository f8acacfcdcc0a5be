"""Read a plain two-player JSON tree file straight into the flat arrays (optional C scanner).

Why: ``json.loads`` makes a dict per node (~260 bytes) that the fast builder
(:mod:`~gametree_cli.formats.fastbuild`) reads once and throws away; for a big
file that is most of the load time and all of the peak memory. The C
extension ``gametree_cli._jsonscan`` (built by setup.py when a C compiler is
there) reads the text once into the arrays, with no Python object per node.

It accepts only files fast_build would build, and builds the same tree (the
tests compare every field). Whatever it is not sure of, valid or not, it
leaves to the json.loads path (:func:`scan_tree` returns None), which builds
the tree or reports the error with file:line.
"""

from __future__ import annotations

import json
from array import array

import numpy as np

from ..model import Source, Tree
from ..numeric import LazyValues, int64_view, numeric_from_array
from .document import two_player_header

try:
    from .. import _jsonscan
except ImportError:  # built without a C compiler: json.loads reads every file
    _jsonscan = None

__all__ = ["scan_tree", "AVAILABLE"]

#: Whether the C scanner is built.
AVAILABLE = _jsonscan is not None


def scan_tree(text: str | bytes, *, source: Source | None, max_nodes: int) -> Tree | None:
    """The tree of a plain two-player JSON file, or None (no scanner, or a file it leaves to json.loads)."""
    if _jsonscan is None:
        return None
    found = _jsonscan.scan(text, max_nodes)
    if isinstance(found, str):  # why it bailed
        return None
    kind, count_bytes, first_bytes, player_bytes, leaf_bytes, is_float, prob, prob_exact, evals, moves, header = found
    del found
    try:  # title, players, sum, bounds, general_sum: scalars and lists, as JSON text
        fields = {key: json.loads(value) for key, value in header.items()}
    except ValueError:
        return None
    head = two_player_header(fields)
    if head is None:
        return None
    players, total, bounds, title = head
    count = _int64_array(count_bytes)
    del count_bytes
    first = _int64_array(first_bytes)
    del first_bytes
    player = array("h")
    player.frombytes(player_bytes)
    leaf = np.frombuffer(leaf_bytes, dtype=np.float64 if is_float else np.int64)
    present = int64_view(count) == 0
    if bounds is not None:
        low, high = bounds
        values = leaf[present]
        if not (low <= values.min().item() and values.max().item() <= high):
            return None  # a leaf outside the declared bounds: the builder names it
    tree = Tree(
        kind=kind,
        first=first,
        count=count,
        value=LazyValues(leaf, 1, present),  # type: ignore[arg-type]
        player=player,
        prob=prob,
        evals=evals,
        moves=moves,
        players=players,
        total=total,
        bounds=bounds,
        title=title,
        source=source,
    )
    if prob_exact is not None:  # uniform or integer probabilities: numerators the scanner worked out
        prob_exact = (np.frombuffer(prob_exact[0], dtype=np.int64), prob_exact[1])
    numeric_from_array(tree, leaf, exact_prob=prob_exact)
    return tree


def _int64_array(data: bytearray) -> array:
    result = array("q")
    result.frombytes(data)
    return result
