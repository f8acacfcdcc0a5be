"""The record of one search: what every view (tree, JSON, stats, check) reads.

A search fills one :class:`SearchRecord`; nothing downstream searches again.
Per-node facts are arrays indexed by node (or by visit position, for a
pruning search that visited few nodes), kept in :class:`~gametree_cli.core.columns.Column`\\ s,
and read through one small API, so that no view needs to know which search
made the record or how it stored it:

* one node: ``values[node]``, :meth:`~SearchRecord.bounds`, :meth:`~SearchRecord.cut`,
  :meth:`~SearchRecord.at_horizon`, :meth:`~SearchRecord.bound_kind`;
* a chunk of nodes (writers): :meth:`~SearchRecord.visited_mask`,
  :meth:`~SearchRecord.value_codes`, :meth:`~SearchRecord.marked_mask`,
  :meth:`~SearchRecord.bounds_of`, :meth:`~SearchRecord.bound_codes`;
* the answer: :meth:`~SearchRecord.best_move`, :meth:`~SearchRecord.best_moves`,
  :meth:`~SearchRecord.principal_variation`, :meth:`~SearchRecord.visit_order`;
* the public side: :meth:`~SearchRecord.node_id` and :meth:`~SearchRecord.move`,
  the one place node numbers become the ids and moves users see.

Searches that build Python values (chance nodes, n-player vectors) hand over lists and
dicts; the record wraps them in the same columns: views never branch on how it is stored.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Any, Iterable, Sequence

from ..core.lazy import lazy_module
np = lazy_module("numpy")
from ..core.buffers import as_numpy, flagged, pick
from ..core.columns import BoundMap, Column
from ..core.model import CHANCE, MAX, MIN, Tree
from ..core.numbers import Value
from .settled import Settled, settle_flags
from .record_facts import CUT, EXACT, HORIZON, LOWER, ONE_CUT_FROM, UPPER, Cut, Stats, cut_reasons, one_cut, skipped_children

__all__ = ["Stats", "Cut", "SearchRecord", "EXACT", "LOWER", "UPPER", "CUT", "HORIZON"]

class SearchRecord:
    """Everything one run of an algorithm found out.

    Attributes:
        algorithm, tree, value, stats, depth_limit, options: as named.
        values: per node, the value the search gave it (None where it never went).
        alpha, beta: node -> the bound in force when it returned (pruning searches), or None.
        flags: per slot of ``values``, the bits EXACT/LOWER/UPPER, CUT and HORIZON
            (the depth-first search fills them; None for records made from lists).
        best: decision node -> the child it chose, when the search said so.
        bound: shallow pruning only: inner node -> the Bound it was searched with.
        engine: which path made it: ``"search"`` (the depth-first search) or ``"sweep"``
            (the NumPy level sweep); ``python_levels``: how many top levels the sweep
            left to the Python rules (int64 would have overflowed there).
    """

    engine = "search"
    python_levels = 0

    def __init__(
        self,
        algorithm: str,
        tree: Tree,
        value: Value | None,
        values: Column | Sequence[Value | None],
        best: dict[int, int] | None = None,
        pruned: Sequence[int] | None = None,
        stats: Stats | None = None,
        alpha: Column | Mapping[int, Value] | None = None,
        beta: Column | Mapping[int, Value] | None = None,
        cuts: dict[int, Cut] | None = None,
        horizon: set[int] | None = None,
        order: Sequence[int] | None = None,
        depth_limit: int | None = None,
        options: dict[str, Any] | None = None,
        bound: dict[int, Value] | None = None,
        *,
        flags: np.ndarray | None = None,
        cut_at: np.ndarray | None = None,
        child_order: Any = None,
    ) -> None:
        size = len(tree.kind)
        self.algorithm, self.tree, self.value = algorithm, tree, value
        self.values = values if isinstance(values, Column) else Column.items(size, values)  # type: ignore[arg-type]
        self._alpha = alpha if isinstance(alpha, Column) or alpha is None else Column.items(size, alpha)
        self._beta = beta if isinstance(beta, Column) or beta is None else Column.items(size, beta)
        self.best = best
        self.stats = stats or Stats()
        self.depth_limit = depth_limit
        self.options = options if options is not None else {}
        self.bound = bound
        self.flags = flags
        self._pruned = pruned
        #: the depth-first search's cut nodes, in the order they cut, and the next search position there
        self._cut_at = cut_at
        self._child_order = child_order
        #: as given (searches that build Python values), else derived from the flags once asked
        self._cuts, self._derived_cuts = cuts, None if cuts is None else cuts
        self._horizon, self._derived_horizon = horizon, None if horizon is None else horizon
        self._order = order
        #: Star2 only: probed node -> (the bound its probe gave: "lower", "upper" or None, the probe's value)
        self.probes: dict[int, tuple[str | None, Value]] | None = None
        if flags is not None:  # the flags' alpha = beta nodes settled once, before any view reads them
            settle_flags(self)

    # -- the columns as the dicts and lists they replace ---------------------------------

    @property
    def alpha(self) -> BoundMap | None:
        return BoundMap(self._alpha) if self._alpha is not None else None

    @property
    def beta(self) -> BoundMap | None:
        return BoundMap(self._beta) if self._beta is not None else None

    @property
    def order(self) -> list[int] | None:
        """Nodes in the order first entered; None for exhaustive sweeps (the tree order)."""
        if self._order is not None and not isinstance(self._order, list):
            self._order = self._order.tolist() if hasattr(self._order, "tolist") else list(self._order)
        return self._order  # type: ignore[return-value]

    @property
    def pruned(self) -> list[int]:
        """Topmost nodes never visited because of a cut, in tree order."""
        if self._pruned is None:
            self._pruned = self._pruned_from_cuts()
        elif not isinstance(self._pruned, list):
            self._pruned = list(self._pruned)
        return self._pruned

    @property
    def cuts(self) -> dict[int, Cut]:
        """node -> why its remaining children were skipped."""
        if self._derived_cuts is None:
            self._derived_cuts = self._cuts_from_flags()
        return self._derived_cuts

    def cut_nodes(self) -> np.ndarray | None:
        """:attr:`cuts`' nodes as flagged (int64), for views wording many cuts at once; None: see :attr:`cuts`."""
        if self._cuts is not None or self.flags is None or self._alpha is None or self._beta is None:
            return None
        return as_numpy(self._flagged(CUT))

    @property
    def horizon(self) -> set[int]:
        """Nodes evaluated by ``eval`` because the depth limit stopped there."""
        if self._derived_horizon is None:
            self._derived_horizon = set(self._flagged(HORIZON).tolist())
        return self._derived_horizon

    # -- one node ------------------------------------------------------------------------

    def visited(self, node: int) -> bool:
        return self.values[node] is not None

    def bounds(self, node: int) -> tuple[Value, Value] | None:
        """``(alpha, beta)`` the node returned with, or None (no bounds, or not visited)."""
        if self._alpha is None or self._beta is None:
            return None
        low = self._alpha[node]
        return None if low is None else (low, self._beta[node])

    def cut(self, node: int) -> Cut | None:
        if self._derived_cuts is None and self.flags is not None and len(self.values) >= ONE_CUT_FROM:
            return one_cut(self, node)  # a big tree's text view asks for a few: not every cut worded
        return self.cuts.get(node)

    def at_horizon(self, node: int) -> bool:
        return node in self.horizon

    def bound_kind(self, node: int) -> int:
        """EXACT, LOWER, UPPER or LOWER | UPPER (a bound, side unknown) for a visited node: the one rule.
        The depth-first search's flags (the window; alpha = beta settled by :func:`~.settled.settle_flags`);
        Star1/Star2 (``bounds`` in options): what the visited part settles (:class:`~.settled.Settled`),
        a cut keeping its side; others: exact when nothing was cut or clamped (``--variant hard``)."""
        if self.flags is not None:
            slot = node if self.values.slot_of is None else int(self.values.slot_of[node])
            return int(self.flags[slot]) & (LOWER | UPPER)
        side = self._side_of_cut(node)
        if side is None and self.stats.cutoffs == 0 and not self._pruned and self.options.get("variant") not in ("hard", "practical"):
            return EXACT
        if self.options.get("bounds") is not None and not self.tree.vector_payoffs:
            kind = Settled.of(self).kind(node)
            return side if side is not None and (kind == EXACT or kind & side) else kind
        return side if side is not None else LOWER | UPPER

    def _side_of_cut(self, node: int) -> int | None:
        """LOWER or UPPER at a cut node of a record without flags: the bound its cut returned."""
        cut = self.cut(node)
        if cut is None or self.tree.count[node] == 0 or self.at_horizon(node):
            return None
        if cut.value_name in ("upper", "probed upper"):  # Star1/Star2 at a chance node: the bound that met the window
            return UPPER
        if cut.value_name in ("lower", "probed lower"):
            return LOWER
        kind = self.tree.kind[node]
        return LOWER if kind == MAX else UPPER if kind == MIN else None

    def skipped_nothing(self, node: int) -> bool:
        """A cut at the node's last child: counted in ``stats.cutoffs`` (as course traces count it),
        but no child was left to prune; views say the bound was reached there, not "pruned"."""
        cut = self.cut(node)
        if cut is None or cut.value_name.startswith("probed"):  # Star2: the probes' cut prunes the probed children's rest
            return False
        values = self.values
        return all(values[child] is not None for child in self.tree.children(node))

    # -- chunks of nodes (writers) ------------------------------------------------------------

    def bound_kinds(self, nodes: np.ndarray) -> np.ndarray | None:
        """Per node of ``nodes`` (int64) its :meth:`bound_kind` bits (EXACT where never visited), in bulk;
        for a record without flags, the sides of its cut nodes (None when it has none)."""
        if self.flags is None:
            if not self.cuts:
                return None
            return np.fromiter((self.bound_kind(node) if self.values[node] is not None else 0 for node in nodes.tolist()),
                               dtype=np.uint8, count=len(nodes))
        slots = self.values.slots(nodes)
        kinds = np.zeros(len(nodes), dtype=np.uint8)
        here = slots >= 0
        kinds[here] = as_numpy(self.flags)[slots[here]] & (LOWER | UPPER)
        return kinds

    def visited_mask(self, nodes: np.ndarray) -> np.ndarray:
        return self.values.has(nodes)

    def value_codes(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """See :meth:`Column.codes`; :meth:`decode_values` turns the codes back into values."""
        return self.values.codes(nodes)

    def decode_values(self, codes: np.ndarray) -> list[Value]:
        return self.values.decode_many(codes)

    def marked_mask(self, nodes: np.ndarray) -> np.ndarray:
        """Per node of ``nodes``: has alpha/beta, a cut or the horizon mark (what makes its entry its own)."""
        marked = np.zeros(len(nodes), dtype=bool)
        if self._alpha is not None:
            marked |= self._alpha.has(nodes)
        if self.flags is not None and self._cuts is None and self._horizon is None:
            slots = self.values.slots(nodes)
            here = slots >= 0
            marked[here] |= (as_numpy(self.flags)[slots[here]] & (CUT | HORIZON)) != 0
            return marked
        for facts in (self.cuts, self.horizon):
            if facts:
                marked |= np.fromiter(map(facts.__contains__, nodes.tolist()), dtype=bool, count=len(nodes))
        return marked

    def bounds_of(self, nodes: np.ndarray) -> tuple[np.ndarray, list[Value], list[Value]]:
        """``(has, alphas, betas)``: which of ``nodes`` have bounds, and those bounds in bulk."""
        if self._alpha is None or self._beta is None:
            return np.zeros(len(nodes), dtype=bool), [], []
        has = self._alpha.has(nodes)
        return has, self._alpha.take(nodes[has]), self._beta.take(nodes[has])

    def bound_codes(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """``(positions, alpha codes, beta codes)``: the positions in ``nodes`` of those with bounds, and
        their bounds as :meth:`Column.codes` (equal codes: the same bound printed alike); None when the
        bounds are not kept in arrays (or not at all). :meth:`decode_bounds` turns the codes back."""
        if self._alpha is None or self._beta is None:
            return None
        alphas, betas = self._alpha.codes(nodes), self._beta.codes(nodes)
        if alphas is None or betas is None or not np.array_equal(alphas[0], betas[0]):
            return None
        return alphas[0], alphas[1], betas[1]

    def decode_bounds(self, alpha_codes: np.ndarray, beta_codes: np.ndarray) -> tuple[list[Value], list[Value]]:
        assert self._alpha is not None and self._beta is not None
        return self._alpha.decode_many(alpha_codes), self._beta.decode_many(beta_codes)

    # -- the answer ----------------------------------------------------------------------------

    def visit_order(self) -> list[int]:
        """Visited nodes, each once, in the order first entered."""
        order = self.order
        return order if order is not None else list(self.tree.preorder(self.depth_limit))

    def best_child(self, node: int) -> int | None:
        """The child ``node`` chose (first best on a tie), or None (leaf, chance node, horizon, none chosen).

        With source columns: the child on the way down to the node's source.
        A value reaches a node only through the child it chose, or from above
        as a bound (fail-hard), in which case the source is not below the
        node and no child was chosen.
        """
        tree, column = self.tree, self.values
        target: Any = self._source(node) if column.tree is not None else column[node]
        if target is None or tree.count[node] == 0 or tree.kind[node] == CHANCE or node in self.horizon:
            return None
        if self.best is not None:
            return self.best.get(node)
        start, end = tree.first[node], tree.first[node] + tree.count[node]
        if column.tree is not None:  # children have larger numbers than their parent
            parent = tree.parent_lookup()
            while target > node and parent[target] != node:
                target = parent[target]
            return target if start <= target < end else None
        for child in range(start, end):
            if column[child] == target:
                return child
        return None

    def principal_variation(self) -> list[int]:
        """Nodes from the root's chosen child down, while there is a choice."""
        column = self.values
        if column.tree is not None and self.best is None:  # the path down to the root value's source
            source, parent, path = self._source(0), self.tree.parent_lookup(), []
            while source is not None and 0 < source < len(self.tree.kind):
                path.append(source)
                source = parent[source]
            return path[::-1] if source == 0 else []
        line: list[int] = []
        node = 0
        while True:
            child = self.best_child(node)
            if child is None:
                return line
            line.append(child)
            node = child

    def best_move(self) -> int | None:
        """The root's chosen child, or None when the root is a leaf."""
        return self.best_child(0)

    def best_moves(self) -> list[int] | None:
        """Every root child as good as the chosen one for the player at the root, in file order;
        None when this search's values cannot tell.

        Taken from this record alone: an exhaustive search knows every root
        child's exact value; a pruning search knows some only as bounds
        (:meth:`bound_kind`), and can tell only when each other root child's
        bound rules a tie out. A second search would answer, but it would not
        be the search that was asked for.
        """
        tree = self.tree
        chosen = self.best_move()
        if chosen is None:
            return []
        if self.flags is None and self.stats.cutoffs:  # Star1, Star2, shallow: only when nothing was cut
            return None
        target = self.values[chosen]
        who = tree.player[0] if isinstance(target, tuple) and tree.player[0] >= 0 else None
        best = target[who] if who is not None else target  # type: ignore[index]
        moves = []
        for child in tree.children(0):
            value = self.values[child]
            if value is None:
                return None
            here = value[who] if who is not None else value  # type: ignore[index]
            kind = self.bound_kind(child)
            if kind == EXACT:
                if here == best:
                    moves.append(child)
            elif not ((kind == LOWER and here > best) or (kind == UPPER and here < best)):  # type: ignore[operator]
                return None  # the true value may equal the best one
        return moves

    # -- the public side -------------------------------------------------------------------------

    def node_id(self, node: int) -> str:
        return self.tree.node_id(node)

    def move(self, node: int) -> str:
        return self.tree.move(node)

    def moves(self, nodes: Iterable[int]) -> list[str]:
        return [self.tree.move(node) for node in nodes]

    # -- derived facts of the depth-first search ------------------------------------------------

    def _slot(self, node: int) -> int:
        slot_of = self.values.slot_of
        return node if slot_of is None else int(slot_of[node])

    def _source(self, node: int) -> int | None:
        """Where a source column's value of ``node`` came from; None where it has none."""
        slot = self._slot(node)
        return None if slot < 0 else int(self.values.data[slot])

    def _flagged(self, bit: int) -> Any:
        """Nodes whose flags have ``bit``, in visit order (int64: an ``array`` for a small tree)."""
        if self.flags is None:
            return array("q")
        slots = flagged(self.flags, bit)
        return slots if self.values.slot_of is None else pick(self._order, slots)

    def _cuts_from_flags(self) -> dict[int, Cut]:
        nodes = self._flagged(CUT)
        if not len(nodes) or self._alpha is None or self._beta is None:
            return {}
        return cut_reasons(self.tree, nodes, self.values.take(nodes), self._alpha.take(nodes),
                           self._beta.take(nodes), bool(self.options.get("strict")),
                           self.options.get("variant") in ("hard", "practical"),
                           self.options.get("variant") == "practical")

    def _pruned_from_cuts(self) -> list[int]:
        if self._cut_at is None or not len(self._cut_at):
            return []
        return skipped_children(self.tree, self._cut_at, self._child_order)
