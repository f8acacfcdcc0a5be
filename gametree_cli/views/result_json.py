"""The JSON result of contract section 3: a view of one :class:`SearchRecord`."""

from __future__ import annotations

import json
from typing import Any, Iterable, TextIO

from ..events import Event
from ..model import KIND_NAMES, Tree
from ..numbers import Value, format_value, number_to_json, value_to_json
from ..record import SearchRecord

__all__ = ["result_document", "event_document", "write_result", "node_entry", "STREAMED"]


def event_document(event: Event, tree: Tree) -> dict[str, Any]:
    """One trace event as JSON (contract section 3, ``trace``)."""
    document: dict[str, Any] = {"event": event.kind, "node": tree.node_id(event.node), "depth": event.depth}
    if event.alpha is not None:
        document["alpha"] = value_to_json(event.alpha)
    if event.beta is not None:
        document["beta"] = value_to_json(event.beta)
    if event.value is not None:
        document["value"] = value_to_json(event.value)
    if event.detail:
        for key, item in event.detail.items():
            if key == "skipped":
                document["skipped"] = [tree.node_id(node) for node in item]
            elif key == "horizon":
                if item:
                    document["horizon"] = True
            elif key in ("returns", "p", "bound_value", "lower", "upper", "random", "optimal", "mean", "vector"):
                document[key] = value_to_json(item)
            elif key == "terms":  # a chance node's return: each child's [p, value]
                document["terms"] = [[value_to_json(p), value_to_json(value)] for p, value in item]
            else:
                document[key] = item if isinstance(item, (str, int, float, bool)) or item is None else str(item)
    return document


def result_document(
    record: SearchRecord,
    *,
    events: Iterable[Event] | None = None,
    lazy: bool = False,
) -> dict[str, Any]:
    """The contract's JSON result, plus a few documented extra keys.

    With ``lazy``, ``nodes``, ``visit_order`` and ``pruned`` are left as the
    placeholders :data:`STREAMED` for a writer that streams them
    (:mod:`gametree_cli.views.result_stream`); everything else is as usual.

    Extra keys: ``best_moves`` (every equally good root move; left out when
    the search's values cannot tell, see
    :meth:`~gametree_cli.record.SearchRecord.best_moves`), ``depth``,
    ``options``, ``players``, and per node ``type``, ``alpha``/``beta`` (the
    bounds it returned with), ``cut`` (why its remaining children were
    skipped), ``horizon`` (evaluated by ``eval`` at the depth limit) and
    ``bound`` (the Bound shallow pruning searched the node with).
    """
    tree = record.tree
    values = record.values
    best = record.best_move()
    pv = record.principal_variation()
    nodes: dict[str, dict[str, Any]] = {}
    if lazy:
        return _document(record, best, pv, STREAMED, STREAMED, STREAMED, events)
    ids = tree.ids()
    for node in tree.preorder():
        nodes[ids[node]] = node_entry(record, node, values[node])
    pruned = [ids[node] for node in record.pruned]
    visit_order = [ids[node] for node in record.visit_order()]
    return _document(record, best, pv, pruned, visit_order, nodes, events)


def node_entry(record: SearchRecord, node: int, value: Value | None) -> dict[str, Any]:
    """One node's entry of ``nodes`` (``value`` is ``record.values[node]``)."""
    tree = record.tree
    entry: dict[str, Any] = {"visited": value is not None}
    if value is not None:
        entry["value"] = value_to_json(value)
        bounds = record.bounds(node)
        if bounds is not None:
            entry["alpha"], entry["beta"] = (number_to_json(bound) for bound in bounds)  # type: ignore[arg-type]
    node_kind = tree.kind[node]
    entry["type"] = KIND_NAMES[node_kind] if node_kind != 4 else tree.players[tree.player[node]]
    cut = record.cut(node)
    if cut is not None:
        entry["cut"] = cut.reason()
    if record.at_horizon(node):
        entry["horizon"] = True
    if record.bound is not None and node in record.bound:
        entry["bound"] = value_to_json(record.bound[node])  # shallow pruning's Bound
    return entry


#: stands for a part of the result that the streaming writer writes itself
STREAMED: Any = object()


def _document(record: SearchRecord, best: int | None, pv: list[int],
              pruned: Any, visit_order: Any, nodes: Any, events: Iterable[Event] | None) -> dict[str, Any]:
    document: dict[str, Any] = {
        "algorithm": record.algorithm,
        "value": value_to_json(record.value) if record.value is not None else None,
        "best_move": record.move(best) if best is not None else None,
    }
    moves = record.best_moves()
    if moves is not None:
        document["best_moves"] = record.moves(moves)
    document |= {
        "principal_variation": record.moves(pv),
        "pruned": pruned,
        "visit_order": visit_order,
        "nodes": nodes,
        "stats": record.stats.as_dict(),
        "depth": record.depth_limit,
        "players": list(record.tree.players),
    }
    if record.options:
        document["options"] = {key: _plain(item) for key, item in record.options.items()}
    if events is not None:
        document["trace"] = [event_document(event, record.tree) for event in events]
    return document


def _plain(item: Any) -> Any:
    if isinstance(item, (str, int, bool)) or item is None:
        return item
    if isinstance(item, (list, tuple)):
        return [_plain(part) for part in item]
    try:
        return value_to_json(item)
    except (TypeError, AttributeError):
        return str(item)


def write_result(document: dict[str, Any], stream: TextIO) -> None:
    """Write the JSON result as one object on ``stream``."""
    json.dump(document, stream, ensure_ascii=False, indent=1)
    stream.write("\n")


def describe(value: Value | None) -> str:
    return format_value(value)
