"""The cyclic garbage collector of a ``gametree`` process: off while it starts, frozen when it ends.

Why: start-up is imports (NumPy alone makes tens of thousands of objects:
functions, classes, docstrings), all of which live as long as the process,
and the collector rescans them again and again as they pile up; at exit
Python collects once more over everything still alive, before freeing it
anyway. Neither finds garbage. Measured on a 1.4-million-node ``.gtb``
solve (``gametree solve bench/data/minmax-4-10.gtb``, 2026-11-25): ~7 ms
of collections during the run and ~6 ms in the exit's collection, of a
~140 ms run (docs/performance.md, issue 14.3).

So the command line switches the collector off before its imports and, once
the start-up is over (the tree read: the reader's modules and, for a big
tree, NumPy are loaded by then), freezes what exists (:func:`gc.freeze`: left
out of every later collection; still freed by reference counting) and
switches it back on: the search and the views, the long part of a big run,
run with the collector as before. At exit it freezes again, so that the
last collection has nothing to scan. Only :mod:`.entry` starts this: the
library, the tests and a ``CliRunner`` run keep the collector as they had it.
"""

from __future__ import annotations

import gc

__all__ = ["pause_for_start_up", "start_up_over", "freeze_for_exit"]

_paused = False  # whether the collector is off because pause_for_start_up switched it off


def pause_for_start_up() -> None:
    """Switch the collector off for the imports of a starting process (it stays off if it already was)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def start_up_over() -> None:
    """Freeze what start-up made and switch the collector back on; nothing when start-up did not pause it."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def freeze_for_exit() -> None:
    """The process ends: leave every living object out of the interpreter's last collection."""
    gc.freeze()
