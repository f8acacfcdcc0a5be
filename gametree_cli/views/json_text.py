"""JSON text for the result writer: orjson for every value, NumPy to paste a chunk of lines.

Why two tools: orjson writes each *distinct* value (a node's value, a type
name, a quoted id, a cut's reason) exactly and fast, but a million-node
result has a million lines made of few distinct pieces. Making a Python
object per line would cost more than the whole budget, so :func:`paste`
lays the pieces of a chunk of lines out as a NumPy byte matrix, one row per
line and one block of columns per piece, each piece padded with NUL bytes,
and then drops every NUL (JSON text never holds a raw NUL: orjson writes it
as ``\\u0000``). That is a few passes over the chunk's bytes, with no Python
work per line.

orjson refuses two things the result can hold: integers beyond 64 bits
(exact arithmetic makes them; :func:`~gametree_cli.core.numbers.number_to_json`
already turns those over 4300 digits into strings) and strings with a lone
surrogate (an id written ``"\\ud800"`` in a JSON tree file). :func:`dumps`
then writes those two as fragments, the integer's digits and the string
with JSON escapes, so the text stays valid UTF-8 with the same content.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, NamedTuple

from ..core.lazy import lazy_module
np = lazy_module("numpy")
orjson = lazy_module("orjson")  # imported by the first big result: a small one is written by plain_json.py (start-up)
from .plain_json import Raw

__all__ = ["dumps", "dumps_each", "Piece", "table", "constant", "positive_numbers", "widths", "lay_out", "paste"]

#: a chunk's byte matrix is split in halves until it holds at most this many bytes
#: (one very long piece, e.g. a 4300-digit value, would widen every row of the chunk)
BUDGET = 1 << 24
#: lines at least this many are pasted in halves when padding would be most of their matrix
_HALVED_FROM = 4096
#: the compiled paste allocates every piece's full width on every line when that is at most this many bytes
_ROOMY = 1 << 26
_INT_RANGE = (-(1 << 63), (1 << 64) - 1)  # what orjson writes itself


def dumps(item: Any, *, indent: bool = False) -> bytes:
    """``item`` as JSON text (UTF-8 bytes; with ``indent``, two spaces a level)."""
    option = orjson.OPT_INDENT_2 if indent else 0
    try:
        return orjson.dumps(item, option=option)
    except TypeError:  # an integer beyond 64 bits or a lone surrogate somewhere inside
        return orjson.dumps(_fragments(item), option=option)


def dumps_each(items: Iterable[Any]) -> list[bytes]:
    """The compact JSON text of each item: for numbers only, or strings only, one orjson call for all;
    for both (a fraction tree's values: ints and ``"a/b"``), one too when no string holds a comma.

    The texts are then cut apart at the separators, which is safe: a number's
    text holds no comma, and inside a string a quote is always escaped, so
    ``","`` occurs only between the strings. (A copy per item would cost
    more: orjson gives each result a few kilobytes of room.)
    """
    items = list(items)
    kinds = set(map(type, items))
    if items and (kinds <= {int, float} or kinds == {str}):
        try:
            text = orjson.dumps(items)
        except TypeError:  # an integer beyond 64 bits, a lone surrogate: one at a time
            return [bytes(memoryview(dumps(item))) for item in items]
        if kinds == {str}:
            return [b'"' + part + b'"' for part in text[2:-2].split(b'","')]
        return text[1:-1].split(b",")
    if len(items) > 1 and str in kinds and kinds - {str} and kinds <= {int, float, str}:  # bounds: numbers, "inf"
        try:  # one call for all: the text splits at its commas when no string holds one
            text = orjson.dumps(items)
        except TypeError:
            text = b""
        if text.count(b",") == len(items) - 1:
            return text[1:-1].split(b",")
        texts: list[bytes] = [b""] * len(items)
        strings = [position for position, item in enumerate(items) if item.__class__ is str]
        numbers = [position for position, item in enumerate(items) if item.__class__ is not str]
        for positions in (strings, numbers):
            for position, text in zip(positions, dumps_each([items[position] for position in positions])):
                texts[position] = text
        return texts
    return [bytes(memoryview(dumps(item))) for item in items]


def _fragments(item: Any) -> Any:
    """``item`` with what orjson refuses replaced by fragments of JSON text."""
    kind = type(item)
    if kind is int and not _INT_RANGE[0] <= item <= _INT_RANGE[1]:
        return orjson.Fragment(int.__repr__(item).encode())
    if kind is str:
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: JSON's \\uXXXX escape keeps it, in valid UTF-8
            return orjson.Fragment(json.dumps(item).encode())
        return item
    if kind is Raw:  # the result writer's mark
        return orjson.Fragment(item.text.encode())
    if kind is dict:
        return {key: _fragments(value) for key, value in item.items()}
    if kind is list or kind is tuple:
        return [_fragments(part) for part in item]
    return item


class Piece(NamedTuple):
    """One block of columns of :func:`paste`: on each line, one text of ``table`` (or none).

    Attributes:
        table: the texts, one per row, NUL-padded to the longest; the last
            row of a table made by :func:`table` is empty.
        index: per line, its row of ``table`` (-1: the last row); None: row
            i on line i, or the only row on every line.
        lengths: per row, its text's length (the chunk's block is only as
            wide as the longest used); None: as wide as the table.
    """

    table: np.ndarray
    index: np.ndarray | None = None
    lengths: np.ndarray | None = None

    def at(self, index: np.ndarray) -> "Piece":
        """This table's texts, ``index`` choosing one per line."""
        return self._replace(index=index)


