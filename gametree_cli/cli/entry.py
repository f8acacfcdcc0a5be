"""The ``gametree`` command's entry point.

It imports the command line itself: loading NumPy, rich and the rest takes a
noticeable part of a second, and Ctrl-C meanwhile must end as quietly as
Ctrl-C later (one line, status 130; docs/safety.md). While the imports run,
a signal is only noted: raised as KeyboardInterrupt inside a C extension's
initialisation, it was sometimes swallowed there (the run then went on).
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

__all__ = ["main"]

_STATUS = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}


def main() -> None:
    """Run ``gametree`` with the process's arguments."""
    received: list[int] = []

    def note(signum: int, frame: Any) -> None:
        received.append(signum)

    previous = {signum: signal.signal(signum, note) for signum in _STATUS}
    try:
        from .app import main as run_command_line
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if received:
        status, word = _STATUS[received[0]]
        sys.stderr.write(f"gametree: {word}\n")
        sys.stderr.flush()
        os._exit(status)  # nothing was written yet; skip the teardown of what was imported
    run_command_line()
