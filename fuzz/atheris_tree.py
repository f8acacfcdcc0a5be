"""Coverage-guided fuzzing of gametree's readers, searches and views with atheris (libFuzzer).

The same property as tests/test_fuzz.py (fuzz/harness.py): every input ends
as a result or as a clean one-line GameTreeError; anything else is a crash
that libFuzzer saves as ``crash-*`` for replay. Hangs are caught with
``-timeout=S`` and memory runaway with ``-rss_limit_mb=M``.

An input is one byte choosing what it is (a tree file of some format, or
an answer file), four bytes seeding the search options, and the file's
bytes. Half the mutations are libFuzzer's own (with the dictionary of
nasty tokens), half fuzz/mutate.py's token, number, key and line edits.

Run (``make fuzz`` does)::

    python fuzz/atheris_tree.py --prepare build/fuzz        # seed corpus and dictionary
    python fuzz/atheris_tree.py build/fuzz/corpus -dict=build/fuzz/tokens.dict \\
        -max_total_time=300 -timeout=20 -rss_limit_mb=2048 -artifact_prefix=build/fuzz/

Replay a crash: ``python fuzz/atheris_tree.py build/fuzz/crash-...``.
"""

from __future__ import annotations

import hashlib
import random
import struct
import sys
import tempfile
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

with atheris.instrument_imports(include=["gametree_cli", "fuzz"]):
    from fuzz.harness import Workspace, run_answer_input, run_tree_input
    from fuzz.mutate import KINDS, mutate
    from fuzz.seeds import NASTY_TOKENS, answer_seeds, tree_seeds

#: what the first byte selects: a tree file's extension, or None for an answer file
TARGETS: tuple[str | None, ...] = (".yaml", ".json", ".efg", ".gtb", "", None)
_HEADER = 5

_workspace = Workspace(tempfile.mkdtemp(prefix="gametree-atheris-"))


def encode(target: str | None, option_seed: int, data: bytes) -> bytes:
    """An atheris input: target byte, option seed, file bytes."""
    return bytes([TARGETS.index(target)]) + struct.pack("<I", option_seed & 0xFFFFFFFF) + data


def decode(data: bytes) -> tuple[str | None, int, bytes]:
    if len(data) < _HEADER:
        return ".yaml", 0, data
    (option_seed,) = struct.unpack_from("<I", data, 1)
    return TARGETS[data[0] % len(TARGETS)], option_seed, data[_HEADER:]


def test_one_input(data: bytes) -> None:
    """Any exception escaping is a finding (the harness turns the expected errors into outcomes)."""
    target, option_seed, content = decode(data)
    if target is None:
        run_answer_input(content, _workspace)
    else:
        run_tree_input(content, target, random.Random(option_seed), _workspace)


def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
    """libFuzzer's byte mutations half the time, gametree's token/number/key/line edits the other half."""
    chooser = random.Random(seed)
    if chooser.random() < 0.5 or len(data) < _HEADER:
        return atheris.Mutate(data, max_size)
    target, option_seed, content = decode(data)
    if chooser.random() < 0.1:
        target = chooser.choice(TARGETS)
    edits = [(chooser.randrange(len(KINDS)), chooser.randrange(1 << 20), chooser.randrange(1 << 12), chooser.randrange(256))
             for _ in range(chooser.randint(1, 3))]
    mutated = mutate(content, edits, target or ".yaml")
    return encode(target, chooser.randrange(1 << 32) if chooser.random() < 0.2 else option_seed, mutated)[:max_size]


def prepare(directory: Path) -> None:
    """Write the seed corpus (every seed of fuzz/seeds.py, for its target) and the libFuzzer dictionary."""
    corpus = directory / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    inputs = [encode(extension, 0, data) for _, extension, data in tree_seeds()]
    inputs += [encode(None, 0, data) for _, _, data in answer_seeds()]
    for item in inputs:
        (corpus / hashlib.sha1(item).hexdigest()).write_bytes(item)
    lines = [f'"{_dictionary_escape(token)}"' for token in NASTY_TOKENS if len(token) <= 64]
    (directory / "tokens.dict").write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {len(inputs)} seed inputs to {corpus} and {len(lines)} tokens to {directory / 'tokens.dict'}")


def _dictionary_escape(token: bytes) -> str:
    """libFuzzer dictionary syntax: printable ASCII as is, except quote and backslash; the rest \\xNN."""
    return "".join(chr(byte) if 32 <= byte < 127 and byte not in b'"\\' else f"\\x{byte:02X}" for byte in token)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--prepare":
        prepare(Path(sys.argv[2]))
        return
    atheris.Setup(sys.argv, test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
