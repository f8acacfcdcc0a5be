"""The Python API on what QA found: ``Solution.bound()`` of nodes the search never visited, and option values
of the wrong type given to ``solve()``.

Why: ``bound("C.2")`` of a pruned node said ``"exact"`` (alpha-beta) or raised a TypeError from inside the
record (Star1); ``solve(..., depth="2")``, ``bounds=(Decimal(0), Decimal(6))`` and the like raised raw
TypeErrors with internal messages, or ran silently with a wrong setting (``depth=True`` as depth 1). The API
promises one-line ``GameTreeError``s (docs/api.md, "Errors") and bounds that say what the JSON result says.
"""

from __future__ import annotations

import itertools
import json
import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametree_cli import AlgorithmError, GameTreeError, Options, solve
from gametree_cli.cli.app import app

from . import oracles
from .conftest import TREES
from .test_bound_kinds import random_document
from .test_nplayer import nplayer_documents

AIMA, DICE = str(TREES / "aima-5-2.yaml"), str(TREES / "dice.yaml")

# -- bound() and values[] of nodes without a value ----------------------------------------------------


def test_qa_cases_a_pruned_node_has_no_bound_but_a_key_error_saying_why() -> None:
    answer = solve(AIMA, "alphabeta")
    with pytest.raises(KeyError, match="'C.2' has no value: the search pruned it"):
        answer.bound("C.2")
    with pytest.raises(KeyError, match="'C.2' has no value: the search pruned it"):
        answer.values["C.2"]  # the same answer as bound()
    assert answer.bound("C") == "upper" and answer.bound("A") == "exact" and answer.bound("B.1") == "exact"
    with pytest.raises(KeyError, match="'Roll.4' has no value: the search pruned it"):  # was a TypeError
        solve(DICE, "star1").bound("Roll.4")


def test_the_key_error_says_pruned_subtree_depth_limit_or_no_such_node() -> None:
    pruned_below = solve('{"root": [[5], [1, [7, 8]]]}', "alphabeta")
    assert pruned_below.pruned == ["2.2"]
    with pytest.raises(KeyError, match=r"'2\.2\.1' has no value: the search pruned it \(within the pruned "
                                       r"subtree of '2\.2'\)"):
        pruned_below.bound("2.2.1")
    limited = solve(str(TREES / "depth-limited.yaml"), "alphabeta", depth=2)
    with pytest.raises(KeyError, match="'L1.1' has no value: it lies below the depth limit 2"):
        limited.bound("L1.1")
    with pytest.raises(KeyError, match="'Z' is not a node of this tree"):
        solve(AIMA, "alphabeta").bound("Z")
    assert solve(AIMA, "alphabeta").values.get("C.2") is None  # a dict still: get() and `in` as ever


def consistency_problems(document: dict, algorithm: str, truth: dict[str, Any] | None, **options: Any) -> list[str]:
    """Where ``bound()`` disagrees with the JSON result of the same search, one line each: a node the JSON
    says was not visited must be a KeyError; a visited one must say its ``bound_kind``, or exact (or
    ``unknown`` at an inner node the record calls a bound of unknown side); exact must be the true value."""
    answer = solve(json.dumps(document), algorithm, **options)
    found = []
    for node_id, entry in json.loads(answer.to_json())["nodes"].items():
        where = f"{algorithm} {options} {json.dumps(document)}: node {node_id}"
        try:
            said = answer.bound(node_id)
        except KeyError:
            said = None
        if not entry["visited"]:
            if said is not None:
                found.append(f"{where}: never visited, but bound() says {said!r}")
            continue
        shown = entry.get("bound_kind")
        inner = answer.tree.count[answer.tree.index(node_id)] and not entry.get("horizon")
        if said is None or (shown is not None and said != shown) or \
                (shown is None and said not in (("exact", "unknown") if inner else ("exact",))):
            found.append(f"{where}: bound() says {said!r}, the JSON result {shown!r}")
        elif said == "exact" and truth is not None and answer.values[node_id] != truth[node_id]:
            found.append(f"{where}: exact, but {answer.values[node_id]} is not its value {truth[node_id]}")
    return found


ALPHABETA = [("alphabeta", {"variant": variant, "strict": strict, "order": order})
             for variant, strict, order in itertools.product(("soft", "hard", "practical"), (False, True),
                                                            ("given", "best", "worst"))]
CHANCE = [(algorithm, {"strict": strict}) for algorithm in ("star1", "star2", "expectiminimax")
          for strict in (False, True)]


