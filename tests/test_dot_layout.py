"""The Graphviz pictures as laid out: no edge runs through an annotation, no annotation covers another.

Checked from outside: the DOT text ``render`` writes is laid out by the real
``dot -Tjson``, and every edge's spline (its Bézier pieces, sampled about a
point apart) is tested against every annotation's text box (a node's id,
window and cut note; edge labels; the heading), and the annotations'
boxes against each other and against the nodes; and each node's annotation
must sit right beside it, on its left, nothing between (:mod:`.dot_geometry`).
Trees: every shipped tree with every algorithm that fits it, blank and in
Spanish, and random two-player, chance and max-n trees of 17 to 85 nodes,
searched with and without cuts. Before annotations were nodes of their own
(they were ``xlabel``\\ s, placed after the layout), the course tree alone
had eight faults: A→D's edge through D's note, A→B's through C's, ...
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.generate.random_tree import RandomTreeSpec, random_tree
from gametree_cli.io.document import build_tree
from gametree_cli.io.loader import load_tree
from gametree_cli.search.record import SearchRecord
from gametree_cli.search.registry import fitting_algorithms, solve
from gametree_cli.views.dot import render_dot

from .conftest import TREES
from .dot_geometry import Box, Layout, lay_out, problems, read_layout, strays

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed (make test installs it with apt-get "
                                                   "where it can): the layout of the pictures cannot be checked")
SHIPPED = sorted(TREES.glob("*.yaml"))


def _faults(record: SearchRecord, **options: object) -> list[str]:
    assert DOT is not None
    layout = lay_out(DOT, render_dot(record, **options))  # type: ignore[arg-type]
    return problems(layout) + strays(layout)


@needs_dot
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_no_edge_crosses_an_annotation_in_the_shipped_trees(path: Path) -> None:
    tree = load_tree(path)
    for algorithm in fitting_algorithms(tree):
        record = solve(tree, algorithm)
        assert _faults(record) == [], algorithm
    record = solve(tree)
    assert _faults(record, blank=True) == []
    assert _faults(record, lang="es") == []


@needs_dot
def test_no_edge_crosses_an_annotation_under_other_search_options() -> None:
    course = load_tree(TREES / "course.yaml")
    for options in ({"variant": "hard", "strict": True}, {"variant": "practical"}, {"order": "best"}, {"order": "worst"}):
        assert _faults(solve(course, "alphabeta", **options), lang="es") == [], options  # type: ignore[arg-type]
    limited = solve(load_tree(TREES / "depth-limited.yaml"), "minimax", depth=1)  # "(eval)" notes, dotted nodes
    assert _faults(limited) == []


def _random_cases() -> list[Any]:
    """Ten random trees each of two-player, chance and max-n kinds (17 to 85 nodes), and which of
    their fitting algorithms to use: a different one from tree to tree, so cuts come and go."""
    specs = []
    for seed in range(10):
        specs.append(RandomTreeSpec(depth=3 + seed % 2, branching=(2, 3), seed=seed))
        specs.append(RandomTreeSpec(depth=4, branching=(2, 3), seed=seed, chance=True))
        specs.append(RandomTreeSpec(depth=3, branching=(2, 4), seed=seed, players=3))
    return [pytest.param(spec, spec.seed, id=spec.title().removeprefix("random tree ")) for spec in specs]


@needs_dot
@pytest.mark.parametrize(("spec", "pick"), _random_cases())
def test_no_edge_crosses_an_annotation_in_random_trees(spec: RandomTreeSpec, pick: int) -> None:
    tree = build_tree(random_tree(spec))
    assert 15 <= len(tree) <= 120, len(tree)
    fitting = fitting_algorithms(tree)
    record = solve(tree, fitting[pick % len(fitting)])
    assert _faults(record) == [], record.algorithm
    assert _faults(record, blank=pick % 3 == 0, lang="es" if pick % 2 else "en") == []


def test_the_checker_sees_an_edge_through_a_note_and_notes_on_each_other() -> None:
    """The checker can fail: a hand-made layout with an edge across a note and two notes overlapping."""
    text = {"op": "T", "align": "c", "width": 40.0}
    graph = {
        "objects": [
            {"_gvid": 0, "name": "n0", "shape": "box", "pos": "50,100", "width": "0.4", "height": "0.4",
             "_ldraw_": [{"op": "F", "size": 12.0}, {**text, "pt": [50, 96], "text": "3"}]},
            {"_gvid": 1, "name": "n1", "shape": "box", "pos": "50,0", "width": "0.4", "height": "0.4",
             "_ldraw_": [{**text, "pt": [50, 50], "text": "an xlabel in the way"}]},
            {"_gvid": 2, "name": "a1", "shape": "plain", "pos": "60,52", "width": "0.5", "height": "0.2",
             "_ldraw_": [{**text, "pt": [62, 48], "text": "a note"}]},
        ],
        "edges": [{"tail": 0, "head": 1, "_draw_": [{"op": "b", "points": [[50, 85], [50, 60], [50, 40], [50, 15]]}]},
                  {"tail": 2, "head": 1, "style": "invis", "_draw_": []}],
    }
    layout = read_layout(graph)
    assert [box.what for box in layout.nodes] == ["node n0", "node n1"]  # "3" is inside n0: not a note
    found = problems(layout)
    assert "edge n0->n1 runs through n1's text 'an xlabel in the way'" in found
    assert "edge n0->n1 runs through a1's text 'a note'" in found
    assert "n1's text 'an xlabel in the way' overlaps a1's text 'a note'" in found
    clear = Layout([Box(60, 40, 90, 55, "a1", "note")], [], {"n0->n1": [(50.0, y) for y in range(0, 100)]})
    assert problems(clear) == []  # beside the edge, not on it


def test_the_checker_sees_a_note_away_from_its_node() -> None:
    node = Box(100, 0, 130, 30, "n1", "node n1")
    beside = Layout([Box(60, 10, 93, 22, "a1", "a1's note")], [node], {})
    assert strays(beside) == []
    far = Layout([Box(20, 10, 53, 22, "a1", "a1's note")], [node], {})
    assert strays(far) == ["a1's note is not beside node n1: 47.0 points to its left"]
    right = Layout([Box(140, 10, 173, 22, "a1", "a1's note")], [node], {})
    assert strays(right)  # on the wrong side
    between = Layout([Box(60, 10, 93, 22, "a1", "a1's note"), Box(94, 12, 99, 20, "n0->n1", "a label")], [node], {})
    assert strays(between) == ["a label is between a1's note and node n1"]
