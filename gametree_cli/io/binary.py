"""gametree's own binary tree format, ``.gtb``: the flat arrays, as they are in memory.

Why: a text file of a million-node tree spends seconds being parsed into
Python objects and walked again; this format stores the arrays of
:class:`~gametree_cli.core.model.Tree` and reads them back with one copy each
(about 13 bytes a node on disk for a two-player tree with integer leaves).

Layout (little-endian)::

    8 bytes   magic b"GTB\\x00v1\\r\\n"
    8 bytes   header length H (uint64)
    H bytes   header: UTF-8 JSON (version, nodes, players, title, sum,
              bounds, the directory of arrays, sparse facts)
    ...       arrays, each at a 64-byte aligned offset given in the header

Arrays: ``kind`` (uint8), ``count`` (int32 or int64), ``player`` (int16,
n-player trees only), leaf values (int64 numerators over ``denominator``,
or float64; anything else, e.g. payoff vectors, as JSON), edge
probabilities (int64 numerators, or JSON), and ``move``/``id`` labels (node
numbers plus a JSON list of strings). ``first`` is not stored: breadth-first
numbering makes it the running sum of ``count``.

Reading checks the structure (sizes, kinds, child counts) so that a damaged
file is an error with exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import struct
from typing import TYPE_CHECKING, Any

from ..core.lazy import lazy_module
np = lazy_module("numpy")  # not on a plain read (io/gtb_plain.py)

from ..core.buffers import aligned, typed_view
from ..core.errors import TreeFormatError
from .files import read_input_into
from ..core.model import CHANCE, LEAF, PLAYER, Source, Tree
from ..core.numbers import Number, Value, parse_number
from ..core.numeric import LazyValues, Numeric
from ..core.progress import tick
from . import gtb_columns
from .binary_written import WRITTEN_VERSION, check_written_sums, decode_shares
from .binary_checks import array_dtype, check_header, check_numeric_values, check_probability_sums, check_shape, check_tree

if TYPE_CHECKING:  # reading a tree needs no pathlib (~4 ms of start-up with urllib and ipaddress)
    from pathlib import Path

__all__ = ["MAGIC", "read_binary", "binary_tree"]

MAGIC = b"GTB\x00v1\r\n"
VERSION = 1
#: what is wrong, by the problem gtb_columns.structure (or the NumPy checks) found first
_STRUCTURE_PROBLEMS = {
    gtb_columns.BAD_COUNTS: "child counts do not add up to the number of nodes",
    gtb_columns.BAD_KINDS: "node kinds do not match the child counts",
    gtb_columns.BAD_ORDER: "a node is numbered before its parent (the child counts do not describe a tree)",
}


# -- reading ---------------------------------------------------------------------


def read_binary(path: Path | str, name: str, *, plain: bool = False) -> Tree:
    """Read a ``.gtb`` file; ``plain``: into plain buffers without NumPy when the file allows
    (:mod:`.gtb_plain`, for a view that reads few nodes), else as always.

    Raises:
        TreeFormatError: not a ``.gtb`` file, or a damaged one.
    """
    tick("read")
    if plain:
        from .gtb_plain import plain_buffer

        into = plain_buffer
    else:
        into = _byte_buffer
    data = read_input_into(os.fspath(path), into)  # errors name the file as load_tree was given it
    return binary_tree(data, name, plain=plain)


def _byte_buffer(size: int) -> np.ndarray:
    """The buffer a ``.gtb`` file is read into: NumPy's (2 MB pages for a big file; files.read_input_into)."""
    return aligned(size)


def binary_tree(data: bytes | np.ndarray, name: str, *, plain: bool = False) -> Tree:
    """The tree of a ``.gtb`` file's bytes, in any buffer (a file of any name, or standard input, starting
    with :data:`MAGIC`).

    Raises:
        TreeFormatError: not a ``.gtb`` file, or a damaged one (one line naming ``name``).
    """
    try:
        return _decode(data, name, plain)
    except TreeFormatError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, struct.error, OverflowError) as error:
        raise TreeFormatError(f"damaged .gtb file ({type(error).__name__}: {error})", file=name) from None


