"""What :mod:`.search` uses of Cython's ``cython`` module, for an install without Cython.

Why: Cython is a build tool, not a run-time requirement. An install made
without it (or without a C compiler: then the build environment had Cython,
but the run-time one need not) runs ``search.py`` as ordinary Python, and
these stand-ins let its decorators do nothing, as Cython's own shadow module
does when it is installed. Type annotations are never evaluated (the module
uses ``from __future__ import annotations``), so no type names are needed.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["cython"]


class _Shadow:
    """``cython.compiled``, ``@cython.cclass``, ``@cython.boundscheck(...)``, ``@cython.wraparound(...)``."""

    compiled = False

    @staticmethod
    def cclass(cls: type) -> type:
        return cls

    @staticmethod
    def boundscheck(flag: bool) -> Callable[[Any], Any]:
        return lambda function: function

    wraparound = boundscheck


cython = _Shadow()
