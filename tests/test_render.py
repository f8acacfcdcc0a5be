"""Pictures of a search: Graphviz DOT (checked by the real ``dot``), LaTeX (compiled by
a real pdflatex where installed), `gametree render`, and the notebook display.

The DOT text is read back by a small parser written here, and every picture
fact is checked against what the record and the JSON result say: one shape
per node, dashed exactly where the search never went, bold exactly along the
principal variation, a cut mark on the edge of every pruned subtree.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import load_tree
from gametree_cli.views.dot import render_svg
from gametree_cli.search.registry import solve
from gametree_cli.cli.app import app
from gametree_cli.io.document import build_tree
from gametree_cli.core.model import LEAF, MAX, MIN
from gametree_cli import api
from gametree_cli.views import dot as dot_view
from gametree_cli.views.dot import render_dot
from gametree_cli.views.latex import DEFAULT_LATEX_NODES, latex_escape, render_latex
from gametree_cli.views.result_json import result_document

from .conftest import HANG_GUARD, TREES

DOT = shutil.which("dot")
LATEX = shutil.which("pdflatex") or shutil.which("lualatex")
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed (make test installs it with apt-get where it can)")
needs_latex = pytest.mark.skipif(LATEX is None, reason="no pdflatex/lualatex: install texlive-latex-extra and texlive-pictures (make latex)")
GAMETREE = [sys.executable, "-m", "gametree_cli"]
SHIPPED = sorted(TREES.glob("*.yaml"))


# -- a small DOT reader ---------------------------------------------------------

_STATEMENT = re.compile(r"^\s*(\w+)(?:\s*->\s*(\w+))?\s*(?:\[(.*)\])?;\s*$")
_ATTRIBUTE = re.compile(r'\s*(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|<(?:[^<>]|<[^<>]*>)*>|[^,\s]+)\s*,?')
_BESIDE = re.compile(r"^\s*\{rank=same; (a\d+) -> (n\d+) \[style=invis\];\}$")
_CELL = re.compile(r"<td[^>]*>([^<]*(?:<br/>[^<]*)*)</td></tr></table>>$")


def attributes(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    position = 0
    while position < len(text):
        match = _ATTRIBUTE.match(text, position)
        assert match, text[position:]
        raw = match.group(2)
        if raw.startswith('"'):
            raw = re.sub(r"\\(.)", lambda escaped: "\n" if escaped.group(1) == "n" else escaped.group(1), raw[1:-1])
        elif raw.startswith("<"):  # an HTML-like label: an annotation's lines
            cell = _CELL.search(raw)
            assert cell, raw
            raw = html.unescape(cell.group(1).replace("<br/>", "\n"))
        found[match.group(1)] = raw
        position = match.end()
    return found


def read_dot(text: str) -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], dict[str, str]]]:
    """Nodes and edges of the DOT text gametree writes (one statement per line).

    A node's annotation (id, window, cut) is a text node ``aK`` of its own, set
    beside node ``nK``; it is read back as that node's ``annotation``.
    """
    nodes: dict[str, dict[str, str]] = {}
    edges: dict[tuple[str, str], dict[str, str]] = {}
    beside: dict[str, str] = {}
    lines = text.strip().splitlines()
    assert lines[0] == "digraph gametree {" and lines[-1] == "}"
    for line in lines[1:-1]:
        if line.strip().startswith(("graph ", "node ", "edge ")):
            continue
        pair = _BESIDE.match(line)
        if pair:
            beside[pair.group(1)] = pair.group(2)
            continue
        match = _STATEMENT.match(line)
        assert match, line
        source, target, attribute_text = match.groups()
        found = attributes(attribute_text or "")
        if target is None:
            nodes[source] = found
        else:
            if "label" in found:  # without the air around it (a space, and a line where the edge slants)
                found["label"] = found["label"].strip()
            edges[(source, target)] = found
    notes = {name: nodes.pop(name) for name in [name for name in nodes if name.startswith("a")]}
    assert set(notes) == set(beside), "every annotation is set beside its node, and only annotations are"
    for name, note in notes.items():
        assert beside[name] == "n" + name[1:] and note["shape"] == "plaintext" and note["margin"] == "0"
        nodes[beside[name]]["annotation"] = note["label"]
    return nodes, edges


def compact_trees() -> st.SearchStrategy[Any]:
    return st.recursive(st.integers(-9, 9), lambda inner: st.lists(inner, min_size=1, max_size=3), max_leaves=16).filter(
        lambda tree: isinstance(tree, list))


# -- DOT --------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(compact_trees(), st.sampled_from(["alphabeta", "minimax"]))
def test_dot_shows_what_the_record_says(compact: Any, algorithm: str) -> None:
    tree = build_tree(compact)
    record = solve(tree, algorithm)
    result = result_document(record)
    nodes, edges = read_dot(render_dot(record))
    ids = tree.ids()
    assert set(nodes) == {f"n{node}" for node in range(len(tree))}
    assert set(edges) == {(f"n{node}", f"n{child}") for node in range(len(tree)) for child in tree.children(node)}
    pv = set(record.principal_variation()) | {0}
    pruned_roots = set(result["pruned"])
    for node in range(len(tree)):
        drawn = nodes[f"n{node}"]
        entry = result["nodes"][ids[node]]
        assert drawn["annotation"].split("\n")[0] == ("★ " if node in pv else "") + ids[node]  # the PV, marked
        assert drawn["shape"] == {MAX: "triangle", MIN: "invtriangle", LEAF: "box"}[tree.kind[node]]
        if entry["visited"]:
            sign = {"lower": "≥ ", "upper": "≤ "}.get(entry.get("bound_kind"), "")  # a bound shows as one
            assert drawn["label"] == sign + str(entry["value"]).replace("-", "−")
            assert "dashed" not in drawn.get("style", "")
        else:
            assert "dashed" in drawn["style"]  # pruned: the only reason an exhaustive-depth search skips a node
            assert drawn["label"] == (str(tree.value[node]).replace("-", "−") if tree.kind[node] == LEAF else "")
        assert (drawn.get("penwidth") == "3") == (node in pv)
        if node:
            edge = edges[(f"n{tree.parents()[node]}", f"n{node}")]
            assert (edge.get("penwidth") == "3") == (node in pv)
            assert ("✂" in edge.get("label", "")) == (ids[node] in pruned_roots)
        if node in record.cuts:
            skipped = any(result["nodes"][ids[child]]["visited"] is False for child in tree.children(node))
            assert ("✂ v=" in drawn["annotation"]) == skipped  # a cut at the last child prunes nothing: no ✂
            assert ("(at the last child)" in drawn["annotation"]) != skipped
    if algorithm == "minimax":
        assert not pruned_roots and all("dashed" not in node.get("style", "") for node in nodes.values())


def test_dot_blank_handout_has_no_answers() -> None:
    record = solve(load_tree(TREES / "course.yaml"), "alphabeta")
    text = render_dot(record, blank=True)
    nodes, edges = read_dot(text)
    tree = record.tree
    for node in range(len(tree)):
        drawn = nodes[f"n{node}"]
        assert drawn["label"] == ("" if tree.count[node] else str(tree.value[node]))
        assert "penwidth" not in drawn and "style" not in drawn
        assert "α" not in drawn["annotation"] and "✂" not in drawn["annotation"]
    assert all("✂" not in edge.get("label", "") for edge in edges.values())
    assert "alphabeta: value" not in text


def test_dot_chance_nplayer_and_depth_limit() -> None:
    chance = solve(build_tree({"root": {"type": "chance", "children": [{"p": "1/3", "move": "a", "value": 1}, {"p": "2/3", "value": 4}]}}))
    nodes, edges = read_dot(render_dot(chance))
    assert nodes["n0"]["shape"] == "circle" and nodes["n0"]["label"] == "3"
    assert edges[("n0", "n1")]["label"] == "a p=1/3" and edges[("n0", "n2")]["label"] == "p=2/3"

    three = solve(build_tree({"players": ["Ann", "Bob", "Cy"], "root": {"children": [[[1, 2, 3], [3, 2, 1]], [2, 2, 2]]}}))
    nodes, _ = read_dot(render_dot(three))
    assert nodes["n0"]["shape"] == "box" and "rounded" in nodes["n0"]["style"]
    assert nodes["n0"]["label"] == "Ann\n(2, 2, 2)"
    assert nodes["n1"]["label"].startswith("Bob\n")

    limited = solve(load_tree(TREES / "depth-limited.yaml"), "minimax", depth=1)
    nodes, _ = read_dot(render_dot(limited))
    assert nodes["n1"]["annotation"].startswith("L  (eval)") and nodes["n1"]["label"] == "3"
    below = [name for name, drawn in nodes.items() if "dotted" in drawn.get("style", "")]
    assert len(below) == len(limited.tree) - 3  # everything under the horizon is unsearched, drawn dotted


def test_dot_big_tree_is_cut_with_a_note() -> None:
    tree = build_tree([[[list(range(8))] * 8] * 8] * 8)  # 8^4 leaves
    nodes, edges = read_dot(render_dot(solve(tree, "alphabeta")))
    more = [drawn for name, drawn in nodes.items() if name.startswith("m")]
    assert more and all(drawn["label"].startswith("… ") and drawn["label"].endswith(" more") for drawn in more)
    assert len(nodes) < 1200
    full = read_dot(render_dot(solve(tree, "alphabeta"), max_nodes=len(tree)))[0]
    assert len(full) == len(tree)


def _wide_record() -> Any:
    """A root with 1,000 leaf children, the best one (999) last: past the 400-node default."""
    return solve(build_tree(list(range(1000))), "alphabeta")


def test_dot_wide_node_draws_at_most_the_default_and_says_what_it_left_out() -> None:
    """A wide node's children were all drawn (1,000 edges, 16 MB for 200,000): now the first 400,
    the principal variation's child, and a note, as the text tree does."""
    record = _wide_record()
    nodes, edges = read_dot(render_dot(record))
    children = [target for (source, target) in edges if source == "n0" and target.startswith("n")]
    assert children == [f"n{child}" for child in range(1, 401)] + ["n1000"]
    assert nodes["w0"]["label"] == "… 599 more children not drawn" and ("n0", "w0") in edges
    spanish = read_dot(render_dot(record, lang="es"))[0]
    assert spanish["w0"]["label"] == "… 599 hijos más sin dibujar"
    full = read_dot(render_dot(record, max_nodes=len(record.tree)))
    assert len(full[1]) == 1000 and "w0" not in full[0]  # --show-all draws everything


