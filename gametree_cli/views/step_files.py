"""The folder of ``render --steps DIR``: a whole new set of step pictures, or nothing changed.

A set of step pictures is what gametree's step naming gives: ``step-`` and
three digits or more, ``.svg`` or ``.png`` (``step-000.svg`` …). Every
picture is drawn into a private folder inside DIR and the set moves in only
when all of it is written, so an error, a full disk or Ctrl-C leaves DIR as
it was (docs/safety.md). A folder already holding step pictures of the
format being written is refused without ``--force``; with it, they are the
old set: replaced, and the old ones the new set does not name are removed
(a shorter search leaves no slides of the previous one behind). Nothing
else in DIR is touched: other files, step pictures of the other format,
names that only look alike (``step-1.svg``, ``step-001-notes.svg``),
folders and symbolic links stay (docs/render.md).
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..core.errors import GameTreeError
from ..io.files import private_folder

__all__ = ["step_names", "previous_steps", "check_steps_folder", "steps_folder", "publish_steps"]

_STEP_NAME = re.compile(r"step-[0-9]{3,}\.(svg|png)")


def step_names(count: int, fmt: str) -> list[str]:
    """``step-000.svg`` … : three digits, or as many as the last step needs."""
    width = max(3, len(str(count)))
    return [f"step-{k:0{width}d}.{fmt}" for k in range(count)]


def previous_steps(folder: Path, fmt: str) -> list[Path]:
    """The step pictures of format ``fmt`` already in ``folder``: plain files named as gametree names them."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [Path(entry.path) for entry in entries
            if _STEP_NAME.fullmatch(entry.name) and entry.name.endswith("." + fmt) and entry.is_file(follow_symlinks=False)]


def check_steps_folder(folder: str, fmt: str, *, force: bool) -> None:
    """Refuse, before any work, a DIR that is a file, or that holds a set of step pictures (without ``force``)."""
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise GameTreeError(f"--steps {folder}: not a directory")
    old = previous_steps(target, fmt)
    if old and not force:
        raise GameTreeError(f"{old[0]} exists: {folder} holds the step pictures of another run; "
                            "give --force to replace them")


@contextmanager
def steps_folder(folder: str) -> Iterator[Path]:
    """DIR (made if missing) and a private folder in it to draw into; a DIR made here and left empty
    by a failure is removed again."""
    target = Path(folder)
    made = not target.exists()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise GameTreeError(f"--steps {folder}: cannot make the folder: {problem.strerror or problem}") from None
    try:
        with private_folder(target / "steps") as staged:
            yield staged
    except BaseException:
        if made:
            try:
                target.rmdir()  # only when empty
            except OSError:
                pass
        raise


def publish_steps(staged: Path, folder: str, names: list[str], fmt: str, *, force: bool) -> None:
    """Move the finished set in; with ``force``, replace the old set (see the module docstring)."""
    check_steps_folder(folder, fmt, force=force)  # the same answer after a long drawing?
    target = Path(folder)
    old = previous_steps(target, fmt)
    try:
        for name in names:
            _place(staged / name, target / name, force)
        keep = set(names)
        for path in old:
            if path.name not in keep:
                path.unlink()
    except FileExistsError as problem:
        raise GameTreeError(f"{problem.filename2 or problem.filename} exists: give --force to replace the step "
                            f"pictures in {folder}") from None
    except OSError as problem:
        raise GameTreeError(f"--steps {folder}: cannot write: {problem.strerror or problem}") from None


def _place(written: Path, target: Path, force: bool) -> None:
    """One picture into place: replacing (``force``), or only where no file is (a hard link fails on one)."""
    if force:
        os.replace(written, target)
        return
    try:
        os.link(written, target)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if os.path.lexists(target):
            raise FileExistsError(0, "exists", str(target)) from None
        os.replace(written, target)
