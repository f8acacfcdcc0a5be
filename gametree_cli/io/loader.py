"""Read a tree from a path, standard input or a string: pick the format, parse, build.

Formats are chosen by file extension (``.json``, ``.yaml``/``.yml``, plus
those registered by other modules, e.g. ``.efg``); anything else, standard
input and ``--tree`` text are read as JSON when they parse as JSON, else as
YAML (contract section 2).
"""

from __future__ import annotations

import json
import re
import os
from typing import TYPE_CHECKING, Any, Callable

from ..core.bulk import paused_gc
from ..core.lazy import SMALL_TREE
from ..core.progress import tick
from ..core.errors import TreeFormatError
from .files import decode_input, read_input, read_stdin, write_atomically
from ..core.model import Source, Tree
from .document import DEFAULT_MAX_NODES, build_tree
from .strict_json import loads_strict, not_utf8

if TYPE_CHECKING:  # a text tree is read by name: only binary files and writers use pathlib (start-up)
    from pathlib import Path

    from .locate import Locator

__all__ = [
    "load_tree",
    "parse_tree",
    "read_document",
    "register_format",
    "format_for",
    "write_atomically",
    "FORMATS",
    "TREE_READERS",
    "TREE_WRITERS",
]

#: A document reader: (text, file name) -> (plain document, locator).
DocumentReader = Callable[[str, str], tuple[Any, "Locator | None"]]
#: A tree reader for formats that bypass plain documents (binary): (file name, name for errors) -> Tree.
#: By name, as text files are read, so that reading a tree imports no pathlib (start-up).
TreeReader = Callable[[str, str], Tree]

#: A tree writer: (tree, path) -> None; writes the file (atomically, see write_atomically).
TreeWriter = Callable[[Tree, "Path"], None]

FORMATS: dict[str, DocumentReader] = {}
TREE_READERS: dict[str, TreeReader] = {}
TREE_WRITERS: dict[str, TreeWriter] = {}
EXTENSIONS: dict[str, str] = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}



def scan_or_decline(text: str | bytes, **options: Any) -> Any:
    """The compiled JSON scanner's reading of ``text`` (:func:`.jsonscan.scan_or_decline`), imported on the
    first big file: a small run needs neither the scanner nor the NumPy it fills."""
    from .jsonscan import scan_or_decline as scan

    return scan(text, **options)

def register_format(
    name: str,
    extensions: tuple[str, ...],
    *,
    document_reader: DocumentReader | None = None,
    tree_reader: TreeReader | None = None,
    tree_writer: TreeWriter | None = None,
) -> None:
    """Let a format module plug in a reader (and writer) for its file extensions."""
    if document_reader is not None:
        FORMATS[name] = document_reader
    if tree_reader is not None:
        TREE_READERS[name] = tree_reader
    if tree_writer is not None:
        TREE_WRITERS[name] = tree_writer
    for extension in extensions:
        EXTENSIONS[extension.lower()] = name


def format_for(name: str) -> str | None:
    """The format a file name's extension selects, or None (sniff the content)."""
    return EXTENSIONS.get(suffix(name).lower())


def suffix(name: str) -> str:
    """``pathlib.PurePosixPath(name).suffix`` without importing pathlib (~5 ms of a small run's start-up):
    the last dot of the last component and what follows, unless the dot starts or ends it."""
    parts = [part for part in name.split("/") if part not in ("", ".")]  # pathlib keeps "..", as normpath does not
    last = parts[-1] if parts else ""
    dot = last.rfind(".")
    return last[dot:] if 0 < dot < len(last) - 1 else ""


#: texts shorter than this (bytes or characters) skip the scanner: it hands over NumPy arrays, and importing
#: NumPy costs more than reading a small file (a tree of SMALL_TREE nodes takes at least this many)
_SCAN_FROM = 2 * SMALL_TREE
#: ... and texts that cannot hold this many nodes (see _may_reach_small_tree): a tree this big loads NumPy anyway
_SCAN_NODES_FROM = SMALL_TREE
#: counting a 40 MB file's commas took ~40 ms; its first this many characters are counted first
_SCAN_PREFIX = 1 << 20


def _may_reach_small_tree(text: str | bytes) -> bool:
    """Whether the JSON text may hold SMALL_TREE nodes or more (else it is read without NumPy).

    Every node but the root is the first of its list (after a ``[``) or follows a comma, so
    ``[`` and ``,`` counted together bound the nodes from above (commas in keys and strings only
    raise the bound). A small tree indented for people (a 3,000-node tree takes ~100 KB) then
    skips the scanner and NumPy's import (~0.07 s against ~0.02 s for json.loads and the builder).
    """
    if len(text) < _SCAN_FROM:
        return False
    comma, bracket = (b",", b"[") if isinstance(text, bytes) else (",", "[")
    for end in (_SCAN_PREFIX, len(text)):  # a big tree's commas are early: its first megabyte decides
        if text.count(comma, 0, end) + text.count(bracket, 0, end) + 1 >= _SCAN_NODES_FROM:
            return True
    return False