def test_latex_wide_node_draws_at_most_the_default() -> None:
    body = _forest_body(render_latex(_wide_record()))
    shown = DEFAULT_LATEX_NODES + 1  # and the principal variation's child
    assert body.count("gt leaf") == shown and rf"\dots\ {1000 - shown:,} more children not drawn" in body


def test_dot_quotes_whatever_a_file_names() -> None:
    tree = build_tree({"title": 'say "hi" \\ there', "root": {"id": 'A "1"', "children": [{"move": "x\\y", "value": 1}, 2]}})
    text = render_dot(solve(tree))
    nodes, edges = read_dot(text)
    assert nodes["n0"]["annotation"].startswith('★ A "1"')
    assert edges[("n0", "n1")]["label"] == "x\\y"


@needs_dot
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_real_dot_lays_out_every_shipped_tree(path: Path) -> None:
    record = solve(load_tree(path))
    for blank in (False, True):
        done = subprocess.run([DOT, "-Tsvg"], input=render_dot(record, blank=blank).encode(), capture_output=True, check=False)
        assert done.returncode == 0, done.stderr.decode()
        assert not done.stderr, done.stderr.decode()  # no warnings either
        root = ElementTree.fromstring(done.stdout)
        texts = {element.text for element in root.iter("{http://www.w3.org/2000/svg}text")}
        name = record.tree.node_id(0)
        assert (name if blank else f"★ {name}") in texts  # the principal variation's mark