@pytest.mark.parametrize("seed", range(2))
def test_bound_of_every_node_agrees_with_the_json_result_two_player(seed: int) -> None:
    rng = random.Random(seed)
    found: list[str] = []
    for _ in range(60):
        chance, evals = rng.random() < 0.5, rng.random() < 0.4
        document = random_document(rng, chance, evals)
        depth = {"depth": rng.randint(1, 3)} if evals and rng.random() < 0.7 else {}
        truth = oracles.expectiminimax(oracles.read(document), depth.get("depth")).values
        for algorithm, options in CHANCE if chance else ALPHABETA:
            found += consistency_problems(document, algorithm, truth, **options, **depth)
    assert not found, f"{len(found)} nodes, e.g.\n" + "\n".join(found[:5])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(nplayer_documents(chance=False), st.sampled_from(["left", "right"]), st.sampled_from([None, 1, 2]))
def test_bound_of_every_node_agrees_with_the_json_result_n_player(document: dict, ties: str, depth: Any) -> None:
    truth = oracles.maxn(oracles.read(document), ties, depth).values
    found = consistency_problems(document, "maxn", truth, ties=ties, depth=depth)
    found += consistency_problems(document, "shallow", truth, ties=ties, depth=depth)
    found += consistency_problems(document, "paranoid", None, depth=depth)
    assert not found, "\n".join(found[:5])


def test_a_side_unknown_is_no_exact_value() -> None:
    """Shallow pruning's cut vectors: the record calls them bounds of unknown side; bound() no longer says exact."""
    answer = solve(str(TREES / "shallow-sum9.yaml"), "shallow")
    assert answer.record.cuts
    cut = answer.tree.node_id(next(iter(answer.record.cuts)))
    assert answer.bound(cut) == "unknown"
    leaf = next(node_id for node_id in answer.values if not answer.tree.count[answer.tree.index(node_id)])
    assert answer.bound(leaf) == "exact"


# -- option values ---------------------------------------------------------------------------------------


MIXED = """
bounds: [0.25, 6.5]
root:
  type: max
  children:
    - value: 2.5
    - type: chance
      children:
        - {p: 1/4, value: 1/3}
        - {p: 3/4, type: min, children: [0.75, 5/2, 6]}
    - type: chance
      children: [0.5, 1/2, 3.25, 6]
"""


def every_number(answer: Any) -> list[Any]:
    record = answer.record
    numbers = [value for value in answer.values.values()]
    numbers += [bound for bounds in map(record.bounds, record.visit_order()) if bounds for bound in bounds]
    return numbers


@pytest.mark.parametrize("algorithm", ["star1", "star2"])
def test_decimal_bounds_are_exact(algorithm: str) -> None:
    """Decimals are Python's exact numbers: bounds given as Decimals search as the Fractions they are."""
    dice = solve(DICE, algorithm, bounds=(Decimal(0), Decimal(6)))  # was a TypeError (Fraction - Decimal)
    assert (dice.value, dice.pruned) == (Fraction(39, 8), solve(DICE, algorithm).pruned)
    assert dice.record.options["bounds"] == [0, 6]
    as_decimals = solve(DICE, algorithm, bounds=(Decimal("0.5"), Decimal("6.5")))
    as_fractions = solve(DICE, algorithm, bounds=(Fraction(1, 2), Fraction(13, 2)))
    assert every_number(as_decimals) == every_number(as_fractions)
    floats = [number for number in every_number(as_decimals) if isinstance(number, float)]
    assert all(number in (float("inf"), float("-inf")) for number in floats)  # only the open window's ends
    assert as_decimals.values["Roll"] == Fraction(23, 6)  # the cut's bound, exactly
    digits = solve(DICE, algorithm, bounds=(Decimal("0.10000000000000000001"), 6))  # more than a float keeps
    assert digits.record.options["bounds"][0] == Fraction(10**19 + 1, 10**20)
    mixed = solve(MIXED, algorithm, bounds=(Decimal("0.125"), Fraction(7)))  # decimal and fraction leaves
    assert mixed.value == solve(MIXED, "expectiminimax").value == 2.5625


