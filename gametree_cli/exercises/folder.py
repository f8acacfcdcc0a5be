"""Write a handout's folder without losing anything: all its files, or none of them.

Every file is first written (and compiled) in a private folder beside the
target; only when all of it is done are the files moved in. A target folder
that already holds files is refused unless ``--force``; with ``--force``, the
files a previous handout listed in its :data:`MANIFEST` are removed first
(so a student taken off the roster loses their old sheet), and files the
handout never wrote are left alone. An input (the roster) is never replaced.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator

from ..core.errors import GameTreeError
from ..io.files import Protected, same_file

__all__ = ["MANIFEST", "check_folder", "staging", "publish"]

#: The list of files a handout wrote, kept in its folder (what ``--force`` removes next time).
MANIFEST = "handout-files.txt"
_MANIFEST_HEADER = ("# The files gametree handout wrote in this folder; `gametree handout --force` "
                    "removes them before writing new ones.\n")


def check_folder(path: str, *, force: bool) -> None:
    """Refuse, before any work, a target that is a file, or a folder with files in it (without ``force``).

    Raises:
        GameTreeError: naming the folder, an example file, and what to do.
    """
    if os.path.lexists(path) and not os.path.isdir(path):
        raise GameTreeError("is a file, not a folder: name a folder for the handout", file=path)
    parent = Path(path).parent
    if not parent.is_dir():
        raise GameTreeError(f"the folder {parent} does not exist", file=path)
    if os.path.isdir(path) and not force:
        names = sorted(os.listdir(path))
        if names:
            whose = "another handout" if MANIFEST in names else "another run"
            raise GameTreeError(f"holds files from {whose} (e.g. {names[0]}): use --force to replace them, "
                                "or name a new folder", file=path)


@contextmanager
def staging(path: str) -> Iterator[Path]:
    """A private folder beside ``path`` to build the handout in; removed whatever happens."""
    target = Path(path)
    try:
        folder = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    except OSError as problem:
        raise GameTreeError(f"cannot write: {problem.strerror or problem}", file=path) from None
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def publish(staged: Path, path: str, files: list[str], *, force: bool, protect: Protected = ()) -> None:
    """Move ``files`` (relative paths, ``/``-separated) from ``staged`` into the folder ``path``,
    with a :data:`MANIFEST` listing them.

    Raises:
        GameTreeError: the folder has files (without ``force``, checked again), an input would be
            replaced, a folder stands where a file goes, or the files cannot be moved.
    """
    check_folder(path, force=force)
    target = Path(path)
    (staged / MANIFEST).write_text(_MANIFEST_HEADER + "".join(f"{name}\n" for name in files), encoding="utf-8")
    everything = [*files, MANIFEST]
    for name in everything:
        destination = target / name
        if destination.is_dir():
            raise GameTreeError(f"{name} is a folder; the handout needs that name for a file", file=path)
        for given in protect:
            if given is not None and same_file(destination, given):
                raise GameTreeError(f"refusing to overwrite an input file ({name})", file=path)
    try:
        target.mkdir(exist_ok=True)
        if force:
            _remove_previous(target, set(everything))
        for name in everything:
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged / name, destination)
    except OSError as problem:
        raise GameTreeError(f"cannot write: {problem.strerror or problem}", file=path) from None


def _remove_previous(target: Path, keeping: set[str]) -> None:
    """Remove the files the folder's previous manifest lists (only plain files inside the folder)."""
    try:
        listed = (target / MANIFEST).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return
    folders = set()
    for line in listed:
        name = line.strip()
        relative = PurePosixPath(name)
        if not name or name.startswith("#") or relative.is_absolute() or ".." in relative.parts or name in keeping:
            continue
        old = target / relative
        if old.is_file() and not old.is_symlink():
            old.unlink()
            folders.update(parent for parent in relative.parents if str(parent) != ".")
    for folder in sorted(folders, key=lambda item: len(item.parts), reverse=True):
        try:
            (target / folder).rmdir()  # only when empty
        except OSError:
            pass
