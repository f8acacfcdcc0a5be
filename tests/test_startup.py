"""Start-up: a run imports only what its command needs (issue 14, target 1).

Not a timer: each case runs ``gametree`` in a fresh interpreter and reports,
at exit, which heavy libraries were really loaded (a module bound by
:func:`gametree_cli.core.lazy.lazy_module` but never used stays a lazy
placeholder and does not count). ``make bench`` measures the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gametree_cli.core.lazy import SMALL_TREE, lazy_module

from .conftest import ROOT

HEAVY = ("numpy", "yaml", "rich")

PROBE = """
import atexit, sys

def loaded():
    found = []
    for name in {heavy!r}:
        module = sys.modules.get(name)  # a lazy placeholder never used keeps its class (importlib.util._LazyModule)
        if module is not None and type(module).__name__ != "_LazyModule":
            found.append(name)
    sys.stderr.write("LOADED " + ",".join(found) + "\\n")

atexit.register(loaded)
sys.argv = ["gametree"] + {args!r}
from gametree_cli.cli.entry import main
main()
"""

AIMA = {"root": {"type": "max", "children": [
    {"move": "a1", "children": [3, 12, 8]}, {"move": "a2", "children": [2, 4, 6]}, {"move": "a3", "children": [14, 5, 2]}]}}


def loaded_by(args: list[str], names: tuple[str, ...] = HEAVY, **environ: str) -> tuple[set[str], str]:
    """Which of ``names`` (the heavy libraries) a ``gametree`` run with ``args`` loaded, and its standard output
    (a pipe, with none of the variables that make rich colour it unless given in ``environ``)."""
    env = {name: value for name, value in os.environ.items() if name not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=names, args=args)], capture_output=True, text=True,
                          env=env | environ)
    assert done.returncode == 0, done.stderr
    line = [text for text in done.stderr.splitlines() if text.startswith("LOADED ")][-1]
    return set(filter(None, line[len("LOADED "):].split(","))), done.stdout


@pytest.fixture()
def aima(tmp_path: Path) -> str:
    path = tmp_path / "aima.json"
    path.write_text(json.dumps(AIMA), encoding="utf-8")
    return str(path)


def test_help_loads_none_of_numpy_yaml_rich() -> None:
    loaded, output = loaded_by(["--help"])
    assert "solve" in output and loaded == set()


def test_small_json_solve_with_json_output_loads_neither_yaml_nor_rich(aima: str) -> None:
    loaded, output = loaded_by(["solve", aima, "--format", "json"])
    assert json.loads(output)["value"] == 3
    assert not loaded & {"yaml", "rich"}


def test_small_json_solve_with_text_output_loads_no_yaml(aima: str) -> None:
    loaded, output = loaded_by(["solve", aima])
    assert "value 3" in output and "yaml" not in loaded


def test_piped_text_output_is_drawn_without_rich_and_coloured_with_it(aima: str) -> None:
    """Piped, the annotated tree is written by the plain drawer (views/drawing.py); told to colour, rich draws it."""
    loaded, output = loaded_by(["solve", aima])
    assert "├── ★ a1 → 1 ▼ min" in output and "rich" not in loaded
    loaded, output = loaded_by(["blank", aima])
    assert "└── a3 → 3 ▼ min" in output and "rich" not in loaded
    loaded, output = loaded_by(["solve", aima], FORCE_COLOR="1")
    assert "\x1b[" in output and "rich" in loaded


def test_a_yaml_tree_does_load_yaml(tmp_path: Path) -> None:
    """The probe can see a library that was used (else the tests above could not fail)."""
    path = tmp_path / "aima.yaml"
    path.write_text("root: [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n", encoding="utf-8")
    loaded, output = loaded_by(["solve", str(path), "--format", "json"])
    assert json.loads(output)["value"] == 3 and "yaml" in loaded


def test_a_course_yaml_tree_solved_and_checked_loads_no_numpy(tmp_path: Path) -> None:
    """YAML is the course's format: a small file goes to PyYAML (io/yaml_reader.py's FAST_FROM), whose
    import costs far less than NumPy's, which the fast parser's checks need; ``check`` reads small
    records node by node (exercises/record_answers.py)."""
    (tmp_path / "aima.yaml").write_text((ROOT / "trees" / "aima-5-2.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    loaded, output = loaded_by(["solve", str(tmp_path / "aima.yaml"), "--algo", "alphabeta",
                                "--answers", str(tmp_path / "key.answers.yaml")])
    assert "value 3" in output and "numpy" not in loaded and "yaml" in loaded
    loaded, output = loaded_by(["check", str(tmp_path / "key.answers.yaml")])
    assert "1 right" in output and "numpy" not in loaded


def test_a_small_yaml_tree_skips_the_fast_readers_module(tmp_path: Path) -> None:
    """A file under FAST_FROM goes to PyYAML: the fast reader's module (its regular expressions, ~4 ms)
    is not imported; a big one does import it (else this test could not fail)."""
    small, big = tmp_path / "small.yaml", tmp_path / "big.yaml"
    small.write_text((ROOT / "trees" / "aima-5-2.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    big.write_text("root:\n" + "".join(f"  - [{k}, {k + 1}]\n" for k in range(3000)), encoding="utf-8")
    names = ("gametree_cli.io.fastyaml", "yaml")
    loaded, output = loaded_by(["solve", str(small), "--format", "json"], names)
    assert json.loads(output)["value"] == 3 and loaded == {"yaml"}
    loaded, output = loaded_by(["solve", str(big), "--format", "json"], names)
    assert json.loads(output)["value"] == 2999 and "gametree_cli.io.fastyaml" in loaded


def test_small_two_player_trees_are_built_without_numpy(aima: str) -> None:
    """Reading (the first part of a small run) stays off NumPy."""
    code = (f"import sys; from gametree_cli.io.loader import load_tree; tree = load_tree({aima!r}); "
            "m = sys.modules.get('numpy'); print(len(tree), m is None or type(m).__name__ == '_LazyModule')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["13", "True"]


def test_lazy_module_loads_on_first_attribute() -> None:
    module = lazy_module("gametree_cli.generate.tictactoe")  # already imported or not: the same module afterwards
    assert module.EMPTY_BOARD == "........." and SMALL_TREE > 0


#: small trees for every algorithm: AIMA's (with evals, for depth limits), a chance tree, three players
EVALS_AIMA = {"root": {"type": "max", "eval": 1, "children": [
    {"type": "min", "move": move, "eval": low, "children": [{"value": value} for value in values]}
    for move, low, values in (("a1", 4, (3, 12, 8)), ("a2", "1/2", (2, 4, 6)), ("a3", 2.5, (14, 5, 2)))]}}
CHANCE = {"root": {"type": "max", "children": [
    {"type": "chance", "move": "a", "children": [{"p": "1/3", "value": 3}, {"p": "2/3", "value": 6}]},
    {"type": "chance", "move": "b", "children": [{"p": 0.25, "value": 1}, {"p": 0.75, "value": 9}]},
    {"type": "min", "move": "c", "children": [{"value": 4}, {"value": 5}]}]}}
THREE = {"players": ["A", "B", "C"], "sum": 6,
         "root": {"children": [[1, 2, 3], [3, 2, 1], {"children": [[0, 0, 6], [6, 0, 0]]}]}}
#: (tree, options, the value in the JSON result, the value in the text's summary): every algorithm, some options
SMALL_SOLVES = [
    (AIMA, [], 3, "3"), (AIMA, ["--algo", "minimax"], 3, "3"), (EVALS_AIMA, ["--depth", "1"], 4, "4"),
    (EVALS_AIMA, ["--algo", "minimax", "--depth", "1"], 4, "4"), (AIMA, ["--order", "best", "--variant", "hard"], 3, "3"),
    (AIMA, ["--trace", "--strict"], 3, "3"), (AIMA, ["--algo", "expectimax"], "23/3", "23/3"),
    (CHANCE, [], 7.0, "7.0"), (CHANCE, ["--algo", "star1", "--bounds", "0", "10"], 7.0, "7.0"),
    (CHANCE, ["--algo", "star2", "--bounds", "0", "10"], 7.0, "7.0"),
    (THREE, [], [3, 2, 1], "(3, 2, 1)"), (THREE, ["--algo", "shallow"], [3, 2, 1], "(3, 2, 1)"),
    (THREE, ["--algo", "paranoid"], 3, "3 for A"),
]


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("document, options, value, shown", SMALL_SOLVES,
                         ids=[" ".join(["tree" + str(position)] + case[1]) for position, case in enumerate(SMALL_SOLVES)])
def test_a_small_json_solve_loads_no_numpy(document: dict, options: list[str], value: object, shown: str, output: str,
                                           tmp_path: Path) -> None:
    """Issue 14, target 1: below SMALL_TREE nodes, reading, every search and both outputs stay off NumPy."""
    path = tmp_path / "small.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded, text = loaded_by(["solve", str(path), "--format", output, *options])
    if output == "json":
        assert json.loads(text)["value"] == value
    else:
        assert f": value {shown} · " in text
    assert "numpy" not in loaded and "yaml" not in loaded and "rich" not in loaded


def test_a_big_solve_does_load_numpy(tmp_path: Path) -> None:
    """The probe sees NumPy when a tree is past SMALL_TREE (else the test above could not fail)."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps([[k % 7, k % 5] for k in range(SMALL_TREE)]), encoding="utf-8")
    loaded, text = loaded_by(["solve", str(path), "--format", "json"])
    assert json.loads(text)["value"] == 4 and "numpy" in loaded


