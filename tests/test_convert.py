"""Writing trees back out: tree_to_document, the YAML/JSON/compact/EFG writers, `gametree convert`.

The reference here is this file's own reading of the contract (``canonical``
below, a plain recursive walk over raw documents): a written file must mean
exactly what the document it came from meant, node by node.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli.cli.app import app
from gametree_cli.core.errors import GameTreeError
from gametree_cli.io.document import build_tree
from gametree_cli.io.document_text import BLOCK_DEPTH, document_to_json, document_to_yaml
from gametree_cli.io.document_writer import (
    compact_text,
    efg_text,
    json_text,
    tree_to_document,
    yaml_text,
)
from gametree_cli.io.efg import read_efg
from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.io.yaml_reader import YAML_MAX_DEPTH, YAML_MAX_PLIES
from gametree_cli.io.saver import save_tree
from gametree_cli.io.schema import tree_schema

from .conftest import ROOT, TREES, shared_or_skip

GAMETREE = [sys.executable, "-m", "gametree_cli"]


# -- an independent reading of documents ----------------------------------------


def number(raw: Any) -> Any:
    """Exact numbers as Fraction, decimals as ("decimal", float): 2 and 2.0 differ."""
    assert not isinstance(raw, bool), raw
    if isinstance(raw, (int, Fraction)):
        return Fraction(raw)
    if isinstance(raw, float):
        return ("decimal", raw)
    assert isinstance(raw, str), raw
    text = raw.strip()
    if "/" in text:
        numerator, denominator = text.split("/")
        return Fraction(int(numerator), int(denominator))
    if any(mark in text for mark in ".eE"):
        return ("decimal", float(text))
    return Fraction(int(text))


def value_of(raw: Any) -> Any:
    if isinstance(raw, list):
        return tuple(number(part) for part in raw)
    return number(raw)


def canonical(document: Any, *, with_eval: bool = True) -> tuple[Any, ...]:
    """(title, players, vectors, [node...]) with every default of contract section 1 made explicit.

    A node is ``(id, move, kind, p, value, eval, random)`` in preorder; kind is
    "leaf", "max", "min", "chance" or a player index.
    """
    title, players, vectors, root = None, ["MAX", "MIN"], False, document
    if isinstance(document, dict) and "root" in document:
        title = document.get("title")
        players = [str(name) for name in document.get("players") or players]
        vectors = len(players) > 2 or document.get("general_sum") is True
        root = document["root"]
    nodes: list[tuple[Any, ...]] = []

    def walk(raw: Any, node_id: str, decider: Any, p: Any, child_prefix: str | None = None) -> None:
        mapping = raw if isinstance(raw, dict) else {}
        if isinstance(raw, dict):
            if raw.get("id") is not None:
                node_id = str(raw["id"])
            children = raw.get("children")
        elif isinstance(raw, list) and not (vectors and all(not isinstance(part, (list, dict)) for part in raw)):
            children = raw
        else:
            children = None
        move = str(mapping["move"]) if mapping.get("move") is not None else node_id
        if child_prefix is None and not nodes:
            move = None  # the root has no incoming edge: a move there means nothing
        if mapping.get("p") is not None:
            p = number(mapping["p"])
        if children is None:
            value = value_of(mapping["value"] if isinstance(raw, dict) else raw)
            nodes.append((node_id, move, "leaf", p, value, None, None))
            return
        declared = mapping.get("type")
        if declared == "chance":
            kind: Any = "chance"
        elif mapping.get("player") is not None:
            given = mapping["player"]
            index = given if isinstance(given, int) else players.index(str(given))
            kind = index if vectors else ("max" if index == 0 else "min")
        elif declared is not None:
            kind = declared
        elif vectors:
            kind = 0 if decider is None else (decider + 1) % len(players)
        else:
            kind = "min" if decider == "max" else "max"
        evaluation = value_of(mapping["eval"]) if with_eval and mapping.get("eval") is not None else None
        random = number(mapping["random"]) if with_eval and mapping.get("random") is not None else None
        nodes.append((node_id, move, kind, p, None, evaluation, random))
        next_decider = decider if kind == "chance" else kind
        given_p = [isinstance(child, dict) and child.get("p") is not None for child in children]
        uniform = None if any(given_p) else Fraction(1, len(children))
        prefix = "" if (node_id == "root" and mapping.get("id") is None) else node_id + "."
        for position, child in enumerate(children, start=1):
            walk(child, f"{prefix}{position}", next_decider, uniform if kind == "chance" else None)

    walk(root, "root", None, None)
    return title, players, vectors, nodes


# -- random documents -------------------------------------------------------------

TRICKY = ["a1", "left", "a b", "x: y", "yes", "No", "null", "1.10", "007", "#c", '"q"', "it's", "é ñ", "-", "[x]",
          "{y}", "a,b", "3->5", "~", "back\\slash", "tab\there", "*star", "&amp", "!bang", "%pc", "@at", "line\nbreak"]


def exact_number() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(-40, 40),
        st.tuples(st.integers(-40, 40), st.integers(2, 9)).map(lambda t: f"{t[0]}/{t[1]}"),
    )


def any_number() -> st.SearchStrategy[Any]:
    return st.one_of(exact_number(), st.integers(-4000, 4000).map(lambda n: n / 100), st.sampled_from([0.5, 1e-05, -2.5e-07, 3.0]))


@st.composite
def documents(draw: Any, *, allow_eval: bool = True, allow_general_sum: bool = True, labels: list[str] = TRICKY) -> Any:
    """A random valid tree document: two-player (max/min/chance, typed or not) or n-player."""
    style = draw(st.sampled_from(["two", "two", "nplayer", "general"] if allow_general_sum else ["two", "two", "nplayer"]))
    n_players = {"two": 2, "general": 2, "nplayer": draw(st.integers(3, 4))}[style]
    vectors = style != "two"
    counter = iter(range(10_000))

    def leaf_value() -> Any:
        if vectors:
            return [draw(any_number()) for _ in range(n_players)]
        return draw(any_number())

    def node(depth: int) -> Any:
        named = draw(st.booleans())
        keys: dict[str, Any] = {}
        if named:
            keys["id"] = f"N{next(counter)}"
        if draw(st.integers(0, 3)) == 0:
            keys["move"] = draw(st.sampled_from(labels))
        if depth >= 3 or draw(st.integers(0, 2)) == 0:
            value = leaf_value()
            if not keys and draw(st.booleans()):
                return value
            keys["value"] = value
            return keys
        kind = draw(st.sampled_from(["untyped", "untyped", "chance", "typed"]))
        n_children = draw(st.integers(1, 3))
        children = [node(depth + 1) for _ in range(n_children)]
        if kind == "chance":
            keys["type"] = "chance"
            if draw(st.booleans()):
                weights = [draw(st.integers(1, 5)) for _ in children]
                total = sum(weights)
                for position, child in enumerate(children):
                    if not isinstance(child, dict):
                        child = children[position] = {"value": child} if not isinstance(child, list) or vectors else {"children": child}
                    share = Fraction(weights[position], total)
                    child["p"] = share.numerator if share.denominator == 1 else f"{share.numerator}/{share.denominator}"
        elif kind == "typed":
            if vectors:
                keys["player"] = draw(st.one_of(st.integers(0, n_players - 1), st.sampled_from([f"P{i}" for i in range(n_players)])))
            else:
                keys["type"] = draw(st.sampled_from(["max", "min"]))
        if allow_eval and kind != "chance" and draw(st.integers(0, 3)) == 0:
            keys["eval"] = leaf_value()
        if allow_eval and kind != "chance" and not vectors and draw(st.integers(0, 5)) == 0:
            keys["random"] = draw(st.sampled_from([0, 1, "1/3", 0.25]))
        if not keys and draw(st.booleans()) and not vectors:
            return children  # a compact subtree
        keys["children"] = children
        return keys

    document: dict[str, Any] = {}
    if draw(st.booleans()):
        document["title"] = draw(st.sampled_from(labels + ["AIMA figure 5.2", "Ejemplo de poda (curso)"]))
    if vectors:
        document["players"] = [f"P{i}" for i in range(n_players)]
    elif draw(st.booleans()):
        document["players"] = draw(st.sampled_from([["MAX", "MIN"], ["X", "O"], ["yes", "no"]]))
    if style == "general":
        document["general_sum"] = True
    document["root"] = node(0)
    return document


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(documents())
def test_tree_to_document_means_the_same_tree(document: Any) -> None:
    written = tree_to_document(build_tree(document))
    assert canonical(written) == canonical(document)


@SETTINGS
@given(documents())
def test_yaml_and_json_files_read_back_the_same(document: Any) -> None:
    tree = build_tree(document)
    expected = canonical(document)
    as_yaml = yaml_text(tree)
    as_json = json_text(tree)
    assert canonical(yaml.safe_load(as_yaml)) == expected, as_yaml
    assert canonical(json.loads(as_json)) == expected, as_json
    # and through the loader, which is what a user's next command does
    assert canonical(tree_to_document(parse_tree(as_yaml, fmt="yaml"))) == expected
    assert canonical(tree_to_document(parse_tree(as_json, fmt="json"))) == expected


@SETTINGS
@given(documents())
def test_written_documents_validate_against_the_schema(document: Any) -> None:
    validator = jsonschema.Draft202012Validator(tree_schema())
    written = json.loads(json_text(build_tree(document)))
    errors = sorted(validator.iter_errors(written), key=str)
    assert not errors, errors[0]


@SETTINGS
@given(documents(allow_eval=False, allow_general_sum=False))
def test_efg_round_trip_keeps_ids_moves_probabilities_and_values(document: Any) -> None:
    tree = build_tree(document)
    text = efg_text(tree)
    back = read_efg(text, "<written>")
    assert canonical(back) == canonical(document), text
    assert canonical(tree_to_document(parse_tree(text, fmt="efg"))) == canonical(document)


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.integers(-20, 20), lambda inner: st.lists(inner, min_size=1, max_size=3), max_leaves=12))
def test_compact_trees_stay_compact(compact: Any) -> None:
    tree = build_tree(compact)
    text = compact_text(tree)
    assert json.loads(text) == compact
    assert yaml.safe_load(text) == compact
    assert yaml.safe_load(yaml_text(tree)) == {"root": compact}


def test_what_the_writers_write_by_hand() -> None:
    tree = load_tree(TREES / "aima-5-2.yaml")
    assert yaml_text(tree).splitlines()[:8] == [
        "title: AIMA figure 5.2",
        "root:",
        "  id: A",
        "  type: max",
        "  children:",
        "    - id: B",
        "      move: a1",
        "      children: [3, 12, 8]",
    ]
    document = {"title": "x: y", "players": ["A", "B", "C"], "root": {"player": "B", "children": [[1, "7/3", 0.25], {"id": "yes", "value": [1, 2, 3]}]}}
    text = document_to_yaml(tree_to_document(build_tree(document)))
    assert 'title: "x: y"' in text
    assert '[1, "7/3", 0.25]' in text
    assert 'id: "yes"' in text
    assert "player: B" in text
    assert yaml.safe_load(text) == {"title": "x: y", "players": ["A", "B", "C"],
                                    "root": {"player": "B", "children": [[1, "7/3", 0.25], {"id": "yes", "value": [1, 2, 3]}]}}


def test_uniform_chance_leaves_out_p_but_keeps_decimal_and_unequal_ones() -> None:
    uniform = tree_to_document(build_tree({"root": {"type": "chance", "children": [{"p": "1/2", "value": 1}, {"p": "1/2", "value": 3}]}}))
    assert uniform["root"] == {"type": "chance", "children": [1, 3]}
    decimal = tree_to_document(build_tree({"root": {"type": "chance", "children": [{"p": 0.5, "value": 1}, {"p": 0.5, "value": 3}]}}))
    assert decimal["root"]["children"] == [{"p": 0.5, "value": 1}, {"p": 0.5, "value": 3}]
    unequal = tree_to_document(build_tree({"root": {"type": "chance", "children": [{"p": "1/3", "value": 1}, {"p": "2/3", "value": 3}]}}))
    assert unequal["root"]["children"] == [{"p": "1/3", "value": 1}, {"p": "2/3", "value": 3}]


def chain(depth: int) -> Any:
    """A chain ``depth`` plies deep in the form that nests deepest in YAML: three players (their
    turns rotate), so the deepest leaf's value is a list, inside the mapping its id needs."""
    document: dict[str, Any] = {"id": "end", "value": [7, 0, 1]}
    for _ in range(depth):
        document = {"children": [document]}
    return build_tree({"players": ["A", "B", "C"], "root": document})


