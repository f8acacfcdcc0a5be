"""``render --format html`` and ``--steps``: the page's data against the search's own events and record.

The browser tests (tests/test_page_browser.py) check what the page shows;
these check what Python writes into it, without a browser.
"""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import fitting_algorithms, solve
from gametree_cli.cli.app import app
from gametree_cli.search.events import Recorder
from gametree_cli.core.numbers import format_value
from gametree_cli.views import page as page_view
from gametree_cli.views.page import render_page
from gametree_cli.views.page_data import page_steps
from gametree_cli.views.page_words import page_words
from gametree_cli.views.picture import picture_nodes
from gametree_cli.views.steps import step_looks

from .conftest import DATA, TREES

TREE_FILES = sorted(TREES.glob("*.yaml"))
CASES = [(path, algo) for path in TREE_FILES for algo in fitting_algorithms(load_tree(path))
         if path.stem != "backgammon-mini"]


def page_data(html: str) -> dict:
    blob = re.search(r'<script type="application/json" id="gametree-data">(.*?)</script>', html, re.S)
    assert blob is not None
    return json.loads(blob.group(1))


def searched(path: Path, algo: str, **options):
    tree = load_tree(path)
    recorder = Recorder()
    record = solve(tree, algo, observer=recorder, **options)
    return tree, record, recorder.events


def subtree(tree, node: int) -> list[int]:
    nodes, stack = [], [node]
    while stack:
        here = stack.pop()
        nodes.append(here)
        stack.extend(tree.children(here))
    return nodes


@pytest.mark.parametrize(("path", "algo"), CASES, ids=[f"{path.stem}-{algo}" for path, algo in CASES])
def test_one_step_per_event_with_the_trace_line_and_the_record_at_the_end(path: Path, algo: str) -> None:
    tree, record, events = searched(path, algo)
    drawn = picture_nodes(record, blank=True, max_nodes=len(tree))
    steps = page_steps(record, events, drawn)
    assert len(steps) == len(events)
    ids = [item.name for item in drawn]
    for step, event in zip(steps, events):
        assert ids[step[1]] == tree.node_id(event.node)
        assert step[0] == {"call": "c", "leaf": "l", "cut": "x", "return": "r"}[event.kind] or (
            event.kind == "cut" and step[0] == "b")
        if event.kind == "cut":  # the page says what the trace says: a ✂ only where the cut skips a child
            last_child = "at the last child" in step[5]
            assert (step[0] == "b") == last_child == record.skipped_nothing(event.node), step[5]
            assert ("✂" in step[4][1]) != last_child and not (last_child and step[6]), step
        assert tree.node_id(event.node) in step[5] or (event.kind == "return" and step[5] == "")  # names the node
    looks = step_looks(steps, len(steps) - 1, _ends(drawn))
    pruned = {node for top in record.pruned for node in subtree(tree, top)}
    for position, item in enumerate(drawn):
        state = looks[position].state
        if item.node == 0:
            assert state == "current"
        elif item.node in pruned:
            assert state == "pruned", item.name
        elif record.visited(item.node):
            assert state == "visited", item.name
        else:
            assert state == "unvisited", item.name
        window = record.bounds(item.node)
        if window is not None and tree.count[item.node] and item.node not in record.horizon:
            assert (looks[position].alpha, looks[position].beta) == tuple(map(format_value, window)), item.name


def _ends(drawn) -> list[int]:
    from gametree_cli.views.page_svg import layout

    return layout(drawn).end


def test_windows_follow_the_events_and_the_parent_updates_when_a_child_returns() -> None:
    tree, record, events = searched(TREES / "aima-5-2.yaml", "alphabeta")
    drawn = picture_nodes(record, blank=True, max_nodes=len(tree))
    steps = page_steps(record, events, drawn)
    ids = [item.name for item in drawn]
    return_b = next(k for k, event in enumerate(events) if event.kind == "return" and tree.node_id(event.node) == "B")
    windows = {ids[at]: (alpha, beta) for at, alpha, beta in steps[return_b][3]}
    assert windows["A"] == ("3", "inf")  # A's alpha rises to 3 as B returns 3, as the next call shows
    assert windows["B"] == ("-inf", "3")  # as B returned (its answer key says so too)
    assert steps[return_b][4] == [0, "prune if v ≥ β = ∞", "A"]
    cut_c = next(k for k, event in enumerate(events) if event.kind == "cut" and tree.node_id(event.node) == "C")
    assert steps[cut_c][4][1] == "✂ v=2 ≤ α=3"
    assert sorted(ids[node] for node in steps[cut_c][6]) == ["C.2", "C.3"]


