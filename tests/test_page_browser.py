"""The browser page in a real browser: Debian's chromium driven by Playwright (never a downloaded browser).

Every step of the AIMA and course trees is walked with the arrow keys, forth
and back, and each drawn node's ``data-state`` and the α/β the page shows are
compared with what the search's own events say (an oracle written here from
the event stream, not from the page's data). The practice mode grades a
wrong value and a missed cut, its downloaded answer file passes
``gametree check``, and the page asks the network for nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
from gametree_cli.cli.app import app
from gametree_cli.search.events import Recorder
from gametree_cli.core.model import CHANCE
from gametree_cli.core.numbers import format_value
from gametree_cli.views.page import render_page

from .conftest import CHROMIUM, TREES

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it with apt-get where it can)")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

SNAPSHOT = """() => Object.fromEntries([...document.querySelectorAll('#tree .node')].map(
    (n) => [n.dataset.node, [n.dataset.state, n.dataset.alpha, n.dataset.beta, n.dataset.value]]))"""


def make_page(tmp_path: Path, tree_file: str, algo: str, **options):
    tree = load_tree(TREES / tree_file)
    recorder = Recorder()
    record = solve(tree, algo, observer=recorder, **options)
    path = tmp_path / f"{Path(tree_file).stem}-{algo}.html"
    path.write_text(render_page(record, recorder.events), encoding="utf-8")
    return path, tree, record, recorder.events


def open_page(browser, path: Path, fragment: str = "", requests: list[str] | None = None):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if requests is not None:
        page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready=true]", state="attached")
    return page, errors


def expected_states(tree, events, k: int) -> dict[str, str]:
    """The oracle: the event's node is current, nodes some event reached are visited, and the
    subtrees a cut skipped (its event says which) are pruned; the rest not yet visited."""
    states = {tree.node_id(node): "unvisited" for node in range(len(tree))}
    for event in events[: k + 1]:
        states[tree.node_id(event.node)] = "visited"
    for event in events[: k + 1]:
        if event.kind == "cut":
            stack = list((event.detail or {}).get("skipped", ()))
            while stack:
                node = stack.pop()
                states[tree.node_id(node)] = "pruned"
                stack.extend(tree.children(node))
    states[tree.node_id(events[k].node)] = "current"
    return states


def expected_windows(tree, events, k: int) -> dict[str, tuple[str, str]]:
    """α/β a course writes at step k: a node's own as its call, cut or return says; and at a
    decision node, the window it passes down next (the next event under it says it)."""
    windows = {}
    event = events[k]
    if event.alpha is not None and event.kind != "leaf" and tree.count[event.node]:
        windows[tree.node_id(event.node)] = (format_value(event.alpha), format_value(event.beta))
    if k + 1 < len(events):
        after = events[k + 1]
        parent = tree.parents()[after.node] if after.node else -1
        if after.alpha is not None and after.kind in ("call", "leaf") and parent >= 0 and tree.kind[parent] != CHANCE:
            windows[tree.node_id(parent)] = (format_value(after.alpha), format_value(after.beta))
    return windows


def assert_step(page, tree, events, k: int) -> None:
    page.wait_for_selector(f'body[data-step="{k}"]', state="attached")
    shown = page.evaluate(SNAPSHOT)
    assert {node: entry[0] for node, entry in shown.items()} == expected_states(tree, events, k), f"step {k}"
    for node, window in expected_windows(tree, events, k).items():
        assert (shown[node][1], shown[node][2]) == window, f"step {k}: the window at {node}"
    event = events[k]
    if event.kind == "return":
        assert shown[tree.node_id(event.node)][3].lstrip("≥≤") == format_value(event.value), f"step {k}"


CASES = [("aima-5-2.yaml", "alphabeta", {}), ("course.yaml", "alphabeta", {}),
         ("course.yaml", "alphabeta", {"variant": "hard"}), ("dice.yaml", "star1", {})]


@pytest.mark.parametrize(("tree_file", "algo", "options"), CASES, ids=["aima", "course", "course-hard", "dice-star1"])
def test_every_step_forth_and_back_with_the_keys_matches_the_events(browser, tmp_path, tree_file, algo, options) -> None:
    path, tree, record, events = make_page(tmp_path, tree_file, algo, **options)
    page, errors = open_page(browser, path)
    assert_step(page, tree, events, 0)
    for k in range(1, len(events)):
        page.keyboard.press("ArrowRight")
        assert_step(page, tree, events, k)
    page.keyboard.press("ArrowRight")  # past the end: stays on the last step
    assert_step(page, tree, events, len(events) - 1)
    shown = page.evaluate(SNAPSHOT)
    for node in range(len(tree)):  # the last step: the bounds each node returned with, as the record keeps them
        window = record.bounds(node)
        if window is not None and tree.count[node]:
            assert (shown[tree.node_id(node)][1], shown[tree.node_id(node)][2]) == tuple(map(format_value, window))
    assert page.is_visible("#summary") and page.locator(".edge.pv").count() == len(record.principal_variation())
    for k in range(len(events) - 2, -1, -1):
        page.keyboard.press("ArrowLeft")
        assert_step(page, tree, events, k)
    assert not errors


def test_slider_fragment_and_play(browser, tmp_path) -> None:
    path, tree, record, events = make_page(tmp_path, "course.yaml", "alphabeta")
    page, errors = open_page(browser, path, "#step=14")
    assert_step(page, tree, events, 14)
    for k in (3, 17, 0, len(events) - 1):
        page.evaluate("(k) => { const s = document.getElementById('slider'); s.value = k; s.dispatchEvent(new Event('input')); }", k)
        assert_step(page, tree, events, k)
        assert page.evaluate("location.hash") == f"#step={k}"
    page.goto(path.as_uri() + "#step=end")
    page.wait_for_selector("body[data-ready=true]", state="attached")
    assert_step(page, tree, events, len(events) - 1)
    page.keyboard.press("Home")
    assert_step(page, tree, events, 0)
    page.select_option("#speed", "50")
    page.keyboard.press(" ")
    assert_step(page, tree, events, len(events) - 1)  # played to the end, and stopped there
    # the button turns back to "Play" once the player stops, just after the last step is drawn: wait for it
    # (asserting at once failed under load: the step was drawn, the button not yet changed)
    sync_api.expect(page.locator("#play")).to_have_text(re.compile(r"Play$"))  # polls the element: no script to evaluate
    assert not errors


@pytest.mark.parametrize(("tree_file", "algo"), [("maxn-3players.yaml", "maxn"), ("shallow-sum9.yaml", "shallow"),
                                                   ("dice.yaml", "expectiminimax"), ("maxn-3players.yaml", "paranoid")])
def test_other_searches_replay_their_own_vocabulary(browser, tmp_path, tree_file, algo) -> None:
    path, tree, record, events = make_page(tmp_path, tree_file, algo)
    page, errors = open_page(browser, path, "#step=end")
    assert_step(page, tree, events, len(events) - 1)
    page.keyboard.press("Home")
    for k in range(1, len(events)):
        page.keyboard.press("ArrowRight")
        assert_step(page, tree, events, k)
    assert not errors


def fill(page, node: str, field: str, text: str) -> None:
    page.fill(f'#answers input[data-for="{node}"][data-field="{field}"]', text)


def test_practice_marks_a_wrong_value_and_a_missed_cut(browser, tmp_path) -> None:
    path, tree, record, events = make_page(tmp_path, "aima-5-2.yaml", "alphabeta")
    page, errors = open_page(browser, path)
    page.click("#mode-practice")
    assert page.evaluate(SNAPSHOT)["B"][0] == "unvisited"
    for node, value in {"A": "3", "B": "3", "C": "4", "D": "≤2"}.items():
        fill(page, node, "value", value)
    page.locator('#tree .edge[data-edge="C.2"]').click()  # C.3 is left unmarked: a missed cut
    page.focus('#tree .edge[data-edge="B.2"]')
    page.keyboard.press("Enter")  # marked with the keyboard: a cut where there is none
    page.click("#check")
    page.wait_for_selector("body[data-checked=true]", state="attached")
    assert page.get_attribute('#answers tr[data-for="A"]', "data-check") == "right"
    assert page.get_attribute('#answers tr[data-for="D"]', "data-check") == "right"
    assert page.get_attribute('#answers tr[data-for="C"]', "data-check") == "wrong"
    assert "≤2, not 4" in page.inner_text('#answers tr[data-for="C"] td.why')
    assert page.get_attribute('#tree .node[data-node="C"]', "data-check") == "wrong"
    results = page.inner_text("#cut-results")
    assert "✓ cut before C.2" in results
    assert "✗ missed cut: C.3 is never visited (C: v=2 <= alpha=3)" in results
    assert "✗ B.2 is visited: no cut there" in results
    assert page.inner_text("#score") == "4 of 7 right"
    assert not errors


@pytest.mark.parametrize(("tree_file", "algo", "entries"), [
    ("dice.yaml", "expectiminimax", {"Roll": ("3.5", "right"), "Bet": ("39/8", "right"), "Reroll": ("4.5", "right"),
                                     "Lose": ("4.4", "wrong")}),
    ("maxn-3players.yaml", "maxn", {"b1": ("1,2,6", "right"), "c2": ("(6, 1, 2)", "right"), "a": ("[1, 2, 5]", "wrong")}),
])
def test_practice_compares_fractions_decimals_and_vectors_exactly(browser, tmp_path, tree_file, algo, entries) -> None:
    path, tree, record, events = make_page(tmp_path, tree_file, algo)
    page, errors = open_page(browser, path)
    page.click("#mode-practice")
    for node, (text, _) in entries.items():
        fill(page, node, "value", text)
    page.click("#check")
    for node, (_, verdict) in entries.items():
        assert page.get_attribute(f'#answers tr[data-for="{node}"]', "data-check") == verdict, node
    assert not errors


def test_blank_page_opens_in_practice_mode(browser, tmp_path, runner) -> None:
    out = tmp_path / "handout.html"
    result = runner.invoke(app, ["render", str(TREES / "aima-5-2.yaml"), "--blank", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page, errors = open_page(browser, out)
    assert page.get_attribute("body", "data-mode") == "practice" and page.is_visible("#answers")
    assert page.text_content('#tree .node[data-node="B"] .val') == ""  # no answer shown
    assert not errors


def test_downloaded_answers_pass_gametree_check(browser, tmp_path, runner) -> None:
    path, tree, record, events = make_page(tmp_path, "course.yaml", "alphabeta")
    requests: list[str] = []
    page, errors = open_page(browser, path, requests=requests)
    page.click("#mode-practice")
    for node in range(len(tree)):
        if tree.count[node] and record.visited(node):
            name = tree.node_id(node)
            alpha, beta = record.bounds(node)
            fill(page, name, "value", format_value(record.values[node]))
            fill(page, name, "alpha", format_value(alpha).replace("inf", "∞"))
            fill(page, name, "beta", format_value(beta))
    for node in record.pruned:
        page.locator(f'#tree .edge[data-edge="{tree.node_id(node)}"]').click()

    def download(name: str) -> Path:
        with page.expect_download() as info:
            page.click("#download")
        target = tmp_path / name
        info.value.save_as(target)
        return target

    good = download("good.answers.json")
    assert json.loads(good.read_text())["answers"]["pruned"] == [tree.node_id(node) for node in record.pruned]
    result = runner.invoke(app, ["check", str(good)])
    assert result.exit_code == 0, result.output
    fill(page, "B", "value", "4")
    bad = download("bad.answers.json")
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 1 and "nodes[B]" in result.output
    # B3 returns 8 after its cut: a lower bound. Typed with its sign, the page and check grade the sign alike.
    fill(page, "B", "value", format_value(record.values[tree.index("B")]))
    for typed, verdict, status in (("≥8", "right", 0), ("≤8", "wrong", 1)):
        fill(page, "B3", "value", typed)
        page.click("#check")
        assert page.get_attribute('#answers tr[data-for="B3"]', "data-check") == verdict, typed
        signed = download(f"signed-{verdict}.answers.json")
        entry = json.loads(signed.read_text())["answers"]["nodes"]["B3"]
        assert entry["value"] == 8 and entry["bound_kind"] == ("lower" if typed == "≥8" else "upper")
        result = runner.invoke(app, ["check", str(signed)])
        assert result.exit_code == status, result.output
        assert ("nodes[B3].bound_kind" in result.output) == bool(status)
    assert not errors
    assert requests == [path.as_uri()]  # saving a file is no request either


def test_the_page_makes_no_network_request(browser, tmp_path) -> None:
    path, tree, record, events = make_page(tmp_path, "dice.yaml", "star1")
    requests: list[str] = []
    page, errors = open_page(browser, path, requests=requests)
    page.keyboard.press("End")
    page.keyboard.press("Home")
    page.click("#mode-practice")
    page.click("#check")
    page.click("#mode-watch")
    assert requests == [path.as_uri()]  # the page itself, from disk; nothing else
    assert not errors


def test_spanish_page_steps_and_checks_in_spanish(browser, tmp_path) -> None:
    """``--lang es``: the buttons, the step's badge, the pruning test at C before its cut, the play button
    while playing, and the practice mode's help, reasons and score; no English UI word anywhere on screen."""
    from .test_page import english_left

    tree = load_tree(TREES / "aima-5-2.yaml")
    recorder = Recorder()
    record = solve(tree, "alphabeta", observer=recorder)
    path = tmp_path / "aima-es.html"
    path.write_text(render_page(record, recorder.events, lang="es"), encoding="utf-8")
    page, errors = open_page(browser, path)
    assert page.inner_text("#mode-watch") == "Ver" and page.inner_text("#play") == "▶ Reproducir"
    decides_c = next(k for k, event in enumerate(recorder.events)
                     if event.kind == "leaf" and tree.node_id(event.node) == "C.1")
    for k in range(1, decides_c + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'body[data-step="{k}"]', state="attached")
    assert page.inner_text("#step-kind") == "hoja"
    assert page.inner_text("#test-line") == "C: poda si v ≤ α = 3"
    assert page.text_content('#tree .node[data-node="C"] .test text') == "poda si v ≤ α = 3"
    page.keyboard.press("ArrowRight")  # the cut
    assert page.inner_text("#step-kind") == "corte ✂"
    watching = page.inner_text("body")
    page.click("#play")
    assert page.inner_text("#play") == "⏸ Pausa"
    page.click("#play")
    page.click("#mode-practice")
    fill(page, "B", "value", "4")
    fill(page, "A", "value", "3")
    page.click("#check")
    page.wait_for_selector("body[data-checked=true]", state="attached")
    assert "valor: la búsqueda da 3, no 4" in page.inner_text('#answers tr[data-for="B"] td.why')
    assert "✗ corte no visto: C.2 nunca se visita (C: v=2 <= alfa=3)" in page.inner_text("#cut-results")
    assert page.inner_text("#score") == "1 de 6 bien"
    practising = page.inner_text("body")
    assert english_left(watching + "\n" + practising, tree.title, "alphabeta") == set()
    assert not errors