@needs_dot
def test_render_svg_for_notebooks() -> None:
    answer = api.solve(TREES / "aima-5-2.yaml")
    svg = render_svg(answer.record)
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert answer._repr_svg_() == svg == answer.svg()


def test_notebook_display_without_graphviz_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dot_view, "dot_program", lambda: None)
    assert api.solve(TREES / "aima-5-2.yaml")._repr_svg_() is None


# -- LaTeX --------------------------------------------------------------------------


def test_latex_escape() -> None:
    assert latex_escape("a_b & c%d$e#f{g}h~i^j\\k") == r"a\_b \& c\%d\$e\#f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k"
    assert latex_escape("[x], y=1") == "{[}x{]}{,} y{=}1"
    assert latex_escape("niño ▲") == "niño ?"


def _forest_body(text: str) -> str:
    return text.split(r"\begin{forest}")[1].split(r"\end{forest}")[0]


@settings(max_examples=60, deadline=None)
@given(compact_trees())
def test_latex_brackets_follow_the_tree(compact: Any) -> None:
    """Every node opens one bracket and closes it after its subtree: the nesting is the tree."""
    tree = build_tree(compact)
    record = solve(tree, "alphabeta")
    body = _forest_body(render_latex(record))
    lines = [line.strip() for line in body.splitlines()[2:] if line.strip()]
    nested: list[Any] = []
    stack: list[list[Any]] = [nested]
    for line in lines:
        if line == "]":
            stack.pop()
            continue
        assert line.startswith("[{")
        style = re.search(r"gt (max|min|leaf)", line).group(1)  # type: ignore[union-attr]
        children: list[Any] = []
        stack[-1].append((style, children))
        stack.append(children)
    assert len(stack) == 1

    def shape(node: int) -> Any:
        kind = {MAX: "max", MIN: "min", LEAF: "leaf"}[tree.kind[node]]
        return (kind, [shape(child) for child in tree.children(node)])

    assert nested == [shape(0)]
    assert body.count("gt pv") == len(record.principal_variation()) + 1
    assert body.count("gt cut") == len(record.pruned)