@pytest.mark.parametrize(("lang", "said"), [("en", "v=2 ≤ α=3 (at the last child)"), ("es", "v=2 ≤ α=3 (en el último hijo)")])
def test_a_cut_at_the_last_child_shows_no_scissors(lang: str, said: str) -> None:
    """AIMA's D: v=2 ≤ α=3 is reached at D.3, its last child: nothing is skipped, so the page and the
    slides say the bound was reached (step kind ``b``), as the trace does, with no ✂ and no cut badge."""
    tree, record, events = searched(TREES / "aima-5-2.yaml", "alphabeta")
    drawn = picture_nodes(record, blank=True, max_nodes=len(tree))
    steps = page_steps(record, events, drawn, lang)
    at_d = next(k for k, event in enumerate(events) if event.kind == "cut" and tree.node_id(event.node) == "D")
    assert at_d == 14 and steps[at_d][0] == "b" and steps[at_d][6] == 0
    assert steps[at_d][4][1] == said
    assert page_words(lang)["kind_b"] not in (page_words(lang)["kind_x"], "")
    looks, before = step_looks(steps, at_d, _ends(drawn)), step_looks(steps, at_d - 1, _ends(drawn))
    assert [look.cut for look in looks] == [look.cut for look in before]  # only C's ✂s, from its cut
    assert [look.state for look in looks if look.state == "pruned"] == ["pruned"] * 2  # C.2, C.3
    assert looks[[item.name for item in drawn].index("D")].test == said


@pytest.mark.parametrize(("path", "algo"), CASES, ids=[f"{path.stem}-{algo}" for path, algo in CASES])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_page_lines_are_the_lines_solve_trace_prints(path: Path, algo: str, lang: str) -> None:
    """The page's trace log, the lines of its steps, is ``solve --trace``'s, line for line: the return
    right after a cut is not printed again (its step has no line), nothing is re-derived."""
    from gametree_cli.views.trace import TraceFormatter

    tree, record, events = searched(path, algo)
    data = page_data(render_page(record, events, lang=lang))
    printed = [line for line in map(TraceFormatter(tree, lang).line, events) if line is not None]
    assert [step[5] for step in data["steps"] if step[5]] == printed


def test_course_page_step_after_the_cut_at_b3_prints_no_line(runner, tmp_path: Path) -> None:
    page = tmp_path / "c.html"
    result = runner.invoke(app, ["render", str(TREES / "course.yaml"), "--lang", "es", "-o", str(page)])
    assert result.exit_code == 0, result.output
    lines = [step[5] for step in page_data(page.read_text(encoding="utf-8"))["steps"]]
    assert "PODA en maxValue de B3" in lines[6] and lines[7] == ""  # B3's return, folded into the cut's line
    assert not any("maxValue de B3 asigna valor" in line for line in lines)
    trace = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--trace", "--lang", "es"]).stdout
    assert [line for line in lines if line] == trace.split("\nvalor encontrado")[0].splitlines()


def test_spanish_page_uses_the_notes_wording_and_bounds_show_as_bounds() -> None:
    tree, record, events = searched(TREES / "course.yaml", "alphabeta")
    html = render_page(record, events, lang="es")
    data = page_data(html)
    lines = [step[5] for step in data["steps"]]
    assert any("PODA en maxValue de B3 porque v=8 >= beta=3" in line for line in lines)
    assert lines[0].startswith("Invocacion maxValue(A")
    final = dict(zip(data["ids"], data["final"]))
    assert final["B3"] == "≥8" and final["C"] == "≤2" and final["A"] == "3"


