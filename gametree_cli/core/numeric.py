"""Per-node numbers in NumPy form: what vectorised searches and the binary format share.

Why a module of its own: the loaders fill these arrays while they build a
tree (so a search on a loaded tree starts at once), the level-by-level
searches read them, and the binary format stores them; none of these
should depend on another.

Exactness is kept, never traded for speed: integers and fractions become
int64 numerators over one common denominator, decimals float64, and
anything that does not fit (payoff vectors, integers beyond int64, decimals
mixed with exact numbers) is reported as "no NumPy form" so callers keep
their Python path.
"""

from __future__ import annotations

import math
from typing import Any, Iterator, NamedTuple, Sequence, overload

from .lazy import lazy_module
np = lazy_module("numpy")

from .model import Tree
from .numbers import Number, Value, fraction_type

__all__ = ["LazyValues", "Numeric", "numeric_values", "numeric_from_leaves", "numeric_from_array",
           "int64_view", "LIMIT"]

#: numerators stay below this, so one more addition or comparison cannot overflow int64
LIMIT = 1 << 62
INT64_END = 1 << 63


def int64_view(data: Any) -> np.ndarray:
    """A NumPy int64 view of an ``array('q')`` (no copy), or a converted copy."""
    if isinstance(data, np.ndarray):
        return data.astype(np.int64, copy=False)
    if getattr(data, "itemsize", 0) == 8 and getattr(data, "typecode", "") in ("q", "l"):
        return np.frombuffer(data, dtype=np.int64)
    return np.asarray(data, dtype=np.int64)


class LazyValues(Sequence):
    """Per-node values held in a NumPy array (or an int64 memoryview: a plain tree's, core/buffers.plain_for),
    read as Python numbers on demand.

    Behaves like the ``list[Value | None]`` of :class:`~gametree_cli.search.record.SearchRecord`
    for reading: ``values[node]`` is an ``int``, ``Fraction`` or ``float``, or
    None where the search did not go (``present`` is False).

    Attributes:
        data: numerators (int64) or decimals (float64), one per node.
        denominator: for int64 data, the common denominator (1: integers).
        present: per node, whether it has a value; None means every node has.
    """

    __slots__ = ("data", "denominator", "present", "_list", "_floats", "_plain")

    def __init__(self, data: np.ndarray, denominator: int = 1, present: np.ndarray | None = None) -> None:
        self.data = data
        self.denominator = denominator
        self.present = present
        self._list: list[Value | None] | None = None
        self._plain = isinstance(data, memoryview)  # (indexed to Python numbers as they are)
        self._floats = data.format == "d" if self._plain else data.dtype.kind == "f"

    def __len__(self) -> int:
        return len(self.data)

    @property
    def floats(self) -> bool:
        """Whether the values are decimals (float64), not numerators over :attr:`denominator`."""
        return self._floats

    def _convert(self, raw: Any) -> Number:
        if self._floats:
            return float(raw)
        if self.denominator == 1:
            return int(raw)
        from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

        exact = Fraction(int(raw), self.denominator)
        return exact.numerator if exact.denominator == 1 else exact

    @overload
    def __getitem__(self, index: int) -> Value | None: ...
    @overload
    def __getitem__(self, index: slice) -> list[Value | None]: ...
    def __getitem__(self, index: Any) -> Any:
        if self._list is not None:
            return self._list[index]
        if isinstance(index, slice):
            return self.tolist(index)
        if self._plain:
            if self.present is not None and not self.present[index]:
                return None
            raw = self.data[index]
        else:
            if self.present is not None and not self.present.item(index):
                return None
            raw = self.data.item(index)  # a Python int or float, without a NumPy scalar in between
        if self.denominator == 1 or type(raw) is float:
            return raw
        from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

        exact = Fraction(raw, self.denominator)
        return exact.numerator if exact.denominator == 1 else exact

    def tolist(self, part: slice = slice(None)) -> list[Value | None]:
        """Python numbers for ``part`` of the nodes, converted in bulk."""
        if self._list is not None:
            return self._list[part]
        raw = self.data[part]
        if self._floats or self.denominator == 1:
            values: list[Any] = raw.tolist()
        else:
            from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

            denominator = self.denominator
            values = [Fraction(number, denominator) for number in raw.tolist()]
            values = [value.numerator if value.denominator == 1 else value for value in values]
        if self.present is not None:
            present = self.present[part].tolist()
            values = [value if here else None for value, here in zip(values, present)]
        return values

    def take(self, nodes: np.ndarray) -> list[Value | None]:
        """Python numbers of ``nodes`` (int64), converted in bulk."""
        if self._list is not None:
            return list(map(self._list.__getitem__, nodes.tolist()))
        if self._plain:
            return list(map(self.__getitem__, nodes.tolist() if hasattr(nodes, "tolist") else nodes))
        raw = self.data[nodes]
        values: list[Any] = raw.tolist()
        if not self._floats and self.denominator != 1:
            values = list(map(self._convert, values))
        if self.present is not None:
            values = [value if here else None for value, here in zip(values, self.present[nodes].tolist())]
        return values

    def __iter__(self) -> Iterator[Value | None]:
        step = 1 << 16
        for start in range(0, len(self.data), step):
            yield from self.tolist(slice(start, start + step))

    def __setitem__(self, index: int, value: Value | None) -> None:
        """Writable like a list (rarely needed): converts to a list once."""
        if self._list is None:
            self._list = self.tolist()
        self._list[index] = value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, LazyValues)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = ("float64" if self._floats else "int64") if self._plain else self.data.dtype
        return f"LazyValues({len(self)} nodes, {kind}, denominator={self.denominator})"


