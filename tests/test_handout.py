"""``gametree handout``: exercises worth asking (checked against the oracles), the folder it
writes, reproducibility, rosters, bad input, and the PDFs (with a real pdflatex where installed)."""

from __future__ import annotations

import shutil
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from gametree_cli.cli.app import app
from gametree_cli.exercises import pdf
from gametree_cli.exercises.choose import HandoutSpec, choose_exercise, choose_variant, rejection
from gametree_cli.exercises.roster import RosterError, parse_roster
from gametree_cli.core.errors import GameTreeError
from gametree_cli.generate.random_tree import RandomTreeSpec, random_tree
from gametree_cli.io.document import build_tree

from . import oracles

LATEX = shutil.which("pdflatex")
needs_latex = pytest.mark.skipif(LATEX is None, reason="no pdflatex: install texlive-latex-extra and texlive-pictures (make latex)")


def _leaves(node: dict) -> list[Any]:
    return [item["value"] for item in oracles.preorder(node) if item["type"] == "leaf"]


def _assert_worth_asking(document: dict, algorithm: str, depth: int) -> None:
    """The rules of docs/exercises.md, checked with the independent oracles, not with the record."""
    game = oracles.read(document)
    exact = oracles.expectiminimax(game) if algorithm == "expectiminimax" else oracles.minimax(game)
    node = game.root
    while node["type"] in ("max", "min"):  # along the principal variation: one strictly best child
        values = [exact.values[child["id"]] for child in node["children"]]
        best = max(values) if node["type"] == "max" else min(values)
        assert values.count(best) == 1, f"{node['id']}: tied best children {values}"
        node = node["children"][values.index(best)]
    best_child = next(child for child in game.root["children"] if child["move"] == oracles.best_move(game, exact))
    if algorithm == "alphabeta":
        search = oracles.alphabeta(game)
        assert search.cut and search.pruned
        if depth >= 3:
            inner = {item["id"] for item in game.nodes() if item["type"] != "leaf"}
            assert inner & set(search.pruned), f"only leaves pruned: {search.pruned}"
    else:
        assert max(_leaves(game.root)) not in _leaves(best_child), "the best move leads to the highest leaf"


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax", "expectiminimax"])
@pytest.mark.parametrize("depth, branching", [(2, (3, 3)), (3, (2, 3)), (3, (2, 2)), (4, (2, 2))])
def test_every_exercise_is_worth_asking(algorithm: str, depth: int, branching: tuple[int, int]) -> None:
    spec = HandoutSpec(count=1, seed=2024, algorithms=(algorithm,), depth=depth, branching=branching)
    for student in range(40):
        chosen = choose_exercise(spec, 0, f"student {student}")
        assert rejection(chosen.record, depth) is None
        _assert_worth_asking(chosen.document, algorithm, depth)


def test_rejection_says_why() -> None:
    """The rules reject what they should: a tree where alpha-beta prunes nothing, and a tie at the root."""
    from gametree_cli.search.registry import solve
    from gametree_cli.io.loader import parse_tree

    assert rejection(solve(parse_tree("[[1, 2], [3, 4]]"), "alphabeta"), 2) == "alpha-beta prunes nothing"
    assert "not strictly better" in str(rejection(solve(parse_tree("[[3, 5], [3, 9]]"), "minimax"), 2))
    assert "highest leaf" in str(rejection(solve(parse_tree("[[1, 2], [5, 9]]"), "minimax"), 2))
    assert rejection(solve(parse_tree("[[9, 2], [5, 6]]"), "minimax"), 2) is None


def test_a_huge_count_is_refused_before_any_work() -> None:
    """``--count 99999999999999999999`` ran until killed."""
    with pytest.raises(GameTreeError, match="at most 100"):
        HandoutSpec(count=99999999999999999999, seed=1).check()
    HandoutSpec(count=100, seed=1).check()


def test_minimax_at_depth_one_can_never_pass_so_it_is_refused() -> None:
    """At depth 1 the best move is the highest leaf: every candidate fails the rule (so 2,000 tries were wasted)."""
    from gametree_cli.search.registry import solve

    for seed in range(200):
        tree = build_tree(random_tree(RandomTreeSpec(depth=1, branching=(2, 3), seed=seed)))
        assert rejection(solve(tree, "minimax"), 1) is not None, seed
    with pytest.raises(GameTreeError, match="minimax at --depth 1"):
        HandoutSpec(count=1, seed=1, algorithms=("minimax",), depth=1).check()


