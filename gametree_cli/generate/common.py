"""What every generator shares: the error for impossible arguments."""

from __future__ import annotations

from ..core.errors import GameTreeError

__all__ = ["GeneratorError"]


class GeneratorError(GameTreeError):
    """A generator was given an impossible position or limit (a ValueError)."""
