"""Write a tree to a file in any registered format, safely.

The one place that decides the output format (``--to``, else the file's
extension) and enforces the rules every writing command shares: the file
appears whole or not at all, an input is never overwritten, and an existing
file only with ``force``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import GameTreeError
from ..model import Tree
from .document_writer import TEXT_WRITERS
from .loader import TREE_WRITERS, format_for, write_atomically

__all__ = ["output_format", "save_tree", "check_target"]


def output_format(path: str, to: str | None) -> str:
    """The format to write: ``to`` when given, else what the file's extension says.

    Raises:
        GameTreeError: an unknown format, or an extension that names none.
    """
    known = sorted(TREE_WRITERS)
    if to is not None:
        name = to.strip().lower()
        if name == "yml":
            name = "yaml"
        if name not in TREE_WRITERS:
            raise GameTreeError(f"unknown output format {to!r} (known: {', '.join(known)})")
        return name
    fmt = format_for(path) if path != "-" else None
    if fmt is None or fmt not in TREE_WRITERS:
        what = "standard output" if path == "-" else f"the extension of {path!r}"
        raise GameTreeError(f"cannot tell the output format from {what}: give --to ({', '.join(known)})")
    return fmt


def check_target(path: str | os.PathLike[str], *, force: bool = False,
                 protect: tuple[str | os.PathLike[str], ...] = ()) -> None:
    """Refuse to write over an input (ever) or an existing file (without ``force``).

    Raises:
        GameTreeError: naming the file and what to do.
    """
    target = Path(path)
    for given in protect:
        if os.fspath(given) in ("-", ""):
            continue
        try:
            if target.exists() and Path(given).exists() and target.resolve() == Path(given).resolve():
                raise GameTreeError("refusing to overwrite the input file", file=os.fspath(path))
        except OSError:
            continue
    if target.is_dir():
        raise GameTreeError("is a directory", file=os.fspath(path))
    if target.exists() and not force:
        raise GameTreeError("already exists (use --force to replace it)", file=os.fspath(path))


def save_tree(tree: Tree, path: str | os.PathLike[str], *, fmt: str | None = None, force: bool = False,
              protect: tuple[str | os.PathLike[str], ...] = ()) -> str:
    """Write ``tree`` to ``path`` atomically; returns the format written.

    Args:
        tree: the tree.
        path: the file to write.
        fmt: a format of ``TREE_WRITERS`` (yaml, json, compact, efg, ...);
            default: the extension's.
        force: replace an existing file.
        protect: files never to replace (the command's inputs).

    Raises:
        GameTreeError: unknown format, a protected or existing file, a tree
            the format cannot hold, or a write that failed.
    """
    name = os.fspath(path)
    fmt = output_format(name, fmt)
    check_target(name, force=force, protect=protect)
    if fmt in TEXT_WRITERS:
        write_atomically(name, TEXT_WRITERS[fmt](tree), force=True, protect=protect)
        return fmt
    # A writer of its own (e.g. a binary format) writes a fresh temporary file
    # beside the target, which then replaces the target in one rename.
    target = Path(name)
    directory = target.parent if str(target.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    os.close(handle)
    os.unlink(temporary)
    try:
        TREE_WRITERS[fmt](tree, Path(temporary))
        os.replace(temporary, target)
    except OSError as error:
        raise GameTreeError(f"cannot write: {error.strerror}", file=name) from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return fmt