class Numeric(NamedTuple):
    """A tree's values in NumPy form, computed once per tree (``Tree._numeric``).

    Attributes:
        leaf: per node, the leaf value's numerator (int64) or decimal (float64); 0 at inner nodes.
        denominator: the common denominator of ``leaf`` when it is int64.
        prob: per node, the edge probability's numerator over ``prob_denominator``
            (int64; 0 where the parent is not a chance node; a decimal as the
            decimal written), or None when they do not fit int64, or the tree has none.
        prob_denominator: common denominator of ``prob``.
        prob_decimal: per node, whether its ``p`` was written as a decimal (its
            numerator is the decimal as written); None when none was.
        spare: when not None, int64 ``len(leaf) + 2`` long and starting with ``leaf``:
            two free slots after the leaves, where a search puts the sentinels of its
            comparison keys instead of copying the leaves (search/keys.py; the ``.gtb``
            reader gives one: 11 MB less fresh memory for 1.4 million nodes).
    """

    leaf: np.ndarray
    denominator: int
    prob: np.ndarray | None
    prob_denominator: int
    prob_decimal: np.ndarray | None = None
    spare: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        return self.leaf.format == "q" if isinstance(self.leaf, memoryview) else self.leaf.dtype.kind == "i"


def _scaled(numbers: list[Any]) -> tuple[np.ndarray, int] | None:
    """Ints and Fractions -> (int64 numerators, common denominator); None when they do not fit."""
    kinds = set(map(type, numbers))
    if kinds <= {int}:
        try:
            data = np.array(numbers, dtype=np.int64)
        except OverflowError:
            return None
        if len(data) and max(-int(data.min()), int(data.max())) >= LIMIT:  # (np.abs(-2**63) is -2**63)
            return None
        return data, 1
    from fractions import Fraction  # here, not at the top: a tree of integers never needs fractions (core/numbers.py: fraction_type)

    if not kinds <= {int, Fraction}:
        return None
    denominator = 1
    for denominator_part in {number.denominator for number in numbers if type(number) is Fraction}:
        denominator = denominator * denominator_part // math.gcd(denominator, denominator_part)
    scaled = [number * denominator if type(number) is int else number.numerator * (denominator // number.denominator)
              for number in numbers]
    if max(map(abs, scaled), default=0) >= LIMIT:
        return None
    return np.array(scaled, dtype=np.int64), denominator


def numeric_values(tree: Tree) -> Numeric | None:
    """The tree's values as NumPy arrays (cached on the tree), or None when
    they cannot be held exactly (payoff vectors, integers beyond int64,
    decimals mixed with exact numbers)."""
    cached = tree._numeric
    if isinstance(cached, Numeric) and isinstance(cached.leaf, memoryview):  # a plain tree's (io/gtb_plain.py):
        # NumPy views of the same memory, for the bulk reader that asks (the encoder, a writer)
        cached = tree._numeric = cached._replace(leaf=np.frombuffer(cached.leaf, dtype=np.int64),
                                                 spare=np.frombuffer(cached.spare, dtype=np.int64))
    if cached is not None:
        return cached if isinstance(cached, Numeric) else None
    if tree.is_nplayer:
        tree._numeric = False
        return None
    values = tree.value
    if isinstance(values, LazyValues) and values.present is None:
        count = int64_view(tree.count)
        leaf = values.data.copy()
        leaf[count > 0] = 0
        return _remember(tree, leaf, values.denominator)
    leaves = np.flatnonzero(int64_view(tree.count) == 0)
    return numeric_from_leaves(tree, list(map(values.__getitem__, leaves.tolist())), leaves)


def numeric_from_leaves(tree: Tree, picked: list[Any], leaves: np.ndarray | None = None) -> Numeric | None:
    """Like :func:`numeric_values`, from the leaf values in node order (a builder has them at hand)."""
    if leaves is None:
        leaves = np.flatnonzero(int64_view(tree.count) == 0)
    kinds = set(map(type, picked))
    if kinds <= {float}:
        leaf = np.zeros(len(tree.kind), dtype=np.float64)
        leaf[leaves] = np.array(picked, dtype=np.float64)
        return _remember(tree, leaf, 1)
    scaled = _scaled(picked)
    if scaled is None:
        tree._numeric = False
        return None
    leaf = np.zeros(len(tree.kind), dtype=np.int64)
    leaf[leaves] = scaled[0]
    return _remember(tree, leaf, scaled[1])


def numeric_from_array(tree: Tree, leaf: np.ndarray, denominator: int = 1,
                       exact_prob: tuple[np.ndarray, int, np.ndarray | None] | None = None) -> Numeric:
    """Like :func:`numeric_from_leaves`, from a per-node array a builder filled itself
    (numerators or decimals at the leaves, 0 at inner nodes: formats/jsonscan.py),
    and the exact probabilities when it worked them out too (else they are computed):
    numerators, their denominator, and which were decimals (None: none)."""
    return _remember(tree, leaf, denominator, exact_prob)


def _remember(tree: Tree, leaf: np.ndarray, denominator: int,
              exact_prob: tuple[np.ndarray, int, np.ndarray | None] | None = None) -> Numeric:
    prob, prob_denominator, prob_decimal = None, 1, None
    if tree.prob is not None:
        exact = exact_prob[:2] if exact_prob is not None else None
        prob_decimal = exact_prob[2] if exact_prob is not None else None
        kinds = set(map(type, tree.prob)) if exact is None else set()
        if exact is None and float not in kinds:
            exact = _exact_probabilities(tree.prob)
        if exact is not None:
            prob, prob_denominator = exact
        else:  # decimals among them: numerators of the decimals as written (written.py)
            from .written import written_probabilities

            written = written_probabilities(tree.prob, kinds)
            if written is not None:
                prob, prob_denominator, prob_decimal = written
    numeric = Numeric(leaf, denominator, prob, prob_denominator, prob_decimal)
    tree._numeric = numeric
    return numeric


def _exact_probabilities(prob: Sequence[Number | None]) -> tuple[np.ndarray, int] | None:
    """Edge probabilities as int64 numerators over one denominator.

    None when some are decimals, or when the numerators do not fit int64
    (chance nodes of 2 to 47 outcomes: the common denominator is ~5e21).
    """
    distinct: dict[int, Number] = {id(p): p for p in prob if p is not None}
    denominator = 1
    fraction = fraction_type()
    for p in distinct.values():
        if type(p) is fraction:
            denominator = denominator * p.denominator // math.gcd(denominator, p.denominator)
        elif type(p) is not int:
            return None
    numerator_of = {key: int(p * denominator) for key, p in distinct.items()}
    if any(not -INT64_END <= numerator < INT64_END for numerator in numerator_of.values()):
        return None
    numerator_of[id(None)] = 0
    return np.array([numerator_of[id(p)] for p in prob], dtype=np.int64), denominator


