"""Shared test helpers: the CLI runner, the shipped trees, the shared/ folder."""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
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


#: Debian's chromium for the browser tests (Playwright drives it; no browser is ever downloaded)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (the modules that use it skip when chromium or playwright is absent)."""
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


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


# -- the search loop: compiled (Cython) and its own Python source ---------------------------

SEARCH = importlib.import_module("gametree_cli.search.depth_first")
_source_modules: list = []


def search_source_module():
    """``gametree_cli/search/depth_first.py`` run from its source, whether or not it is compiled."""
    if not _source_modules:
        path = Path(SEARCH.__file__).with_name("depth_first.py")
        spec = importlib.util.spec_from_file_location("gametree_cli.search._depth_first_source", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        _source_modules.append(module)
    return _source_modules[0]


@pytest.fixture(params=["compiled", "source"])
def search_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with the compiled search loop, then with its Python source (the path an install
    without a C compiler takes); the compiled run is skipped, saying so, when it is not built."""
    if request.param == "compiled":
        if not SEARCH.COMPILED:
            pytest.skip("gametree_cli.search.depth_first is not compiled (no Cython or C compiler at install time); "
                        "the 'source' run covers the loop that runs")
    else:
        monkeypatch.setattr(SEARCH, "walk", search_source_module().walk)
    return request.param