def json_locator(text: str) -> Locator:
    """:func:`.locate.json_locator`, its module (and the compiled skipper it loads) imported when an error
    first asks for a line: a good file never does (~1 ms of a small solve's start-up)."""

    def locate(path: tuple[Any, ...]) -> tuple[int | None, int | None]:
        from .locate import json_locator as locator

        return locator(text)(path)

    return locate


def _read_json(text: str, name: str) -> tuple[Any, Locator | None]:
    if not text.strip():
        raise TreeFormatError("empty file: expected a tree", file=name, line=1)
    try:
        document = loads_strict(text, name)
    except json.JSONDecodeError as error:
        raise TreeFormatError(f"invalid JSON: {error.msg}", file=name, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise TreeFormatError("the JSON nests deeper than about 2,000,000 levels, more than gametree reads", file=name, line=1) from None
    return document, json_locator(text)


def _read_yaml(text: str, name: str) -> tuple[Any, Locator | None]:
    """YAML through :mod:`.yaml_reader`, imported (with PyYAML) only when a YAML file is read."""
    from .yaml_reader import read_yaml

    return read_yaml(text, name)


def __getattr__(name: str) -> Any:
    """The YAML reader's names, as they were when they lived here (``YAML_MAX_DEPTH``)."""
    if name in ("YAML_MAX_DEPTH", "_load_yaml"):
        from . import yaml_reader

        return getattr(yaml_reader, name.lstrip("_") if name == "_load_yaml" else name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


FORMATS["json"] = _read_json
FORMATS["yaml"] = _read_yaml


def read_document(text: str, name: str, fmt: str | None = None) -> tuple[Any, Locator | None]:
    """Parse text in format ``fmt`` (or sniff: JSON, else YAML)."""
    if fmt is not None:
        reader = FORMATS.get(fmt)
        if reader is None:
            raise TreeFormatError(f"unknown format {fmt!r} (known: {', '.join(sorted(FORMATS))})", file=name)
        return reader(text, name)
    if text.lstrip().startswith("EFG "):
        return FORMATS["efg"](text, name)
    try:
        document = loads_strict(text, name)
    except (json.JSONDecodeError, RecursionError):
        return _read_yaml(text, name)
    return document, json_locator(text)


def parse_tree(
    text: str,
    *,
    name: str = "--tree",
    fmt: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    declined: Any = None,
) -> Tree:
    """Build a tree from text (``--tree``, standard input, tests).

    ``declined``: why and where the scanner already left this text, read as bytes
    (:func:`_scan_bytes`): it is not scanned again.
    """
    _refuse_undecoded_bytes(text, name)
    with paused_gc():
        tick("parse")
        # a small file goes to json.loads and the document builder, which need no NumPy (core/lazy.py)
        if declined is None and (fmt == "json" or (fmt is None and not _may_alias(text, fmt))) \
                and _may_reach_small_tree(text):
            # a plain two-player JSON file: the scanner, when compiled, reads it without json.loads;
            # where it stops, a bad file's mistake is usually found from a few nodes (formats/partial.py)
            found = scan_or_decline(text, source=Source(name, json_locator(text)), max_nodes=max_nodes)
            if isinstance(found, Tree):
                return found
            declined = found
        if declined is not None:
            from .partial import first_error  # a big bad file: worded from the part of it the scanner read

            error = first_error(text, declined, Source(name, json_locator(text)), max_nodes)
            if error is not None:
                raise error
        document, locator = read_document(text, name, fmt)
        holder = [document]
        del document  # the builder frees what it has read (peak memory of big files)
        return build_tree(holder, Source(name, locator), max_nodes=max_nodes, may_alias=_may_alias(text, fmt),
                          reparse=lambda: read_document(text, name, fmt)[0])


_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_undecoded_bytes(text: str, name: str) -> None:
    """Standard input and ``--tree`` reach us decoded with ``surrogateescape``:
    a byte that is not UTF-8 is a lone surrogate, which no parser can take.
    Refused as a file's bad byte is (:func:`load_tree`), with its position."""
    found = None if text.isascii() else _SURROGATE.search(text)
    if found is None:
        return
    data = text.encode("utf-8", "surrogateescape")
    offset = len(text[:found.start()].encode("utf-8", "surrogateescape"))
    raise not_utf8(UnicodeDecodeError("utf-8", data, offset, offset + 1, "invalid start byte"), name)


_ANCHOR = re.compile(r"&[^\s\[\]{},]")


def _may_alias(text: str, fmt: str | None) -> bool:
    """Can the parsed document share sub-objects? Only YAML with an ``&anchor`` can.

    One scan of the text decides whether the builder must do alias accounting
    (and cycle detection), so plain files take the fast path.
    """
    if fmt == "json":
        return False
    return _ANCHOR.search(text) is not None


def load_tree(
    path: str | os.PathLike[str],
    *,
    fmt: str | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    plain: bool = False,
) -> Tree:
    """Load a tree file; ``"-"`` reads standard input.

    Args:
        path: the file, or ``"-"``.
        fmt: force a format (``json``, ``yaml``, ...) instead of the extension's.
        max_nodes: refuse trees with more nodes than this.
        plain: a ``.gtb`` file in plain buffers, without NumPy, when it allows (io/gtb_plain.py):
            for a view that reads few nodes of a big tree (its searches and views keep to plain
            buffers; a writer of every node goes node by node, right but slower).

    Raises:
        TreeFormatError: unreadable or malformed file.
        IllegalTreeError: the file breaks a rule of the tree format.
    """
    name = os.fspath(path)
    if name == "-":
        data = read_stdin("<stdin>")
        if fmt is None and isinstance(data, bytes) and data.startswith(GTB_MAGIC):
            return _binary_tree(data, "<stdin>")
        if isinstance(data, str):  # a text stream put in place of standard input (tests)
            return parse_tree(data, name="<stdin>", fmt=fmt, max_nodes=max_nodes)
        return _parse_bytes(data, "<stdin>", fmt, max_nodes)
    given = fmt
    fmt = fmt or format_for(name)
    if fmt == "gtb" and plain:
        from .binary import read_binary

        return read_binary(name, name, plain=True)
    if fmt in TREE_READERS:
        return TREE_READERS[fmt](name, name)
    tick("read")
    data = read_input(name)
    if given is None and data.startswith(GTB_MAGIC):  # a .gtb under another name (no text tree starts with NUL)
        return _binary_tree(data, name)
    return _parse_bytes(data, name, fmt, max_nodes)


def _parse_bytes(data: bytes, name: str, fmt: str | None, max_nodes: int) -> Tree:
    """A tree from a file's bytes: a big ``.json`` file goes to the scanner as they are (:func:`_scan_bytes`),
    the rest is decoded and parsed as text."""
    declined = None
    if fmt == "json" and not data.startswith(_BOM) and _may_reach_small_tree(data):
        found = _scan_bytes(data, name, max_nodes)
        if isinstance(found, Tree):
            return found
        declined = found
    return parse_tree(decode_input(data, name), name=name, fmt=fmt, max_nodes=max_nodes, declined=declined)


_BOM = b"\xef\xbb\xbf"  # UTF-8's byte-order mark, which decoding drops: such a file is read as text


def _scan_bytes(data: bytes, name: str, max_nodes: int) -> Any:
    """The scanner's reading of a JSON file's bytes, before any decoding: a 28 MB file's text cost ~15 ms to
    decode and as much to encode again for the scanner, and 56 MB of memory (docs/performance.md, issue 14.4).
    The scanner checks UTF-8 itself; where it stops, the text is decoded (naming a bad byte) and parsed."""

    def locate(path: tuple[Any, ...]) -> tuple[int | None, int | None]:  # the text is decoded for an error only
        return json_locator(decode_input(data, name))(path)

    with paused_gc():
        tick("parse")
        return scan_or_decline(data, source=Source(name, locate), max_nodes=max_nodes)


# -- formats of their own modules: Gambit .efg in, and every text format out ----


def _read_efg(text: str, name: str) -> tuple[Any, Locator | None]:
    """Gambit ``.efg``: its errors carry their own line numbers, so no locator.

    A two-player game that is not constant-sum becomes a ``general_sum`` tree
    of payoff vectors (searched like an n-player tree). Imported here: most runs read no Gambit file.
    """
    from .efg import read_efg

    return read_efg(text, name, allow_general_sum=True), None


#: the formats of document_writer.TEXT_WRITERS (a test checks they agree): named here so that reading a tree
#: imports no writer (document_writer and document_text, ~1 ms of a small solve's start-up)
TEXT_FORMATS = ("yaml", "json", "compact", "efg")


def _text_writer(fmt: str) -> TreeWriter:
    """A tree writer of a text format: document_writer's renderer for ``fmt``, imported when it writes."""

    def write(tree: Tree, path: Path) -> None:
        from .document_writer import TEXT_WRITERS

        write_atomically(path, TEXT_WRITERS[fmt](tree))

    return write


register_format("efg", (".efg",), document_reader=_read_efg)
for _name in TEXT_FORMATS:
    TREE_WRITERS[_name] = _text_writer(_name)

# gametree's own binary format: a reader and a writer of whole trees (NumPy arrays: imported when used).


#: how every .gtb file begins (binary.MAGIC's first bytes, here so that recognising one imports no NumPy);
#: the NUL makes it no YAML or JSON text, so it is recognised on standard input and under any file name
GTB_MAGIC = b"GTB\x00"


def _binary_tree(data: bytes, name: str) -> Tree:
    from .binary import binary_tree

    return binary_tree(data, name)


def _read_binary(path: str, name: str) -> Tree:
    from .binary import read_binary

    return read_binary(path, name)


def _write_binary(tree: Tree, path: Path) -> None:
    from .binary_encode import write_binary

    write_binary(tree, path)


register_format("gtb", (".gtb",), tree_reader=_read_binary, tree_writer=_write_binary)