def table(texts: list[bytes]) -> Piece:
    """The texts as a table with an empty last row (for index -1); no index yet (see :meth:`Piece.at`)."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    width = int(lengths.max()) if len(texts) else 0
    if not width:
        return Piece(np.zeros((len(texts) + 1, 0), dtype=np.uint8), None, np.append(lengths, 0))
    matrix = np.array([*texts, b""], dtype=f"S{width}").view(np.uint8).reshape(len(texts) + 1, width)  # NUL-padded
    return Piece(matrix, None, np.append(lengths, 0))


def constant(text: bytes) -> Piece:
    """The same text on every line."""
    return Piece(np.frombuffer(text, dtype=np.uint8).reshape(1, -1))


def _limbs() -> Piece:
    """Rows 0-9999: the number without leading zeros (0: nothing); rows 10000-19999: four digits, zeros kept."""
    texts = [b""] + [str(k).encode() for k in range(1, 10_000)] + [b"%04d" % k for k in range(10_000)]
    return table(texts)


_LIMBS: list[Piece] = []


def positive_numbers(numbers: np.ndarray) -> list[Piece]:
    """The decimal digits of each of ``numbers`` (int64, >= 0; 0 writes nothing), four digits a piece."""
    if not _LIMBS:
        _LIMBS.append(_limbs())
    limbs = _LIMBS[0]
    largest = int(numbers.max()) if len(numbers) else 0
    if largest < 10_000:  # positions among siblings, nearly always
        return [limbs.at(numbers)]
    pieces = []
    scale = 1
    while scale * 10_000 <= largest:
        scale *= 10_000
    while scale:
        part = numbers // scale % 10_000 + np.where(numbers >= scale * 10_000, 10_000, 0)
        pieces.append(limbs.at(part))
        scale //= 10_000
    return pieces


def widths(pieces: list[Piece], lines: slice) -> list[int]:
    """How many columns each piece needs on ``lines`` (a slice with a start and a stop): the longest
    of its texts used there."""
    return [int(used.max()) if len(used) else 0 for used in _used(pieces, lines)]


def _used(pieces: list[Piece], lines: slice) -> list[np.ndarray]:
    """Per piece, the lengths of its texts on ``lines`` (a piece without lengths: its width on each)."""
    found = []
    for piece in pieces:
        if piece.lengths is None:
            found.append(np.full(lines.stop - lines.start, piece.table.shape[1], dtype=np.int64))
        else:
            found.append(piece.lengths[lines] if piece.index is None else piece.lengths[piece.index[lines]])
    return found


def lay_out(pieces: list[Piece], lines: slice, out: np.ndarray, sizes: list[int]) -> None:
    """Fill ``out`` (one row per line of ``lines``) with the pieces side by side, ``sizes`` columns each.

    Each piece is gathered into a block of its own, then the blocks are
    joined in one call (NumPy gathers into a contiguous block ~4x faster than
    into a strided slice of ``out``).
    """
    used = [(piece, width) for piece, width in zip(pieces, sizes) if width]
    if len(used) == 1 and used[0][0].index is not None:  # one piece: straight into ``out`` when it is contiguous
        piece, width = used[0]
        if out.flags.c_contiguous and width == piece.table.shape[1]:
            np.take(piece.table, piece.index[lines], axis=0, out=out, mode="wrap")
            return
    blocks = []
    for piece, width in zip(pieces, sizes):
        if not width:
            continue
        source = piece.table[:, :width]
        if piece.index is not None:
            blocks.append(np.take(source, piece.index[lines], axis=0, mode="wrap"))  # -1: the last row
        elif len(source) == 1:
            blocks.append(np.broadcast_to(source, (len(out), width)))
        else:
            blocks.append(source[lines])
    if blocks:
        np.concatenate(blocks, axis=1, out=out)


def paste(pieces: list[Piece], lines: int, stops: np.ndarray | None = None) -> np.ndarray:
    """The lines, each the concatenation of its pieces' texts, as one text (UTF-8 bytes in a uint8 array).

    ``stops`` (optional, int64 per line): on line ``i`` every piece from
    ``stops[i]`` on is empty, so the compiled loop need not look at them (a
    promise the caller keeps; the NumPy paste does not need it).
    """
    if pieces and lines and _compiled():
        return _assemble(pieces, lines, stops)
    return paste_numpy(pieces, lines)


def _compiled() -> bool:
    from .paste_lines import COMPILED
    return COMPILED


def _assemble(pieces: list[Piece], lines: int, stops: np.ndarray | None = None) -> np.ndarray:
    """:func:`paste` by the compiled loop (:mod:`.paste_lines`): one pass, no padding to drop."""
    from .paste_lines import FIRST, ROWS, SAME, assemble
    count = len(pieces)
    tables = [np.ascontiguousarray(piece.table) for piece in pieces]
    rows = [None if piece.index is None else np.ascontiguousarray(piece.index[:lines], dtype=np.int64)
            for piece in pieces]
    lengths = [None if piece.lengths is None else np.ascontiguousarray(piece.lengths, dtype=np.int64)
               for piece in pieces]
    widths = np.fromiter((table.shape[1] for table in tables), dtype=np.int64, count=count)
    size = int(widths.sum()) * lines
    if size > _ROOMY:  # a few long texts (4300-digit values) would make the bound too big: the exact size
        size = sum(table.shape[1] * lines if length is None else int(length[row].sum()) if row is not None
                   else int(length[:lines].sum()) if len(table) > 1 else int(length[0]) * lines
                   for table, row, length in zip(tables, rows, lengths))
    out = np.empty(size + int(widths.max()) + 8, dtype=np.uint8)  # room for a whole row and a word at the end
    kinds = np.fromiter((ROWS if row is not None else FIRST if len(table) == 1 else SAME
                         for table, row in zip(tables, rows)), dtype=np.uint8, count=count)
    if stops is not None:
        stops = np.ascontiguousarray(stops[:lines], dtype=np.int64)
        if len(stops) < lines:
            raise IndexError("paste: fewer stops than lines")
    written = assemble(out, lines, _addresses(tables), widths,
                       np.fromiter((len(table) for table in tables), dtype=np.int64, count=count), kinds,
                       _addresses(rows), _addresses(lengths), 0 if stops is None else stops.ctypes.data)
    return out[:written]


def _addresses(arrays: list[np.ndarray | None]) -> np.ndarray:
    """Where each array's data is (0: None)."""
    return np.fromiter((0 if array is None else array.ctypes.data for array in arrays), dtype=np.int64,
                       count=len(arrays))


