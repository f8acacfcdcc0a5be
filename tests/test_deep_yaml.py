"""YAML nested deeper than libyaml reads (issue 12): the deep loader and its early refusal.

``gametree_cli/io/deepyaml.py`` is PyYAML's pure-Python safe loader with
an iterative Composer; ``yamldepth.py`` says when to use it and refuses runs
of openers past the limit without composing them. The references here are
PyYAML itself: ``yaml.SafeLoader`` for what is read, and the deep loader
with its early refusal switched off for what is refused and where.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli import GameTreeError
from gametree_cli.io.loader import parse_tree
from gametree_cli.io import deepyaml, loader
from gametree_cli.io.deepyaml import DeepSafeLoader, DepthExceeded
from gametree_cli.io.fastyaml import plain_enough
from gametree_cli.io.loader import YAML_MAX_DEPTH
from gametree_cli.io.yaml_reader import YAML_MAX_PLIES
from gametree_cli.io.yamldepth import nests_deeper_than

GAMETREE = [sys.executable, "-m", "gametree_cli"]
HANG_GUARD = 300  # seconds: a hang, not a slow machine (the 200,000-level reads take ~10 s on a loaded one)
TOO_DEEP = f"the YAML nests deeper than {YAML_MAX_DEPTH:,} levels (a tree {YAML_MAX_PLIES:,} plies deep); write deep trees in JSON"

examples = settings(max_examples=400, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def flow_chain(levels: int, leaf: str = "5") -> str:
    """A chain of ``levels`` tree levels written ``{children: [...]}`` (two YAML levels each)."""
    return "root: " + "{children: [" * levels + leaf + "]}" * levels + "\n"


def block_chain(levels: int) -> str:
    """The same chain in block style: an indented ``- children:`` line a level."""
    lines = ["root:", "  children:"] + ["  " * level + "- children:" for level in range(1, levels)]
    return "\n".join(lines) + "\n" + "  " * levels + "- 5\n"


def dash_chain(levels: int) -> str:
    """A compact nested list in block style: ``- - - - 5``."""
    return "root:\n" + "- " * levels + "5\n"


def run(*argv: str, cwd: Path, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMETREE, *argv], cwd=cwd, capture_output=True, text=True, timeout=HANG_GUARD, **options)


# -- the deep loader reads what PyYAML's SafeLoader reads -----------------------

TOKENS = ["[", "]", "{", "}", ", ", ": ", ":", " ", "\n", "\n  ", "- ", "-", "a", "-1", "x y", "'s'", '"q"',
          "&a ", "*a", "!!str ", "!!set ", "? ", "<<: ", "#c\n", "\t", "key: ", "~", "---\n", "...\n", "0o17", "1:30"]


def outcome(text: str, loader_class: type) -> Any:
    """What composing ``text`` gives: the node graph with every mark, the refusal, or the error."""
    try:
        root = yaml.compose(text, loader_class)
    except DepthExceeded as refusal:
        return ("deep", refusal.mark.index, refusal.mark.line, refusal.mark.column)
    except yaml.YAMLError as error:
        return ("error", str(error))
    return ("ok", marked(root))


def marked(root: Any) -> list[Any]:
    """Every node of a graph with its tag, value and marks, in document order (shared nodes once)."""
    seen: dict[int, int] = {}
    out: list[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            out.append(("alias", seen.get(id(node))))
            continue
        seen[id(node)] = len(out)
        marks = (node.start_mark.index, node.start_mark.line, node.start_mark.column, node.end_mark.index)
        if isinstance(node, yaml.ScalarNode):
            out.append((node.tag, node.value, node.style, marks))
        else:
            out.append((node.tag, type(node).__name__, node.flow_style, marks))
            children = [part for pair in node.value for part in pair] if isinstance(node, yaml.MappingNode) else node.value
            stack.extend(reversed(children))
    return out


@examples
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_the_deep_loader_composes_and_fails_as_pyyaml_does(tokens: list[str]) -> None:
    text = "".join(tokens)
    assert outcome(text, DeepSafeLoader) == outcome(text, yaml.SafeLoader)


@pytest.mark.parametrize("text", [
    "a: &x [1, {b: *x}]\nc: *x\n", "base: &b {x: 1}\nd: {<<: *b, y: 2}\n", "- !!set {a, b}\n- !!omap [a: 1]\n",
    "[a, b]: 1\n", "? - x\n: y\n", "a: |\n  text\n b\n", "&a [*a]\n", "x: *nope\n", "a: &a 1\nb: &a 2\n",
    "a: 1\na: 2\n", "--- 1\n--- 2\n", "", "# only\n", "\ufeffa: 1\n", "[" * 300 + "]" * 300,
])
def test_the_deep_loader_loads_as_pyyaml_does(text: str) -> None:
    def load(loader_class: type) -> Any:
        try:
            return ("ok", repr(yaml.load(text, loader_class)))
        except yaml.YAMLError as error:
            return ("error", str(error))
    assert load(DeepSafeLoader) == load(yaml.SafeLoader)
    assert outcome(text, DeepSafeLoader) == outcome(text, yaml.SafeLoader)


def test_the_deep_loader_reads_a_100000_deep_chain_without_recursion() -> None:
    text = "[" * 100_000 + "7" + "]" * 100_000
    document = yaml.load(text, DeepSafeLoader)  # on the main thread, at its usual recursion limit
    for _ in range(100_000):
        (document,) = document
    assert document == 7


# -- the early refusal says what composing every level would say ----------------

OPENERS = ["[", "[ ", "[a, ", "[1, 'x', [2], ", "{k: ", "{a: 1, b: ", "{'q': ", '{"k":', "{k:", "{a b: c d, e: ",
           "{v: {w: 1}, e: ", "- ", "-  ", "[\n", "{k:\n", "[a,\n  ", "{a: 1,\n b: ", "{k\n: ", "[a\nb, ", "[\n..., ",
           "[\n-1, ", "[\n- a, "]
AFTER = ["a", " ", "]", "}", ", ", "[", "{", ": ", "]: x", "}: ", " : ", "-", "- ", "-[", "a:b", '"s"', "'t'",
         "w" * 60, " " * 60, "\t", "#", "@", '"', "\r", "\n", "\n]", "\n  a", "&", "!", "?", "\\", "é", "\n---"]


def fast_and_slow(limit: int) -> tuple[type, type]:
    class Fast(DeepSafeLoader):
        max_depth = limit

    class Slow(Fast):
        def _refuse_early(self, mark: Any, spare: int) -> None:
            pass

    return Fast, Slow


@examples
@given(st.integers(1, 10), st.sampled_from(["", "root: ", "root:\n  ", "- ", "x: [1]\ny: ", "a:\n  - b\n  - "]),
       st.lists(st.sampled_from(OPENERS), min_size=1, max_size=16),
       st.sampled_from([0, 990, 1010, 1015, 1020, 1024, 1030, 1060]),
       st.lists(st.sampled_from(AFTER), max_size=60))
def test_an_early_refusal_is_the_one_composing_would_give(limit: int, prefix: str, openers: list[str],
                                                          padding: int, after: list[str]) -> None:
    """Past the limit, the refusal comes at the same opener (or the same error comes first), whatever
    follows within the 1,024 characters PyYAML's scanner may read ahead."""
    filler = ("w" * padding)[: max(0, padding - len(after))]
    text = prefix + "".join(openers) + " ".join(after[:3]) + filler + "".join(after[3:])
    fast, slow = fast_and_slow(limit)
    assert outcome(text, fast) == outcome(text, slow)


