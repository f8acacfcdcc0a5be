"""The fast path of :func:`~gametree_cli.io.document.build_tree` for valid two-player files.

Why a second builder: the general one does per node everything any file may
need (ids and their clashes, players, opponent models, alias accounting,
precise error messages), ~1.5 µs a node. Big files are almost always
generated, valid and plain: ``type``/``children``/``value``/``move``/``p``/
``eval`` mappings, bare numbers and nested lists. This builder handles only
that, several times faster, and builds no per-node lists it can derive later
(``first`` and ``player`` come from the counts and kinds with NumPy).

It never reports an error: on anything outside its subset, valid or not, it
returns None and the general builder starts again from the document, so
every message keeps its file:line and wording. It frees each mapping as soon
as it has read it (the caller hands over the only reference), so the
document shrinks while the arrays grow.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

from ..core.lazy import SMALL_TREE, lazy_module
np = lazy_module("numpy")

from ..core.model import CHANCE, LEAF, MAX, MIN, Source, Tree
from ..core.numbers import INTEGER_BOUND, Number, Value, parse_number
from ..core.numeric import LazyValues, numeric_from_leaves
from ..core.progress import tick

__all__ = ["fast_build", "FAST_KEYS"]

#: Node keys the fast path understands (``comment``/``label`` are allowed and ignored).
FAST_KEYS = frozenset({"type", "children", "value", "move", "p", "eval", "comment", "label"})
_TYPES = {"max": MAX, "min": MIN, "chance": CHANCE}
#: kind -> player number of two-player trees (MAX 0, MIN 1, others -1)
_PLAYER_OF_KIND = (-1, 0, 1, -1, -1)
# ``inherit`` codes per queued node: the nearest decision ancestor (MAX or MIN,
# 0 for none) plus _UNDER_CHANCE when the parent is a chance node.
_UNDER_CHANCE = 8


class _Bail(Exception):
    """Outside the fast subset: let the general builder do it (and say what is wrong)."""


def _number(raw: Any) -> Number:
    kind = type(raw)
    if kind is int:
        if -INTEGER_BOUND < raw < INTEGER_BOUND:
            return raw
        raise _Bail
    if kind is float:
        if math.isfinite(raw):
            return raw
        raise _Bail
    if kind is bool or raw is None or kind is list or kind is dict:
        raise _Bail
    try:
        return parse_number(raw)
    except ValueError:
        raise _Bail from None


def fast_build(
    holder: list[Any],
    *,
    source: Source | None,
    max_nodes: int,
    players: tuple[str, ...],
    total: Number | None,
    bounds: tuple[Number, Number] | None,
    title: str | None,
) -> Tree | None:
    """Build a two-player tree from the root node in ``holder`` (emptied), or None.

    Args:
        holder: a one-element list with the root's raw data; the builder takes
            it out so that read mappings can be freed.
        source, max_nodes, players, total, bounds, title: as read from the
            file's header by the general builder.

    Returns:
        The tree, or None when the document needs the general builder.
    """
    try:
        return _build(holder, source, max_nodes, players, total, bounds, title)
    except _Bail:
        return None


def _build(
    holder: list[Any],
    source: Source | None,
    max_nodes: int,
    players: tuple[str, ...],
    total: Number | None,
    bounds: tuple[Number, Number] | None,
    title: str | None,
) -> Tree:
    raws: list[Any] = [holder.pop()]  # the only reference left, once the caller let go
    kinds = bytearray()
    inherit = bytearray(b"\x00")
    counts: list[int] = []
    values: list[Value | None] = []
    evals: dict[int, Value] = {}
    moves: dict[int, str] = {}
    chance_probs: list[tuple[int, list[Number]]] = []
    low, high = bounds if bounds is not None else (None, None)
    fast_keys = FAST_KEYS
    types = _TYPES
    leaf_values: list[Value] = []
    known_shares: dict[tuple[Any, ...], list[Number]] = {}  # chance nodes' p as written -> the checked shares
    append_kind, append_count, append_value = kinds.append, counts.append, values.append
    append_leaf = leaf_values.append
    extend_raws = raws.extend

    node = 0
    chunk_end = 0
    try:
        while node < len(raws):
            if node == chunk_end:  # every 65,536 nodes: tell a progress bar, if any
                tick("build", node)
                chunk_end = node + 65536
            raw = raws[node]
            raws[node] = None  # the queue's reference was the last but the parent's list
            code = inherit[node]
            raw_type = type(raw)
            children = None
            if raw_type is dict and len(raw) == 1 and "value" in raw:  # the commonest leaf: {"value": V}
                value = raw["value"]
                if type(value) is not int:
                    value = _number(value)
                if low is not None and not low <= value <= high:  # type: ignore[operator]
                    raise _Bail
                kind = LEAF
                append_value(value)
                append_leaf(value)
            elif raw_type is dict:
                if not raw.keys() <= fast_keys:
                    raise _Bail
                if "p" in raw and not code & _UNDER_CHANCE:
                    raise _Bail
                move = raw.get("move")
                if move is not None:
                    if type(move) is not str and type(move) is not int:  # a boolean, a decimal: the rules say why
                        raise _Bail
                    moves[node] = str(move)
                declared = raw.get("type")
                kind = LEAF
                if declared is not None:
                    kind = types.get(declared) if type(declared) is str else None  # type: ignore[assignment]
                    if kind is None:
                        kind = types.get(str(declared).strip().lower())  # type: ignore[assignment]
                        if kind is None:
                            raise _Bail
                if "children" in raw:
                    children = raw["children"]
                    if type(children) is not list or not children:
                        raise _Bail
                    if raw.get("value") is not None:
                        raise _Bail
                    if kind == LEAF:
                        kind = MIN if code & 7 == MAX else MAX
                    found = raw.get("eval")
                    if found is not None:
                        evals[node] = _number(found)
                    append_value(None)
                else:
                    value = raw.get("value")
                    if value is None:
                        raise _Bail
                    if type(value) is not int:
                        value = _number(value)
                    if low is not None and not low <= value <= high:  # type: ignore[operator]
                        raise _Bail
                    kind = LEAF
                    append_value(value)
                    append_leaf(value)
            elif raw_type is int:
                kind = LEAF
                if low is not None and not low <= raw <= high:  # type: ignore[operator]
                    raise _Bail
                append_value(raw)
                append_leaf(raw)
            elif raw_type is list:
                if not raw:
                    raise _Bail
                children = raw
                kind = MIN if code & 7 == MAX else MAX
                append_value(None)
            else:
                value = _number(raw)
                if low is not None and not low <= value <= high:  # type: ignore[operator]
                    raise _Bail
                kind = LEAF
                append_value(value)
                append_leaf(value)
            append_kind(kind)
            if children is None:
                append_count(0)
            else:
                n_children = len(children)
                append_count(n_children)
                start = len(raws)
                if start + n_children > max_nodes:
                    raise _Bail
                extend_raws(children)
                if kind == CHANCE:
                    chance_probs.append((start, _probabilities(children, known_shares)))
                    inherit += bytes((code & 7 | _UNDER_CHANCE,)) * n_children
                else:
                    inherit += bytes((kind if kind != LEAF else code & 7,)) * n_children
            node += 1
    finally:
        holder.clear()
        raws.clear()

    n = len(kinds)
    if n < SMALL_TREE:
        return _small_tree(kinds, counts, values, evals, moves, chance_probs, players, total, bounds, title, source)
    # the Tree's arrays, filled in place through NumPy views (no temporary copies: peak memory)
    count = array("q", counts)
    del counts
    count_np = np.frombuffer(count, dtype=np.int64)
    first = array("q", bytes(8 * n))
    first_np = np.frombuffer(first, dtype=np.int64)
    # breadth-first numbering: a node's children follow those of every node before it
    np.cumsum(count_np, out=first_np)
    first_np -= count_np
    first_np += 1
    leaves = np.flatnonzero(count_np == 0)
    first_np[leaves] = 0
    player = array("h", np.asarray(_PLAYER_OF_KIND, dtype=np.int16)[np.frombuffer(kinds, dtype=np.uint8)].tobytes())
    prob: list[Number | None] | None = None
    if chance_probs:
        prob = [None] * n
        for start, shares in chance_probs:
            prob[start : start + len(shares)] = shares
    tree = Tree(
        kind=kinds,
        first=first,
        count=count,
        value=values,
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
    numeric = numeric_from_leaves(tree, leaf_values, leaves)
    if numeric is None and any(type(v) is int and not -INTEGER_BOUND < v < INTEGER_BOUND for v in leaf_values):
        raise _Bail  # a leaf beyond int64 was not checked in the loop: the general builder refuses it
    del leaf_values
    if numeric is not None:
        # the values live on in the NumPy array alone: the list and a Python number per leaf
        # (~40 bytes a leaf) go with the document
        present = np.zeros(n, dtype=bool)
        present[leaves] = True
        tree.value = LazyValues(numeric.leaf, numeric.denominator if numeric.exact else 1, present)  # type: ignore[assignment]
    return tree


def _small_tree(kinds: bytearray, counts: list[int], values: list[Value | None], evals: dict[int, Value],
                moves: dict[int, str], chance_probs: list[tuple[int, list[Number]]], players: tuple[str, ...],
                total: Number | None, bounds: tuple[Number, Number] | None, title: str | None,
                source: Source | None) -> Tree:
    """The same tree without NumPy, for a small file: loading NumPy would cost more than the whole run."""
    if any(type(value) is int and not -INTEGER_BOUND < value < INTEGER_BOUND for value in values):
        raise _Bail  # as the NumPy path: a leaf beyond int64 goes to the general builder, which refuses it
    n = len(kinds)
    first, following = array("q", bytes(8 * n)), 1
    for node, children in enumerate(counts):
        if children:
            first[node] = following
            following += children
    prob: list[Number | None] | None = None
    if chance_probs:
        prob = [None] * n
        for start, shares in chance_probs:
            prob[start : start + len(shares)] = shares
    return Tree(kind=kinds, first=first, count=array("q", counts), value=values,
                player=array("h", [_PLAYER_OF_KIND[kind] for kind in kinds]), prob=prob, evals=evals, moves=moves,
                players=players, total=total, bounds=bounds, title=title, source=source)


def _probabilities(children: list[Any], known: dict[tuple[Any, ...], list[Number]] | None = None) -> list[Number]:
    """A chance node's edge probabilities, as the general builder computes them.

    ``known`` remembers the shares of each distinct list of ``p`` as written (with their
    types: 1 and 1.0 differ), so a generated tree's million edges with a handful of
    distinct lists (``"1/10"``, ``"1/5"``, ...) are parsed and summed once per list.
    """
    given = [child.get("p") if type(child) is dict else None for child in children]
    if known is not None and 0 not in given:  # (0.0 and -0.0 would share a key)
        key = (*given, *map(type, given))
        shares = known.get(key)
        if shares is None:
            shares = known[key] = _probabilities(children)
        return shares
    n_given = sum(p is not None for p in given)
    if n_given == 0:
        from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

        share = Fraction(1, len(children))
        return [1 if share == 1 else share] * len(children)
    if n_given != len(given):
        raise _Bail
    shares = [_number(p) for p in given]
    if any(p < 0 for p in shares):
        raise _Bail
    total = sum(shares)
    if isinstance(total, float):
        if not math.isclose(total, 1.0, rel_tol=1e-9, abs_tol=1e-9):
            raise _Bail
    elif total != 1:
        raise _Bail
    return shares
