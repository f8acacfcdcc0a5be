"""The rules of a tree file (contract section 1), checked on a decoded ``.gtb`` file.

Why: the binary reader skips :func:`~gametree_cli.io.document.build_tree`
(its speed is the point), and the builder's checks are what lets the
searches and views trust a tree. Without them a damaged or hand-made
``.gtb`` hands them trees no text file can describe (a child numbered before
its parent, a number where a payoff vector belongs, probabilities summing to
2, a float NaN) and they crash, loop, or write files gametree cannot read
back. Found by fuzzing (tests/test_fuzz.py).

Arrays are checked with NumPy (milliseconds for a million nodes); the
sparse parts the file keeps as JSON (payoff vectors, evals, labels,
opponent models) go through the builder's own rules, item by item.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..core.lazy import lazy_module
np = lazy_module("numpy")  # not on a plain read (io/gtb_plain.py)

from ..core.errors import TreeFormatError
from ..core.model import CHANCE, LEAF, MAX, MIN, PLAYER, Tree
from ..core.numbers import Number, format_number, parse_number
from ..core.numeric import LIMIT
from .document import _Builder

__all__ = ["Damaged", "check_header", "array_dtype", "check_shape", "check_numeric_values",
           "check_probability_sums", "check_tree"]

#: makes the error for a damaged file from what is wrong
Damaged = Callable[[str], TreeFormatError]

#: the element types :func:`~gametree_cli.io.binary_encode.encode_binary` writes
_DTYPES = frozenset({"|u1", "|i1", "<i2", "<i4", "<i8", "<f8"})
#: how every default id ends (``B.3``, ``2``): only an explicit id ending so can clash with one
_DEFAULT_ID_END = re.compile(r"[.\n][1-9][0-9]*\n")  # searched in the ids joined by (and around) newlines
#: header keys holding JSON lists, when present
_LISTS = ("players", "values_json", "prob_json", "move_labels", "id_labels", "evals", "extra")


def check_header(header: Any, damaged: Damaged) -> None:
    """The JSON header has the shape :func:`encode_binary` gives it (types only)."""
    if not isinstance(header, dict) or not isinstance(header.get("arrays"), dict):
        raise damaged("the header is not a mapping with an array directory")
    nodes = header.get("nodes")
    if not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1:
        raise damaged("the header's node count is not a positive integer")
    for key in _LISTS:
        if key in header and not isinstance(header[key], list):
            raise damaged(f"the header's {key} is not a list")
    players = header.get("players")
    if players is None or len(players) < 2 or not all(isinstance(name, str) for name in players) \
            or len(set(players)) != len(players):
        raise damaged("players must be a list of at least two different names")
    if not isinstance(header.get("vector_payoffs", False), bool):
        raise damaged("vector_payoffs is not true or false")
    if header.get("title") is not None and not isinstance(header["title"], str):
        raise damaged("the title is not text")
    bounds = header.get("bounds")
    if bounds is not None and (not isinstance(bounds, list) or len(bounds) != 2):
        raise damaged("bounds is not a list [lowest, highest]")


def array_dtype(name: str, entry: Any, damaged: Damaged) -> np.dtype:
    """The element type of one array of the directory; only those the writer uses, integers but for values."""
    if not isinstance(entry, dict) or entry.get("dtype") not in _DTYPES:
        raise damaged(f"array {name} has no known element type")
    for key in ("length", "offset"):
        if not isinstance(entry.get(key), int) or isinstance(entry[key], bool) or entry[key] < 0:
            raise damaged(f"array {name}'s {key} is not a non-negative integer")
    dtype = np.dtype(entry["dtype"])
    if (dtype.kind == "f" and name != "value") or (name == "kind") != (dtype.kind == "u"):
        raise damaged(f"array {name} has the wrong element type")
    return dtype


def check_shape(kind: np.ndarray, player: np.ndarray | None, n_players: int, vector: bool, damaged: Damaged) -> None:
    """Kinds and players that agree (``player`` None: none stored, each follows from its kind)."""
    if not vector and player is None:  # the usual two-player file: one pass, no mask (PLAYER is the highest kind)
        if len(kind) and int(kind.max()) >= PLAYER and (kind == PLAYER).any():
            raise damaged("a player node in a two-player tree")
        return
    decision = kind == PLAYER
    if vector and ((kind == MAX) | (kind == MIN)).any():
        raise damaged("a max/min node in a tree of payoff vectors")
    if not vector and decision.any():
        raise damaged("a player node in a two-player tree")
    if player is None:
        return
    expected = np.array([-1, 0, 1, -1, -1], dtype=np.int64)[kind]
    if not vector:  # no player node (checked above): every player follows from its kind
        if (player != expected).any():
            raise damaged("a player number does not fit its node")
        return
    if (player[~decision] != expected[~decision]).any() or ((player[decision] < 0) | (player[decision] >= n_players)).any():
        raise damaged("a player number does not fit its node")


def check_numeric_values(values: np.ndarray, denominator: int, bounds: tuple[Number, Number] | None,
                         damaged: Damaged) -> None:
    """Leaf values as stored (the file's array, leaves only): finite, within int64 headroom, within ``bounds``.

    Read from their lowest and highest: one pass each, no mask (``abs`` would also wrap at -2**63)."""
    if not len(values):
        return
    if values.dtype.kind == "f":
        if not np.isfinite(values).all():
            raise damaged("a leaf value is not a finite number")
        low, high = float(values.min()), float(values.max())
    else:
        lowest, highest = int(values.min()), int(values.max())
        if lowest <= -LIMIT or highest >= LIMIT:
            raise damaged("a leaf value is too large")
        if bounds is None:
            return
        from fractions import Fraction  # here, not at the top: a tree of integers needs no fractions (start-up)

        low, high = Fraction(lowest, denominator), Fraction(highest, denominator)
    if bounds is not None and not (bounds[0] <= low and high <= bounds[1]):
        raise damaged(f"a leaf value is outside the declared bounds [{format_number(bounds[0])}, {format_number(bounds[1])}]")


def check_probability_sums(numerators: np.ndarray, denominator: int, chance: np.ndarray, first: np.ndarray,
                           count: np.ndarray, damaged: Damaged) -> None:
    """Exact edge probabilities: each at least 0, and each chance node's sum to 1.

    Summed in int64 and, to catch a sum that wrapped around, in float64 too.
    """
    if not len(chance):
        return
    sizes = count[chance]
    within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    shares = numerators[np.repeat(first[chance], sizes) + within].astype(np.int64)
    if (shares < 0).any():
        raise damaged("a probability is negative")
    starts = np.cumsum(sizes) - sizes
    exact = np.add.reduceat(shares, starts)
    approximate = np.add.reduceat(shares.astype(np.float64), starts)
    if (exact != denominator).any() or (np.abs(approximate - denominator) > 1e-6 * denominator).any():
        raise damaged("the probabilities of a chance node do not sum to 1")


class _Rules(_Builder):
    """The tree builder's per-node rules (values, p, ids), applied to a decoded tree.

    Only ``fail`` differs: an error names the node of the decoded tree and
    says the file is damaged.
    """

    def __init__(self, tree: Tree) -> None:
        super().__init__(None, len(tree), False)
        self.tree = tree
        self.players = tree.players
        self.total = tree.total
        self.bounds = tree.bounds
        self.explicit = tree.explicit_ids

    def fail(self, node: int, message: str, cls: type = TreeFormatError) -> Exception:
        return self.tree.error(TreeFormatError, f"damaged .gtb file: {message}", node)


def check_tree(tree: Tree, raw_values: list[Any] | None, raw_probabilities: list[Any] | None,
               raw_evals: list[Any], raw_extra: list[Any], damaged: Damaged) -> None:
    """Convert and check the JSON-held parts of a decoded tree, in place, by the builder's rules.

    Args:
        tree: the decoded tree; its ``value`` holds ``raw_values`` entries
            still unconverted when those are given.
        raw_values: the header's ``values_json`` (None: values came as an array).
        raw_probabilities: the header's ``prob_json`` (None: none, or an array).
        raw_evals, raw_extra: the header's ``evals`` and ``extra`` lists.
    """
    rules = _Rules(tree)
    n = len(tree)
    nplayer = tree.is_nplayer
    n_players = len(tree.players)
    kind, count, first = tree.kind, tree.count, tree.first
    if raw_values is not None:
        values = tree.value
        for node in range(n):
            if not count[node]:
                values[node] = rules._leaf_value(node, values[node], n_players, nplayer)
    if CHANCE in kind and tree.prob is None:
        raise damaged("chance nodes without probabilities")
    if raw_probabilities is not None:
        if len(raw_probabilities) != n:
            raise damaged("probabilities of the wrong size")
        prob: list[Number | None] = [None] * n
        for node in range(n):
            if kind[node] == CHANCE:
                start = first[node]
                children = [{"p": raw_probabilities[child]} for child in range(start, start + count[node])]
                prob[start:start + count[node]] = rules._probabilities(node, children, start)
        tree.prob = prob
    for entry in raw_evals:
        node = _node_number(entry, n, damaged)
        if not count[node]:
            raise damaged("an eval on a leaf")
        tree.evals[node] = rules._leaf_value(node, entry[1], n_players, nplayer, what="eval")
    for entry in raw_extra:
        node = _node_number(entry, n, damaged)
        facts = entry[1]
        if not isinstance(facts, dict) or set(facts) - {"random"} or not isinstance(facts.get("random"), dict):
            raise damaged("per-node facts other than an opponent model (random)")
        if kind[node] in (LEAF, CHANCE):
            raise rules.fail(node, "random (an opponent model) belongs on a decision node")
        try:
            share = parse_number(facts["random"].get("number"))
        except ValueError as error:
            raise rules.fail(node, f"random: {error}") from None
        if not 0 <= share <= 1:
            raise rules.fail(node, f"random must be between 0 and 1, found {format_number(share)}")
        tree.extra[node] = {"random": share}
    names = list(tree.explicit_ids.values())
    try:
        joined = "\n" + "\n".join(names) + "\n"
    except TypeError:
        raise damaged("a node id is not text") from None
    unique = set(names)
    if "" in unique or len(unique) != len(names):
        raise damaged("node ids are empty or given twice")
    if "root" in unique or _DEFAULT_ID_END.search(joined):  # else no id can be a default one
        rules._check_default_id_clashes(tree)


def _node_number(entry: Any, n: int, damaged: Damaged) -> int:
    if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], int) or not 0 <= entry[0] < n:
        raise damaged("a per-node entry names no node of the tree")
    return entry[0]
