"""The ``gametree`` command: parse arguments, call the library, render, exit.

The only place that prints for the user or picks exit codes. Library errors
(:class:`~gametree_cli.errors.GameTreeError`) become one line on stderr and
exit status 2; ``GAMETREE_DEBUG=1`` shows the traceback instead. Ctrl-C ends
a command with one line and status 130 (SIGTERM: 143), a reader that went
away (``| head``) with no message and status 141 (docs/safety.md).
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Callable, Optional, ParamSpec

import typer

from .algorithms import ALGORITHMS, Options, solve
from .errors import ExitCode, GameTreeError
from .files import check_target, parse_size, set_input_limit
from .events import Event, Observer
from .formats.document import DEFAULT_MAX_NODES
from .formats.loader import load_tree, parse_tree
from .model import Tree
from .numbers import Number, parse_number
from . import progress

if TYPE_CHECKING:
    from rich.console import Console

# Views are imported where a command uses them, not here: rich (text output)
# and the JSON writer (NumPy, the compiled helper) cost start-up time that
# `gametree check` and `solve --format json` need not pay.

__all__ = ["app", "main"]

P = ParamSpec("P")

app = typer.Typer(
    name="gametree",
    help="Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and show the answer the way a course does.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def commands(
    max_input_size: Annotated[str, typer.Option(
        "--max-input-size", metavar="SIZE", envvar="GAMETREE_MAX_INPUT_SIZE",
        help="Refuse input files bigger than this, e.g. 500M or 8G (docs/safety.md).")] = "2G",
) -> None:
    """Solve explicit game trees (minimax, alpha-beta, expectiminimax, max-n) and show the answer the way a course does."""
    try:
        set_input_limit(parse_size(max_input_size))
    except GameTreeError as error:
        raise fail(error) from None


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class Language(str, Enum):
    en = "en"
    es = "es"


class Variant(str, Enum):
    soft = "soft"
    hard = "hard"
    practical = "practical"


class Order(str, Enum):
    given = "given"
    best = "best"
    worst = "worst"


_OUT_CHUNK = 1 << 20


def write_out(data: str | bytes) -> None:
    """Write ``data`` to standard output: all of it, or BrokenPipeError.

    Why not ``sys.stdout.write``: when the reader goes away in the middle of
    one big write, Python's buffered stream reports the short write as a
    success and the rest is dropped without a word (exit 0, not 141). Writing
    in pieces and checking each count makes every command end the same way.
    """
    stream = sys.stdout
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text-only stream put in place by a caller
        stream.write(data if isinstance(data, str) else data.decode("utf-8"))
        return
    if isinstance(data, str):
        data = data.encode(stream.encoding or "utf-8", stream.errors or "strict")
    stream.flush()
    rest = memoryview(data)
    while rest:
        piece = rest[:_OUT_CHUNK]
        written = binary.write(piece)
        rest = rest[len(piece) if written is None else written:]
    binary.flush()


class _WholeStdout:
    """Standard output for rich: each write goes through :func:`write_out`."""

    def write(self, text: str) -> int:
        write_out(text)
        return len(text)

    def __getattr__(self, name: str) -> object:
        return getattr(sys.stdout, name)


@functools.cache
def _console_class() -> type[Console]:
    """rich's console, but a reader that went away is left to :func:`reports_errors`
    (rich's own handling exits with status 1). Made on first use: rich costs start-up time."""
    from rich.console import Console

    class StdoutConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return StdoutConsole


def stdout_console() -> Console:
    """Colour on a terminal; plain text when piped or NO_COLOR is set (rich's rules).

    When piped, lines are not wrapped at 80 columns: a tree line is kept whole.
    """
    console_class = _console_class()
    console = console_class(highlight=False, file=_WholeStdout())  # type: ignore[arg-type]
    if not console.is_terminal:
        console = console_class(highlight=False, file=_WholeStdout(), width=max(console.width, 240),  # type: ignore[arg-type]
                                soft_wrap=True)
    return console


def fail(error: GameTreeError) -> "typer.Exit":
    """Print ``error`` as the contract's one line on stderr; the exit to raise."""
    sys.stderr.write(f"{error}\n")
    return typer.Exit(ExitCode.BAD_INPUT)


# The options every command that reads and searches a tree shares (solve, render, ...).
TreeArgument = Annotated[Optional[str], typer.Argument(metavar="TREE", help="Tree file (YAML, JSON, .efg, .gtb) or '-' for standard input.")]
TreeTextOption = Annotated[Optional[str], typer.Option("--tree", help="The tree inline, e.g. '[[3,12,8],[2,4,6],[14,5,2]]'.")]
AlgoOption = Annotated[Optional[str], typer.Option("--algo", "-a", help="Algorithm (minimax, alphabeta, expectiminimax, expectimax, star1, maxn, shallow, paranoid). Default: chosen by the tree's node types.")]
DepthOption = Annotated[Optional[int], typer.Option("--depth", "-d", help="Stop N plies below the root and use the nodes' eval there.")]
VariantOption = Annotated[Variant, typer.Option("--variant", help="Alpha-beta form: soft (returns v, AIMA), hard (fail-hard: returns beta/alpha after a cut) or practical (the course notes: returns its own alpha/beta, cut or not).")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Prune only on v > beta / v < alpha.")]
OrderOption = Annotated[Order, typer.Option("--order", help="Children order for pruning searches: given, best or worst.")]
TiesOption = Annotated[Optional[str], typer.Option("--ties", help="max-n tie rule: left (default), right, paranoid or altruistic.")]
SumOption = Annotated[Optional[str], typer.Option("--sum", help="Constant sum of leaf vectors for shallow pruning (overrides the file's sum).")]
BoundsOption = Annotated[Optional[tuple[str, str]], typer.Option("--bounds", help="Lowest and highest leaf value for star1 (overrides the file's bounds).")]
MaxNodesOption = Annotated[Optional[int], typer.Option("--max-nodes", help="Refuse trees with more nodes than this (default 10,000,000).")]


def search_options(
    depth: int | None = None,
    variant: Variant = Variant.soft,
    strict: bool = False,
    order: Order = Order.given,
    ties: str | None = None,
    constant_sum: str | None = None,
    bounds: tuple[str, str] | None = None,
) -> Options:
    """The library's :class:`Options` from the shared command-line options."""
    options = Options(depth=depth, variant=variant.value, strict=strict, order=order.value)
    if ties is not None:
        options.extra["ties"] = ties
    if constant_sum is not None:
        options.extra["sum"] = parse_option_number("--sum", constant_sum)
    if bounds is not None:
        options.extra["bounds"] = (parse_option_number("--bounds", bounds[0]), parse_option_number("--bounds", bounds[1]))
    return options


def read_tree(path: Optional[str], tree_text: Optional[str], max_nodes: int | None = None) -> Tree:
    """The tree named on the command line: a path, ``-``, or ``--tree`` text."""
    limit = DEFAULT_MAX_NODES if max_nodes is None else max_nodes
    if tree_text is not None:
        if path is not None:
            raise GameTreeError("give either a TREE file or --tree, not both")
        return parse_tree(tree_text, name="--tree", max_nodes=limit)
    if path is None:
        raise GameTreeError("no tree given: name a TREE file, '-' for standard input, or use --tree TEXT")
    return load_tree(path, max_nodes=limit)


def reports_errors(command: Callable[P, None]) -> Callable[P, None]:
    """Turn library errors into the contract's one line on stderr and exit 2;
    end quietly on Ctrl-C (130) and when standard output's reader went away (141)."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            with progress.shown():  # a bar on a terminal's stderr after 1 s; nothing otherwise
                command(*args, **kwargs)
        except GameTreeError as error:
            if os.environ.get("GAMETREE_DEBUG"):
                raise
            raise fail(error) from None
        except BrokenPipeError:
            _silence_stdout()
            raise typer.Exit(ExitCode.BROKEN_PIPE) from None
        except KeyboardInterrupt as interrupt:
            raise typer.Exit(interrupted(interrupt)) from None
        except (RecursionError, MemoryError) as error:
            if os.environ.get("GAMETREE_DEBUG"):
                raise
            sys.stderr.write(f"gametree: error: the tree is too big or too deep to handle ({type(error).__name__})\n")
            raise typer.Exit(ExitCode.BAD_INPUT) from None

    return run


_said_interrupted = False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the same clean-up (no partial file) runs."""


def interrupted(interrupt: KeyboardInterrupt) -> int:
    """Say in one line that the run was stopped; the exit status (128 + the signal)."""
    global _said_interrupted
    _said_interrupted = True
    if isinstance(interrupt, Terminated):
        sys.stderr.write("gametree: terminated\n")
        return ExitCode.TERMINATED
    sys.stderr.write("gametree: interrupted\n")
    return ExitCode.INTERRUPTED


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def _silence_stdout() -> None:
    """After the reader of a pipe went away (``| head``): send what is still
    buffered for standard output to /dev/null, so nothing complains at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


@app.command("solve")
@reports_errors
def solve_command(
    tree_file: TreeArgument = None,
    tree_text: TreeTextOption = None,
    algo: AlgoOption = None,
    depth: DepthOption = None,
    trace: Annotated[bool, typer.Option("--trace", help="Print one line per call, leaf, cut-off and return while searching.")] = False,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the whole output: en, or es (Spanish; the trace in the course notes' words).")] = Language.en,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help="text (annotated tree) or json (contract's result).")] = OutputFormat.text,
    variant: VariantOption = Variant.soft,
    strict: StrictOption = False,
    order: OrderOption = Order.given,
    show_depth: Annotated[Optional[int], typer.Option("--show-depth", help="Draw this many levels of the tree.")] = None,
    show_all: Annotated[bool, typer.Option("--show-all", help="Draw the whole tree, however big.")] = False,
    ties: TiesOption = None,
    constant_sum: SumOption = None,
    bounds: BoundsOption = None,
    max_nodes: MaxNodesOption = None,
    answers_file: Annotated[Optional[str], typer.Option("--answers", metavar="FILE", help="Also write the complete answer key (YAML) for `gametree check`.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --answers replace an existing file.")] = False,
) -> None:
    """Solve a tree and show the annotated tree, the trace, or the JSON result."""
    if answers_file is not None:
        if answers_file == "-":
            raise GameTreeError("--answers: name a file ('-' is not possible: standard output carries the result)")
        check_target(answers_file, force=force, protect=(tree_file,))  # refused before the work, not after
    tree = read_tree(tree_file, tree_text, max_nodes)
    options = search_options(depth, variant, strict, order, ties, constant_sum, bounds)
    events: list[Event] | None = None
    observer: Observer | None = None
    if trace and output is OutputFormat.json:
        events = []
        observer = events.append
    elif trace:
        from .views.trace import StreamingTrace

        observer = StreamingTrace(tree, sys.stdout, lang.value)
    record = solve(tree, algo, options=options, observer=observer)
    if trace and output is not OutputFormat.json:
        observer.finish(record.value)  # type: ignore[union-attr]
    if answers_file is not None:
        from .answers import write_answer_file

        write_answer_file(answers_file, record, tree_file=tree_file, tree_text=tree_text, options=options, force=force)
        sys.stderr.write(f"wrote the answer key {answers_file}\n")
    if output is OutputFormat.json:
        from .views.result_json import write_record

        write_record(record, sys.stdout, events=events)
        return
    from .views.annotated import DEFAULT_MAX_NODES_SHOWN, render_result

    console = stdout_console()
    if trace:
        sys.stdout.flush()
        console.print()
    shown = {"max_nodes": len(tree) if show_all else DEFAULT_MAX_NODES_SHOWN, "depth": show_depth}
    console.print(render_result(record, lang.value, **shown))


def parse_option_number(option: str, text: str) -> Number:
    """A number given on the command line (``7``, ``1/3``, ``0.5``)."""
    try:
        return parse_number(text)
    except ValueError as error:
        raise GameTreeError(f"{option}: {error}") from None


# Further commands live in modules of their own and register on `app` when imported.
# (one import per command module; keep this block at the end of the file)
from .commands import check as _check  # noqa: E402,F401
from .commands import convert as _convert  # noqa: E402,F401
from .commands import generate as _generate  # noqa: E402,F401
from .commands import render as _render  # noqa: E402,F401
from .commands import schema as _schema  # noqa: E402,F401
from .commands import random_tree as _random_tree  # noqa: E402,F401
from .commands import compare as _compare  # noqa: E402,F401
from .commands import blank as _blank  # noqa: E402,F401


def main() -> None:
    """Console-script entry point: also catches what happens outside a command
    (Ctrl-C while starting or ending, standard output closed before the final flush)."""
    signal.signal(signal.SIGTERM, _terminate)
    status: object = 0
    try:
        try:
            app()
        except SystemExit as done:
            status = done.code
        if status == ExitCode.INTERRUPTED and not _said_interrupted:  # typer's own: while reading the options
            sys.stderr.write("gametree: interrupted\n")
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _silence_stdout()
            status = ExitCode.BROKEN_PIPE
        except (OSError, ValueError):
            pass
        _ignore_signals_from_now_on()
    except KeyboardInterrupt as interrupt:  # also in the last moments, after the command
        status = interrupted(interrupt)
        _ignore_signals_from_now_on()
    if status in (ExitCode.INTERRUPTED, ExitCode.TERMINATED):
        # Stopped: any partial file is already removed (atomic writes clean up on
        # the way out). Skip the interpreter's teardown, which frees a big tree
        # object by object (seconds), and a parsing thread that may still run.
        sys.stderr.flush()
        os._exit(status)  # type: ignore[arg-type]
    raise SystemExit(status)


def _ignore_signals_from_now_on() -> None:
    """The run is over, its files are whole: ignore Ctrl-C and SIGTERM.

    Python gives signals their default action back while it shuts down, so
    without this a Ctrl-C during the teardown of a big tree killed the
    process silently (status -2) after a successful run. Ignoring (not
    blocking) covers every thread, also NumPy's BLAS workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


if __name__ == "__main__":  # pragma: no cover
    main()
