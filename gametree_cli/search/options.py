"""What shapes a search besides the tree (:class:`Options`), and what a registered algorithm is."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from .events import Observer
from ..core.model import Tree
from .record import SearchRecord

__all__ = ["Options", "Algorithm", "VARIANTS"]

#: alpha-beta's forms (docs/solving.md): AIMA's fail-soft, classic fail-hard, the course notes' practical form
VARIANTS = ("soft", "hard", "practical")


class Options:
    """Everything that shapes a search besides the tree and the observer.

    A plain class, not a dataclass: ``dataclasses`` imports ``inspect``, ~8 ms
    of a small solve's start-up (docs/performance.md, "the library's imports on a small solve").

    Attributes:
        depth: plies below the root at which to stop and use ``eval``.
        variant: alpha-beta's form, ``soft`` (default), ``hard`` or ``practical`` (:data:`VARIANTS`).
        strict: prune only on strict inequalities.
        order: children order for pruning searches: ``given``, ``best``, ``worst``.
        extra: algorithm-specific settings (``ties``, ``sum``, ``bounds``...).
    """

    __slots__ = ("depth", "variant", "strict", "order", "extra")

    def __init__(self, depth: int | None = None, variant: str = "soft", strict: bool = False, order: str = "given",
                 extra: dict[str, Any] | None = None) -> None:
        self.depth, self.variant, self.strict, self.order = depth, variant, strict, order
        self.extra: dict[str, Any] = {} if extra is None else extra

    def copy(self) -> Options:
        """The same options with their own ``extra``: settings added to it leave these as they are."""
        return Options(self.depth, self.variant, self.strict, self.order, dict(self.extra))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Options):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    def __repr__(self) -> str:
        return "Options(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__) + ")"


class Algorithm(NamedTuple):
    """One registered algorithm.

    Attributes:
        name: what ``--algo`` says.
        summary: one line for ``--help`` and the docs.
        unfit: returns None when the algorithm can search the tree, else why not.
        run: the search itself.
        prunes: True when it may skip subtrees (``pruned`` can be non-empty).
    """

    name: str
    summary: str
    unfit: Callable[[Tree, Options], str | None]
    run: Callable[[Tree, Options, Observer | None], SearchRecord]
    prunes: bool = False
