"""What a pruning search that builds Python values fills in as it goes, before it is a :class:`SearchRecord`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.model import Tree
from ..core.numbers import Value
from .record import SearchRecord
from .record_facts import Cut, Stats

__all__ = ["PruningLog"]


@dataclass(eq=False)
class PruningLog:
    """What a pruning search that builds Python values (Star1) fills in as it goes.

    The search binds these containers to locals for its hot loop; the log
    then hands them to a :class:`SearchRecord`, which wraps them in columns.
    """

    values: list[Value | None]
    alpha: dict[int, Value] = field(default_factory=dict)
    beta: dict[int, Value] = field(default_factory=dict)
    best: dict[int, int] = field(default_factory=dict)
    cuts: dict[int, Cut] = field(default_factory=dict)
    pruned: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    horizon: set[int] = field(default_factory=set)

    @classmethod
    def for_tree(cls, tree: Tree) -> "PruningLog":
        """Empty containers, and a value slot per node of ``tree``."""
        return cls([None] * len(tree.kind))

    def record(self, algorithm: str, tree: Tree, stats: Stats, depth_limit: int | None,
               options: dict[str, Any]) -> SearchRecord:
        return SearchRecord(algorithm, tree, self.values[0], self.values, best=self.best, pruned=self.pruned,
                            stats=stats, alpha=self.alpha, beta=self.beta, cuts=self.cuts, horizon=self.horizon,
                            order=self.order, depth_limit=depth_limit, options=options)
