"""Read the user's files and write new ones so that nothing the user gave is lost.

Every command that reads a tree or an answer file, and every command that
writes a file (answer keys, pictures, conversions, generated trees, reports),
goes through here, so the rules hold everywhere (see docs/safety.md):

* an input is read only when it is a regular file or a pipe, never a folder
  or a device (``/dev/zero`` would be read forever), and only up to a size
  limit (:func:`input_limit`, 2 GiB unless changed);
* an output appears whole or not at all: it is written in a fresh private
  folder beside the target and renamed into place; the folder is removed
  whatever happens, Ctrl-C included;
* an input is never replaced (compared by device and inode, so a symbolic or
  hard link to it counts too), and an existing file only with ``force``.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterator, Sequence

from ..core.errors import GameTreeError, TreeFormatError
from .strict_json import not_utf8

if TYPE_CHECKING:  # imported by the writers that use it: reading a tree needs no pathlib (start-up, docs/performance.md)
    from pathlib import Path

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "Protected",
    "input_limit",
    "set_input_limit",
    "limit_inputs",
    "parse_size",
    "read_input",
    "read_input_into",
    "read_input_text",
    "read_stdin_text",
    "read_stdin",
    "decode_input",
    "same_file",
    "check_target",
    "atomic_output",
    "write_atomically",
    "private_folder",
]

#: The biggest input read unless ``--max-input-size`` says otherwise (2 GiB).
DEFAULT_MAX_INPUT_BYTES = 2 * 1024**3
_limit: list[int | str] = [DEFAULT_MAX_INPUT_BYTES]  # a str: the error of a bad size given
_CHUNK = 16 * 1024 * 1024
_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1024**2, "mb": 1024**2, "mib": 1024**2,
          "g": 1024**3, "gb": 1024**3, "gib": 1024**3, "t": 1024**4, "tb": 1024**4, "tib": 1024**4}

Protected = Sequence["str | os.PathLike[str] | None"]


def input_limit() -> int:
    """The most bytes an input may have (the command line may change it).

    Raises:
        GameTreeError: the size given (:func:`limit_inputs`) was not a size: refused here, when an input is
            first read, so that a command's ``--help``, or a command that reads nothing, still runs.
    """
    limit = _limit[0]
    if isinstance(limit, str):
        raise GameTreeError(limit)
    return limit


def set_input_limit(size: int, given_by: str = "--max-input-size") -> None:
    """Change :func:`input_limit` to ``size`` bytes (``given_by``: the option or variable, for the message)."""
    if size < 1:
        raise GameTreeError(f"{given_by}: must be at least 1 byte")
    _limit[0] = size


def limit_inputs(text: str, given_by: str = "--max-input-size") -> None:
    """``--max-input-size SIZE`` or its environment variable (``given_by``): a bad size is kept as its one-line
    error, raised by :func:`input_limit` when an input is read."""
    try:
        set_input_limit(parse_size(text, given_by), given_by)
    except GameTreeError as error:
        _limit[0] = str(error)


def parse_size(text: str, given_by: str = "--max-input-size") -> int:
    """A size such as ``2G``, ``500M``, ``64k`` or ``1048576`` (binary units) in bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = _UNITS.get(match.group(2).lower()) if match else None
    if match is None or unit is None:
        raise GameTreeError(f"{given_by}: expected a size like 2G, 500M or 1048576, found {text!r}")
    return int(float(match.group(1)) * unit)


def _size_words(size: int) -> str:
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= factor:
            return f"{size / factor:g} {unit}"
    return f"{size} bytes"


def _too_big(name: str, error: type[GameTreeError]) -> GameTreeError:
    return error(f"bigger than the input limit of {_size_words(input_limit())} (raise it with --max-input-size)",
                 file=name)


def _read_limited(stream: BinaryIO, limit: int) -> bytes | None:
    """At most ``limit`` bytes of a stream, or None when it holds more."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            return None


def _read_into(stream: BinaryIO, into: Callable[[int], Any]) -> Any:
    """A regular file's bytes in the buffer ``into`` makes for its size (cut if it shrank, bytes if it grew)."""
    buffer = into(os.fstat(stream.fileno()).st_size)
    got = stream.readinto(buffer)
    if got < len(buffer):
        return buffer[:got]
    rest = stream.read()
    return bytes(buffer) + rest if rest else buffer


def read_input(name: str, *, error: type[GameTreeError] = TreeFormatError, what: str = "a tree file") -> bytes:
    """The bytes of the input file ``name`` (a regular file or a pipe).

    Raises:
        GameTreeError (of class ``error``): no such file, a folder or a
            device, unreadable, or bigger than :func:`input_limit`.
    """
    return _read(name, error, what, None)  # type: ignore[no-any-return]


