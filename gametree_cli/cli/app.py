"""The ``gametree`` command: the typer app, its commands, and how a run ends.

The only place that prints for the user or picks exit codes. Library errors
(:class:`~gametree_cli.core.errors.GameTreeError`) become one line on stderr and
exit status 2; ``GAMETREE_DEBUG=1`` shows the traceback instead. Ctrl-C ends
a command with one line and status 130 (SIGTERM: 143), a reader that went
away (``| head``) with no message and status 141 (docs/safety.md): see
:mod:`.exits` and :mod:`.process`, which the quick path (:mod:`.quick`) shares.

Each command is a function in a module of :mod:`gametree_cli.cli.commands`; this
module registers them. Views are imported where a command uses them: rich
and NumPy cost start-up time that `gametree check` need not pay.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Annotated

import typer

from .inputs import apply_global_options
from .process import run_process

__all__ = ["app", "build_app", "command_named", "COMMANDS", "main"]

#: each command's name -> (its module in :mod:`.commands`, the function or sub-app there), in --help's order
COMMANDS: dict[str, tuple[str, str]] = {
    "solve": ("solve", "solve_command"),
    "check": ("check", "check_command"),
    "convert": ("convert", "convert_command"),
    "generate": ("generate", "generate_app"),
    "render": ("render", "render_command"),
    "schema": ("schema", "schema_command"),
    "random": ("random_tree", "random_command"),
    "compare": ("compare", "compare_command"),
    "blank": ("blank", "blank_command"),
    "handout": ("handout", "handout_command"),
}
#: the options before the command that take a value (the callback's below): the word after them is not a command
VALUE_OPTIONS = ("--max-input-size",)


def commands(
    context: typer.Context,
    max_input_size: Annotated[str, typer.Option(
        "--max-input-size", metavar="SIZE", envvar="GAMETREE_MAX_INPUT_SIZE",
        help="Refuse input files bigger than this, e.g. 500M or 8G (docs/safety.md).")] = "2G",
) -> None:
    """Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and show the answer the way a course does."""
    source = context.get_parameter_source("max_input_size")
    apply_global_options(max_input_size, from_environment=source is not None and source.name == "ENVIRONMENT")


def build_app(only: str | None = None) -> typer.Typer:
    """The command line with every command, or with only the command ``only``.

    Why ``only``: typer turns every registered command's signature into click
    parameters on every run (about 15 ms for ten commands, a tenth of a small
    solve), and each command's module has imports of its own. A run that
    names its command needs only that one; ``gametree --help``, a mistyped
    command and the tests get them all (:data:`app`).
    """
    built = typer.Typer(
        name="gametree",
        help="Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and show the answer the way a course does.",
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    built.callback()(commands)
    for name, (module, attribute) in COMMANDS.items():
        if only is not None and name != only:
            continue
        target = getattr(import_module(f"{__package__}.commands.{module}"), attribute)
        if isinstance(target, typer.Typer):
            built.add_typer(target, name=name)
        else:
            built.command(name)(target)
    return built


def command_named(args: list[str]) -> str | None:
    """The command a run names, if it is one of :data:`COMMANDS` and no help for the whole app is asked first."""
    words = iter(args)
    for word in words:
        if word in VALUE_OPTIONS:
            next(words, None)
        elif word in ("--help", "-h", "--"):
            return None
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def __getattr__(name: str) -> typer.Typer:
    """``app``: the command line with every command, built when first asked for (tests, ``python -m``)."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()["app"] = built = build_app()
    return built


def main() -> None:
    """Console-script entry point: the command line typer parses (:mod:`.process` ends the run)."""
    run_process(lambda: build_app(command_named(sys.argv[1:]))())


if __name__ == "__main__":  # pragma: no cover
    main()
