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
from pathlib import Path
from typing import Any, Callable

import yaml

from ..core.bulk import paused_gc
from ..core.progress import tick
from ..core.errors import TreeFormatError
from .files import read_input_text, read_stdin_text, write_atomically
from ..core.model import Source, Tree
from .document import DEFAULT_MAX_NODES, build_tree
from .document_writer import TEXT_WRITERS
from .deepyaml import DeepSafeLoader, DepthExceeded, read_by_depth
from .efg import read_efg
from .fastyaml import fast_yaml_document
from .jsonscan import scan_or_decline
from .locate import Locator, deep_call, json_locator, yaml_locator
from .partial import first_error
from .strict_json import line_column, loads_strict, not_utf8, too_long_integer

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
DocumentReader = Callable[[str, str], tuple[Any, Locator | None]]
#: A tree reader for formats that bypass plain documents (binary): (path, name) -> Tree.
TreeReader = Callable[[Path, str], Tree]

#: A tree writer: (tree, path) -> None; writes the file (atomically, see write_atomically).
TreeWriter = Callable[[Tree, Path], None]

FORMATS: dict[str, DocumentReader] = {}
TREE_READERS: dict[str, TreeReader] = {}
TREE_WRITERS: dict[str, TreeWriter] = {}
EXTENSIONS: dict[str, str] = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}


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
    return EXTENSIONS.get(Path(name).suffix.lower())


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


class _UniqueKeys:
    """PyYAML's safe loading, refusing a key given twice in one mapping.

    PyYAML keeps the last of two ``children:`` silently; a user who wrote both
    meant something else. (The fast reader refuses duplicates too, and hands
    such files to this loader for the message.)
    """

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: dict[str, int] = {}
        for key_node, _ in node.value if isinstance(node, yaml.MappingNode) else ():  # !!map on a scalar: PyYAML says
            if isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<":
                if key_node.value in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None,
                        f"the key {key_node.value!r} is given twice in one mapping (also at line {seen[key_node.value]})",
                        key_node.start_mark,
                    )
                seen[key_node.value] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)  # type: ignore[misc]


class _TagChecks(_UniqueKeys):
    """Says where a tagged value is that PyYAML's constructors crash on or
    cannot convert (``!!timestamp x``, ``!!bool x``, ``!!int ""``, ``!!int
    1/3``). A wrapper per node costs a third more time, so only a load that
    raised is repeated with it."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)  # type: ignore[misc]
        except _CONSTRUCTOR_CRASHES as error:
            if isinstance(error, ValueError) and "digits" in str(error):
                raise  # an integer too long: located by too_long_integer
            why = f" ({error})" if isinstance(error, ValueError) else ""
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise yaml.constructor.ConstructorError(
                None, None, f"the value {node.value!r} does not fit its tag {tag}{why}", node.start_mark) from None


_CONSTRUCTOR_CRASHES = (AttributeError, KeyError, IndexError, TypeError, ValueError)

#: Deepest YAML nesting read (mappings and lists; a tree level written as
#: ``{children: [...]}`` is two). Past libyaml's own cap (1,000 levels) PyYAML's
#: pure-Python parser reads 25,000-50,000 levels a second (docs/limits.md).
YAML_MAX_DEPTH = 200_000

_LIBYAML = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_UniqueKeys, _LIBYAML):  # type: ignore[misc,valid-type]
    """libyaml's loader (PyYAML's own when libyaml is missing): ordinary files."""


class _TagCheckingLoader(_TagChecks, _LIBYAML):  # type: ignore[misc,valid-type]
    pass


class _DeepUniqueKeyLoader(_UniqueKeys, DeepSafeLoader):
    """PyYAML's pure-Python loader, any depth up to :data:`YAML_MAX_DEPTH`: files libyaml cannot nest."""

    max_depth = YAML_MAX_DEPTH


class _DeepTagCheckingLoader(_TagChecks, DeepSafeLoader):
    max_depth = YAML_MAX_DEPTH


def _load_yaml(text: str, deep: bool) -> Any:
    """PyYAML's document for ``text``; a tagged value it cannot construct becomes a located ConstructorError."""
    loader, checking = (_DeepUniqueKeyLoader, _DeepTagCheckingLoader) if deep else (_UniqueKeyLoader, _TagCheckingLoader)
    try:
        return yaml.load(text, loader)
    except _CONSTRUCTOR_CRASHES as error:
        if isinstance(error, ValueError) and "digits" in str(error):
            raise
        return yaml.load(text, checking)


