"""`gametree random`: reproducible, the requested shape, and every tree it
makes solves with every algorithm that fits it (checked against the plain
recursive references of tests/oracles.py over the raw document)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gametree_cli.io.loader import load_tree, parse_tree
from gametree_cli.search.registry import solve
from gametree_cli.search.registry import ALGORITHMS, fitting_algorithms
from gametree_cli.cli.app import app
from gametree_cli.io.document import build_tree
from gametree_cli.io.document_text import document_to_json
from gametree_cli.generate.common import GeneratorError
from gametree_cli.generate.random_tree import RandomTreeSpec, random_tree, tree_size
from gametree_cli.core.model import CHANCE, LEAF, MAX, MIN, PLAYER

from . import oracles

GAMETREE = [sys.executable, "-m", "gametree_cli"]

specs = st.builds(
    RandomTreeSpec,
    depth=st.integers(0, 4),
    branching=st.tuples(st.integers(1, 3), st.integers(0, 1)).map(lambda pair: (pair[0], pair[0] + pair[1])),
    seed=st.integers(0, 2**40),
    chance=st.booleans(),
    players=st.integers(1, 4),
    values=st.tuples(st.integers(-10, 10), st.integers(0, 10)).map(lambda pair: (pair[0], pair[0] + pair[1])),
).filter(lambda spec: not (spec.chance and spec.players > 2))


# -- what the generator promises ----------------------------------------------------


def level_kind(spec: RandomTreeSpec, level: int) -> tuple[str, int]:
    """What the generator promises at ``level``: ("chance", -1), ("max"|"min", -1) or ("player", index)."""
    if spec.chance and level % 2 == 1:
        return "chance", -1
    decision = level // 2 if spec.chance else level
    if spec.players == 1:
        return "max", -1
    if spec.players == 2:
        return ("max" if decision % 2 == 0 else "min"), -1
    return "player", decision % spec.players


def reference_value(document: Any) -> Any:
    """Minimax / expectiminimax / max-n (first child on a tie) by the oracles."""
    game = oracles.read(document)
    return (oracles.maxn(game) if game.nplayer else oracles.expectiminimax(game)).value


# -- reproducible -------------------------------------------------------------------


def test_same_seed_same_bytes_across_processes(tmp_path: Path) -> None:
    # separate processes: a different hash seed each, so no dict or set order can leak in
    argv = ["random", "--depth", "4", "--branching", "2..3", "--seed", "2024", "--chance", "--values", "-5..5"]
    outputs = [subprocess.run([*GAMETREE, *argv], capture_output=True, check=True, env={"PYTHONHASHSEED": str(k), "PATH": ""}).stdout
               for k in (1, 2)]
    assert outputs[0] == outputs[1] and len(outputs[0]) > 200
    for suffix in ("yaml", "json"):
        subprocess.run([*GAMETREE, *argv, "-o", str(tmp_path / f"r.{suffix}")], check=True, capture_output=True)
    assert (tmp_path / "r.yaml").read_bytes() == outputs[0]
    # JSON holds the same tree, and the library writes the same bytes again
    assert yaml.safe_load(outputs[0]) == json.loads((tmp_path / "r.json").read_text())
    document = random_tree(RandomTreeSpec(4, (2, 3), 2024, chance=True, values=(-5, 5)))
    assert document_to_json(document).encode() == (tmp_path / "r.json").read_bytes()


def test_different_seeds_give_different_trees() -> None:
    texts = {json.dumps(random_tree(RandomTreeSpec(3, (2, 2), seed))["root"]) for seed in range(20)}
    assert len(texts) == 20


def test_a_negative_seed_is_refused_not_the_positive_ones_tree() -> None:
    """random.Random ignores the sign: --seed -7 gave 7's tree titled "seed -7" (two students, one exercise)."""
    assert Random(-7).random() == Random(7).random()  # why it is refused
    with pytest.raises(GeneratorError, match="--seed must be 0 or more"):
        random_tree(RandomTreeSpec(3, (2, 2), -7))
    random_tree(RandomTreeSpec(3, (2, 2), 0))


def test_handout_seeds_of_either_sign_differ() -> None:
    """A handout's seed only feeds SHA-256 as text (choose.derived_seed): -7 and 7 give different sheets."""
    from gametree_cli.exercises.choose import HandoutSpec, choose_exercise

    first, second = (choose_exercise(HandoutSpec(count=1, seed=seed), 0) for seed in (7, -7))
    assert first.seed != second.seed and first.document != second.document


def test_seed_is_written_in_the_title_when_not_given(runner) -> None:
    result = runner.invoke(app, ["random", "-d", "2", "-b", "2"])
    assert result.exit_code == 0, result.output
    seed = int(result.stderr.split("--seed ")[1].split()[0])
    again = runner.invoke(app, ["random", "-d", "2", "-b", "2", "--seed", str(seed)])
    assert again.stdout == result.stdout and f"seed {seed}" in yaml.safe_load(result.stdout)["title"]


