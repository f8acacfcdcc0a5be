"""Run a command and write its own CPU seconds and peak memory to a file: ``rusage.py OUT COMMAND...``.

Why not ``wait4`` in the runner: on Linux a process's peak resident memory
(``ru_maxrss``) survives ``exec``, so a command spawned by the runner starts
with the runner's own peak (hundreds of MB after generating the trees), and
small runs all showed the same figure. This wrapper starts small (``-S``),
forks, and reports the grandchild's numbers, which start from its size.
"""

import os
import sys

out, command = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(command[0], command)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as stream:
    stream.write(f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}\n")
sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