def test_a_students_variant_depends_on_the_seed_and_the_name_only() -> None:
    spec = HandoutSpec(count=2, seed=5, algorithms=("alphabeta", "minimax"))
    alone = choose_variant(spec, "José Pérez")
    decomposed = choose_variant(spec, unicodedata.normalize("NFD", "José Pérez"))
    assert [item.document for item in alone.exercises] == [item.document for item in decomposed.exercises]
    assert [item.algorithm for item in alone.exercises] == ["alphabeta", "minimax"]
    other = choose_variant(spec, "Ana")
    assert [item.document for item in other.exercises] != [item.document for item in alone.exercises]
    reseeded = choose_variant(HandoutSpec(count=2, seed=6, algorithms=("alphabeta", "minimax")), "José Pérez")
    assert [item.document for item in reseeded.exercises] != [item.document for item in alone.exercises]


# -- the command ----------------------------------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def _handout(runner: Any, *args: str) -> Any:
    return runner.invoke(app, ["handout", *args])


def test_handout_writes_sheet_key_and_answers_that_check(runner: Any, tmp_path: Path) -> None:
    out = tmp_path / "week1"
    result = _handout(runner, "-o", str(out), "--count", "3", "--seed", "7", "--algo", "alphabeta,minimax,expectiminimax",
                      "--no-pdf")
    assert result.exit_code == 0, result.output
    assert set(_files(out)) == {"sheet.tex", "key.tex", "answers.yaml", "handout-files.txt",
                                "trees/exercise-1.yaml", "trees/exercise-2.yaml", "trees/exercise-3.yaml"}
    sheet, key = (out / "sheet.tex").read_text(), (out / "key.tex").read_text()
    assert sheet.count(r"\begin{forest}") == key.count(r"\begin{forest}") == 3
    assert "gt room" in sheet and "cut: " not in sheet and "cut: " in key  # blank sheet, solved key
    checked = runner.invoke(app, ["check", str(out / "answers.yaml")])
    assert checked.exit_code == 0, checked.output
    assert "3 exercises: 3 right, 0 wrong" in checked.output


@pytest.mark.parametrize("form", ["practical", "hard"])
def test_the_alpha_beta_asked_is_the_courses(runner: Any, tmp_path: Path, form: str) -> None:
    """--variant: the key and answers.yaml are that alpha-beta's (check repeats it), the sheet says which; the
    trees are the soft handout's, and somewhere the two forms' answers differ (else the test would prove nothing)."""
    import yaml

    soft, asked = tmp_path / "soft", tmp_path / form
    for folder, extra in ((soft, []), (asked, ["--variant", form])):
        result = _handout(runner, "-o", str(folder), "--count", "6", "--seed", "11", "--no-pdf", *extra)
        assert result.exit_code == 0, result.output
    soft_key, asked_key = (yaml.safe_load((folder / "answers.yaml").read_text())["exercises"] for folder in (soft, asked))
    assert all(exercise["variant"] == form for exercise in asked_key) and all("variant" not in e for e in soft_key)
    from gametree_cli import solve as solve_tree

    def soft_nodes(exercise: dict[str, Any]) -> dict[str, Any]:
        solved = solve_tree(str(asked / exercise["tree"]), "alphabeta")
        return {node: solved.values[node] for node in exercise["answers"]["nodes"]}

    def asked_values(exercise: dict[str, Any]) -> dict[str, Any]:
        return {node: entry["value"] if isinstance(entry, dict) else entry
                for node, entry in exercise["answers"]["nodes"].items()}

    assert any(soft_nodes(exercise) != asked_values(exercise) for exercise in asked_key)  # the forms differ here
    for key in (soft, asked):
        checked = runner.invoke(app, ["check", str(key / "answers.yaml")])
        assert checked.exit_code == 0 and "6 exercises: 6 right, 0 wrong" in checked.output, checked.output
    wording = {"practical": "each call returns its own", "hard": "fail-hard"}[form]
    assert wording in (asked / "sheet.tex").read_text() and wording not in (soft / "sheet.tex").read_text()


