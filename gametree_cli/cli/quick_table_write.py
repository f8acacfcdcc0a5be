"""Write :mod:`.quick_table` from the typer app: ``make quick-table``.

The quick path (:mod:`.quick`) reads command lines without typer; what it
knows of them (option names, kinds, defaults, the help pages) is read here
from the click commands typer builds, so there is one definition: the typer
app. A test compares this module's output with the file and fails, naming
this command, when a change to the app left the table behind. Options it
could not mirror exactly (an environment variable, a callback, a prompt, a
type it does not know) stop it with a message instead of a wrong table.
"""

from __future__ import annotations

import enum
import os
import subprocess
import sys
from pathlib import Path
from pprint import pformat
from typing import Any

__all__ = ["QUICK_COMMANDS", "table_source", "main"]

#: the commands the quick path runs, and the typer-free function each one's typer command calls
QUICK_COMMANDS = {"solve": "solve_run:run_solve"}
TABLE = Path(__file__).with_name("quick_table.py")
#: the terminal width the help pages are written at (quick.STANDARD_COLUMNS)
COLUMNS = 80


def table_source() -> str:
    """The text of quick_table.py for the app as it is now."""
    import typer.main

    from .app import COMMANDS, app

    group = typer.main.get_command(app)
    global_options, global_defaults, global_environment = {}, {}, {}
    for param in group.params:
        if param.name == "help":
            continue
        _check_mirrorable(param, allow_envvar=True)
        for flag in param.opts:
            global_options[flag] = param.name
        global_defaults[param.name] = param.default
        global_environment[param.name] = param.envvar
    commands = {name: _command_table(group.commands[name], runner) for name, runner in QUICK_COMMANDS.items()}
    pages = {"": _help([])} | {name: _help([name]) for name in COMMANDS}
    return "\n".join([
        '"""Generated from the typer app by `make quick-table` (gametree_cli/cli/quick_table_write.py): do not edit.',
        "",
        "What the quick path (quick.py) knows of the command line; tests/test_quick.py fails when it is out of date.",
        '"""',
        "",
        "# fmt: off",
        "#: the variable that asks click for shell completion: typer answers it",
        "COMPLETION_VARIABLE = '_GAMETREE_COMPLETE'",
        "#: options before the command: flag -> parameter; each one's default and environment variable",
        f"GLOBAL_OPTIONS = {pformat(global_options)}",
        f"GLOBAL_DEFAULTS = {pformat(global_defaults)}",
        f"GLOBAL_ENVIRONMENT = {pformat(global_environment)}",
        "#: command -> (its typer-free runner, its argument's parameter, {flag: (parameter, kind, values taken)},",
        "#: {parameter: (kind, default)}); a kind is str, int, flag, or the name of an enum in choices.py",
        f"COMMANDS = {pformat(commands, width=120)}",
        f"#: the help pages at {COLUMNS} columns or more: '' is `gametree --help`, then `gametree COMMAND --help`",
        f"HELP = {pformat(pages, width=120)}",
        "",
    ])


def _command_table(command: Any, runner: str) -> tuple[str, str, dict[str, tuple[str, str, int]], dict[str, tuple[str, Any]]]:
    arguments = [param for param in command.params if param.param_type_name == "argument"]
    if len(arguments) != 1 or arguments[0].nargs != 1 or arguments[0].required:
        raise SystemExit(f"{command.name}: the quick path reads one optional argument")
    options: dict[str, tuple[str, str, int]] = {}
    defaults: dict[str, tuple[str, Any]] = {}
    for param in command.params:
        if param.param_type_name == "argument" or param.name == "help":
            continue
        _check_mirrorable(param, allow_envvar=False)
        kind = _kind(param)
        for flag in param.opts:
            options[flag] = (param.name, kind, 0 if kind == "flag" else param.nargs)
        default = param.default.value if isinstance(param.default, enum.Enum) else param.default
        defaults[param.name] = (kind, default)
    return runner, arguments[0].name, options, defaults


def _kind(param: Any) -> str:
    type_name = type(param.type).__name__
    if getattr(param, "is_flag", False):
        if param.secondary_opts or not getattr(param, "is_bool_flag", False) or param.default is not False:
            raise SystemExit(f"--{param.name}: the quick path reads plain on-flags only")
        return "flag"
    if type_name == "Tuple":
        kinds = {_simple_kind(type(part).__name__, param) for part in param.type.types}
        if len(kinds) != 1:
            raise SystemExit(f"--{param.name}: the quick path reads tuples of one type only")
        return kinds.pop()
    return _simple_kind(type_name, param)


def _simple_kind(type_name: str, param: Any) -> str:
    if type_name == "StringParamType":
        return "str"
    if type_name == "IntParamType":
        return "int"
    if type_name == "TyperChoice" and isinstance(param.default, enum.Enum):
        from . import choices

        kind = type(param.default).__name__
        if getattr(choices, kind, None) is not type(param.default) or not param.type.case_sensitive:
            raise SystemExit(f"--{param.name}: the quick path reads case-sensitive enums of choices.py only")
        return kind
    raise SystemExit(f"--{param.name}: the quick path does not read {type_name}")


def _check_mirrorable(param: Any, allow_envvar: bool) -> None:
    if (param.multiple or param.callback is not None or getattr(param, "prompt", None) or param.required
            or getattr(param, "count", False) or param.is_eager or (param.envvar and not allow_envvar)
            or any(not flag.startswith("--") and len(flag) != 2 for flag in param.opts)):
        raise SystemExit(f"{param.opts}: the quick path cannot mirror this option; exclude its command")


def _help(words: list[str]) -> str:
    """What ``gametree WORDS --help`` prints when typer reads the command line, in a process of its own at
    :data:`COLUMNS` columns (typer's test runner lays pages out at another width: 80, not click's 80 - 2)."""
    probe = ("import sys\nfrom gametree_cli.cli.app import main\n"
             f"sys.argv = ['gametree'] + {[*words, '--help']!r}\nmain()\n")
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("GAMETREE_", "_GAMETREE", "COLUMNS", "LINES"))}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=environment | {"COLUMNS": str(COLUMNS)})
    if done.returncode != 0:
        raise SystemExit(f"gametree {' '.join(words)} --help failed: {done.stderr}")
    return done.stdout


def main() -> None:
    """Rewrite quick_table.py (or, with ``--check``, exit 1 if it is out of date)."""
    source = table_source()
    if "--check" in sys.argv[1:]:
        raise SystemExit(0 if TABLE.read_text(encoding="utf-8") == source else f"{TABLE} is out of date: make quick-table")
    TABLE.write_text(source, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