def _read_yaml(text: str, name: str) -> tuple[Any, Locator | None]:
    parsed, document = fast_yaml_document(text)  # a plain file: 10-30x faster, same document
    if parsed and document is not None:
        return document, yaml_locator(text)
    try:
        document = deep_call(read_by_depth, text, lambda deep: _load_yaml(text, deep))
    except DepthExceeded as error:
        raise TreeFormatError(f"the YAML nests deeper than {YAML_MAX_DEPTH:,} levels; write deep trees in JSON",
                              file=name, line=error.mark.line + 1, column=error.mark.column + 1) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        if problem.startswith("could not determine a constructor for the tag"):
            tag = problem.rsplit(" ", 1)[-1].strip("'").replace("tag:yaml.org,2002:", "!!")
            problem = f"the tag {tag} is not allowed: gametree reads plain YAML data (standard tags only)"
            raise TreeFormatError(problem, file=name, line=mark.line + 1 if mark else None,
                                  column=mark.column + 1 if mark else None) from None
        at_tab = mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t"
        if at_tab or "'\\t'" in problem or "\t" in problem:
            problem = "a tab character: YAML indentation must use spaces"
        else:
            problem = f"invalid YAML: {problem}"
            if error.context:
                problem += f" ({error.context})"
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        raise TreeFormatError(problem, file=name, line=line, column=column) from None
    except yaml.reader.ReaderError as error:  # a character YAML does not allow, e.g. NUL
        character = error.character if isinstance(error.character, str) else chr(error.character)
        # libyaml's position counts bytes; the first occurrence of the character is the one it reports
        line, column = line_column(text, text.find(character) if character in text else error.position)
        raise TreeFormatError(f"invalid YAML: the character U+{ord(character):04X} is not allowed in YAML text",
                              file=name, line=line, column=column) from None
    except yaml.YAMLError as error:
        raise TreeFormatError(f"invalid YAML: {error}", file=name) from None
    except RecursionError:
        raise TreeFormatError("the YAML nests too deeply to read", file=name) from None
    except ValueError as error:  # PyYAML converting a tagged or implicit scalar (int, float, timestamp)
        if "digits" in str(error):  # an integer of more than MAX_DIGITS digits
            raise too_long_integer(text, name) from None
        raise TreeFormatError(f"invalid YAML: a value that cannot be converted: {error}", file=name) from None
    if document is None:
        raise TreeFormatError("empty file: expected a tree", file=name, line=1)
    return document, yaml_locator(text)


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
) -> Tree:
    """Build a tree from text (``--tree``, standard input, tests)."""
    _refuse_undecoded_bytes(text, name)
    with paused_gc():
        tick("parse")
        if fmt == "json" or (fmt is None and not _may_alias(text, fmt)):
            # a plain two-player JSON file: the C scanner, when built, reads it without json.loads;
            # where it stops, a bad file's mistake is usually found from a few nodes (formats/partial.py)
            source = Source(name, json_locator(text))
            found = scan_or_decline(text, source=source, max_nodes=max_nodes)
            if isinstance(found, Tree):
                return found
            if found is not None:
                error = first_error(text, found, source, max_nodes)
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
) -> Tree:
    """Load a tree file; ``"-"`` reads standard input.

    Args:
        path: the file, or ``"-"``.
        fmt: force a format (``json``, ``yaml``, ...) instead of the extension's.
        max_nodes: refuse trees with more nodes than this.

    Raises:
        TreeFormatError: unreadable or malformed file.
        IllegalTreeError: the file breaks a rule of the tree format.
    """
    name = os.fspath(path)
    if name == "-":
        text = read_stdin_text("<stdin>")
        return parse_tree(text, name="<stdin>", fmt=fmt, max_nodes=max_nodes)
    fmt = fmt or format_for(name)
    if fmt in TREE_READERS:
        return TREE_READERS[fmt](Path(name), name)
    tick("read")
    text = read_input_text(name)
    return parse_tree(text, name=name, fmt=fmt, max_nodes=max_nodes)


# -- formats of their own modules: Gambit .efg in, and every text format out ----


def _read_efg(text: str, name: str) -> tuple[Any, Locator | None]:
    """Gambit ``.efg``: its errors carry their own line numbers, so no locator.

    A two-player game that is not constant-sum becomes a ``general_sum`` tree
    of payoff vectors (searched like an n-player tree).
    """
    return read_efg(text, name, allow_general_sum=True), None


def _text_writer(render: Callable[[Tree], str]) -> TreeWriter:
    """A tree writer from a function that renders the file's text."""

    def write(tree: Tree, path: Path) -> None:
        write_atomically(path, render(tree))

    return write


register_format("efg", (".efg",), document_reader=_read_efg)
for _name, _render in TEXT_WRITERS.items():
    TREE_WRITERS[_name] = _text_writer(_render)

# gametree's own binary format: a reader and a writer of whole trees.
from .binary import read_binary, write_binary  # noqa: E402

register_format("gtb", (".gtb",), tree_reader=read_binary, tree_writer=write_binary)