# -- the requested shape ---------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(spec=specs)
def test_requested_shape(spec: RandomTreeSpec) -> None:
    document = random_tree(spec)
    tree = build_tree(document)
    depths = tree.depths()
    low, high = spec.branching
    kinds = {"max": MAX, "min": MIN, "chance": CHANCE, "player": PLAYER}
    for node in range(len(tree)):
        if tree.count[node] == 0:
            assert tree.kind[node] == LEAF and depths[node] == spec.depth
            value = tree.value[node]
            parts = value if isinstance(value, tuple) else (value,)
            assert len(parts) == (spec.players if spec.players > 2 else 1)
            assert all(spec.values[0] <= part <= spec.values[1] for part in parts)
        else:
            assert low <= tree.count[node] <= high and depths[node] < spec.depth
            kind, who = level_kind(spec, depths[node])
            assert tree.kind[node] == kinds[kind]
            if kind == "player":
                assert tree.player[node] == who
            if kind == "chance":
                assert sum(tree.prob[child] for child in tree.children(node)) == 1  # type: ignore[index, misc]
    if low == high:
        assert len(tree) == tree_size(spec.depth, low)
    if spec.chance and spec.values[0] < spec.values[1] and spec.depth:
        assert tree.bounds == spec.values
    assert len(tree.players) == max(spec.players, 2)


def test_a_uniform_textbook_tree() -> None:
    tree = build_tree(random_tree(RandomTreeSpec(3, (3, 3), seed=1)))
    assert len(tree) == 1 + 3 + 9 + 27
    assert [tree.node_id(node) for node in range(5)] == ["A", "B", "C", "D", "E"]
    assert tree.node_id(len(tree) - 1) == "M.3"


# -- every generated tree solves with every fitting algorithm ---------------------------


@settings(max_examples=120, deadline=None)
@given(spec=specs)
def test_every_fitting_algorithm_solves_every_random_tree(spec: RandomTreeSpec) -> None:
    document = random_tree(spec)
    tree = build_tree(document)
    expected = reference_value(document)
    fitting = fitting_algorithms(tree)
    assert fitting, "no algorithm fits a generated tree"
    exact = {"minimax", "alphabeta", "expectiminimax", "star1", "star2", "maxn", "shallow"}
    for name in fitting:
        record = solve(tree, name)
        assert record.value is not None
        if name in exact:  # these compute the game's value: the reference's
            assert record.value == expected, name
    if spec.players <= 2 and not spec.chance:
        assert {"minimax", "alphabeta"} <= set(fitting)
    if spec.chance and spec.depth and "expectiminimax" in ALGORITHMS:
        assert "expectiminimax" in fitting


def test_a_generated_file_solves_from_the_command_line(runner, tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    result = runner.invoke(app, ["random", "-d", "3", "-b", "3", "--seed", "5", "-o", str(path)])
    assert result.exit_code == 0, result.output
    expected = reference_value(yaml.safe_load(path.read_text()))
    solved = runner.invoke(app, ["solve", str(path), "--format", "json"])
    assert json.loads(solved.stdout)["value"] == expected
    assert solve(load_tree(path), "minimax").value == expected


# -- files and mistakes -------------------------------------------------------------------


def test_output_is_never_overwritten_without_force(runner, tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("keep me\n")
    result = runner.invoke(app, ["random", "-d", "2", "-b", "2", "--seed", "1", "-o", str(path)])
    assert result.exit_code == 2 and "already exists" in result.stderr and path.read_text() == "keep me\n"
    result = runner.invoke(app, ["random", "-d", "2", "-b", "2", "--seed", "1", "-o", str(path), "--force"])
    assert result.exit_code == 0 and "seed 1" in path.read_text()


@pytest.mark.parametrize(("argv", "words"), [
    (["-d", "-1", "-b", "2"], "--depth must be 0 or more"),
    (["-d", "2", "-b", "0"], "--branching must be a whole number of 1 or more"),
    (["-d", "2", "-b", "3..2"], "--branching must be a whole number of 1 or more"),
    (["-d", "2", "-b", "two"], "--branching: expected a whole number or a range LOW..HIGH such as 2..3, not 'two'"),
    (["-d", "2", "-b", "2", "--values", "x"], "--values: expected a whole number or a range LOW..HIGH such as 0..9"),
    (["-d", "2", "-b", "2", "--values", "5..1"], "--values: the lowest 5 is above the highest 1"),
    (["-d", "2", "-b", "2", "--values", "0.5..1"], "--values: expected a whole number or a range"),
    (["-d", "2", "-b", "2", "--players", "0"], "--players must be 1 or more"),
    (["-d", "2", "-b", "2", "--players", "3", "--chance"], "--chance makes one- and two-player trees only"),
    (["-d", "40", "-b", "2"], "more than 5,000,000"),
    (["-d", "2", "-b", "2", "--seed", "-7"], "--seed must be 0 or more, not -7 (it would give the same tree as --seed 7)"),
])
def test_bad_arguments_exit_2_with_one_line(runner, argv: list[str], words: str) -> None:
    result = runner.invoke(app, ["random", "--seed", "1", *argv])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_a_100000_deep_random_chain(tmp_path: Path) -> None:
    document = random_tree(RandomTreeSpec(100_000, (1, 1), seed=3))
    tree = build_tree(document)
    assert len(tree) == 100_001 and tree.depths()[len(tree) - 1] == 100_000
    text = document_to_json(document)  # the writer and the reader are iterative too
    again = parse_tree(text, fmt="json")
    assert len(again) == 100_001 and again.value[-1] == tree.value[-1]


def test_a_deep_random_tree_reads_back_from_yaml() -> None:
    from gametree_cli.io.document_text import document_to_yaml

    document = random_tree(RandomTreeSpec(30, (1, 1), seed=3))
    assert len(parse_tree(document_to_yaml(document), fmt="yaml")) == 31
