"""Names that could break a picture: control characters, lone surrogates, ``<!--<script>``, ``< > " |``.

Every picture view (DOT, SVG, the browser page and its step slides, LaTeX)
must write valid output that shows such a name escaped (core.printable), and
the page's data must keep the name as the file wrote it (answer files name
nodes by it). Checked with real parsers: expat for SVG, json.loads for the
page's data, pdflatex + pdftotext for LaTeX where installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from html import escape
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.cli.app import app
from gametree_cli.core.printable import printable
from gametree_cli.views.latex import latex_escape

from .conftest import TREES

#: a control character, a lone surrogate, a carriage return with a terminal escape, a line separator
ODD = ["A\x01B", "\ud800", "c\rd\x1b[31m", "x\u2028y"]
FIELDS = ["id", "move", "title", "player"]
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (make graphviz)")


def odd_tree(tmp_path: Path, field: str, odd: str) -> Path:
    """A small tree (three players when the odd name is a player's) with ``odd`` as one name."""
    players = field == "player"
    leaf = [[1, 2, 3], [3, 2, 1], [2, 2, 2]] if players else [1, 2, 3]
    child: dict[str, Any] = {"id": odd if field == "id" else "k", "children": leaf[:2]}
    if field == "move":
        child["move"] = odd
    document: dict[str, Any] = {"root": {"id": "r", "children": [child, leaf[2]]}}
    if field == "title":
        document["title"] = odd
    if players:
        document["players"] = [odd, "B", "C"]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(document), encoding="ascii")  # the surrogate as the escape "\ud800"
    return path


def render(runner: Any, tree: Path, out: Path, *args: str) -> None:
    result = runner.invoke(app, ["render", str(tree), "-o", str(out), *args])
    assert result.exit_code == 0, result.output


def page_data(html: str) -> dict[str, Any]:
    blob = re.search(r'<script type="application/json" id="gametree-data">(.*?)</script>', html, re.S)
    assert blob is not None
    return json.loads(blob.group(1))


def no_control(text: str) -> bool:
    """Every character printable, apart from the newlines between lines."""
    return all(line.isprintable() for line in text.split("\n"))


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("odd", ODD)
def test_dot_shows_odd_names_escaped(runner, tmp_path: Path, field: str, odd: str) -> None:
    out = tmp_path / "odd.dot"
    render(runner, odd_tree(tmp_path, field, odd), out)
    text = out.read_text(encoding="utf-8")
    assert no_control(text)
    if field == "id":  # an id is shown in its node's annotation, an HTML-like label: a backslash is itself there
        assert f">{escape(printable(odd), quote=False)}<" in text
    else:
        assert printable(odd).replace("\\", "\\\\") in text  # a quoted DOT string doubles the backslash to show it


@needs_dot
@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("odd", ODD[:2])
def test_svg_is_well_formed_xml_showing_the_escaped_name(runner, tmp_path: Path, field: str, odd: str) -> None:
    out = tmp_path / "odd.svg"
    render(runner, odd_tree(tmp_path, field, odd), out)
    svg = ElementTree.parse(out).getroot()  # expat: raises on a control character
    assert any(printable(odd) in text for text in svg.itertext())


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("odd", ODD)
def test_page_data_loads_and_its_drawing_is_xml(runner, tmp_path: Path, field: str, odd: str) -> None:
    out = tmp_path / "odd.html"
    render(runner, odd_tree(tmp_path, field, odd), out)
    html = out.read_text(encoding="utf-8")
    data = page_data(html)
    svg = re.search(r'<svg .*?</svg>', html, re.S)
    assert svg is not None
    drawing = ElementTree.fromstring(svg.group())
    shown = printable(odd)
    page_text = "".join(drawing.itertext()) + data["summary"] + "".join(step[5] for step in data["steps"])
    assert no_control(html)  # the file itself: every name either escaped for eyes or a JSON escape
    if field == "title":
        assert data["title"] == odd and html.count(escape(shown)) >= 2  # the heading and the window's title
    else:
        assert shown in page_text
    if field == "id":
        assert odd in data["ids"] and shown in data["names"]  # kept for answer files, shown escaped
    assert no_control(data["summary"]) and all(no_control(step[5]) for step in data["steps"])


