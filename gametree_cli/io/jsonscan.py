"""Read a plain two-player JSON tree file straight into the flat arrays (the compiled scanner).

Why: ``json.loads`` makes a dict per node (~260 bytes) that the fast builder
(:mod:`~gametree_cli.io.fastbuild`) reads once and throws away; for a big
file that is most of the load time and all of the peak memory. The scanner
(:mod:`.scan_order`, :mod:`.scan_kernel`, :mod:`.scan_lexer`: Cython's
pure-Python mode, compiled by setup.py when a C compiler is there) reads the
text once into the arrays, with no Python object per node. Uncompiled it
gives the same answers far slower than json.loads, so it is used only
compiled (:data:`COMPILED`); otherwise json.loads reads every file.

It accepts node mappings with the keys type/children/value/move/p/eval/
comment/label (p a number or an "a/b" string, read exactly: :mod:`.scan_share`), bare numbers, nested lists (the compact form), a top-level
mapping with root and title/description/comment/players/sum/bounds/
general_sum/$schema (their values come back as JSON text for
:func:`two_player_header`), a bare node mapping, a list or a number. It
stops at anything else: an unknown or repeated key, a string where a number
goes, an integer beyond int64, integer leaves mixed with decimals, NaN,
invalid UTF-8, a syntax error, an empty list, probabilities that do not sum
to 1, more than max_nodes nodes, ...

It accepts only files fast_build would build, and builds the same tree (the
tests compare every field). Whatever it is not sure of, valid or not, it
leaves to the json.loads path (:func:`scan_tree` returns None), which builds
the tree or reports the error with file:line. :func:`scan_or_decline` also
says why and where it stopped (:class:`Declined`): often at the mistake of a
bad file, which :mod:`~gametree_cli.io.partial` then words from the few
nodes around it, without the json.loads path.
"""

from __future__ import annotations

import json
from typing import NamedTuple, Sequence

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.buffers import typed_view
from ..core.model import Source, Tree
from ..core.numeric import LazyValues, int64_view, numeric_from_array
from .document import two_player_header

from . import scan_kernel, scan_lexer, scan_order, scan_share

__all__ = ["scan_tree", "scan_or_decline", "check_scan", "Declined", "ID_REASON", "NOT_MISTAKES", "AVAILABLE",
           "COMPILED"]

#: Whether the scanner runs compiled (all four of its modules: setup.py's Cython extensions).
COMPILED = bool(scan_lexer.COMPILED and scan_share.COMPILED and scan_kernel.COMPILED and scan_order.COMPILED)
#: Whether the loader uses the scanner: only compiled (uncompiled, json.loads is much faster).
AVAILABLE = COMPILED
_scan = scan_order.scan if AVAILABLE else None
#: Why the scanner stops at an ``id`` key: a valid key it cannot build (:func:`check_scan` reads on).
ID_REASON = "an id"
#: Why the scanner stops where no rule is broken, or where reading the nodes around would not pay
#: (millions of levels, more nodes than allowed): the whole file decides.
NOT_MISTAKES = frozenset({"integer and decimal leaves mixed", "nested too deeply", "more nodes than max_nodes",
                          "too many children", scan_order.DENOMINATOR_REASON, *scan_share.LONG_REASONS})
_WHERE, _CHECK = scan_order.WHERE, scan_order.CHECK  # scan's modes: bail with where; check only, reading ids


class Declined(NamedTuple):
    """Why and where the scanner left a file to the json.loads path."""

    reason: str
    #: where the scan stood, in bytes of the UTF-8 text (-1: found after the scan, e.g. probabilities)
    offset: int
    #: child positions from the root to the node it was reading
    path: tuple[int, ...]


def scan_tree(text: str | bytes, *, source: Source | None, max_nodes: int) -> Tree | None:
    """The tree of a plain two-player JSON file, or None (no scanner, or a file it leaves to json.loads)."""
    found = scan_or_decline(text, source=source, max_nodes=max_nodes)
    return found if isinstance(found, Tree) else None


def check_scan(text: str | bytes, max_nodes: int) -> Declined | None:
    """Where the scanner stops when it reads ``id`` keys instead of stopping at them (None: nowhere).

    Nothing is built: this looks past the ids of a named tree for the first
    node the scanner would refuse (:mod:`~gametree_cli.io.partial`).
    """
    if _scan is None:
        return None
    found = _scan(text, max_nodes, _CHECK)
    return None if found is None else Declined(*found)


def scan_or_decline(text: str | bytes, *, source: Source | None, max_nodes: int) -> Tree | Declined | None:
    """The tree of a plain two-player JSON file; or why and where the scanner left it; None: no scanner."""
    if _scan is None:
        return None
    found = _scan(text, max_nodes, _WHERE)
    if len(found) == 3:  # (why, offset, path): it bailed
        return Declined(*found)
    kind, count_bytes, first_bytes, player_bytes, leaf_bytes, is_float, prob, prob_exact, evals, moves, header = found
    del found
    try:  # title, players, sum, bounds, general_sum: scalars and lists, as JSON text
        fields = {key: json.loads(value) for key, value in header.items()}
    except ValueError:
        return Declined("a header value json.loads refuses", -1, ())
    head = two_player_header(fields)
    if head is None:
        return Declined("a header of more than two players, or a wrong one", -1, ())
    players, total, bounds, title = head
    # the scanner's NumPy memory seen as the Tree's typed columns, not copied (core/buffers.typed_view)
    count, first, player = typed_view(count_bytes, "q"), typed_view(first_bytes, "q"), typed_view(player_bytes, "h")
    del count_bytes, first_bytes, player_bytes
    leaf = np.frombuffer(leaf_bytes, dtype=np.float64 if is_float else np.int64)
    present = int64_view(count) == 0
    if bounds is not None:
        low, high = bounds
        values = leaf[present]
        if not (low <= values.min().item() and values.max().item() <= high):  # the builder names the first
            outside = np.flatnonzero(present & ((leaf < low) | (leaf > high)))
            return Declined("a leaf outside the bounds", -1, _path(count, first, int(outside[0])))
    tree = Tree(
        kind=kind,
        first=first,  # type: ignore[arg-type]  # (Tree: any int64 sequence; see buffers.typed_view)
        count=count,  # type: ignore[arg-type]
        value=LazyValues(leaf, 1, present),  # type: ignore[arg-type]
        player=player,  # type: ignore[arg-type]
        prob=prob,
        evals=evals,
        moves=moves,
        players=players,
        total=total,
        bounds=bounds,
        title=title,
        source=source,
    )
    if prob_exact is not None:  # numerators over one denominator, and which p were decimals: the scanner's
        numerators, denominator, decimal = prob_exact
        prob_exact = (np.frombuffer(numerators, dtype=np.int64), denominator,
                      None if decimal is None else np.frombuffer(decimal, dtype=np.bool_))
    numeric_from_array(tree, leaf, exact_prob=prob_exact)
    return tree


def _path(count: Sequence[int], first: Sequence[int], node: int) -> tuple[int, ...]:
    """Child positions from the root to breadth-first ``node``: its parent is the inner
    node whose children start last at or before it."""
    inner = np.flatnonzero(int64_view(count) > 0)
    starts = int64_view(first)[inner]
    steps: list[int] = []
    while node > 0:
        parent = int(inner[np.searchsorted(starts, node, side="right") - 1])
        steps.append(node - first[parent])
        node = parent
    return tuple(reversed(steps))
