"""What the page's practice mode checks a student's entries against, and the answer file it downloads.

Both from the one record: the expected value and bounds of every drawn inner
node, the cuts with their reasons, and the exercise header (tree inline,
algorithm, depth, options) that ``gametree check`` needs to repeat the same
search. The page writes the student's entries under ``answers`` in the
contract's answer-file format (section 4), so the file grades in CI.
"""

from __future__ import annotations

from typing import Any

from ..search.registry import Options
from ..io.document_writer import tree_to_document
from ..core.model import LEAF
from ..core.numbers import format_value
from ..core.printable import printable
from ..search.record import SearchRecord
from .marks import bound_sign
from .page_words import page_reason
from .picture import Drawn

__all__ = ["practice_data"]


def practice_data(record: SearchRecord, drawn: list[Drawn], options: Options | None, complete: bool,
                  lang: str = "en") -> dict[str, Any]:
    """The answer key of the drawn inner nodes, the cuts, and the downloadable exercise's header.

    ``complete``: every node is drawn; practice on a collapsed tree would ask for
    nodes the student cannot see, so the page then offers watching only. ``lang``: the cuts'
    reasons as the page shows them (the downloaded exercise stays as the contract writes it).
    """
    from .answer_key import answer_key  # imported here: it imports the loaders, needed only now

    index = {item.node: position for position, item in enumerate(drawn)}
    entries: list[Any] = []
    for position, item in enumerate(drawn):
        node = item.node
        if item.kind == LEAF or item.hidden:
            entries.append(0)
            continue
        value = record.values[node]
        entry: dict[str, Any] = {"visited": value is not None}
        if value is not None:
            entry["value"] = format_value(value)
            entry["mark"] = bound_sign(record, node)  # as every view reads the record
            window = record.bounds(node)
            if window is not None:
                entry["alpha"], entry["beta"] = format_value(window[0]), format_value(window[1])
        cut = record.cut(node)
        if cut is not None:
            entry["cut"] = page_reason(cut, lang)
        entries.append(entry)
    pruned = [index[node] for node in record.pruned if node in index]
    cut_by = {}
    for position in pruned:  # the cut that skipped it: its parent's reason
        parent = record.tree.parents()[drawn[position].node]
        reason = record.cut(parent)
        name = printable(record.node_id(parent))  # shown on the page
        cut_by[position] = f"{name}: {page_reason(reason, lang)}" if reason is not None else name
    exercise = answer_key(record, tree=tree_to_document(record.tree), options=options)
    exercise.pop("answers")
    exercise["name"] = f"{record.tree.title or 'tree'}: {record.algorithm} (answers from the page)"
    return {
        "available": complete,
        "bounds": record.alpha is not None,
        "prunes": bool(record.pruned) or record.stats.cutoffs > 0 or record.alpha is not None,
        "nodes": entries,
        "pruned": pruned,
        "cutBy": {str(key): value for key, value in cut_by.items()},
        "exercise": exercise,
    }