def _decode(data: bytes | np.ndarray, name: str, plain: bool = False) -> Tree:
    """The tree of a ``.gtb`` file's bytes; every array checked before it is trusted. ``plain``: in plain
    buffers when :func:`.gtb_plain.plain_tree` takes the file."""
    reader = _Reader(data, name)
    if plain:
        from .gtb_plain import plain_tree

        tree = plain_tree(reader)
        if tree is not None:
            return tree
    kind, count, first, player = reader.structure()
    players = tuple(reader.header["players"])
    vector = bool(reader.header.get("vector_payoffs", False)) or len(players) > 2
    check_shape(kind, player, len(players), vector, reader.damaged)
    total, bounds = reader.sum_and_bounds()
    values, numeric, raw_values = reader.values(reader.leaves, vector, bounds)
    prob, prob_numeric, prob_decimal = reader.probabilities(kind, first, count)
    header, n = reader.header, reader.n
    raw_probabilities = header.get("prob_json") if prob_numeric is None else None  # converted by check_tree
    labels = {key: reader.labels(key) for key in ("move", "id")}
    tree = Tree(
        kind=bytearray(memoryview(np.ascontiguousarray(kind)).cast("B")),
        first=typed_view(first, "q"),  # type: ignore[arg-type]  # (Tree: any int64 sequence; see buffers.typed_view)
        count=typed_view(count, "q"),  # type: ignore[arg-type]
        value=values,  # type: ignore[arg-type]
        player=_player_column(kind, player, reader.columns.player if reader.columns else None, reader.players_made),
        prob=[None] * n if raw_probabilities is not None else prob,
        explicit_ids=labels["id"],
        moves=labels["move"],
        players=players,
        vector_payoffs=bool(header.get("vector_payoffs", False)),
        total=total,
        bounds=bounds,
        title=header.get("title"),
        source=Source(name),
    )
    tree._totals = typed_view(reader.totals, "i" if reader.totals.itemsize == 4 else "q")  # type: ignore[assignment]
    check_tree(tree, raw_values, raw_probabilities, header.get("evals", []), header.get("extra", []), reader.damaged)
    if numeric is not None:
        probs = None if prob_numeric is None else prob_numeric[0]
        exact = numeric[0].dtype.kind == "i"
        tree._numeric = Numeric(numeric[0], numeric[1] if exact else 1, probs,
                                prob_numeric[1] if prob_numeric is not None else 1,
                                prob_decimal if prob_decimal is not None and prob_decimal.any() else None,
                                reader.columns.spare if exact and reader.columns is not None else None)
    return tree


def _player_column(kind: np.ndarray, player: np.ndarray | None, room: np.ndarray | None = None,
                   made: bool = False) -> memoryview:
    """The Tree's int16 ``player`` column: the stored players, or (none stored) each node's from its kind.

    From the kind, ``kind - 1`` (a leaf -1, max 0, min 1), then -1 for chance and player nodes where
    there are any: twice as fast as looking each kind up in a table (~1.5 ms less for 1.4 million
    nodes). ``room``: the int16 array to write them in (one is made if not given); ``made``: they are
    there already (gtb_columns.structure wrote them)."""
    if made and room is not None:
        return typed_view(room, "h")
    if player is None:
        column = np.subtract(kind, 1, dtype=np.int16, out=room)
        if len(kind) and int(kind.max()) >= CHANCE:
            np.copyto(column, -1, where=kind >= CHANCE)
        return typed_view(column, "h")
    return typed_view(player.astype(np.int16), "h")