def test_a_100000_deep_chain_is_written_and_read_back() -> None:
    """Writers never recurse and keep indentation bounded; both files read back (JSON in a
    blink; YAML past libyaml's 1,000 levels with PyYAML's pure-Python parser, ~3 s). The
    deepest YAML gametree reads is exactly the deepest tree it is documented to read: a
    100,000-ply chain with ids was written and then refused (QA: 200,002 levels, the limit
    was 200,000), and one ply more is refused."""
    depth = YAML_MAX_PLIES
    assert depth == 100_000  # docs/formats.md, docs/limits.md
    tree = chain(depth)
    as_yaml, as_json = yaml_text(tree), json_text(tree)
    for text in (as_yaml, as_json):
        assert max(len(line) - len(line.lstrip()) for line in text.splitlines()) <= 82  # bounded indentation
    for text, fmt in ((as_json, "json"), (as_yaml, "yaml")):
        back = parse_tree(text, fmt=fmt)
        assert len(back) == len(tree) == depth + 1
        assert list(back.kind) == list(tree.kind)
        assert back.value == tree.value and back.value[depth] == (7, 0, 1)
        assert back.node_id(depth) == "end"
    with pytest.raises(GameTreeError, match=f"nests deeper than {YAML_MAX_DEPTH:,} levels"):
        parse_tree(yaml_text(chain(depth + 1)), fmt="yaml")


