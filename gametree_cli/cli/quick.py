"""The quick path: the everyday command lines run without importing typer.

Why: typer (with the click it vendors) takes ~50 ms of CPU to import, twice
what a 25-line textbook script needs to load and solve a small tree (issue
14, docs/performance.md). ``gametree solve FILE [options]`` and the help
pages are what people run most, so for them :func:`plan` reads the command
line itself, from a table generated from the typer app (:mod:`.quick_table`,
written by :mod:`.quick_table_write`; a test fails when it is out of date),
and calls the same typer-free function typer's command calls.

It never fails: whatever it is not sure to read exactly as click would (an
unknown option, a bad value, ``--help`` among other words, a narrow
terminal, shell completion) it declines, and typer parses the whole command
line as before, errors and their wording included. tests/test_quick.py
checks on many generated command lines that whatever it accepts, click
reads the same.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Any, Callable

from . import quick_table as table

__all__ = ["plan", "parse_command", "parse_global_options", "help_width_is_standard", "Declined"]

#: the program name click shows in help pages (``python -m gametree_cli`` shows another one: not quick)
PROGRAM = "gametree"
#: click's help width is min(columns, 80) - 2: at 80 columns or more, the width the pages were written at
STANDARD_COLUMNS = 80


class Declined(Exception):
    """The quick path does not read this command line: typer does."""


def plan(args: list[str], program: str | None = None) -> Callable[[], None] | None:
    """What to run for the command line ``args`` without typer, or ``None``: typer reads it."""
    program = os.path.basename(sys.argv[0] if program is None else program)
    if program != PROGRAM or os.environ.get(table.COMPLETION_VARIABLE):
        return None
    page = _help_page(args)
    if page is not None:
        return lambda: _write(page)
    try:
        global_values, rest, from_environment = parse_global_options(args)
        if not rest or rest[0] not in table.COMMANDS:
            return None
        runner, values = parse_command(rest[0], rest[1:])
    except Declined:
        return None
    module, function = runner.split(":")
    command = getattr(import_module(f"{__package__}.{module}"), function)  # now, while entry.py holds signals
    return lambda: _run(command, global_values, bool(from_environment), values)


def _help_page(args: list[str]) -> str | None:
    """The stored page for ``gametree --help`` or ``gametree COMMAND --help``, when it is what typer would print."""
    if args == ["--help"]:
        name = ""
    elif len(args) == 2 and args[1] == "--help" and args[0] in table.HELP and args[0]:
        name = args[0]
    else:
        return None
    return table.HELP[name] if help_width_is_standard() else None


def help_width_is_standard() -> bool:
    """Whether click would lay out help at the stored pages' width (its terminal size rule, as shutil's)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    try:
        lines = int(os.environ["LINES"])
    except (KeyError, ValueError):
        lines = 0
    if columns <= 0 or lines <= 0:
        try:
            size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            size = os.terminal_size((STANDARD_COLUMNS, 24))
        if columns <= 0:
            columns = size.columns or STANDARD_COLUMNS
    return columns >= STANDARD_COLUMNS


def parse_global_options(args: list[str]) -> tuple[dict[str, Any], list[str], set[str]]:
    """The options before the command (their values, environment and defaults applied), the words from the
    command on, and which options' values came from the environment."""
    values: dict[str, Any] = {}
    from_environment: set[str] = set()
    words = list(args)
    while words and words[0][:1] == "-" and words[0] != "-":
        word = words.pop(0)
        name, equals, attached = word.partition("=")
        if name not in table.GLOBAL_OPTIONS:
            raise Declined(word)  # --help, --, unknown, or a short option
        dest = table.GLOBAL_OPTIONS[name]
        if equals:
            words.insert(0, attached)
        if not words:
            raise Declined(word)
        values[dest] = words.pop(0)
    for dest, default in table.GLOBAL_DEFAULTS.items():
        if dest not in values:
            given = os.environ.get(table.GLOBAL_ENVIRONMENT[dest])  # click: an empty variable counts as unset
            values[dest] = given or default
            if given:
                from_environment.add(dest)
    return values, words, from_environment


def parse_command(name: str, args: list[str]) -> tuple[str, dict[str, Any]]:
    """The runner (``module:function``) of command ``name`` and its keyword arguments read from ``args``, as click
    reads them (its OptionParser: interspersed arguments, ``--`` ends the options, ``--opt=value``, ``-ovalue``,
    the last of a repeated option wins); :class:`Declined` where click would refuse or this does not mirror it."""
    runner, argument, options, defaults = table.COMMANDS[name]
    raw: dict[str, Any] = {}
    positional: list[str] = []
    words = list(args)
    while words:
        word = words.pop(0)
        if word == "--":
            positional.extend(words)
            break
        if word[:1] != "-" or len(word) == 1:
            positional.append(word)
            continue
        if word[:2] == "--":
            name_part, equals, attached = word.partition("=")
            spec = options.get(name_part)
            if spec is None:
                raise Declined(word)
            if spec[1] == "flag":
                if equals:
                    raise Declined(word)  # click: "does not take a value"
            elif equals:
                words.insert(0, attached)
        else:
            spec = options.get(word[:2])
            if spec is None or spec[1] == "flag":
                raise Declined(word)  # click would read further letters as more short flags: none are quick
            if len(word) > 2:
                words.insert(0, word[2:])
        dest, kind, count = spec
        if kind == "flag":
            raw[dest] = True
            continue
        if len(words) < count:
            raise Declined(word)
        taken = [words.pop(0) for _ in range(count)]
        raw[dest] = (kind, taken)
    if len(positional) > 1:
        raise Declined(positional[1])
    values = {dest: _default(kind_value) for dest, kind_value in defaults.items()}
    values[argument] = positional[0] if positional else None
    for dest, given in raw.items():
        values[dest] = given if given is True else _convert(*given)
    return runner, values


def _default(kind_value: tuple[str, Any]) -> Any:
    kind, value = kind_value
    return value if value is None or kind in ("str", "int", "flag") else _choice(kind, value)


def _convert(kind: str, texts: list[str]) -> Any:
    converted = tuple(_convert_one(kind, text) for text in texts)
    return converted[0] if len(converted) == 1 else converted


def _convert_one(kind: str, text: str) -> Any:
    if kind == "str":
        return text
    if kind == "int":
        try:
            return int(text)  # click's IntParamType: int(value)
        except ValueError:
            raise Declined(text) from None
    return _choice(kind, text)


def _choice(kind: str, text: str) -> Any:
    """A member of the enum named ``kind`` (in :mod:`.choices`), matched case-sensitively as typer does."""
    from . import choices

    try:
        return getattr(choices, kind)(text)
    except ValueError:
        raise Declined(text) from None


def _write(page: str) -> None:
    sys.stdout.write(page)


def _run(command: Callable[..., None], global_values: dict[str, Any], from_environment: bool,
         values: dict[str, Any]) -> None:
    """What typer does for the command line, without typer: the app's callback, then the command."""
    from .inputs import apply_global_options

    apply_global_options(**global_values, from_environment=from_environment)
    command(**values)
