"""Write a tree to a file in any registered format, safely.

The one place that decides the output format (``--to``, else the file's
extension) and enforces the rules every writing command shares: the file
appears whole or not at all, an input is never overwritten, and an existing
file only with ``force``.
"""

from __future__ import annotations

import os

from ..core.errors import GameTreeError
from .files import Protected, atomic_output, check_target, write_atomically
from ..core.model import Tree
from .document_writer import TEXT_WRITERS
from .loader import TREE_WRITERS, format_for

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


def save_tree(tree: Tree, path: str | os.PathLike[str], *, fmt: str | None = None, force: bool = False,
              protect: Protected = (), force_hint: str = "force=True") -> str:
    """Write ``tree`` to ``path`` atomically; returns the format written.

    Args:
        tree: the tree.
        path: the file to write.
        fmt: a format of ``TREE_WRITERS`` (yaml, json, compact, efg, ...);
            default: the extension's.
        force: replace an existing file.
        protect: files never to replace (the command's inputs).
        force_hint: what the "already exists" error tells the user to give
            (``force=True`` from Python; the commands say ``--force``).

    Raises:
        GameTreeError: unknown format, a protected or existing file, a tree
            the format cannot hold, or a write that failed.
    """
    name = os.fspath(path)
    fmt = output_format(name, fmt)
    check_target(name, force=force, protect=protect, force_hint=force_hint)
    if fmt in TEXT_WRITERS:
        write_atomically(name, TEXT_WRITERS[fmt](tree), force=force, protect=protect, force_hint=force_hint)
        return fmt
    # A writer of its own (e.g. a binary format) writes a fresh path beside the
    # target, which then replaces the target in one rename.
    with atomic_output(name, force=force, protect=protect, force_hint=force_hint) as written:
        TREE_WRITERS[fmt](tree, written)
    return fmt