@pytest.mark.parametrize("depth", [BLOCK_DEPTH - 2, BLOCK_DEPTH - 1, BLOCK_DEPTH, BLOCK_DEPTH + 1, 3 * BLOCK_DEPTH])
def test_named_chains_cross_the_block_depth_in_yaml_and_json(depth: int) -> None:
    """Mappings all the way down: the switch from block to flow style must stay valid at every level."""
    document: Any = {"id": "leaf", "value": 1}
    for level in range(depth):
        document = {"id": f"N{level}", "move": "a b", "children": [document, {"id": f"L{level}", "value": level}]}
    expected = canonical({"root": document})
    tree = build_tree({"root": document})
    assert canonical(yaml.safe_load(yaml_text(tree))) == expected
    assert canonical(json.loads(json_text(tree))) == expected


# -- compact refusals ------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "why"),
    [
        ({"title": "T", "root": [[1, 2], [3]]}, "the title 'T'"),
        ({"players": ["X", "O"], "root": [1, 2]}, "the player names X, O"),
        ({"root": {"id": "A", "children": [1, 2]}}, "the id 'A'"),
        ({"root": {"children": [{"move": "m", "value": 1}]}}, "the move 'm'"),
        ({"root": {"type": "chance", "children": [1, 2]}}, "a chance node"),
        ({"root": {"type": "min", "children": [1, 2]}}, "a min node that does not alternate"),
        ({"root": {"eval": 3, "children": [1, 2]}}, "an eval"),
        ({"players": ["A", "B", "C"], "root": [[1, 2, 3]]}, "a 3-player tree"),
    ],
)
def test_compact_refuses_what_a_nested_list_cannot_hold(document: Any, why: str) -> None:
    with pytest.raises(GameTreeError, match="the compact form") as caught:
        compact_text(build_tree(document))
    assert why in str(caught.value)