def test_a_cut_at_the_last_child_shows_no_scissors(browser, tmp_path) -> None:
    """AIMA's D reaches v=2 ≤ α=3 at D.3, its last child: the search skips nothing there (its event
    says so), so step 14 says "bound reached" with no ✂ anywhere near D, as the trace says."""
    path, tree, record, events = make_page(tmp_path, "aima-5-2.yaml", "alphabeta")
    assert events[14].kind == "cut" and tree.node_id(events[14].node) == "D" and events[14].detail["skipped"] == []
    page, errors = open_page(browser, path, "#step=14")
    assert_step(page, tree, events, 14)
    assert page.inner_text("#step-kind") == "bound reached"
    assert "✂" not in page.inner_text("#step-kind") and "at the last child" in page.inner_text("#line")
    label = page.locator('#tree .node[data-node="D"] .test')
    assert label.get_attribute("visibility") == "visible"
    assert label.inner_html().count("✂") == 0 and "v=2 ≤ α=3 (at the last child)" in label.inner_html()
    scissors = page.evaluate("""() => [...document.querySelectorAll('#tree .edge')].filter(
        (e) => e.querySelector('.scissors').getAttribute('visibility') !== 'hidden').map((e) => e.dataset.edge)""")
    assert sorted(scissors) == ["C.2", "C.3"]  # C's cut, three steps before; none at D
    page.screenshot(path=str(tmp_path / "step-14.png"))
    assert not errors