@pytest.mark.parametrize("text", [
    "[" * 30 + "5" + "]" * 15 + " " * 1100 + "]" * 15,                 # the opener's collection closes within reach
    "root: " + "{children: [" * 30 + "5",
    "root:\n" + "- " * 30 + "5\n",
    "root: " + "{children: [\n" * 30 + "5",                            # a run on many lines
    "a: " + '{id: N, move: "a b", children: [{value: 1}, ' * 30 + "1",
    "[" * 30 + "a, " * 400 + "\t",                                     # a tab past the scanner's reach
    "[" * 30 + "a" * 300 + "\n]: x",                                    # a key the next line cannot make
])
def test_runs_of_openers_are_refused_early_at_the_same_place(text: str) -> None:
    fast, slow = fast_and_slow(20)
    early: list[int] = []

    class Watching(fast):  # type: ignore[valid-type,misc]
        def _refuse_early(self, mark: Any, spare: int) -> None:
            try:
                super()._refuse_early(mark, spare)
            except DepthExceeded as refusal:
                early.append(refusal.mark.index)
                raise

    refused = outcome(text, Watching)
    assert refused[0] == "deep" and refused == outcome(text, slow)
    assert early == [refused[1]]


@pytest.mark.parametrize("text", [
    "[" * 30 + "]" * 30 + ": x",                                        # the run closes and turns out to be a key
    "[" * 25 + "]" * 5 + ": x" + "]" * 20,
    "[" * 30 + "\t",                                                    # a tab the scanner reads before the opener
    "[" * 30 + "a" * 500 + "\n\t",
])
def test_what_the_scanner_reads_ahead_leaves_the_parser_the_last_word(text: str) -> None:
    fast, slow = fast_and_slow(20)
    assert outcome(text, fast) == outcome(text, slow)