# -- shipped trees and Gambit samples ---------------------------------------------


@pytest.mark.parametrize("path", sorted(TREES.glob("*.y*ml")) + sorted(TREES.glob("*.json")), ids=lambda path: path.name)
def test_every_shipped_tree_converts_to_yaml_and_json_and_back(path: Path) -> None:
    original = yaml.safe_load(path.read_text(encoding="utf-8"))
    tree = load_tree(path)
    assert canonical(yaml.safe_load(yaml_text(tree))) == canonical(original)
    assert canonical(json.loads(json_text(tree))) == canonical(original)


def _gambit_samples() -> list[Path]:
    folder = ROOT.parent / "shared" / "data" / "gambit"
    return sorted(folder.glob("*.efg")) if folder.exists() else []


@pytest.mark.parametrize("name", [path.name for path in _gambit_samples()] or ["(absent)"])
def test_gambit_samples_convert_to_yaml_with_the_same_solution(name: str, tmp_path: Path) -> None:
    from gametree_cli.search.registry import solve

    path = shared_or_skip("data", "gambit", name)
    try:
        tree = load_tree(path)
    except GameTreeError as error:
        assert "imperfect information" in str(error)  # cent2: refused, with its reason
        return
    target = tmp_path / "game.yaml"
    save_tree(tree, target)
    again = load_tree(target)
    assert canonical(tree_to_document(again)) == canonical(tree_to_document(tree))
    assert solve(again).value == solve(tree).value
    # EFG -> EFG is stable after one pass (names, labels, payoffs, probabilities)
    first = efg_text(tree)
    assert efg_text(parse_tree(first, fmt="efg")) == first