def test_same_seed_same_bytes_other_seed_other_trees(runner: Any, tmp_path: Path) -> None:
    runs = {}
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        result = _handout(runner, "-o", str(tmp_path / name), "--count", "2", "--seed", seed, "--no-pdf")
        assert result.exit_code == 0, result.output
        runs[name] = _files(tmp_path / name)
    assert runs["a"] == runs["b"]
    assert runs["a"]["trees/exercise-1.yaml"] != runs["c"]["trees/exercise-1.yaml"]
    assert runs["a"]["answers.yaml"] != runs["c"]["answers.yaml"]


def test_a_variant_per_student(runner: Any, tmp_path: Path) -> None:
    roster = tmp_path / "class.csv"
    roster.write_text("Nombre\nJosé Pérez\nZoë Ñúñez\n\n\"García, Ana\"\n", encoding="utf-8")
    out = tmp_path / "exam"
    result = _handout(runner, "-o", str(out), "--count", "2", "--seed", "3", "--students", str(roster), "--lang", "es",
                      "--no-pdf")
    assert result.exit_code == 0, result.output
    files = _files(out)
    for stem in ("Jose-Perez", "Zoe-Nunez", "Garcia-Ana"):
        assert f"sheets/sheet-{stem}.tex" in files and f"trees/{stem}-2.yaml" in files
    assert "Nombre: José Pérez" in files["sheets/sheet-Jose-Perez.tex"].decode()
    assert "Ejercicio 1" in files["sheets/sheet-Jose-Perez.tex"].decode()
    key = files["key.tex"].decode()
    assert key.index("José Pérez") < key.index("Zoë Ñúñez") < key.index("García{,} Ana")  # LaTeX-escaped
    answers = files["answers.yaml"].decode()
    assert "name: José Pérez, ejercicio 1" in answers and "name: García, Ana, ejercicio 2" in answers
    checked = runner.invoke(app, ["check", str(out / "answers.yaml")])
    assert checked.exit_code == 0 and "6 exercises: 6 right, 0 wrong" in checked.output, checked.output
    # the same student gets the same trees whoever else is on the roster
    alone = tmp_path / "alone.csv"
    alone.write_text("José Pérez\n", encoding="utf-8")
    result = _handout(runner, "-o", str(tmp_path / "alone"), "--count", "2", "--seed", "3", "--students", str(alone),
                      "--lang", "es", "--no-pdf")
    assert result.exit_code == 0, result.output
    assert _files(tmp_path / "alone")["trees/Jose-Perez-1.yaml"] == files["trees/Jose-Perez-1.yaml"]


@pytest.mark.parametrize("content, message", [
    (b"caf\xe9\n", "not UTF-8 text"),
    (b"", "no student names"),
    (b"name\n\n", "no student names"),
    (b"Ana\nAna\n", "'Ana' is already on line 1"),
    (b"Ann\nann\n", "'ann' and 'Ann' (line 1) would get file names differing only in case ('ann', 'Ann')"),
    (b"Zoe\nZo\xc3\xab\n", "would get the same file name"),
    (b"Ana\n\"Bob\n", "not a CSV file"),
])
def test_bad_rosters(runner: Any, tmp_path: Path, content: bytes, message: str) -> None:
    roster = tmp_path / "class.csv"
    roster.write_bytes(content)
    result = _handout(runner, "-o", str(tmp_path / "out"), "--count", "1", "--seed", "1", "--students", str(roster))
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.startswith(str(roster)) and result.output.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_roster_columns_and_separators() -> None:
    students = parse_roster("apellidos;nombre\nPérez;José\nRuiz;Eva\n", "r.csv")
    assert [(student.name, student.line, student.stem) for student in students] == [("José", 2, "Jose"), ("Eva", 3, "Eva")]
    with pytest.raises(RosterError, match="no name in column 1"):
        parse_roster("Ana,x\n,y\n", "r.csv")


