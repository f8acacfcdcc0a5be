"""What shapes a search besides the tree (:class:`Options`), and what a registered algorithm is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .events import Observer
from ..core.model import Tree
from .record import SearchRecord

__all__ = ["Options", "Algorithm", "VARIANTS"]

#: alpha-beta's forms (docs/solving.md): AIMA's fail-soft, classic fail-hard, the course notes' practical form
VARIANTS = ("soft", "hard", "practical")


@dataclass
class Options:
    """Everything that shapes a search besides the tree and the observer.

    Attributes:
        depth: plies below the root at which to stop and use ``eval``.
        variant: alpha-beta's form, ``soft`` (default), ``hard`` or ``practical`` (:data:`VARIANTS`).
        strict: prune only on strict inequalities.
        order: children order for pruning searches: ``given``, ``best``, ``worst``.
        extra: algorithm-specific settings (``ties``, ``sum``, ``bounds``...).
    """

    depth: int | None = None
    variant: str = "soft"
    strict: bool = False
    order: str = "given"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Algorithm:
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
