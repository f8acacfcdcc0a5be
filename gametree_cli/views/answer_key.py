"""The answer key of a search: the record as an answer file (contract section 4) that ``check`` grades.

A view like the JSON result (it is built from it): every answer ``check`` can
compare, the options that repeat the search, and the YAML text a teacher
hands out or a page downloads.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import GameTreeError
from ..core.numbers import value_to_json
from ..io.loader import read_document, write_atomically
from ..search.options import Options
from ..search.record import SearchRecord
from .result_json import result_document

__all__ = ["answer_key", "dump_answer_file", "write_answer_file"]


def answer_key(
    record: SearchRecord,
    *,
    tree: str | Any,
    options: Options | None = None,
) -> dict[str, Any]:
    """A complete exercise for ``record``: every answer ``check`` can compare.

    Args:
        record: the solved search.
        tree: what to write under ``tree:`` (a path relative to the answer
            file, or the tree document inline).
        options: the options the search ran with; those that differ from the
            defaults are written, so ``check`` repeats the same search.
    """
    result = result_document(record)
    exercise: dict[str, Any] = {"tree": tree, "algorithm": record.algorithm, "depth": record.depth_limit}
    if options is not None:
        defaults = Options()
        for key in ("variant", "strict", "order"):
            if getattr(options, key) != getattr(defaults, key):
                exercise[key] = getattr(options, key)
        for key, item in options.extra.items():
            if key in ("ties", "sum", "bounds"):
                exercise[key] = [value_to_json(part) for part in item] if isinstance(item, tuple) else value_to_json(item)
    nodes: dict[str, Any] = {}
    for node_id, entry in result["nodes"].items():
        if not entry.get("visited"):
            continue
        if "alpha" in entry:
            nodes[node_id] = {"value": entry["value"], "alpha": entry["alpha"], "beta": entry["beta"]}
        else:
            nodes[node_id] = entry["value"]
    exercise["answers"] = {
        "value": result["value"],
        "best_move": result["best_move"],
        **({"best_moves": result["best_moves"]} if "best_moves" in result else {}),  # when the search can tell
        "principal_variation": result["principal_variation"],
        "pruned": result["pruned"],
        "visit_order": result["visit_order"],
        "nodes": nodes,
        "stats": result["stats"],
    }
    return exercise


class _BlockMapping(dict):  # type: ignore[type-arg]
    """A mapping always written one entry per line (``nodes``), however small its entries."""


class _AnswerDumper(yaml.SafeDumper):
    """Safe YAML with ``nodes`` one per line and short lists on one line."""


_AnswerDumper.add_representer(
    _BlockMapping, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)
)


def _nodes_in_block(exercise: dict[str, Any]) -> dict[str, Any]:
    answers = exercise.get("answers")
    if isinstance(answers, dict) and isinstance(answers.get("nodes"), dict):
        exercise = {**exercise, "answers": {**answers, "nodes": _BlockMapping(answers["nodes"])}}
    return exercise


def dump_answer_file(exercise: dict[str, Any], *, comment: str | None = None) -> str:
    """YAML text of an answer file holding one exercise, or several as ``{exercises: [...]}``
    (lists of names on one line, a node per line)."""
    if isinstance(exercise.get("exercises"), list):
        exercise = {**exercise, "exercises": [_nodes_in_block(item) for item in exercise["exercises"]]}
    else:
        exercise = _nodes_in_block(exercise)
    text = yaml.dump(exercise, Dumper=_AnswerDumper, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)
    header = ""
    if comment:
        header = "".join(f"# {line}\n" if line else "#\n" for line in comment.splitlines())
    return header + text


def write_answer_file(
    path: str | os.PathLike[str],
    record: SearchRecord,
    *,
    tree_file: str | None = None,
    tree_text: str | None = None,
    options: Options | None = None,
    force: bool = False,
) -> None:
    """Write the answer key of ``record`` to ``path`` (how a teacher makes one).

    The tree is referred to by its path relative to the answer file's folder
    (``tree_file``), or written inline (``tree_text``, what ``--tree`` gave).

    Raises:
        GameTreeError: no tree file or text (standard input), ``path`` exists
            (without ``force``), is the tree file itself, or cannot be written.
    """
    target = Path(path)
    if tree_text is not None:
        tree: Any = read_document(tree_text, "--tree")[0]
    elif tree_file is not None and tree_file != "-":
        tree = Path(os.path.relpath(Path(tree_file).resolve(), target.resolve().parent)).as_posix()
    else:
        raise GameTreeError("--answers needs the tree as a file or --tree text, not standard input")
    document = answer_key(record, tree=tree, options=options)
    comment = (
        f"Answer key: {record.algorithm}"
        + (f", depth {record.depth_limit}" if record.depth_limit is not None else "")
        + ". Written by gametree solve --answers; check answers with: gametree check FILE"
    )
    protect = (tree_file,) if tree_file not in (None, "-") else ()
    write_atomically(target, dump_answer_file(document, comment=comment), force=force, protect=protect)  # type: ignore[arg-type]