@pytest.mark.parametrize("args, message", [
    (["--count", "0"], "--count must be 1 or more, not 0"),
    (["--count", "101"], "--count 101 is more exercises than a sheet holds: at most 100"),
    (["--count", "1", "--depth", "1", "--algo", "minimax"], "minimax at --depth 1 always picks the move to the highest"),
    (["--count", "1", "--depth", "1", "--algo", "alphabeta,minimax"], "alpha-beta cuts nothing"),
    (["--count", "1", "--algo", "maxn"], "not 'maxn'"),
    (["--count", "1", "--depth", "1"], "alpha-beta cuts nothing in a tree of depth 1"),
    (["--count", "1", "--depth", "7", "--branching", "3"], "more than the 64 that fit on a page"),
    (["--count", "1", "--branching", "1"], "--branching must be 2 or more"),
    (["--count", "1", "--branching", "x"], "such as 2..3, not 'x'"),  # the example was 0..9, itself refused
])
def test_bad_requests(runner: Any, tmp_path: Path, args: list[str], message: str) -> None:
    result = _handout(runner, "-o", str(tmp_path / "out"), "--seed", "1", *args)
    assert result.exit_code == 2 and message in result.output and result.output.count("\n") == 1, result.output
    assert not (tmp_path / "out").exists()


def test_existing_folder_needs_force_and_force_replaces_only_the_handout(runner: Any, tmp_path: Path) -> None:
    out = tmp_path / "out"
    roster = tmp_path / "class.csv"
    roster.write_text("Ana\nBea\n", encoding="utf-8")
    assert _handout(runner, "-o", str(out), "--count", "1", "--seed", "1", "--students", str(roster), "--no-pdf").exit_code == 0
    before = _files(out)
    result = _handout(runner, "-o", str(out), "--count", "1", "--seed", "2", "--no-pdf")
    assert result.exit_code == 2 and "holds files from another handout" in result.output and "--force" in result.output
    assert _files(out) == before  # nothing overwritten
    (out / "notes.txt").write_text("mine")
    roster.write_text("Ana\n", encoding="utf-8")  # Bea left the class
    result = _handout(runner, "-o", str(out), "--count", "1", "--seed", "2", "--students", str(roster), "--no-pdf", "--force")
    assert result.exit_code == 0, result.output
    after = _files(out)
    assert "sheets/sheet-Bea.tex" not in after and "trees/Bea-1.yaml" not in after  # the old handout's files are gone
    assert after["notes.txt"] == b"mine"  # files it never wrote stay
    assert after["trees/Ana-1.yaml"] != before["trees/Ana-1.yaml"]
    stranger = tmp_path / "other"
    stranger.mkdir()
    (stranger / "x.txt").write_text("x")
    result = _handout(runner, "-o", str(stranger), "--count", "1", "--seed", "2", "--no-pdf")
    assert result.exit_code == 2 and "holds files from another run (e.g. x.txt)" in result.output


def test_without_pdflatex_the_sources_are_written_with_how_to_compile(runner: Any, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "find_latex", lambda: None)
    result = _handout(runner, "-o", str(tmp_path / "out"), "--count", "1", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "pdflatex is not installed" in result.output and "pdflatex FILE.tex" in result.output
    files = _files(tmp_path / "out")
    assert "sheet.tex" in files and "key.tex" in files and not any(name.endswith(".pdf") for name in files)


@needs_latex
def test_sheets_and_keys_compile_byte_identically(runner: Any, tmp_path: Path) -> None:
    roster = tmp_path / "class.csv"
    roster.write_text("José Pérez\nZoë\n", encoding="utf-8")
    runs = []
    for name in ("one", "two"):
        result = _handout(runner, "-o", str(tmp_path / name), "--count", "2", "--seed", "9", "--students", str(roster),
                          "--algo", "alphabeta,expectiminimax", "--lang", "es")
        assert result.exit_code == 0, result.output
        runs.append(_files(tmp_path / name))
    for pdf_name in ("key.pdf", "sheets/sheet-Jose-Perez.pdf", "sheets/sheet-Zoe.pdf"):
        assert runs[0][pdf_name].startswith(b"%PDF") and len(runs[0][pdf_name]) > 5000
    assert runs[0] == runs[1]


def test_a_latex_error_is_one_line_and_writes_nothing(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "pdflatex"
    fake.write_text("#!/bin/sh\ncat <<'END'\n! LaTeX Error: File `forest.sty' not found.\nEND\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(pdf, "find_latex", lambda: str(fake))
    result = _handout(runner, "-o", str(tmp_path / "out"), "--count", "1", "--seed", "1")
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "forest.sty' not found" in result.output
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == [fake]