@pytest.mark.parametrize("name", ["<!--<script>", "</script>", "a&b]]>", "x\u2028y\u2029"])
def test_page_json_holds_no_character_a_script_element_reads(runner, tmp_path: Path, name: str) -> None:
    tree = tmp_path / "odd.json"
    tree.write_text(json.dumps({"title": name, "root": {"id": name, "children": [3, 4]}}))
    out = tmp_path / "odd.html"
    render(runner, tree, out)
    html = out.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="gametree-data">(.*?)</script>', html, re.S)
    assert blob is not None and not re.search("[<>&\u2028\u2029]", blob.group(1))
    data = json.loads(blob.group(1))
    assert data["title"] == name and data["ids"][0] == name and len(data["steps"]) == 4  # call, two leaves, return


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("odd", ODD)
def test_latex_shows_odd_names_escaped(runner, tmp_path: Path, field: str, odd: str) -> None:
    out = tmp_path / "odd.tex"
    render(runner, odd_tree(tmp_path, field, odd), out, "--format", "tex")
    text = out.read_text(encoding="utf-8")
    assert no_control(text)
    assert latex_escape(printable(odd)) in text and "\\textbackslash{}" in text


def test_step_slides_are_xml_showing_the_escaped_name(runner, tmp_path: Path) -> None:
    folder = tmp_path / "slides"
    tree = odd_tree(tmp_path, "id", "A\x01B")
    result = runner.invoke(app, ["render", str(tree), "--steps", str(folder), "--format", "svg"])
    assert result.exit_code == 0, result.output
    slides = sorted(folder.iterdir())
    assert slides
    for slide in slides:
        assert "A\\x01B" in "".join(ElementTree.parse(slide).getroot().itertext())


@pytest.mark.parametrize(("text", "escaped"), [
    ("4->5", r"4-\textgreater{}5"),
    ('Zoë <Z> "q"', r"Zoë \textless{}Z\textgreater{} {\ttfamily\char34}q{\ttfamily\char34}"),
    ("a|b", r"a\textbar{}b"),
    ("A\x01B", r"A\textbackslash{}x01B"),
    ("\ud800", r"\textbackslash{}ud800"),
])
def test_latex_escape_writes_what_ot1_prints_as_itself(text: str, escaped: str) -> None:
    assert latex_escape(text) == escaped


@pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("pdftotext") is None,
                    reason="pdflatex or pdftotext is not installed (make latex; poppler-utils)")
def test_backgammon_moves_print_as_written(runner, tmp_path: Path) -> None:
    """The PDF's text says ``3->4``, not ``3-¿4`` (OT1 prints > as ¿ unless escaped)."""
    source = tmp_path / "bg.tex"
    render(runner, TREES / "backgammon-mini.yaml", source, "--format", "tex")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name], cwd=tmp_path,
                          capture_output=True, check=False)
    assert done.returncode == 0, done.stdout.decode("utf-8", "replace")[-2000:]
    text = subprocess.run(["pdftotext", "bg.pdf", "-"], cwd=tmp_path, capture_output=True, check=True).stdout.decode()
    assert "3->4" in text and "best move 4->5" in text and "¿" not in text and "¡" not in text


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make chromium)")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def opened(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_context(accept_downloads=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready=true]", state="attached")
    return page, errors


@needs_browser
@pytest.mark.parametrize("name", ["<!--<script>", "A\x01B", "\ud800"])
def test_page_steps_in_a_browser_with_an_odd_root_id(browser, runner, tmp_path: Path, name: str) -> None:
    """The QA report: with the id ``<!--<script>`` the script never ran (slider 0 steps, no summary)."""
    tree = tmp_path / "odd.json"
    tree.write_text(json.dumps({"title": name, "root": {"id": name, "children": [3, 4]}}))
    out = tmp_path / "odd.html"
    render(runner, tree, out)
    page, errors = opened(browser, out)
    assert page.get_attribute("#slider", "max") == "3"  # call, two leaves, return: steps 0..3
    assert f"best move {printable(name)}.2" in page.text_content("#summary")
    page.keyboard.press("End")
    assert page.text_content("#tree .node .val") == "4" and not errors


@needs_browser
def test_page_answer_file_keeps_a_lone_surrogate_id_and_passes_check(browser, runner, tmp_path: Path) -> None:
    """The page shows ``\\ud800``; the answer file it downloads names the node as the tree does."""
    tree = tmp_path / "odd.json"
    tree.write_text(json.dumps({"root": {"id": "\ud800", "children": [1, 2]}}))
    out = tmp_path / "odd.html"
    render(runner, tree, out)
    page, errors = opened(browser, out)
    page.click("#mode-practice")
    assert page.text_content("#answers tbody tr td") == "▲ \\ud800"
    key = page_data(out.read_text(encoding="utf-8"))["practice"]["nodes"][0]  # the root's value and window
    for field in ("value", "alpha", "beta"):
        page.fill(f'#answers input[data-field="{field}"]', key[field])
    with page.expect_download() as info:
        page.click("#download")
    answers = tmp_path / "odd.answers.json"
    info.value.save_as(answers)
    assert "\\ud800" in answers.read_text(encoding="utf-8")  # JSON.stringify writes the lone surrogate escaped
    result = runner.invoke(app, ["check", str(answers)])
    assert result.exit_code == 0, result.output
    assert not errors
