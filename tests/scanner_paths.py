"""The JSON scanner's two paths for the tests: compiled, and from its .py sources.

The scanner (formats/scan_*.py) is Python in Cython's pure-Python mode; the
loader uses it only compiled (``jsonscan.COMPILED``). Tests that take the
``scanner`` fixture run twice: with the compiled modules (skipped, saying so,
when they are not built) and with the sources (:func:`scan_source`), which
the loader, partial.py and the locator then use; ``compiled`` is for inputs
too big for the sources.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gametree_cli.io import jsonscan, locate, partial, scan_order, scan_skip

SCANNER_MODULES = ("scan_lexer", "scan_share", "scan_kernel", "scan_order", "scan_skip")
NOT_COMPILED = "the JSON scanner is not compiled (no Cython or C compiler at install time); json.loads reads every file"
_sources: list[SimpleNamespace] = []


# -- which scanner runs --------------------------------------------------------------------


def scan_source() -> SimpleNamespace:
    """The scanner's modules run from their .py sources, whether or not they are compiled: loaded under
    their own names for a moment, so that their imports of each other find the sources too."""
    if not _sources:
        saved = {name: sys.modules.get(f"gametree_cli.io.{name}") for name in SCANNER_MODULES}
        modules = {}
        try:
            for name in SCANNER_MODULES:
                path = Path(jsonscan.__file__).with_name(f"{name}.py")
                spec = importlib.util.spec_from_file_location(f"gametree_cli.io.{name}", path)
                modules[name] = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
                sys.modules[spec.name] = modules[name]  # type: ignore[union-attr]
                spec.loader.exec_module(modules[name])  # type: ignore[union-attr]
        finally:
            for name, module in saved.items():
                sys.modules[f"gametree_cli.io.{name}"] = module  # type: ignore[assignment]
        assert not any(module.COMPILED for module in modules.values())
        order, skip = modules["scan_order"], modules["scan_skip"]
        _sources.append(SimpleNamespace(path="source", scan=order.scan, skip=skip.skip, skip_items=skip.skip_items,
                                        Skipper=skip.Skipper))
    return _sources[0]


def scan_compiled() -> SimpleNamespace:
    if not jsonscan.COMPILED:
        pytest.skip(NOT_COMPILED)
    return SimpleNamespace(path="compiled", scan=scan_order.scan, skip=scan_skip.skip, skip_items=scan_skip.skip_items,
                           Skipper=scan_skip.Skipper)


@pytest.fixture(params=["compiled", "source"])
def scanner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """Run the test with the compiled scanner, then with its Python source; the loader, partial.py
    and the locator use the one under test."""
    chosen = scan_compiled() if request.param == "compiled" else scan_source()
    monkeypatch.setattr(jsonscan, "_scan", chosen.scan)
    monkeypatch.setattr(partial, "_Skipper", chosen.Skipper)
    monkeypatch.setattr(locate, "_c_skip", chosen.skip)
    return chosen


@pytest.fixture
def compiled() -> SimpleNamespace:
    """The compiled scanner only: inputs too big for the source (seconds each)."""
    return scan_compiled()