def test_a_small_tree_in_a_big_indented_file_loads_no_numpy(tmp_path: Path) -> None:
    """Past 8 KB a file may hold a big tree, but one whose commas and brackets cannot add up to
    SMALL_TREE nodes is read by json.loads, not the scanner (which hands over NumPy arrays)."""
    branches = [{"move": f"m{k}", "children": [{"value": k % 7}, {"value": k % 5}]} for k in range(SMALL_TREE // 8)]
    path = tmp_path / "indented.json"
    path.write_text(json.dumps({"root": {"type": "max", "children": branches}}, indent=4), encoding="utf-8")
    assert path.stat().st_size > 8 * SMALL_TREE  # past the size below which no file is scanned
    loaded, text = loaded_by(["solve", str(path), "--format", "json"])
    assert json.loads(text)["value"] == 4 and "numpy" not in loaded

OPENBLAS_PROBE = """
import atexit, os, sys
atexit.register(lambda: sys.stderr.write("THREADS " + os.environ.get("OPENBLAS_NUM_THREADS", "unset") + "\\n"))
sys.argv = ["gametree", "--help"]
from gametree_cli.cli.entry import main
main()
"""


@pytest.mark.parametrize("given,expected", [(None, "1"), ("3", "3")])
def test_the_command_line_asks_openblas_for_one_thread_unless_told(given: str | None, expected: str) -> None:
    """NumPy's OpenBLAS threads cost start-up CPU and gametree calls no BLAS routine (cli/entry.py)."""
    import os
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run([sys.executable, "-c", OPENBLAS_PROBE], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == f"THREADS {expected}"


#: what a small JSON solve through the library no longer imports, and why each matters (docs/performance.md,
#: "the library's imports on a small solve": ~62 -> ~39 ms CPU for AIMA fig. 5.2, the textbook script ~23 ms):
LEAN = {
    "pathlib": "~5 ms with urllib.parse, ipaddress, fnmatch: a tree is read by name (io/loader.py's suffix)",
    "dataclasses": "imports inspect, ast, dis, tokenize, copy (~8 ms): Tree, Options & co. are plain classes",
    "inspect": "the bulk of dataclasses' import, and of orjson's",
    "orjson": "~5 ms more (uuid, datetime, platform, and dataclasses): a small result is views/plain_json.py's",
    "uuid": "imported by orjson",
    "fractions": "with numbers and a big regular expression: a tree of integers needs none (numbers.fraction_type)",
    "decimal": "only huge integers, positional decimals and chance sums use it",
    "threading": "a small text is parsed in this thread (io/strict_json.py's SHALLOW), not deep_call's",
    "signal": "only writers hold signals (io/files.py)",
    "gametree_cli.io.locate": "finds an error's line (with the compiled skipper, ~1 ms): a good file has none",
    "gametree_cli.io.document_writer": "with document_text (~2 ms, big regular expressions): reading writes no tree",
}

LIBRARY_PROBE = """
import atexit, io, sys

def loaded():
    found = [name for name in {names!r} if name in sys.modules and type(sys.modules[name]).__name__ != "_LazyModule"]
    sys.stderr.write("LOADED " + ",".join(found) + "\\n")

atexit.register(loaded)
from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
record = solve(load_tree({path!r}), None)
if {output!r} == "json":
    from gametree_cli.views.result_json import write_record
    write_record(record, sys.stdout)
else:
    from gametree_cli.views.annotated import render_result
    sys.stdout.write(render_result(record, "en").plain_text())
"""


@pytest.mark.parametrize("output", ["json", "text"])
def test_a_small_solve_through_the_library_loads_none_of_the_lean_list(aima: str, output: str) -> None:
    """Issue 14, target 1: the library's own share of a small solve (what the command line calls)."""
    done = subprocess.run([sys.executable, "-c", LIBRARY_PROBE.format(names=tuple(LEAN), path=aima, output=output)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert ('"value": 3' if output == "json" else ": value 3 · ") in done.stdout
    line = [text for text in done.stderr.splitlines() if text.startswith("LOADED ")][-1]
    assert set(filter(None, line[len("LOADED "):].split(","))) == set()


def test_the_lean_probe_sees_what_a_chance_tree_with_fractions_loads(tmp_path: Path) -> None:
    """The probe can see the modules it looks for (else the test above could not fail)."""
    path = tmp_path / "chance.json"
    path.write_text(json.dumps(CHANCE), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", LIBRARY_PROBE.format(names=tuple(LEAN), path=str(path), output="json")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert {"fractions", "decimal"} <= set(done.stderr.splitlines()[-1][len("LOADED "):].split(","))


@pytest.mark.parametrize("output", ["json", "text"])
def test_a_small_solve_through_the_command_line_loads_none_of_the_lean_list(aima: str, output: str) -> None:
    """The quick path (cli/quick.py) runs solve without typer, which imports most of LEAN (inspect, dataclasses,
    pathlib...): `gametree -- solve` (typer reads the command line) does load them, so the probe can see them."""
    loaded, text = loaded_by(["solve", aima, "--format", output], tuple(LEAN))
    assert ("value" in text) and loaded == {"signal"}  # the command line's own: Ctrl-C and SIGTERM (cli/entry.py)
    through_typer, _ = loaded_by(["--", "solve", aima, "--format", output], tuple(LEAN))
    assert {"inspect", "pathlib"} <= through_typer