MEASURE = """() => {
    const root = document.documentElement, box = root.getBoundingClientRect();
    const inside = (el) => { const r = el.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5; };
    const captions = [...document.querySelectorAll('text.caption')];
    const test = [...document.querySelectorAll('.node .test')].find((g) => g.getAttribute('visibility') !== 'hidden');
    return { captions: captions.length, captionsInside: captions.every(inside),
             test: test ? test.querySelector('text').textContent : null,
             testInside: test ? inside(test.querySelector('rect')) : true,
             testFits: test ? test.querySelector('text').getComputedTextLength() <= +test.querySelector('rect').getAttribute('width') : true };
}"""


@pytest.mark.parametrize(("tree_file", "lang", "algo"), [("aima-5-2.yaml", "en", "alphabeta"), ("aima-5-2.yaml", "es", "alphabeta"),
                                                         ("course.yaml", "es", "alphabeta"), ("dice.yaml", "en", "star1")])
def test_step_pictures_hold_their_caption_and_pruning_test(browser, runner, tmp_path, tree_file, lang, algo) -> None:
    """Measured with the browser's own fonts: every caption line inside the picture (QA: step 14's was
    cut at "…in minValue of D: v=2"), and the pruning test's pill around its text, inside the picture."""
    folder = tmp_path / "steps"
    result = runner.invoke(app, ["render", str(TREES / tree_file), "--steps", str(folder), "--format", "svg", "--lang", lang,
                                  "--algo", algo])
    assert result.exit_code == 0, result.output
    context = browser.new_context(viewport={"width": 2400, "height": 1600})
    page = context.new_page()
    tests = 0
    for path in sorted(folder.iterdir()):
        page.goto(path.as_uri())
        seen = page.evaluate(MEASURE)
        assert seen["captions"] >= 1 and seen["captionsInside"], path.name
        assert seen["testInside"] and seen["testFits"], (path.name, seen["test"])
        tests += seen["test"] is not None
    assert tests > 5
    context.close()