def paste_numpy(pieces: list[Piece], lines: int) -> np.ndarray:
    """:func:`paste` in NumPy alone: a NUL-padded byte matrix, its NULs then dropped."""
    used = _used(pieces, slice(0, lines))
    held = np.concatenate([[0], np.cumsum(np.sum(used, axis=0))]) if pieces and lines else np.zeros(lines + 1)
    parts = _paste(pieces, used, held, 0, lines)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _paste(pieces: list[Piece], used: list[np.ndarray], held: np.ndarray, start: int, end: int) -> list[np.ndarray]:
    """The lines ``start:end``; in halves when their matrix would pass the budget, or when a few wide
    lines would make it mostly padding (alpha-beta's bounded entries among short unvisited ones).
    ``used``: per piece its texts' lengths on every line; ``held``: the lines' running total length."""
    sizes = [int(lengths[start:end].max()) if end > start else 0 for lengths in used]
    cells = sum(sizes) * (end - start)
    if end - start > 1 and cells > BUDGET or end - start >= _HALVED_FROM and cells > 2 * (held[end] - held[start]):
        middle = (start + end) // 2
        return _paste(pieces, used, held, start, middle) + _paste(pieces, used, held, middle, end)
    matrix = np.empty((end - start, sum(sizes)), dtype=np.uint8)
    lay_out(pieces, slice(start, end), matrix, sizes)
    flat = matrix.reshape(-1)
    return [flat[flat != 0]]