class _Columns:
    """The memory of a ``.gtb`` tree's per-node arrays, one allocation of zeros cut into them.

    Why one: NumPy asks for 2 MB pages for an array of 4 MB or more, but from the second 4 kB page
    on, so each big array began with ~2 MB of 4 kB pages and ended with up to 2 MB more: ~500-800
    page faults (~2 µs each here) an array, and arrays under 4 MB (``leaves``, the players) got
    4 kB pages throughout. One block pays that once: 11,600 -> ~8,000 page faults, ~5 ms, for a
    1.4-million-node tree (docs/performance.md, issue 14.3). The Tree's columns are views of it, so
    it lives as long as the Tree. Every byte of it is fresh memory the kernel zeroes (a large part of
    a ``.gtb`` run), so it holds no more than the Tree keeps: the running sums are int32 below 2^31
    nodes (they never exceed ``n - 1``), and the reader's scratch mask is the players' room, written
    over when the players are made. It is zeros (calloc: fresh pages, no memset), and the one-pass
    reader (:mod:`.gtb_columns`) leaves ``count`` and ``first`` at leaves and ``values`` at inner
    nodes as they are: the pages of a run of leaves (the last three quarters of a 4-ary tree) are
    never touched, ~17 MB less fresh memory for 1.4 million nodes.
    """

    __slots__ = ("count", "totals", "first", "values", "spare", "leaves", "scratch", "player")

    def __init__(self, n: int) -> None:
        words = 3 * n + 2  # count, first, values (int64 or float64) and two spare slots
        sums = np.dtype(np.int32 if n < (1 << 31) else np.int64)
        size = sums.itemsize * (n + 1)
        block = aligned(8 * words + size + 3 * n, zeros=True)
        wide = block[: 8 * words].view(np.int64)
        self.count, self.first, self.values = wide[:n], wide[n : 2 * n], wide[2 * n : 3 * n]
        self.spare = wide[2 * n :]  # the values and two free slots after them (Numeric.spare)
        self.totals = block[8 * words : 8 * words + size].view(sums)  # 4- or 8-byte aligned, as the player column after
        narrow = block[8 * words + size :]
        self.player = narrow[: 2 * n].view(np.int16)
        self.scratch, self.leaves = narrow[:n].view(np.bool_), narrow[2 * n :].view(np.bool_)


