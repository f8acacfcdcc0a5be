"""Fuzzing: mutated tree and answer files end as a result or a clean GameTreeError, never a crash.

Seeds are valid inputs of every shape and format (fuzz/seeds.py); Hypothesis
draws a seed and a few byte/token mutations (fuzz/mutate.py), and the
harness (fuzz/harness.py) loads the result, solves it with every algorithm
under random options and renders every view. Anything but success or a
one-line GameTreeError fails the test. A few cases also run the real
``gametree`` command to check "exit 2, one line, no traceback" end to end.

Size: ``GAMETREE_FUZZ_EXAMPLES`` examples a test (default small, so ``make
test`` stays quick; ``make fuzz`` runs thousands). The runs are derandomized
(the same examples every time) unless ``GAMETREE_FUZZ_SEED`` is set.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import tracemalloc
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from fuzz.harness import Workspace, run_answer_input, run_tree_input
from fuzz.mutate import KINDS, mutate
from fuzz.seeds import answer_seeds, tree_seeds

from .conftest import HANG_GUARD, ROOT

EXAMPLES = int(os.environ.get("GAMETREE_FUZZ_EXAMPLES", "60"))
SEED = os.environ.get("GAMETREE_FUZZ_SEED")
#: One input costing more CPU time than this is a hang (the seeds solve in ~30 ms).
#: CPU time, not wall-clock time: a busy machine stretches the wall clock, not the work.
CPU_SECONDS = 20


def fuzz_settings(examples: int):  # type: ignore[no-untyped-def]
    """Hypothesis settings for a fuzz test: bounded, no deadline, reproducible by default."""
    chosen = settings(
        max_examples=examples,
        deadline=None,
        derandomize=SEED is None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )

    def apply(test):  # type: ignore[no-untyped-def]
        test = chosen(test)
        return seed(int(SEED))(test) if SEED is not None else test

    return apply


mutations = st.lists(
    st.tuples(st.integers(0, len(KINDS) - 1), st.integers(0, 1 << 20), st.integers(0, 1 << 12), st.integers(0, 255)),
    min_size=1,
    max_size=4,
)
choice_seeds = st.integers(0, 2**32 - 1)


@pytest.fixture(scope="module")
def workspace() -> Iterator[Workspace]:
    with tempfile.TemporaryDirectory(prefix="gametree-fuzz-") as directory:
        yield Workspace(directory)


@contextmanager
def hang_alarm(cpu_seconds: float = CPU_SECONDS) -> Iterator[None]:
    """Fail (instead of waiting forever) when one input costs more than ``cpu_seconds``
    of CPU time (SIGPROF counts the process's CPU time), or blocks for HANG_GUARD
    seconds of wall-clock time (SIGALRM: a wait that costs no CPU)."""

    def hung(signum: int, frame: object) -> None:
        if signum == signal.SIGPROF:
            raise TimeoutError(f"one input took more than {cpu_seconds} s of CPU time: a hang")
        raise TimeoutError(f"one input has been running for {HANG_GUARD} s: a hang")

    previous = {signum: signal.signal(signum, hung) for signum in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    signal.setitimer(signal.ITIMER_REAL, HANG_GUARD)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _seed_id(seed: tuple[str, str, bytes]) -> str:
    return f"{seed[0]}{seed[1]}"


@fuzz_settings(EXAMPLES)
@given(seed=st.sampled_from(tree_seeds()), changes=mutations, choices=choice_seeds)
def test_mutated_tree_files(workspace: Workspace, seed: tuple[str, str, bytes], changes: list, choices: int) -> None:
    _, extension, data = seed
    with hang_alarm():
        run_tree_input(mutate(data, changes, extension), extension, random.Random(choices), workspace)


_GTB_SEEDS = tuple(item for item in tree_seeds() if item[1] == ".gtb")
_HEADER = KINDS.index("header")
header_mutations = st.lists(
    st.tuples(st.sampled_from((_HEADER, _HEADER, _HEADER, KINDS.index("flip"))), st.integers(0, 1 << 12),
              st.integers(0, 1 << 12), st.integers(0, 255)),
    min_size=1,
    max_size=3,
)


@fuzz_settings(EXAMPLES)
@given(seed=st.sampled_from(_GTB_SEEDS), changes=header_mutations, choices=choice_seeds)
def test_damaged_binary_files(workspace: Workspace, seed: tuple[str, str, bytes], changes: list, choices: int) -> None:
    """A damaged ``.gtb`` header is a clean error, and reading never allocates far more than the file holds."""
    data = mutate(seed[2], changes, ".gtb")
    tracemalloc.start()
    try:
        with hang_alarm():
            run_tree_input(data, ".gtb", random.Random(choices), workspace)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, f"{peak / 2**20:.0f} MiB allocated for a {len(data)}-byte .gtb file"


@fuzz_settings(max(EXAMPLES // 2, 10))
@given(seed=st.sampled_from(answer_seeds()), changes=mutations)
def test_mutated_answer_files(workspace: Workspace, seed: tuple[str, str, bytes], changes: list) -> None:
    with hang_alarm():
        run_answer_input(mutate(seed[2], changes, ".yaml"), workspace)


# -- end to end: the real command ------------------------------------------------

GAMETREE = ROOT / ".venv" / "bin" / "gametree"
#: a real process costs ~0.7 s: a few in `make test`, at most 60 a test in `make fuzz`
CLI_EXAMPLES = min(max(EXAMPLES // 50, 3), 60)


def _gametree(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(GAMETREE)] if GAMETREE.exists() else [sys.executable, "-m", "gametree_cli"]
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("GAMETREE_DEBUG", None)
    return subprocess.run(command + list(args), capture_output=True, text=True, timeout=HANG_GUARD, env=env,
                          errors="replace", stdin=subprocess.DEVNULL)


def assert_clean_exit(result: subprocess.CompletedProcess[str], file: Path, allowed: tuple[int, ...],
                      *, one_error: bool = True) -> None:
    """Exit 0 (or 1 for check), or 2 with ``FILE[:LINE[:COL]]: message`` lines on stderr; never a traceback.

    ``solve`` reports one error, naming ``file``; ``check`` one per exercise it
    could not check, naming the answer file or the tree file it points to.
    """
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in allowed + (2,), (result.returncode, result.stderr)
    if result.returncode == 2:
        lines = result.stderr.splitlines()
        assert lines, "exit 2 without a message"
        if one_error:
            assert len(lines) == 1 and lines[0].startswith(f"{file}:"), result.stderr
        for line in lines:
            assert re.match(r"[^:]+(:\d+(:\d+)?)?: \S", line), line


@fuzz_settings(CLI_EXAMPLES)
@given(seed=st.sampled_from(tree_seeds()), changes=mutations)
def test_cli_on_mutated_trees(workspace: Workspace, seed: tuple[str, str, bytes], changes: list) -> None:
    _, extension, data = seed
    path = workspace.tree_file(mutate(data, changes, extension), extension)
    assert_clean_exit(_gametree("solve", str(path), "--format", "json", "--trace"), path, (0,))


@fuzz_settings(CLI_EXAMPLES)
@given(seed=st.sampled_from(answer_seeds()), changes=mutations)
def test_cli_on_mutated_answer_files(workspace: Workspace, seed: tuple[str, str, bytes], changes: list) -> None:
    path = workspace.answer_file(mutate(seed[2], changes, ".yaml"))
    assert_clean_exit(_gametree("check", str(path)), path, (0, 1), one_error=False)


def test_every_seed_solves(workspace: Workspace) -> None:
    """The unmutated seeds are valid (else the fuzzers would only test error paths)."""
    failing = [_seed_id(item) for item in tree_seeds()
               if item[0] != "imperfect" and run_tree_input(item[2], item[1], random.Random(0), workspace) != "solved"]
    assert not failing
    assert all(run_answer_input(item[2], workspace) == "solved" for item in answer_seeds())