# -- the command -------------------------------------------------------------------


def test_convert_by_extension_and_refusals(runner: Any, tmp_path: Path) -> None:
    source = TREES / "aima-5-2.yaml"
    out = tmp_path / "aima.json"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert canonical(json.loads(out.read_text())) == canonical(yaml.safe_load(source.read_text()))
    mode = stat.S_IMODE(os.stat(out).st_mode)
    assert mode & 0o044, oct(mode)  # not a private temporary file

    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 2
    assert f"{out}: already exists (use --force to replace it)" in result.output

    result = runner.invoke(app, ["convert", str(out), "-o", str(out), "--force"])
    assert result.exit_code == 2
    assert f"{out}: refusing to overwrite an input file" in result.output

    efg = tmp_path / "aima.efg"
    result = runner.invoke(app, ["convert", str(out), "-o", str(efg)])
    assert result.exit_code == 0, result.output
    assert efg.read_text().startswith('EFG 2 R "AIMA figure 5.2" { "MAX" "MIN" }')

    result = runner.invoke(app, ["convert", str(efg), "-o", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert canonical(json.loads(out.read_text())) == canonical(yaml.safe_load(source.read_text()))

    result = runner.invoke(app, ["convert", str(source), "-o", str(tmp_path / "x.txt")])
    assert result.exit_code == 2
    assert "cannot tell the output format from the extension of" in result.output
    listed = result.output.split("give --to (")[1]
    assert all(name in listed for name in ("compact", "efg", "json", "yaml")), result.output


def test_convert_compact_to_stdout_and_its_refusal(runner: Any, tmp_path: Path) -> None:
    compact = tmp_path / "c.json"
    compact.write_text("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n")
    result = runner.invoke(app, ["convert", str(compact), "-o", "-", "--to", "compact"])
    assert result.exit_code == 0, result.output
    assert result.output == "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"
    result = runner.invoke(app, ["convert", str(compact), "-o", "-", "--to", "yaml"])
    assert result.output == "root: [[3, 12, 8], [2, 4, 6], [14, 5, 2]]\n"

    target = tmp_path / "out.json"
    result = runner.invoke(app, ["convert", str(TREES / "aima-5-2.yaml"), "-o", str(target), "--to", "compact"])
    assert result.exit_code == 2
    assert "the compact form (a nested list) cannot keep the title 'AIMA figure 5.2'" in result.output
    assert not target.exists()
    assert not [path for path in tmp_path.iterdir() if path.name.startswith(".")]  # no temporary left over


def test_convert_to_efg_notes_what_it_leaves_out(runner: Any, tmp_path: Path) -> None:
    result = runner.invoke(app, ["convert", str(TREES / "depth-limited.yaml"), "-o", str(tmp_path / "d.efg")])
    assert result.exit_code == 0, result.output
    assert "note: the .efg format has no place for eval (7 nodes); left out" in result.output


def test_convert_bad_input_is_one_line(runner: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.efg"
    bad.write_text('EFG 2 R "x" { "A" "B" }\n""\np "" 1 1 "" { "a" } 0\np "" 1 1 "" { "b" } 0\nt "" 1 "" { 1 -1 }\n')
    result = runner.invoke(app, ["convert", str(bad), "-o", str(tmp_path / "x.yaml")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{bad}:4: ") and "imperfect information" in lines[0], result.output
    assert not (tmp_path / "x.yaml").exists()


def test_convert_in_a_real_process_reads_efg_from_standard_input(tmp_path: Path) -> None:
    text = efg_text(load_tree(TREES / "aima-5-2.yaml"))
    done = subprocess.run(GAMETREE + ["convert", "-", "-o", "-", "--to", "json"], input=text, capture_output=True,
                          text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert canonical(json.loads(done.stdout)) == canonical(yaml.safe_load((TREES / "aima-5-2.yaml").read_text()))


def test_save_tree_with_a_writer_of_its_own_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered writer (e.g. a binary format) writes a temporary file that replaces the target."""
    from gametree_cli.io import loader

    seen: list[Path] = []

    def writer(tree: Any, path: Path) -> None:
        seen.append(path)
        assert not path.exists()
        path.write_bytes(b"BIN" + bytes([len(tree)]))

    monkeypatch.setitem(loader.TREE_WRITERS, "fake", writer)
    target = tmp_path / "t.bin"
    target.write_bytes(b"old")
    tree = load_tree(TREES / "aima-5-2.yaml")
    with pytest.raises(GameTreeError, match="already exists"):
        save_tree(tree, target, fmt="fake")
    save_tree(tree, target, fmt="fake", force=True)
    assert target.read_bytes() == b"BIN" + bytes([13])
    assert tmp_path in seen[0].parents and seen[0] != target  # written beside it, then renamed
    assert sorted(path.name for path in tmp_path.iterdir()) == ["t.bin"]


def test_document_writers_take_plain_documents() -> None:
    document = {"title": "t", "root": {"children": [{"children": [1, "1/3"]}, 2.5]}}
    assert yaml.safe_load(document_to_yaml(document)) == document
    assert json.loads(document_to_json(document)) == document


# -- cross-check with Gambit itself (pygambit, when installed) -------------------------


def _gambit_value(game: Any) -> Any:
    """Backward induction over pygambit's own reading of a written file: payoff vectors
    (Fractions), chance nodes averaged with Gambit's probabilities, ties to the first action."""
    players = list(game.players)

    def payoff(node: Any) -> tuple[Fraction, ...]:
        outcome = node.outcome
        return tuple(Fraction(str(outcome[player])) if outcome is not None else Fraction(0) for player in players)

    results: dict[Any, tuple[Fraction, ...]] = {}
    stack: list[tuple[Any, bool]] = [(game.root, False)]
    while stack:
        node, expanded = stack.pop()
        if node.is_terminal:
            results[node] = payoff(node)
            continue
        children = list(node.children)
        if not expanded:
            stack.append((node, True))
            stack.extend((child, False) for child in children)
            continue
        values = [results[child] for child in children]
        if node.player.is_chance:
            probabilities = [Fraction(str(action.prob)) for action in node.infoset.actions]
            results[node] = tuple(sum(p * value[i] for p, value in zip(probabilities, values)) for i in range(len(players)))
        else:
            mover = players.index(node.player)
            best = values[0]
            for value in values[1:]:
                if value[mover] > best[mover]:
                    best = value
            results[node] = best
    return results[game.root]


#: Gambit 16 accepts labels of printable ASCII only, without leading, trailing or double spaces.
GAMBIT_LABELS = [label for label in TRICKY if label.isascii() and label.isprintable() and label == label.strip() and "  " not in label]


@settings(max_examples=150, deadline=None)
@given(documents(allow_eval=False, allow_general_sum=False, labels=GAMBIT_LABELS))
def test_files_we_write_load_in_gambit_with_the_same_value(document: Any) -> None:
    pygambit = pytest.importorskip("pygambit", reason="pygambit is not installed (it builds from source: ~25 minutes)")
    import tempfile

    from gametree_cli.search.registry import solve

    tree = build_tree(document)
    has_float = any(isinstance(tree.value[node], float) or (isinstance(tree.value[node], tuple) and any(isinstance(part, float) for part in tree.value[node]))  # type: ignore[union-attr]
                    for node in range(len(tree)) if tree.kind[node] == 0)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.efg"
        path.write_text(efg_text(tree), encoding="utf-8")
        game = pygambit.read_efg(str(path))
    assert [player.label for player in game.players] == list(tree.players)
    assert len(list(game.nodes)) == len(tree)
    ours = solve(tree).value
    theirs = _gambit_value(game)
    if tree.is_nplayer:
        expected = tuple(Fraction(part) for part in ours)  # type: ignore[union-attr]
    else:
        expected = (Fraction(ours), -Fraction(ours))  # type: ignore[arg-type]
    if has_float:
        assert all(abs(float(a) - float(b)) < 1e-9 for a, b in zip(theirs, expected))
    else:
        assert theirs == expected