class _Reader:
    """One ``.gtb`` file's header and arrays, each part read and checked by one method."""

    def __init__(self, data: bytes | np.ndarray, name: str) -> None:
        self.data, self.name = data, name
        self.buffer = memoryview(data).cast("B")
        if self.buffer[: len(MAGIC)] != MAGIC:
            raise TreeFormatError("not a gametree binary (.gtb) file", file=name)
        if len(data) < len(MAGIC) + 8:
            raise self.damaged("it ends before its header (truncated?)")
        (length,) = struct.unpack_from("<Q", data, len(MAGIC))
        self.body = len(MAGIC) + 8 + length
        if self.body > len(data):
            raise self.damaged("it ends inside its header (truncated?)")
        try:
            header = json.loads(str(self.buffer[len(MAGIC) + 8 : self.body], "utf-8"))
        except ValueError:  # (UnicodeDecodeError too): a position inside the bytes would tell a reader nothing
            raise self.damaged("its header is not valid JSON") from None
        if not isinstance(header, dict) or header.get("version") not in (VERSION, WRITTEN_VERSION):
            version = header.get("version") if isinstance(header, dict) else None
            raise TreeFormatError(f"unsupported .gtb version {version!r} (this gametree reads {VERSION} and "
                                  f"{WRITTEN_VERSION})", file=name)
        check_header(header, self.damaged)
        self.header = header
        self.n: int = header["nodes"]
        self.totals: np.ndarray | None = None  # the running sums of the child counts, made by structure()
        self.leaves: np.ndarray | None = None  # per node, whether it has no children, made by structure()
        self.columns: _Columns | None = None  # the memory of the Tree's columns, made by structure()
        self.n_leaves = 0  # how many nodes have no children, counted by structure()
        self.players_made = False  # whether structure() wrote the players that follow from the kinds
        self.one_pass = False  # whether structure() made the columns in one compiled pass (gtb_columns)

    def damaged(self, message: str) -> TreeFormatError:
        return TreeFormatError(f"damaged .gtb file: {message}", file=self.name)

    def load(self, key: str) -> np.ndarray | None:
        """The array ``key`` (a view of the file's bytes), or None when the file has none."""
        entry = self.header["arrays"].get(key)
        if entry is None:
            return None
        dtype = array_dtype(key, entry, self.damaged)
        begin = self.body + entry["offset"]
        end = begin + entry["length"] * dtype.itemsize
        if begin < self.body or end > len(self.data):
            raise self.damaged(f"array {key} lies outside the file")
        return np.frombuffer(self.buffer[begin:end], dtype=dtype)

    def structure(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``kind``, ``count``, ``first`` and ``player`` (None when the file has none), checked to make a tree.

        Breadth-first numbering is checked here: node ``j``'s parent comes before it exactly when
        the nodes before ``j`` have at least ``j`` children between them; otherwise a node is its
        own ancestor and the searches never end. The columns are made in one compiled pass
        (:mod:`.gtb_columns`) or, uncompiled, by NumPy; the Tree reads them through
        :func:`~gametree_cli.core.buffers.typed_view` views (no copy)."""
        n = self.n
        kind = self.load("kind")
        count_raw = self.load("count")
        if kind is None or count_raw is None or len(kind) != n or len(count_raw) != n or n < 1:
            raise self.damaged("node arrays missing or of the wrong size")
        stored_players = self.header["arrays"].get("player") is not None  # (loaded after the checks below)
        one_pass = self.one_pass = gtb_columns.COMPILED and n < (1 << 31)  # (int32 running sums then: _Columns)
        columns = self.columns = _Columns(n)
        if one_pass:
            room = columns.player[:0] if stored_players else columns.player
            problem, self.n_leaves = gtb_columns.structure(
                memoryview(kind), memoryview(count_raw), memoryview(columns.count), memoryview(columns.totals),
                memoryview(columns.first), memoryview(columns.leaves.view(np.uint8)), memoryview(room))
            if problem != gtb_columns.FINE:
                raise self.damaged(_STRUCTURE_PROBLEMS[problem])
            self.players_made = not stored_players
        else:
            self._numpy_structure(kind, count_raw)
        self.leaves, self.totals = columns.leaves, columns.totals
        player_raw = self.load("player")
        # no stored players: each node's follows from its kind (checked no further: it cannot disagree)
        player = player_raw.astype(np.int64) if player_raw is not None else None
        return kind, columns.count, columns.first, player

    def _numpy_structure(self, kind: np.ndarray, count_raw: np.ndarray) -> None:
        """The columns made, and checked, by NumPy passes (:mod:`.gtb_columns` not compiled): the same
        columns and the same first error as the compiled pass."""
        n, columns = self.n, self.columns
        assert columns is not None
        if int(count_raw.min()) < 0 or int(count_raw.max()) >= n:
            raise self.damaged(_STRUCTURE_PROBLEMS[gtb_columns.BAD_COUNTS])
        # the sum first, in int64: then no running sum exceeds n - 1 and the int32 sums cannot wrap
        if int(count_raw.sum(dtype=np.int64)) != n - 1:
            raise self.damaged(_STRUCTURE_PROBLEMS[gtb_columns.BAD_COUNTS])
        count, totals = columns.count, columns.totals  # totals: the tree's running sums (Tree.running_sums)
        np.copyto(count, count_raw)
        # in int64 into first's room, then narrowed: a cumsum into int32 made a fresh 4-byte-a-node temporary
        np.copyto(totals[1:], np.cumsum(count, out=columns.first), casting="same_kind")
        leaves = np.equal(count_raw, 0, out=columns.leaves)
        mismatched = np.equal(kind, LEAF, out=columns.scratch)  # a leaf's kind; then, in place, where that
        # disagrees with the counts
        if int(kind.max()) > PLAYER or np.not_equal(mismatched, leaves, out=mismatched).any():
            raise self.damaged(_STRUCTURE_PROBLEMS[gtb_columns.BAD_KINDS])
        # nodes 0..j-1 have at least j children, for every j < n: the running sums of (count - 1) stay >= 0
        first = np.subtract(count, 1, out=columns.first)
        np.cumsum(first, out=first)
        if n > 1 and int(first[: n - 1].min()) < 0:
            raise self.damaged(_STRUCTURE_PROBLEMS[gtb_columns.BAD_ORDER])
        np.add(totals[:n], 1, out=first)
        np.copyto(first, 0, where=leaves)  # a leaf's first child is 0
        self.n_leaves = int(np.count_nonzero(leaves))

    def sum_and_bounds(self) -> tuple[Number | None, tuple[Number, Number] | None]:
        header = self.header
        total = None if header.get("sum") is None else parse_number(header["sum"])
        bounds = None if header.get("bounds") is None else (parse_number(header["bounds"][0]),
                                                           parse_number(header["bounds"][1]))
        if bounds is not None and not bounds[0] < bounds[1]:
            raise self.damaged("bounds: the lowest value is not below the highest")
        return total, bounds

    def values(self, leaves: np.ndarray, vector: bool, bounds: tuple[Number, Number] | None
               ) -> tuple[list[Value | None] | LazyValues, tuple[np.ndarray, int] | None, list[Any] | None]:
        """The leaf values: NumPy ``(values, numeric, None)``, or from the header's JSON ``(list, None, raw)``."""
        n = self.n
        n_leaves = self.n_leaves
        stored = self.load("value")
        if stored is None:
            raw_values = self.header["values_json"]
            if len(raw_values) != n_leaves:
                raise self.damaged("leaf values of the wrong size")
            values: list[Value | None] = [None] * n
            for node, raw in zip(np.flatnonzero(leaves).tolist(), raw_values):
                values[node] = raw  # converted by check_tree, with the builder's rules
            return values, None, raw_values
        if len(stored) != n_leaves or vector:
            raise self.damaged("leaf values of the wrong size")
        denominator = int(self.header.get("denominator", "1"))
        if denominator < 1:
            raise self.damaged("the value denominator is not positive")
        check_numeric_values(stored, denominator, bounds, self.damaged)
        assert self.columns is not None  # (made by structure(), which gave the leaves)
        full = self.columns.values if stored.dtype.kind == "i" else self.columns.values.view(np.float64)
        if self.one_pass:
            bits = stored.view(np.int64) if stored.dtype.kind == "f" else stored
            gtb_columns.scatter(memoryview(leaves.view(np.uint8)), memoryview(bits), memoryview(self.columns.values))
        else:
            full[leaves] = stored
        return LazyValues(full, denominator if full.dtype.kind == "i" else 1, leaves), (full, denominator), None

    def probabilities(self, kind: np.ndarray, first: np.ndarray, count: np.ndarray
                      ) -> tuple[list[Number | None] | None, tuple[np.ndarray, int] | None, np.ndarray | None]:
        """The edge probabilities: the list the searches slice, their NumPy form, and which were decimals."""
        n = self.n
        prob_array = self.load("prob")
        if prob_array is None:
            return None, None, None
        if len(prob_array) != n:
            raise self.damaged("probabilities of the wrong size")
        prob_denominator = int(self.header["prob_denominator"])
        if prob_denominator < 1:
            raise self.damaged("the probability denominator is not positive")
        prob_numeric = (prob_array.astype(np.int64), prob_denominator)
        under_chance = np.zeros(n, dtype=bool)
        chance = np.flatnonzero(kind == CHANCE)
        prob_decimal = self.load("prob_decimal")  # version 2: which shares were written as decimals
        if prob_decimal is not None:
            if len(prob_decimal) != n:
                raise self.damaged("probability decimal flags of the wrong size")
            check_written_sums(prob_array, prob_denominator, prob_decimal, chance, first, count, self.damaged)
        else:
            check_probability_sums(prob_array, prob_denominator, chance, first, count, self.damaged)
        sizes = count[chance]
        within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        under_chance[np.repeat(first[chance], sizes) + within] = True
        # a plain list (Python searches slice it per chance node), sharing one object per distinct share
        prob = decode_shares(prob_array, prob_denominator, prob_decimal, under_chance)
        if prob_decimal is not None:
            prob_decimal = (prob_decimal != 0) & under_chance
            prob_numeric = (np.where(under_chance, prob_numeric[0], 0), prob_denominator)
        return prob, prob_numeric, prob_decimal

    def labels(self, key: str) -> dict[int, str]:
        """Node -> its move label (``key`` "move") or explicit id ("id")."""
        nodes = self.load(f"{key}_nodes")
        names = self.header.get(f"{key}_labels")
        if nodes is None:
            return {}
        if names is None or len(names) != len(nodes) or ((nodes < 0) | (nodes >= self.n)).any():
            raise self.damaged(f"{key} labels do not match their nodes")
        return dict(zip(nodes.tolist(), names if key == "id" else (str(label) for label in names)))