def test_the_log_shows_the_lines_solve_trace_prints(browser, tmp_path, runner) -> None:
    """The course page in Spanish, step by step: the log is the last (up to 8) lines ``solve --trace``
    printed up to the step; at B3's return (folded into its cut) nothing new, the cut's line current."""
    from gametree_cli.views.trace import TraceFormatter

    page_file = tmp_path / "c.html"
    assert runner.invoke(app, ["render", str(TREES / "course.yaml"), "--lang", "es", "-o", str(page_file)]).exit_code == 0
    trace = runner.invoke(app, ["solve", str(TREES / "course.yaml"), "--trace", "--lang", "es"]).stdout
    printed = [line.strip() for line in trace.split("\nvalor encontrado")[0].splitlines()]
    tree = load_tree(TREES / "course.yaml")
    recorder = Recorder()
    solve(tree, "alphabeta", observer=recorder)
    formatter = TraceFormatter(tree, "es")
    count = 0
    page, errors = open_page(browser, page_file)
    for k, event in enumerate(recorder.events):
        count += formatter.line(event) is not None  # how many lines solve --trace has printed by this event
        if k:
            page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'body[data-step="{k}"]', state="attached")
        log = [line.strip() for line in page.locator("#log li").all_inner_texts()]
        assert log == printed[max(0, count - 8):count], f"step {k}"
        assert page.inner_text("#line").strip() == log[-1].lstrip(". "), f"step {k}"
    assert count == len(printed) and not errors
    page.goto(page_file.as_uri() + "#step=8")
    page.wait_for_selector('body[data-step="8"]', state="attached")
    log = page.locator("#log li").all_inner_texts()
    assert "PODA en maxValue de B3" in log[-2] and not any("maxValue de B3 asigna" in line for line in log)
