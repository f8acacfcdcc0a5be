"""orjson against msgspec for what the JSON result writer asks of a JSON library (issue 17).

Measures, in one process, CPU seconds (best of ``--reps``) for:

* ``document``: the whole result of a big tree as Python objects
  (``result_document``), encoded in one call with two-space indentation
  (orjson's ``OPT_INDENT_2``; msgspec's ``encode`` then ``json.format``);
* ``values``: the JSON text of each of 2,000 distinct values, 700 times (what
  the writer does per chunk: one call for the list, then cut apart);
* ``trace``: one call per trace event (200,000 of alpha-beta on the same
  tree), the results kept in a list, or appended to one buffer as made
  (orjson's result keeps a few kilobytes of memory while it lives).

Usage: ``python bench/json_libs.py bench/data/minmax-4-10.json`` (needs
``pip install msgspec``; gametree itself uses only orjson).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

import msgspec
import orjson

from gametree_cli.io.loader import load_tree
from gametree_cli.search.registry import solve
from gametree_cli.views.result_json import event_document, result_document


def best(reps: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(reps):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def _appended(events: list, dumps: Callable[[Any], bytes]) -> bytearray:
    buffer = bytearray()
    for event in events:
        buffer += b",\n    "
        buffer += dumps(event)
    return buffer


def _into(events: list, encoder: msgspec.json.Encoder) -> bytearray:
    buffer = bytearray()
    for event in events:
        buffer += b",\n    "
        encoder.encode_into(event, buffer, -1)
    return buffer


def main(path: str, reps: int = 3) -> None:
    tree = load_tree(path)
    record = solve(tree, "alphabeta")
    started = time.process_time()
    document = result_document(record)
    print(f"result_document (Python objects, {len(tree):,} nodes): {time.process_time() - started:.2f} s")
    values = list(range(-999, 1001))
    events: list = []
    solve(tree, "alphabeta", observer=events.append)
    traced = [event_document(event, tree) for event in events[:200_000]]
    encoder = msgspec.json.Encoder()
    cases = {
        "document": (lambda: orjson.dumps(document, option=orjson.OPT_INDENT_2),
                     lambda: msgspec.json.format(encoder.encode(document), indent=2)),
        "values": (lambda: [orjson.dumps(values)[1:-1].split(b",") for _ in range(700)],
                   lambda: [encoder.encode(values)[1:-1].split(b",") for _ in range(700)]),
        "trace, results kept": (lambda: [orjson.dumps(event) for event in traced],
                                lambda: [encoder.encode(event) for event in traced]),
        "trace, appended to one buffer": (lambda: _appended(traced, orjson.dumps),
                                          lambda: _into(traced, encoder)),
    }
    print(f"| what | orjson {orjson.__version__} | msgspec {msgspec.__version__} |")
    print("|---|---|---|")
    for name, (with_orjson, with_msgspec) in cases.items():
        print(f"| {name} | {best(reps, with_orjson):.3f} s | {best(reps, with_msgspec):.3f} s |")


if __name__ == "__main__":
    main(sys.argv[1])
