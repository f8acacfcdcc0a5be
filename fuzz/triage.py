"""A plain random mutation loop that groups its findings: how the bugs of docs/fuzzing.md were sorted.

Hypothesis stops at the first failure and atheris at the first crash; this
loop keeps going and prints each distinct failure once (by exception type
and innermost gametree line), with the seed, mutations and option seed that
replay it, and the outcome counts::

    python -m fuzz.triage 4000 tree 1      # N inputs, tree | gtb | answers, random seed
"""

from __future__ import annotations

import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter

from .harness import FuzzFailure, Workspace, run_answer_input, run_tree_input
from .mutate import KINDS, mutate
from .seeds import answer_seeds, tree_seeds

_HEADER = KINDS.index("header")


def main(count: int, kind: str, seed: int) -> int:
    workspace = Workspace(tempfile.mkdtemp(prefix="gametree-triage-"))
    chooser = random.Random(seed)
    seeds = answer_seeds() if kind == "answers" else tuple(
        item for item in tree_seeds() if kind == "tree" or item[1] == ".gtb")
    outcomes: Counter[str] = Counter()
    found: dict[tuple[str, ...], str] = {}

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("an input took more than 20 s")

    signal.signal(signal.SIGALRM, hung)
    started = time.perf_counter()
    for _ in range(count):
        label, extension, data = chooser.choice(seeds)
        kinds = [_HEADER, _HEADER, _HEADER, 0] if kind == "gtb" else range(len(KINDS))
        edits = [(chooser.choice(kinds), chooser.randrange(1 << 20), chooser.randrange(1 << 12), chooser.randrange(256))
                 for _ in range(chooser.randint(1, 4))]
        options = chooser.randrange(1 << 32)
        signal.alarm(20)
        try:
            content = mutate(data, edits, extension)
            if kind == "answers":
                outcomes[run_answer_input(content, workspace)] += 1
            else:
                outcomes[run_tree_input(content, extension, random.Random(options), workspace)] += 1
        except Exception as error:  # noqa: BLE001 - every finding is collected
            outcomes["failure"] += 1
            frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "gametree_cli" in frame.filename]
            where = f"{frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else "?"
            key = ("FuzzFailure", str(error)[:60]) if isinstance(error, FuzzFailure) else (type(error).__name__, where)
            found.setdefault(key, f"{label}{extension} edits={edits} options={options}: {type(error).__name__}: {str(error)[:300]}")
        finally:
            signal.alarm(0)
    print(f"{count} {kind} inputs in {time.perf_counter() - started:.0f} s: {dict(outcomes)}")
    for key, replay in found.items():
        print(f"- {' '.join(key)}\n  {replay}")
    return 1 if found else 0


if __name__ == "__main__":
    arguments = sys.argv[1:] + [None] * 3
    sys.exit(main(int(arguments[0] or 1000), arguments[1] or "tree", int(arguments[2] or 0)))