#: not words of either language: the address fragment, the option and command a tooltip names
_NOT_WORDS = re.compile(r"#step=N|--show-all|\brender\b|\{\w+\}")


def _tokens(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"[^\W\d_]{3,}", _NOT_WORDS.sub(" ", text))}


#: the words the page's English and Spanish share (a key's name, a Greek letter spelt out)
_BOTH = {"tab", "beta"}


def english_words() -> set[str]:
    """The words of the page's English UI, but those Spanish writes the same."""
    return _tokens(" ".join(page_words("en").values())) - _BOTH


def english_left(text: str, *also: str) -> set[str]:
    """The English UI words in ``text`` (``also``: the tree's own title and the algorithm, not the page's)."""
    for own in also:
        text = text.replace(own, " ")
    return _tokens(text) & english_words()


class _Visible(HTMLParser):
    """What a reader sees or hears of the page's HTML: text outside scripts and styles, titles, labels."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("script", "style")
        self.texts += [value or "" for name, value in attrs if name in ("title", "aria-label")]

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.texts.append(data)


def test_page_word_tables_match() -> None:
    english, spanish = page_words("en"), page_words("es")
    assert english.keys() == spanish.keys()
    for key, text in english.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", spanish[key])), key
    assert len(english_words()) > 60  # the check below has something to find


@pytest.mark.parametrize(("tree_file", "algo", "options"), [
    ("aima-5-2.yaml", "alphabeta", []), ("dice.yaml", "star1", []), ("shallow-sum9.yaml", "shallow", []),
    ("star2-probe.yaml", "star2", []), ("course.yaml", "alphabeta", ["--show-depth", "1"])])
def test_spanish_page_has_no_english_ui_word_left(runner, tmp_path: Path, tree_file: str, algo: str,
                                                  options: list[str]) -> None:
    """Everything the page shows in Spanish: its HTML, the words its script uses, the pruning tests,
    the summary, the cuts' reasons in the practice key; an English page shows those English words."""
    pages = {}
    for lang in ("en", "es"):
        out = tmp_path / f"{lang}.html"
        result = runner.invoke(app, ["render", str(TREES / tree_file), "--algo", algo, "--lang", lang, "-o", str(out),
                                     *options])
        assert result.exit_code == 0, result.output
        pages[lang] = out.read_text(encoding="utf-8")
    for lang, html in pages.items():
        data, visible = page_data(html), _Visible()
        visible.feed(html)
        shown = [*visible.texts, *data["words"].values(), data["summary"], *data["practice"]["cutBy"].values(),
                 *(step[4][1] for step in data["steps"] if step[4])]
        left = english_left(" ".join(shown), data["title"], data["algorithm"])
        if lang == "es":
            assert left == set(), left
            assert data["words"] == page_words("es") and '<html lang="es">' in html
        else:
            assert {"watch", "practise", "step", "prune", "check", "download"} <= left


def test_spanish_pruning_tests_and_cut_names() -> None:
    tree, record, events = searched(TREES / "aima-5-2.yaml", "alphabeta")
    tests = {step[4][1] for step in page_data(render_page(record, events, lang="es"))["steps"] if step[4]}
    assert {"poda si v ≤ α = 3", "poda si v ≥ β = ∞", "✂ v=2 ≤ α=3"} <= tests
    tree, record, events = searched(TREES / "dice.yaml", "star1")
    tests = {step[4][1] for step in page_data(render_page(record, events, lang="es"))["steps"] if step[4]}
    assert any(test.startswith("poda si cota superior ≤ α = ") and " o cota inferior ≥ β = " in test for test in tests)
    tree, record, events = searched(TREES / "shallow-sum9.yaml", "shallow")
    tests = {step[4][1] for step in page_data(render_page(record, events, lang="es"))["steps"] if step[4]}
    assert any(re.fullmatch(r"poda si Mejor\[\w+\] ≥ Cota = \d+", test) for test in tests), tests