# -- which loader reads a file ---------------------------------------------------


def test_ordinary_files_stay_with_libyaml_and_deep_ones_leave_it() -> None:
    ordinary = "root:\n  children:\n" + "".join(f"    - [{i}, [{i}, 2], {{a: [1]}}]\n" for i in range(2000))
    assert not nests_deeper_than(ordinary, deepyaml.LIBYAML_DEPTH)
    for deep in (flow_chain(300), block_chain(300), dash_chain(300), "[" * 400 + "]" * 400):
        assert nests_deeper_than(deep, deepyaml.LIBYAML_DEPTH)


def test_a_file_misjudged_as_shallow_falls_back_when_libyaml_reports_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("no libyaml")
    monkeypatch.setattr(deepyaml, "nests_deeper_than", lambda text, levels: False)
    read: list[bool] = []

    def load(deep: bool) -> Any:
        read.append(deep)
        return loader._load_yaml(text, deep)

    text = flow_chain(3000)
    document = deepyaml.read_by_depth(text, load)
    assert read == [False, True] and document["root"]["children"][0]["children"]


SOLVE_DEEP = """
import sys
{setup}
from gametree_cli.cli.entry import main
sys.argv = ["gametree", "solve", sys.argv[1], "--algo", "minimax"]
main()
"""