def read_input_into(name: str, into: Callable[[int], Any], *, error: type[GameTreeError] = TreeFormatError,
                    what: str = "a tree file") -> Any:
    """:func:`read_input`, a regular file read into the buffer ``into(size)`` makes (else bytes): the ``.gtb``
    reader's is NumPy's, 2 MB pages where ``bytes`` gets 4 kB ones (docs/performance.md, issue 14.3)."""
    return _read(name, error, what, into)


def _read(name: str, error: type[GameTreeError], what: str, into: Callable[[int], Any] | None) -> Any:
    try:
        status = os.stat(name)
        mode = status.st_mode
        if stat.S_ISDIR(mode):
            raise error(f"is a directory, not {what}", file=name)
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            raise error(f"is a device, not {what}", file=name)
        limit = input_limit()
        if stat.S_ISREG(mode) and status.st_size > limit:  # refused before it is even opened
            raise _too_big(name, error)
        with open(name, "rb") as stream:
            if stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                data: Any = stream.read() if into is None else _read_into(stream, into)
                if data is not None and len(data) > limit:  # it grew meanwhile
                    data = None
            else:  # a pipe, e.g. bash's <(command): read no more than the limit
                data = _read_limited(stream, limit)
    except FileNotFoundError:
        raise error("no such file", file=name) from None
    except IsADirectoryError:
        raise error(f"is a directory, not {what}", file=name) from None
    except OSError as problem:
        raise error(f"cannot read: {problem.strerror or problem}", file=name) from None
    if data is None:
        raise _too_big(name, error)
    return data


def _decode(data: bytes, name: str, error: type[GameTreeError]) -> str:
    """UTF-8 text (a byte-order mark is dropped); the error says where the first bad byte is."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise not_utf8(problem, name, error) from None  # type: ignore[arg-type]


def read_input_text(name: str, *, error: type[GameTreeError] = TreeFormatError, what: str = "a tree file") -> str:
    """The UTF-8 text of the input file ``name``; see :func:`read_input`."""
    return _decode(read_input(name, error=error, what=what), name, error)


def read_stdin(name: str = "<stdin>", *, error: type[GameTreeError] = TreeFormatError) -> bytes | str:
    """Standard input's bytes (its text, where a caller put a text stream in its place: tests),
    refused beyond :func:`input_limit`: bytes, so that a binary tree (``.gtb``) can be recognised."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream put in place by a caller (tests)
        text = sys.stdin.read()
        if len(text) > input_limit():
            raise _too_big(name, error)
        return text.removeprefix("\ufeff")  # a byte-order mark, as utf-8-sig drops it
    try:
        data = _read_limited(binary, input_limit())
    except OSError as problem:
        raise error(f"cannot read: {problem.strerror or problem}", file=name) from None
    if data is None:
        raise _too_big(name, error)
    return data


def read_stdin_text(name: str = "<stdin>", *, error: type[GameTreeError] = TreeFormatError) -> str:
    """Standard input as UTF-8 text, refused beyond :func:`input_limit`."""
    data = read_stdin(name, error=error)
    return data if isinstance(data, str) else _decode(data, name, error)


def decode_input(data: bytes, name: str, *, error: type[GameTreeError] = TreeFormatError) -> str:
    """The UTF-8 text of an input's bytes (:func:`read_input`); the error says where the first bad byte is."""
    return _decode(data, name, error)


# -- writing --------------------------------------------------------------------


