"""The command line registers only the command a run names (cli/app.py: ``build_app``, ``command_named``).

What must hold: a run that names its command behaves exactly as with every
command registered (same help, same options), anything else (``--help``, a
mistyped command) gets them all, and the word after an option that takes a
value is never taken for a command. ``make bench`` measures the time saved.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from gametree_cli.cli.app import COMMANDS, VALUE_OPTIONS, build_app, command_named


@pytest.mark.parametrize("args,named", [
    (["solve", "t.yaml"], "solve"),
    (["--max-input-size", "5G", "check", "a.yaml"], "check"),
    (["--max-input-size", "solve", "convert"], "convert"),  # "solve" is the option's value here
    (["--max-input-size=5G", "render", "t.yaml"], "render"),
    (["generate", "tictactoe"], "generate"),
    (["random", "--seed", "3"], "random"),
    (["--help", "solve"], None),
    (["-h"], None),
    ([], None),
    (["solv", "t.yaml"], None),
    (["--", "solve"], None),
])
def test_the_command_a_run_names(args: list[str], named: str | None) -> None:
    assert command_named(args) == named


def test_every_option_before_the_command_that_takes_a_value_is_known() -> None:
    group = typer.main.get_command(build_app())
    taking_values = {name for param in group.params if param.param_type_name == "option" and not param.is_flag
                     for name in param.opts}
    assert taking_values == set(VALUE_OPTIONS)
    assert sorted(group.commands) == sorted(COMMANDS)  # type: ignore[attr-defined]  # every command, once


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_alone_has_the_same_help_as_among_all(name: str) -> None:
    runner = CliRunner()
    alone = runner.invoke(build_app(name), [name, "--help"], prog_name="gametree")
    among_all = runner.invoke(build_app(), [name, "--help"], prog_name="gametree")
    assert alone.exit_code == among_all.exit_code == 0
    assert alone.output == among_all.output and "Usage: gametree " + name in alone.output


PROBE = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("COMMANDS " + ",".join(sorted(
    name.rsplit(".", 1)[1] for name in sys.modules if name.startswith("gametree_cli.cli.commands."))) + "\\n"))
sys.argv = ["gametree"] + sys.argv[1:]
from gametree_cli.cli.entry import main
main()
"""


@pytest.mark.parametrize("args,columns,loaded", [
    (["solve", "-"], "80", []),  # the quick path (cli/quick.py): no typer, no command module
    (["solve", "-", "--help"], "80", ["solve"]),  # --help among other words: typer, with the one command named
    (["schema"], "80", ["schema"]),
    (["--help"], "80", []),  # the stored page
    (["--help"], "60", sorted(module for module, _ in COMMANDS.values())),  # narrower than the stored page: typer
])
def test_a_run_imports_only_the_command_it_names(args: list[str], columns: str, loaded: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input="root: [[3, 12], [2, 4]]\n",
                          capture_output=True, text=True, env=os.environ | {"COLUMNS": columns})
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "COMMANDS " + ",".join(loaded)


def test_help_imports_no_reading_or_searching_module() -> None:
    """``gametree --help`` builds every command but runs none: the library's io and search modules stay unloaded."""
    probe = ("import sys\nsys.argv = ['gametree', '--help']\nimport os\nos.environ['COLUMNS'] = '60'  # typer's page\nfrom gametree_cli.cli.entry import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('gametree_cli.io', 'gametree_cli.search'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


def test_command_parameters_are_annotated_with_objects_not_strings() -> None:
    """typer evaluates a string annotation (``from __future__ import annotations``) for every parameter of
    every command it builds: compiled expressions each time, ~10 ms of ``--help``. Real objects cost nothing."""
    from importlib import import_module

    for module, attribute in COMMANDS.values():
        target = getattr(import_module(f"gametree_cli.cli.commands.{module}"), attribute)
        functions = [target] if callable(target) and not isinstance(target, typer.Typer) else [
            info.callback for info in target.registered_commands]
        for function in functions:
            function = getattr(function, "__wrapped__", function)
            strings = [name for name, hint in function.__annotations__.items() if isinstance(hint, str)]
            assert strings == [], f"{module}.{function.__name__}: {strings}"