@pytest.mark.parametrize("setup", [
    "import yaml; del yaml.CSafeLoader  # no libyaml at all",
    "import ctypes, yaml._yaml; ctypes.CDLL(yaml._yaml.__file__).yaml_set_max_nest_level(10**9)  # libyaml < 0.2.6",
], ids=["no-libyaml", "libyaml-without-cap"])
def test_deep_files_read_whatever_libyaml_there_is(setup: str, tmp_path: Path) -> None:
    if "ctypes" in setup:
        try:
            import ctypes

            import yaml._yaml as libyaml
            ctypes.CDLL(libyaml.__file__).yaml_set_max_nest_level
        except (ImportError, AttributeError, OSError):
            pytest.skip("this PyYAML has no libyaml with a nesting cap to lift")
    script = tmp_path / "solve.py"
    script.write_text(SOLVE_DEEP.format(setup=setup))
    for name, text in [("flow.yaml", flow_chain(10_000)), ("dash.yaml", dash_chain(20_000))]:
        (tmp_path / name).write_text(text)
        done = subprocess.run([sys.executable, str(script), name], cwd=tmp_path, capture_output=True, text=True,
                              timeout=HANG_GUARD)
        assert done.returncode == 0, done.stderr
        assert "minimax: value 5 " in done.stdout
    (tmp_path / "deep.yaml").write_text(dash_chain(YAML_MAX_DEPTH + 5))
    done = subprocess.run([sys.executable, str(script), "deep.yaml"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=HANG_GUARD)
    assert (done.returncode, done.stderr) == (2, f"deep.yaml:2:{2 * YAML_MAX_DEPTH - 1}: {TOO_DEEP}\n")


# -- gametree solve --------------------------------------------------------------


@pytest.mark.parametrize("name, text", [
    ("flow-10000.yaml", flow_chain(10_000)),                    # 20,001 YAML levels
    ("compact-100000.yaml", "root: " + "[" * 100_000 + "5" + "]" * 100_000 + "\n"),
    ("dash-20000.yaml", dash_chain(20_000)),
    ("block-2500.yaml", block_chain(2_500)),                    # 5,001 levels; 6 MB of indentation
    ("limit.yaml", "root: " + "[" * (YAML_MAX_DEPTH - 1) + "5" + "]" * (YAML_MAX_DEPTH - 1) + "\n"),
])
def test_deep_yaml_trees_solve(name: str, text: str, tmp_path: Path) -> None:
    (tmp_path / name).write_text(text)
    done = run("solve", name, "--algo", "minimax", cwd=tmp_path)  # (the JSON result of an unnamed chain is quadratic)
    assert done.returncode == 0, done.stderr
    assert "minimax: value 5 " in done.stdout


# (an odd limit puts the first level past it on a mapping's ``{``, one column after its list's ``[``)
@pytest.mark.parametrize("text, line, column", [
    (flow_chain(YAML_MAX_DEPTH // 2 + 10), 1, 6 + 12 * (YAML_MAX_DEPTH // 2) + YAML_MAX_DEPTH % 2),
    ("root: " + "[" * (YAML_MAX_DEPTH + 10) + "]" * (YAML_MAX_DEPTH + 10), 1, 6 + YAML_MAX_DEPTH),
    (dash_chain(YAML_MAX_DEPTH + 10), 2, 2 * YAML_MAX_DEPTH - 1),
    ("root: " + "[\n" * (YAML_MAX_DEPTH + 10), YAML_MAX_DEPTH, 1),
    ("root: " + "{children: [{value: 1}, " * (YAML_MAX_DEPTH // 2 + 1) + "5", 1,
     6 + 24 * (YAML_MAX_DEPTH // 2) - 12 + YAML_MAX_DEPTH % 2),
])
def test_yaml_past_the_depth_limit_is_one_located_line(text: str, line: int, column: int, tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text(text)
    done = run("solve", "deep.yaml", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"deep.yaml:{line}:{column}: {TOO_DEEP}\n")


def test_an_error_deep_in_deep_yaml_names_its_line(tmp_path: Path) -> None:
    """The locator composes deep files with the deep loader too (libyaml gave up: no line at all)."""
    text = "root:\n  children:\n" + "".join("  " * level + "- children:\n" for level in range(1, 2000)) + \
        "  " * 2000 + "- {id: X, value: abc}\n"
    with pytest.raises(GameTreeError) as caught:
        parse_tree(text, name="deep.yaml")
    assert (caught.value.line, caught.value.column) == (2002, 4003)
    assert "not a number" in str(caught.value)


def test_the_fast_parser_leaves_long_dash_runs_to_pyyaml() -> None:
    """yaml_rs recursed once a level on the main thread: ``- `` * 20,000 crashed the process."""
    assert plain_enough("root:\n" + "- " * 100 + "5\n")
    assert not plain_enough("root:\n" + "- " * 128 + "5\n")
    assert not plain_enough("- " * 128 + "5\n")
    assert not plain_enough("root:\n" + " " * 256 + "- 5\n")
