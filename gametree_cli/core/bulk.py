"""Helpers for bulk work on big trees.

Why pause the garbage collector: parsing a file creates millions of dicts and
lists in one go, and CPython's cyclic collector rescans the survivors again
and again as they pile up (a 1.4-million-node JSON file parses 2-3x slower
with it running). Parsed documents hold no reference cycles, so nothing is
lost by collecting once afterwards instead.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["paused_gc"]


@contextmanager
def paused_gc() -> Iterator[None]:
    """Switch the cyclic GC off for the block (nestable; restores the previous state).

    On Ctrl-C the objects made meanwhile are frozen (left out of every later
    collection): the run is ending, and scanning millions of them once the
    collector is back on delayed the exit by seconds.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    except KeyboardInterrupt:
        gc.freeze()
        raise
    finally:
        if was_enabled:
            gc.enable()