def test_latex_big_tree_is_cut_with_a_note() -> None:
    body = _forest_body(render_latex(solve(build_tree([[[list(range(6))] * 6] * 6] * 6))))
    assert body.count("gt more") == 36 and r"\dots\ 42 more" in body
    assert body.count("[{") == 1 + 6 + 36 + 36


def test_latex_last_child_note_is_a_line_of_its_own() -> None:
    """'(at the last child)' goes under the cut condition, not after it (one long line ran into the next node's
    label in handout keys), each line coloured on its own: TikZ refuses a line break inside \\textcolor's braces."""
    text = render_latex(solve(load_tree(TREES / "aima-5-2.yaml"), "alphabeta"))
    assert r"\leq \alpha{=}3$}\\\textcolor{red}{(at the last child)}" in text
    assert not re.search(r"\\textcolor\{red\}\{[^{}]*\\\\", text)


@needs_latex
def test_latex_compiles(tmp_path: Path) -> None:
    """Standalone documents compile with a real LaTeX: answers, handout, chance, n-player, hostile names."""
    cases = {
        "course": render_latex(solve(load_tree(TREES / "course.yaml"), "alphabeta")),
        "blank": render_latex(solve(load_tree(TREES / "aima-5-2.yaml")), blank=True),
        "chance": render_latex(solve(build_tree({"title": "dice & co", "root": {"type": "chance", "children": [
            {"p": "1/3", "move": "roll_1", "children": [3, -7]}, {"p": "2/3", "children": [{"value": 0.5}, "-7/3"]}]}}))),
        "nplayer": render_latex(solve(build_tree({"players": ["Ann", "B_b", "C%"], "root": {"children": [[[1, 2, 3], [3, 2, 1]], [2, "1/2", 2]]}}))),
        "hostile": render_latex(solve(build_tree({"title": "50% {x} $y$ #1 ~ ^ \\ [a,b=c] ▲ é", "root": {
            "id": "A_{1}", "children": [{"id": "x[1],y=2", "move": "m&m's \\o/", "value": -3}, 4]}}))),
        "limited": render_latex(solve(load_tree(TREES / "depth-limited.yaml"), depth=2)),
        "cut": render_latex(solve(build_tree([[list(range(4))] * 4] * 4)), max_nodes=25),
    }
    started = time.perf_counter()
    for name, text in cases.items():
        source = tmp_path / f"{name}.tex"
        source.write_text(text, encoding="utf-8")
        done = subprocess.run([LATEX, "-interaction=nonstopmode", "-halt-on-error", source.name], cwd=tmp_path,
                              capture_output=True, text=True, errors="replace", check=False, timeout=HANG_GUARD)
        assert done.returncode == 0, f"{name}:\n" + done.stdout[-3000:]
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
    print(f"compiled {len(cases)} documents in {time.perf_counter() - started:.1f}s")


# -- the command ----------------------------------------------------------------------


