"""The ``gametree`` command's entry point.

The everyday command lines (``solve``, the help pages) run without typer
(:mod:`.quick`). For the others it imports the command line itself: loading
typer, NumPy, rich and the rest takes a noticeable part of a second, and Ctrl-C meanwhile must end as quietly as
Ctrl-C later (one line, status 130; docs/safety.md). While the imports run,
a signal is only noted: raised as KeyboardInterrupt inside a C extension's
initialisation, it was sometimes swallowed there (the run then went on).

NumPy's OpenBLAS starts a thread per core when NumPy is imported, and they
spin for a while: on this 2-core machine that was ~0.07 s of CPU per run,
for nothing (gametree calls no BLAS routine: no matrix products, no linear
algebra). The command line therefore asks OpenBLAS for one thread unless
the user set ``OPENBLAS_NUM_THREADS`` (the library, imported from Python,
leaves the caller's environment alone).
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
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from .collector import freeze_for_exit, pause_for_start_up, start_up_over

    pause_for_start_up()  # no collections among the imports (collector.py says why; back on once the tree is read)
    received: list[int] = []

    def note(signum: int, frame: Any) -> None:
        received.append(signum)

    # a signal the parent made us ignore (nohup, `cmd &` in a non-interactive shell) stays ignored
    previous = {signum: signal.signal(signum, note) for signum in _STATUS
                if signal.getsignal(signum) is not signal.SIG_IGN}
    try:
        from .process import run_process
        from .quick import plan

        quick_run = plan(sys.argv[1:])  # solve and the help pages: no typer to import (quick.py)
        if quick_run is None:
            from .app import main as run_command_line

            start_up_over()  # typer's imports are done; the command's own follow with the collector on
        else:
            def run_command_line() -> None:
                run_process(quick_run)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if received:
        status, word = _STATUS[received[0]]
        sys.stderr.write(f"gametree: {word}\n")
        sys.stderr.flush()
        os._exit(status)  # nothing was written yet; skip the teardown of what was imported
    try:
        run_command_line()
    finally:
        freeze_for_exit()
