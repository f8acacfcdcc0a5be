"""Median whole-process CPU (user + system) of shell commands, run in turn: ``python bench/cpu.py N 'cmd1' 'cmd2' ...``.

Why: on a shared machine a ratio is only honest when both sides run in the
same minutes; this runs each command once per round, N rounds, and prints
the median CPU of each (its output goes to /dev/null). The quick side-by-side
checks in docs/performance.md use it; ``make bench`` is the full benchmark.
"""

from __future__ import annotations

import os
import statistics
import sys


def cpu_of(command: str) -> float:
    """CPU seconds of one run of ``command`` (through ``sh -c``), its output discarded."""
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execvp("/bin/sh", ["sh", "-c", "exec " + command])
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit():
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    rounds, commands = int(argv[0]), argv[1:]
    times: dict[str, list[float]] = {command: [] for command in commands}
    for _ in range(rounds):
        for command in commands:
            times[command].append(cpu_of(command))
    for command in commands:
        print(f"{statistics.median(times[command]) * 1000:7.1f} ms  {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