def same_file(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> bool:
    """Do both names reach one file (also through symbolic or hard links)?"""
    try:
        one, other = os.stat(first), os.stat(second)
    except (OSError, ValueError):
        return False
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def _is_stream(name: str) -> bool:
    """An existing pipe or device (``/dev/null``, ``/dev/stdout``, a FIFO): written to, never replaced."""
    try:
        mode = os.stat(name).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def check_target(path: str | os.PathLike[str], *, force: bool = False, protect: Protected = (),
                 force_hint: str = "--force") -> None:
    """Refuse to write over an input (ever), a folder, or an existing file (without ``force``).

    Commands call it before their long work too, so that a refusal comes first;
    ``force_hint`` is how the caller says "replace it" (``--force``, or
    ``force=True`` from Python).

    Raises:
        GameTreeError: naming the file and what to do.
    """
    name = os.fspath(path)
    if name in ("", "-"):
        raise GameTreeError(f"{name!r} is not a file name to write")
    for given in protect:
        if given is not None and os.fspath(given) not in ("", "-") and same_file(name, given):
            raise GameTreeError("refusing to overwrite an input file", file=name)
    if os.path.isdir(name):
        raise GameTreeError("is a directory", file=name)
    if os.path.lexists(name) and not force and not _is_stream(name):
        raise GameTreeError(f"already exists (use {force_hint} to replace it)", file=name)


@contextmanager
def atomic_output(path: str | os.PathLike[str], *, force: bool = False, protect: Protected = (),
                  force_hint: str = "--force") -> Iterator[Path]:
    """A fresh path to write ``path``'s new content to; it becomes ``path`` when the block ends well.

    The path lies in a private folder beside the target (same file system, so
    the final rename is atomic). Whatever else happens (an error, Ctrl-C) the
    folder and what was written are removed and the target is untouched.
    An existing pipe or device (``/dev/null``, a FIFO) is written directly.

    Raises:
        GameTreeError: the checks of :func:`check_target` (made again just
            before the rename), or a write that failed.
    """
    from pathlib import Path  # here, not at the top: a run that writes no file never loads it (start-up)

    name = os.fspath(path)
    check_target(name, force=force, protect=protect, force_hint=force_hint)
    if _is_stream(name):
        try:
            yield Path(name)
        except OSError as problem:
            raise GameTreeError(f"cannot write: {problem.strerror or problem}", file=name) from None
        return
    target = Path(os.path.realpath(name)) if os.path.islink(name) else Path(name)  # a link's file, not the link
    leftovers: list[Path] = []
    try:
        folder = _private_folder(target, leftovers)
        written = folder / target.name
        yield written
        check_target(name, force=force, protect=protect, force_hint=force_hint)  # the same after a long write?
        _publish(written, target, force, name, force_hint)
    except OSError as problem:
        raise GameTreeError(f"cannot write: {problem.strerror or problem}", file=name) from None
    finally:
        if leftovers:
            with _signals_held():
                for folder in leftovers:
                    import shutil  # here, not at the top: start-up time

                    shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block ends: a private folder is removed whole.

    Without this, a Ctrl-C just after the rename interrupted the removal and
    left a hidden ``.NAME.xxxx.tmp`` beside the finished file. The signal is
    only held (POSIX ``pthread_sigmask``), never lost: it arrives when the
    block ends. Elsewhere the block simply runs.
    """
    import signal  # here, not at the top: only writers hold signals (start-up)

    held = {signal.SIGINT, signal.SIGTERM}
    block = getattr(signal, "pthread_sigmask", None)
    previous = block(signal.SIG_BLOCK, held) if block is not None else None
    try:
        yield
    finally:
        if block is not None and previous is not None:
            block(signal.SIG_SETMASK, previous)


def _private_folder(target: Path, leftovers: list[Path]) -> Path:
    """Make a new folder beside ``target``; it is listed in ``leftovers`` before it exists,
    so that an interrupt at any moment leaves nothing behind."""
    while True:
        folder = target.parent / f".{target.name}.{os.urandom(4).hex()}.tmp"  # (os.urandom: secrets costs start-up)
        leftovers.append(folder)
        try:
            os.mkdir(folder, 0o700)
            return folder
        except FileExistsError:
            leftovers.pop()  # someone else's


def _publish(written: Path, target: Path, force: bool, name: str, force_hint: str) -> None:
    """Put the finished file in place: replacing the target (``force``) or only where none exists."""
    if stat.S_ISREG(os.stat(written).st_mode) and os.path.exists(target):
        try:
            os.chmod(written, stat.S_IMODE(os.stat(target).st_mode))  # a replaced file keeps its permissions
        except OSError:
            pass
    if force:
        os.replace(written, target)
        return
    try:
        os.link(written, target)  # fails if a file appeared meanwhile: never replaced without force
    except FileExistsError:
        raise GameTreeError(f"already exists (use {force_hint} to replace it)", file=name) from None
    except OSError:  # a file system without hard links
        os.replace(written, target)


def write_atomically(path: str | os.PathLike[str], data: str | bytes, *, force: bool = False,
                     protect: Protected = (), force_hint: str = "--force") -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all; see :func:`atomic_output`.

    Raises:
        GameTreeError: the file exists (without ``force``), is an input, or cannot be written.
    """
    with atomic_output(path, force=force, protect=protect, force_hint=force_hint) as written:
        with open(written, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextmanager
def private_folder(beside: str | os.PathLike[str]) -> Iterator[Path]:
    """A new private folder beside ``beside`` (``.NAME.xxxx.tmp``) to build several files in; removed
    whole whatever happens, Ctrl-C included (a set of files published only when all of it is written)."""
    from pathlib import Path  # here, not at the top (start-up)

    leftovers: list[Path] = []
    try:
        try:
            yield _private_folder(Path(beside), leftovers)
        except OSError as problem:
            raise GameTreeError(f"cannot write: {problem.strerror or problem}", file=os.fspath(Path(beside).parent)) from None
    finally:
        if leftovers:
            with _signals_held():
                import shutil  # here, not at the top: start-up time

                for folder in leftovers:
                    shutil.rmtree(folder, ignore_errors=True)
