"""What :mod:`.search` (and the JSON scanner, formats/scan_*.py) uses of Cython's ``cython`` module, for an install without Cython.

Why: Cython is a build tool, not a run-time requirement. An install made
without it (or without a C compiler: then the build environment had Cython,
but the run-time one need not) runs ``search.py`` as ordinary Python, and
these stand-ins let its decorators do nothing, as Cython's own shadow module
does when it is installed. Type annotations are never evaluated (the module
uses ``from __future__ import annotations``); the types given to
``@cython.locals`` are, and stand in as their names.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["cython"]


class _Shadow:
    """``cython.compiled``; the decorators ``cclass``, ``cfunc``, ``ccall``, ``final``, ``inline``,
    ``boundscheck(...)``, ``wraparound(...)``, ``exceptval(...)`` and ``locals(...)``, which change nothing; ``declare(type, value)``, the
    value; ``fused_type(...)``, a placeholder; any type name (``cython.longlong``)."""

    compiled = False

    @staticmethod
    def cclass(cls: type) -> type:
        return cls

    cfunc = ccall = final = inline = cclass

    @staticmethod
    def exceptval(*value: Any, check: bool = True) -> Callable[[Any], Any]:
        return lambda function: function

    @staticmethod
    def boundscheck(flag: bool) -> Callable[[Any], Any]:
        return lambda function: function

    wraparound = boundscheck

    @staticmethod
    def declare(kind: Any = None, value: Any = None) -> Any:
        return value

    @staticmethod
    def locals(**types: Any) -> Callable[[Any], Any]:
        return lambda function: function

    @staticmethod
    def fused_type(*types: Any) -> Any:
        return object  # a fused C type (io/gtb_columns.py): only ever used in annotations, never evaluated

    def __getattr__(self, name: str) -> str:
        return name  # a C type's name: only ever passed to locals(), which ignores it


cython = _Shadow()
