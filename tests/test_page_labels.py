"""The page's texts as a person sees them: measured in Debian's Chromium (Playwright, never a downloaded
browser), at a few steps of each search.

From outside: the test reads the drawn SVG (each text's box from getBBox and
its screen matrix, each edge's line and stroke) and checks that no edge runs
through an edge's label, an id or an α/β window, that the current node's ring
covers neither its id nor its window, that the pruning test's pill covers no
text (it may cover edges: it is opaque and framed, drawn over them), and that a
node's value stays inside its shape.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gametree_cli.generate.random_tree import RandomTreeSpec, random_tree
from gametree_cli.io.document import build_tree
from gametree_cli.io.loader import load_tree
from gametree_cli.search.events import Recorder
from gametree_cli.search.registry import solve
from gametree_cli.views.page import render_page

from .conftest import CHROMIUM, TREES

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it with apt-get where it can)")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

READ = """() => {
  const svg = document.getElementById('tree'), back = svg.getScreenCTM().inverse();
  const box = (el) => {
    const b = el.getBBox(), m = back.multiply(el.getScreenCTM());
    const xs = [], ys = [];
    for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
      const p = new DOMPoint(x, y).matrixTransform(m); xs.push(p.x); ys.push(p.y);
    }
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  };
  const shown = (el) => el.textContent.trim() && getComputedStyle(el).visibility !== 'hidden';
  const texts = [];
  for (const node of svg.querySelectorAll('.node')) {
    for (const cls of ['name', 'win', 'more'])
      for (const el of node.querySelectorAll('.' + cls)) if (shown(el)) texts.push([cls, node.dataset.node, box(el)]);
  }
  for (const el of svg.querySelectorAll('.edge .move')) if (shown(el)) texts.push(['move', el.parentNode.dataset.edge, box(el)]);
  const edges = [...svg.querySelectorAll('.edge line:not(.hit)')].map((line) => [line.parentNode.dataset.edge,
    ...['x1', 'y1', 'x2', 'y2'].map((a) => +line.getAttribute(a)), parseFloat(getComputedStyle(line).strokeWidth)]);
  const pills = [...svg.querySelectorAll('.test')].filter((g) => g.getAttribute('visibility') !== 'hidden')
    .map((g) => [g.parentNode.dataset.node, box(g.querySelector('rect'))]);
  const current = svg.querySelector('.node[data-state="current"]');
  const ring = current ? [current.dataset.node, box(current.querySelector('.halo'))] : null;
  const values = [...svg.querySelectorAll('.node')].filter((n) => n.querySelector('.val').textContent)
    .map((n) => [n.dataset.node, box(n.querySelector('.val')), box(n.querySelector('.shape'))]);
  return {texts, edges, pills, ring, values};
}"""


def _meets(a: list[float], b: list[float], air: float = 0.0) -> bool:
    return a[0] < b[2] + air and b[0] < a[2] + air and a[1] < b[3] + air and b[1] < a[3] + air


def _crosses(edge: list[Any], box: list[float]) -> bool:
    """Samples the line every half pixel: a point within half the stroke of the box is a crossing."""
    _name, x1, y1, x2, y2, width = edge
    steps = max(1, int(max(abs(x2 - x1), abs(y2 - y1)) * 2))
    half = width / 2
    for k in range(steps + 1):
        x, y = x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps
        if box[0] - half < x < box[2] + half and box[1] - half < y < box[3] + half:
            return True
    return False


def faults(drawing: dict[str, Any]) -> list[str]:
    """Everything a reader would find covered in one step's drawing."""
    found = []
    for kind, owner, box in drawing["texts"]:
        found += [f"edge to {edge[0]} crosses {kind} of {owner}" for edge in drawing["edges"] if _crosses(edge, box)]
    for owner, pill in drawing["pills"]:  # an opaque box: edges may run under it, no text may
        found += [f"the test of {owner} covers {kind} of {who}" for kind, who, box in drawing["texts"] if _meets(pill, box)]
    if drawing["ring"]:
        owner, ring = drawing["ring"]
        found += [f"the ring covers {kind} of {owner}" for kind, who, box in drawing["texts"]
                  if who == owner and kind in ("name", "win") and _meets(ring, box)]
    for owner, value, shape in drawing["values"]:
        if value[0] < shape[0] - 1 or value[2] > shape[2] + 1:
            found.append(f"the value of {owner} spills out of its shape")
    return found


def _walk(browser, tmp_path: Path, tree, algo: str, lang: str) -> list[str]:
    recorder = Recorder()
    record = solve(tree, algo, observer=recorder)
    path = tmp_path / f"{algo}-{lang}.html"
    path.write_text(render_page(record, recorder.events, lang=lang), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready=true]", state="attached")
    last = int(page.evaluate("() => JSON.parse(document.getElementById('gametree-data').textContent).steps.length")) - 1
    found = []
    for step in sorted({0, 1, last // 3, last // 2, 2 * last // 3, last - 1, last}):
        page.evaluate(f"() => {{ location.hash = 'step={step}'; }}")
        page.wait_for_selector(f"body[data-step='{step}']", state="attached")
        found += [f"step {step}: {fault}" for fault in faults(page.evaluate(READ))]
    page.close()
    return found


@pytest.mark.parametrize(("tree_file", "algo", "lang"), [
    ("dice.yaml", "star1", "en"), ("dice.yaml", "expectiminimax", "es"), ("course.yaml", "alphabeta", "es"),
    ("aima-5-2.yaml", "alphabeta", "en"), ("shallow-sum9.yaml", "shallow", "es"), ("maxn-3players.yaml", "maxn", "en"),
])
def test_no_text_is_covered_in_the_shipped_trees(browser, tmp_path: Path, tree_file: str, algo: str, lang: str) -> None:
    assert _walk(browser, tmp_path, load_tree(TREES / tree_file), algo, lang) == []


@pytest.mark.parametrize("spec", [
    RandomTreeSpec(depth=3, branching=(3, 4), seed=5), RandomTreeSpec(depth=4, branching=(2, 3), seed=7, chance=True),
    RandomTreeSpec(depth=3, branching=(2, 5), seed=11),
], ids=lambda spec: spec.title().removeprefix("random tree "))
def test_no_text_is_covered_in_random_trees(browser, tmp_path: Path, spec: RandomTreeSpec) -> None:
    tree = build_tree(random_tree(spec))
    assert 20 <= len(tree) <= 130, len(tree)
    algo = "star1" if spec.chance else "alphabeta"
    assert _walk(browser, tmp_path, tree, algo, "es" if spec.seed % 2 else "en") == []


def test_the_checker_sees_a_crossing_a_covered_id_and_a_spilled_value() -> None:
    """The checker can fail: an edge through a label, a ring over an id, a pill over a window."""
    drawing = {"texts": [["move", "B", [10, 10, 30, 20]], ["name", "A", [40, 40, 50, 50]], ["win", "C", [100, 0, 120, 10]]],
               "edges": [["B", 0, 0, 30, 30, 2.0]], "pills": [["C", [90, 5, 200, 30]]], "ring": ["A", [45, 30, 80, 60]],
               "values": [["A", [0, 0, 50, 10], [10, 0, 40, 20]]]}
    assert faults(drawing) == ["edge to B crosses move of B", "the test of C covers win of C", "the ring covers name of A",
                               "the value of A spills out of its shape"]