def test_number_texts_are_read_as_the_command_line_reads_them(runner: Any) -> None:
    texts = solve(DICE, "star1", bounds=("0.5", "6.5"))  # was a TypeError ('<=' between str and int)
    result = runner.invoke(app, ["solve", DICE, "--algo", "star1", "--bounds", "0.5", "6.5", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(texts.to_json())["nodes"] == json.loads(result.stdout)["nodes"]
    assert texts.value == Fraction(39, 8) and texts.values["Roll"] == 23 / 6  # a decimal as the CLI has it
    assert solve(DICE, "star1", bounds=["1/2", 6]).record.options["bounds"] == [Fraction(1, 2), 6]
    assert solve(str(TREES / "shallow-sum9.yaml"), "shallow", sum="9").value == \
        solve(str(TREES / "shallow-sum9.yaml"), "shallow").value


def test_options_read_on_a_copy_leave_the_callers_as_given() -> None:
    given_options = Options(extra={"bounds": ("0", "6")})
    assert solve(DICE, "star1", options=given_options).record.options["bounds"] == [0, 6]
    assert given_options.extra == {"bounds": ("0", "6")}


WRONG = [  # (algorithm, keyword, value, the message's start)
    ("star1", "depth", "2", "depth: expected a whole number of plies, 0 or more, not '2'"),
    ("star1", "depth", 1.5, "depth: expected a whole number of plies, 0 or more, not 1.5"),
    ("alphabeta", "depth", True, "depth: expected a whole number of plies, 0 or more, not True"),
    ("alphabeta", "depth", [2], "depth: expected a whole number"),
    ("alphabeta", "variant", 5, "variant: expected soft, hard or practical, not 5"),
    ("alphabeta", "variant", "medium", "variant: expected soft, hard or practical, not 'medium'"),
    ("alphabeta", "variant", None, "variant: expected soft"),
    ("alphabeta", "strict", "no", "strict: expected True or False, not 'no'"),
    ("alphabeta", "strict", 1, "strict: expected True or False, not 1"),
    ("alphabeta", "order", ["best"], "order: expected given, best or worst, not ['best']"),
    ("alphabeta", "order", None, "order: expected given"),
    ("alphabeta", "order", "random", "order: expected given, best or worst, not 'random'"),
    ("maxn", "ties", 3, "ties: expected a tie rule"),
    ("maxn", "ties", ["left"], "ties: expected a tie rule"),
    ("shallow", "sum", [9], "sum: expected a number such as 7, '1/3' or 0.5, not [9]"),
    ("shallow", "sum", "nine", "sum: 'nine' is not a number"),
    ("shallow", "sum", True, "sum: expected a number"),
    ("shallow", "sum", Decimal("Infinity"), "sum: Decimal('Infinity') is not a finite number"),
    ("star1", "bounds", "0 6", "bounds: expected (lowest, highest), two numbers, not '0 6'"),
    ("star1", "bounds", (0, 6, 9), "bounds: expected (lowest, highest)"),
    ("star1", "bounds", 6, "bounds: expected (lowest, highest)"),
    ("star1", "bounds", (None, 6), "bounds: expected a number such as 7, '1/3' or 0.5, not None"),
    ("star1", "bounds", ("x", 6), "bounds: 'x' is not a number"),
    ("star1", "bounds", (Decimal("NaN"), 6), "bounds: Decimal('NaN') is not a finite number"),
    ("star1", "bounds", (0, complex(6, 1)), "bounds: expected a number"),
    ("star1", "bounds", (0, float("inf")), "bounds: inf is not a finite number"),
]


@pytest.mark.parametrize(("algorithm", "keyword", "value", "message"), WRONG,
                         ids=[f"{keyword}={value!r}" for _, keyword, value, _ in WRONG])
def test_a_wrong_option_value_is_one_line_naming_the_option(algorithm: str, keyword: str, value: Any,
                                                             message: str) -> None:
    tree = {"star1": DICE, "alphabeta": AIMA}.get(algorithm, str(TREES / "shallow-sum9.yaml"))
    with pytest.raises(GameTreeError) as raised:  # any other exception type fails the test
        solve(tree, algorithm, **{keyword: value})
    assert isinstance(raised.value, AlgorithmError)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


@pytest.mark.parametrize("algorithm", [5, ["alphabeta"], b"alphabeta"])
def test_an_algorithm_that_is_no_name_is_one_line(algorithm: Any) -> None:
    with pytest.raises(AlgorithmError, match=r"^algorithm: expected a name such as 'alphabeta' \(known: minimax, "):
        solve(AIMA, algorithm)


def test_whole_numbers_of_other_types_are_depths() -> None:
    """NumPy's integers (what a loop over ``np.arange`` gives) are whole numbers; a negative one keeps its message."""
    numpy = pytest.importorskip("numpy")
    tree = str(TREES / "depth-limited.yaml")
    assert solve(tree, "alphabeta", depth=numpy.int64(2)).value == solve(tree, "alphabeta", depth=2).value
    with pytest.raises(AlgorithmError, match="must be 0 or more, not -1"):
        solve(tree, "alphabeta", depth=-1)
