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

# Stable rich output in tests: no colour, fixed width.
os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("COLUMNS", "120")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def shared_or_skip(*parts: str) -> Path:
    """A path inside ../shared, or skip: it exists only in CI checkouts beside shared/."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present: ../shared exists only beside a CI checkout")
    return path
