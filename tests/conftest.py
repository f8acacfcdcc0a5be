"""Shared test helpers: the CLI runner, the shipped trees, the shared/ folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
TREES = ROOT / "trees"
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared"

#: Seconds after which a child process, a thread or a pipe that has not answered is
#: a hang: the one guard of the suite against waiting forever, never a speed
#: requirement. Generous on purpose: the slowest child (the whole tic-tac-toe game,
#: ~10 s on an idle 2-core machine) stays far below it with both cores busy and
#: the suite's parallel workers competing (docs/testing.md).
HANG_GUARD = 300

# Stable rich output in tests: no colour, fixed width.
os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("COLUMNS", "120")


@pytest.fixture
def runner() -> CliRunner:
    """Typer's in-process runner: most command-line tests need no real process."""
    return CliRunner()


def shared_or_skip(*parts: str) -> Path:
    """A path inside ../shared, or skip: it exists only in CI checkouts beside shared/."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present: ../shared exists only beside a CI checkout")
    return path