def test_the_page_is_self_contained() -> None:
    tree, record, events = searched(TREES / "aima-5-2.yaml", "alphabeta")
    html = render_page(record, events)
    assert "default-src 'none'" in html  # the browser itself refuses any request
    assert not re.search(r"<(link|img|iframe|object|embed)\b", html)
    assert not re.search(r"\bsrc\s*=", html) and "@import" not in html and "url(" not in html
    assert re.findall(r"https?://[^\s\"'<]+", html) == ["http://www.w3.org/2000/svg"]  # a namespace name, never fetched
    drawn = re.findall(r'<g class="node [a-z]+" id="n\d+" data-node="([^"]+)" data-kind="[a-z]+" data-state="unvisited"', html)
    assert sorted(drawn) == sorted(tree.node_id(node) for node in range(len(tree)))


def test_a_script_end_tag_in_an_id_cannot_break_out_of_the_data(runner, tmp_path: Path) -> None:
    tree = tmp_path / "odd.yaml"
    tree.write_text("title: '</script><b>{{DATA}}'\nroot:\n  children:\n    - {id: '</script>', children: [1, 2]}\n    - 3\n")
    out = tmp_path / "odd.html"
    result = runner.invoke(app, ["render", str(tree), "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert html.count("</script>") == 2 and page_data(html)["ids"][1] == "</script>"


def test_practice_key_written_as_an_answer_file_passes_check(runner, tmp_path: Path) -> None:
    """What a student who gets everything right downloads (built here the way practice.js builds it)."""
    tree, record, events = searched(TREES / "course.yaml", "alphabeta")
    data = page_data(render_page(record, events))
    key = data["practice"]
    nodes = {}
    for node_id, entry in zip(data["ids"], key["nodes"]):
        if entry and entry["visited"]:
            nodes[node_id] = {"value": entry["value"], "alpha": entry["alpha"], "beta": entry["beta"]}
    answers = {**key["exercise"], "answers": {"nodes": nodes, "pruned": [data["ids"][i] for i in key["pruned"]]}}
    path = tmp_path / "student.answers.json"
    path.write_text(json.dumps(answers))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    answers["answers"]["pruned"] = answers["answers"]["pruned"][1:]  # a missed cut
    path.write_text(json.dumps(answers))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1 and "missed cut-off" in result.output


def test_big_tree_collapses_and_too_big_a_tree_is_refused(runner, tmp_path: Path, monkeypatch) -> None:
    big = [[[[leaf + 10 * branch for leaf in range(10)] for branch in range(10)] for _ in range(10)] for _ in range(10)]
    path = tmp_path / "big.json"
    path.write_text(json.dumps(big))  # 11,111 nodes
    out = tmp_path / "big.html"
    result = runner.invoke(app, ["render", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = page_data(out.read_text())
    assert len(data["ids"]) <= page_view.PAGE_MAX_DRAWN and data["hidden"] > 10_000
    assert "more</text>" in out.read_text() and not data["practice"]["available"]
    monkeypatch.setattr(page_view, "MAX_PAGE_STEPS", 1_000)
    result = runner.invoke(app, ["render", str(path), "--algo", "minimax", "-o", str(tmp_path / "refused.html")])
    assert result.exit_code == 2
    assert "the search takes more than 1,000 steps; a browser page replays at most 1,000" in result.output
    assert not (tmp_path / "refused.html").exists()


def test_steps_writes_one_numbered_svg_per_step(runner, tmp_path: Path) -> None:
    folder = tmp_path / "slides"
    result = runner.invoke(app, ["render", str(TREES / "aima-5-2.yaml"), "--steps", str(folder), "--format", "svg"])
    assert result.exit_code == 0, result.output
    _, _, events = searched(TREES / "aima-5-2.yaml", "alphabeta")
    files = sorted(folder.iterdir())
    assert [file.name for file in files] == [f"step-{k:03d}.svg" for k in range(len(events))]
    for file, event in zip(files, events):
        svg = file.read_text()
        current = re.findall(r'data-node="([^"]+)" data-kind="[a-z]+" data-state="current"', svg)
        assert current == [load_tree(TREES / "aima-5-2.yaml").node_id(event.node)]
    assert svg.count('class="edge pv"') == 2
    assert re.findall(r'data-node="([^"]+)" data-kind="[a-z]+" data-state="pruned"', svg) == ["C.2", "C.3"]
    again = runner.invoke(app, ["render", str(TREES / "aima-5-2.yaml"), "--steps", str(folder), "--format", "svg"])
    assert again.exit_code == 2 and "--force" in again.output


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert (librsvg2-bin) is not installed; make test installs it")
def test_steps_as_png(runner, tmp_path: Path) -> None:
    folder = tmp_path / "png"
    result = runner.invoke(app, ["render", str(TREES / "dice.yaml"), "--steps", str(folder), "--format", "png"])
    assert result.exit_code == 0, result.output
    first = sorted(folder.iterdir())[0].read_bytes()
    assert first.startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("args", [["--format", "dot"], ["--format", "svg", "-o", "x.svg"]])
def test_steps_refuses_what_it_cannot_write(runner, tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, ["render", str(TREES / "aima-5-2.yaml"), "--steps", str(tmp_path / "s"), *args])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--steps" in result.output


@pytest.mark.parametrize("variant", ["hard", "practical"])
def test_the_pruning_test_names_what_the_cut_compares(variant: str) -> None:
    """Fail-hard and the course notes' form cut on β ≤ α (their trace says so): the test before the cut says the
    same, not 'v ≤ α' (the practical page said one thing before the cut and another at it)."""
    tree, record, events = searched(TREES / "aima-5-2.yaml", "alphabeta", variant=variant)
    tests = {step[4][1] for step in page_data(render_page(record, events, lang="en"))["steps"] if step[4]}
    cuts = {test for test in tests if test.startswith("✂")}
    assert cuts and all(" β=" in cut.split("≤")[0] or "α=" in cut.split("≥")[0] for cut in cuts), cuts
    assert "prune if β ≤ α = 3" in tests and not any(test.startswith("prune if v") for test in tests), tests


def test_a_wide_node_is_capped_like_the_other_pictures(runner, tmp_path: Path) -> None:
    """A root with 1,000 children drew all of them on the page; now the first 400, counted in the summary."""
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(list(range(1000))))
    out = tmp_path / "wide.html"
    result = runner.invoke(app, ["render", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = page_data(out.read_text())
    assert len(data["ids"]) == 401 and data["hidden"] == 600 and not data["practice"]["available"]
    every = tmp_path / "every.html"
    result = runner.invoke(app, ["render", str(path), "--show-all", "-o", str(every)])
    assert result.exit_code == 0, result.output
    data = page_data(every.read_text())
    assert len(data["ids"]) == 1001 and data["hidden"] == 0 and data["practice"]["available"]


@pytest.mark.parametrize(("name", "cut_nodes"), [("shallow-mn0.json", ["N18", "N26"]), ("shallow-mn4.json", ["N6", "N13"])])
def test_shallow_pruning_cut_nodes_show_as_every_other_view_shows_them(runner, tmp_path: Path, name: str,
                                                                       cut_nodes: list[str]) -> None:
    """QA: the page marked shallow pruning's cut nodes '≥(0, 0, 6)' (final values, practice marks, the
    return step) where solve, the JSON (no bound_kind) and DOT show '(0, 0, 6)': it read the cut's
    operator, not the record's bound kind (side unknown here, shown as an exact value is)."""
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["render", str(DATA / name), "--algo", "shallow", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = page_data(out.read_text())
    result = runner.invoke(app, ["solve", str(DATA / name), "--algo", "shallow", "--format", "json"])
    nodes = json.loads(result.output)["nodes"]
    for node in cut_nodes:
        assert "cut" in nodes[node] and "bound_kind" not in nodes[node]
        position = data["ids"].index(node)
        shown = format_value(tuple(json.loads(nodes[node]["value"]) if isinstance(nodes[node]["value"], str)
                                   else nodes[node]["value"]))
        assert data["final"][position] == shown
        assert data["practice"]["nodes"][position]["mark"] == ""
        returns = [step[2] for step in data["steps"] if step[0] == "r" and step[1] == position]
        assert returns == [shown]