def test_render_dot_to_stdout_and_by_extension(runner: Any, tmp_path: Path) -> None:
    source = str(TREES / "aima-5-2.yaml")
    result = runner.invoke(app, ["render", source])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("digraph gametree {")
    target = tmp_path / "tree.tex"
    result = runner.invoke(app, ["render", source, "-o", str(target), "--blank"])
    assert result.exit_code == 0, result.output
    assert r"\begin{forest}" in target.read_text()
    target.write_text("old")
    result = runner.invoke(app, ["render", source, "-o", str(target)])  # like every writer: only with --force
    assert result.exit_code == 2 and "already exists (use --force to replace it)" in result.output
    assert target.read_text() == "old"
    result = runner.invoke(app, ["render", source, "-o", str(target), "--force"])
    assert result.exit_code == 0 and r"\begin{forest}" in target.read_text()
    result = runner.invoke(app, ["render", source, "-o", str(tmp_path / "tree.jpg")])
    assert result.exit_code == 2
    assert "cannot tell the picture format from" in result.output


def test_render_never_overwrites_the_input(runner: Any, tmp_path: Path) -> None:
    source = tmp_path / "t.dot"  # a tree file that happens to be named like a picture
    source.write_text("[[3, 12, 8], [2, 4, 6]]\n")
    result = runner.invoke(app, ["render", str(source), "-o", str(source)])
    assert result.exit_code == 2
    assert f"{source}: refusing to overwrite an input file" in result.output or "refusing to overwrite" in result.output
    assert source.read_text() == "[[3, 12, 8], [2, 4, 6]]\n"


def test_render_without_graphviz_says_how_to_install_it(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dot_view, "dot_program", lambda: None)
    target = tmp_path / "t.svg"
    result = runner.invoke(app, ["render", str(TREES / "aima-5-2.yaml"), "-o", str(target)])
    assert result.exit_code == 2
    assert "Graphviz's dot program is not installed" in result.output
    assert "apt-get install graphviz" in result.output and "brew install graphviz" in result.output
    assert not target.exists()


def test_render_bad_input_is_one_line(runner: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("root:\n  type: chance\n  children:\n    - {p: 0.5, value: 1}\n    - {p: 0.4, value: 2}\n")
    result = runner.invoke(app, ["render", str(bad), "-o", str(tmp_path / "x.dot")])
    assert result.exit_code == 2
    assert result.output.strip() == f"{bad}:2:3: node root: probabilities sum to 0.9, not 1"


@needs_dot
def test_render_images_in_a_real_process(tmp_path: Path) -> None:
    for name, magic in (("t.svg", b"<?xml"), ("t.png", b"\x89PNG"), ("t.pdf", b"%PDF")):
        done = subprocess.run(GAMETREE + ["render", str(TREES / "course.yaml"), "--algo", "alphabeta", "-o", name],
                              cwd=tmp_path, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr.decode()
        assert (tmp_path / name).read_bytes().startswith(magic)
    done = subprocess.run(GAMETREE + ["render", "-", "--format", "svg"], input=b"[[3, 12, 8], [2, 4, 6]]",
                          capture_output=True, check=False)
    assert done.returncode == 0 and b"<svg" in done.stdout


def test_render_reads_efg(runner: Any, tmp_path: Path) -> None:
    game = tmp_path / "g.efg"
    game.write_text('EFG 2 R "tiny" { "P1" "P2" }\n""\np "" 1 1 "" { "L" "R" } 0\nt "" 1 "" { 1, -1 }\nt "" 2 "" { 3, -3 }\n')
    result = runner.invoke(app, ["render", str(game), "--format", "dot"])
    assert result.exit_code == 0, result.output
    nodes, edges = read_dot(result.output)
    assert nodes["n0"]["label"] == "3" and edges[("n0", "n2")]["label"] == "R"


def test_render_takes_the_same_search_options_as_solve() -> None:
    from typer.testing import CliRunner

    from gametree_cli.cli.app import app

    aima = str(Path(__file__).resolve().parents[1] / "trees" / "aima-5-2.yaml")
    runner = CliRunner()
    given = runner.invoke(app, ["render", aima, "-f", "dot"])
    best = runner.invoke(app, ["render", aima, "-f", "dot", "--order", "best"])
    hard = runner.invoke(app, ["render", aima, "-f", "dot", "--variant", "hard", "--strict"])
    assert given.exit_code == best.exit_code == hard.exit_code == 0, best.output + hard.output
    assert "nodes visited 11" in given.stdout and "order best" not in given.stdout
    assert "nodes visited 9" in best.stdout and "order best" in best.stdout
    assert "✂ v=2 ≤ α=3" in given.stdout and "✂ β=2 &lt; α=3" in hard.stdout  # fail-hard and strict: the cut reason says so
    # (an annotation is an HTML-like label in the DOT text: its '<' is written '&lt;')
