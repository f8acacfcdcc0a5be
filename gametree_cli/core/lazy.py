"""Modules imported on first use: NumPy, PyYAML and rich cost start-up time most runs never need.

Why: importing NumPy takes about 0.1 s of CPU, PyYAML 0.02 s and rich 0.05 s,
several times the whole of a small ``gametree solve`` (a textbook script
solves AIMA's figure 5.2 in about 0.03 s, interpreter included). Modules
that use them only inside functions bind the name with :func:`lazy_module`
instead of ``import``: the name is a module object at once, and the real
import runs the first time an attribute is read (the standard library's
:class:`importlib.util.LazyLoader`). A small JSON tree is then read,
searched and written without ever loading NumPy; a big one loads it at the
first array it makes (``tests/test_startup.py`` checks which modules a run
loaded).

Type hints such as ``np.ndarray`` stay strings (``from __future__ import
annotations``), so they do not trigger the import.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

__all__ = ["lazy_module", "SMALL_TREE"]

#: Trees with fewer nodes than this are read, searched and written without NumPy (plain arrays and
#: lists): below it NumPy's import (~0.1 s) costs more than the work it would speed up.
SMALL_TREE = 4096


def lazy_module(name: str) -> ModuleType:
    """``name``, imported now if it already is, else when one of its attributes is first read."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
