"""The JSON result of contract section 3: the document for Python callers, and its one writer.

:func:`result_document` builds the result as Python values (``check``,
answer keys and the Python API read it); :func:`write_record` writes the
same content as JSON text, the only place that does. Both take the head
(every key but the per-node lists) from :func:`_head`, the entries of
``nodes`` from :mod:`.node_entries`, and every per-node fact of the record
through :mod:`.record_view`.

The writer's text (docs/solving.md, "The JSON result"): orjson's
two-space indentation, with one line per node in ``nodes`` and per event in
``trace``, each written compactly (``"B.1": {"visited":true,"value":3,"type":"leaf"}``).
It writes ``nodes``, ``visit_order``, ``pruned`` and ``trace`` a chunk
at a time (:data:`CHUNK` nodes), so that a result of millions of nodes never
has its text, or a Python object per node, in memory at once; the chunks'
lines are pasted in NumPy (:mod:`.json_text`, :mod:`.node_ids`). A small
tree's result is written node by node (:mod:`.result_small`) with the
standard library's json (:mod:`.plain_json`: the same bytes, without
importing orjson or NumPy).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..search.events import Event
from ..core.model import Tree
from ..core.numbers import value_to_json
from ..core.buffers import plain_for
from ..core.progress import tick
from ..search.record import SearchRecord
from .json_text import dumps, paste
from .plain_json import Raw, dumps as plain_dumps
from .node_entries import entry_columns, entry_dicts, entry_pieces, visited_entry_pieces
from .node_ids import LINE, NodeIds, tree_order
from .record_view import RecordView
from .result_small import small_document, small_sections

__all__ = ["result_document", "event_document", "write_record", "CHUNK"]

#: nodes (or trace events) per chunk of text; the tests lower it to put chunk boundaries anywhere
CHUNK = 1 << 16
#: where the writer puts a streamed key's value into the head's text (JSON text never holds a raw NUL)
_MARK = Raw("\0")


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
) -> dict[str, Any]:
    """The contract's JSON result as Python values, plus a few documented extra keys.

    Extra keys: ``best_moves`` (every equally good root move; left out when
    the search's values cannot tell, see
    :meth:`~gametree_cli.search.record.SearchRecord.best_moves`), ``depth``,
    ``options``, ``players``, and per node ``type``, ``alpha``/``beta`` (the
    bounds it returned with), ``cut`` (why its remaining children were
    skipped), ``horizon`` (evaluated by ``eval`` at the depth limit) and
    ``bound`` (the Bound shallow pruning searched the node with).
    """
    tree = record.tree
    ids = tree.ids()
    trace = None if events is None else [event_document(event, tree) for event in events]
    if plain_for(tree):  # node by node, without NumPy (result_small.py): check and answer keys of small (or plain) trees
        return _head(record, *small_document(record), trace)
    view = RecordView(record)
    nodes: dict[str, dict[str, Any]] = {}
    order = tree_order(tree)
    for start in range(0, len(order), CHUNK):
        chunk = order[start : start + CHUNK].astype(np.int64)
        nodes.update(zip(map(ids.__getitem__, chunk.tolist()), entry_dicts(entry_columns(view, chunk))))
    visit_order = view.visit_order()
    if visit_order is None:
        visit_order = tree_order(tree, record.depth_limit)
    return _head(record, [ids[node] for node in _listed(view.pruned())],
                 [ids[node] for node in _listed(visit_order)], nodes, trace)


def _listed(nodes: Sequence[int]) -> list[int]:
    return nodes.tolist() if isinstance(nodes, np.ndarray) else list(nodes)


def _head(record: SearchRecord, pruned: Any, visit_order: Any, nodes: Any, trace: Any) -> dict[str, Any]:
    """The result's keys in their order, with the given values for the per-node ones (trace None: no trace)."""
    tree = record.tree
    best = record.best_move()
    document: dict[str, Any] = {
        "algorithm": record.algorithm,
        "value": value_to_json(record.value) if record.value is not None else None,
        "best_move": record.move(best) if best is not None else None,
    }
    moves = record.best_moves()
    if moves is not None:
        document["best_moves"] = record.moves(moves)
    document |= {
        "principal_variation": record.moves(record.principal_variation()),
        "pruned": pruned,
        "visit_order": visit_order,
        "nodes": nodes,
        "stats": record.stats.as_dict(),
        "depth": record.depth_limit,
        "players": list(tree.players),
    }
    if record.options:
        document["options"] = {key: _plain(item) for key, item in record.options.items()}
    if record.probes is not None:  # Star2: each probed node's first-move result and the bound it gave
        document["probes"] = {record.node_id(node): {"bound": side, "value": value_to_json(value)}
                              for node, (side, value) in sorted(record.probes.items())}
    if trace is not None:
        document["trace"] = trace
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


def write_record(
    record: SearchRecord,
    stream: TextIO,
    *,
    events: Iterable[Event] | None = None,
) -> None:
    """Write the contract's JSON result for ``record`` on ``stream`` (UTF-8, one object, a newline after it)."""
    small = plain_for(record.tree)
    # a small (or plain) tree: the same bytes node by node, without NumPy (result_small.py) or orjson (plain_json.py)
    sections = small_sections(record) if small else _chunked_sections(record)
    text_of = plain_dumps if small else dumps
    if events is not None:
        sections.append(_trace(list(events), record.tree, text_of))
    head = text_of(_head(record, _MARK, _MARK, _MARK, None if events is None else _MARK), indent=True)
    write = _byte_writer(stream)
    parts = head.split(b"\0")  # the text around each streamed key's value, in the order of the keys
    for part, section in zip(parts, sections):
        write(part)
        for text in section:
            write(text)
    write(parts[-1] + b"\n")
    if hasattr(stream, "buffer"):
        stream.buffer.flush()


def _chunked_sections(record: SearchRecord) -> list[Iterator[bytes]]:
    """The text of ``pruned``, ``visit_order`` and ``nodes``, a chunk of nodes at a time."""
    view = RecordView(record)
    ids = NodeIds(record.tree)
    visit_order = view.visit_order()
    return [
        _id_list(ids, view.pruned()),
        _id_list(ids, ids.order(record.depth_limit) if visit_order is None else visit_order),
        _entries(ids, view),
    ]


def _byte_writer(stream: TextIO) -> Callable[[Any], Any]:
    """Write UTF-8 text (bytes, or a uint8 array) to ``stream``'s binary buffer (its text layer
    flushed first), else decoded to ``stream`` (a ``StringIO``)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()
        return buffer.write  # type: ignore[no-any-return]
    return lambda text: stream.write(bytes(text).decode("utf-8"))


def _id_list(ids: NodeIds, nodes: Sequence[int]) -> Iterator[bytes]:
    """A list of node ids at depth 1, one per line (``nodes``: a list, or an array, taken a chunk at a time)."""
    if not len(nodes):
        yield b"[]"
        return
    yield b"["
    for start in range(0, len(nodes), CHUNK):
        chunk = np.asarray(nodes[start : start + CHUNK], dtype=np.int64)
        text = paste(ids.pieces(chunk), len(chunk))
        yield text[1:] if start == 0 else text  # no comma before the first
    yield b"\n  ]"


def _entries(ids: NodeIds, view: RecordView) -> Iterator[bytes]:
    """The ``nodes`` object: every node's id and entry, one per line, in tree order."""
    order = ids.order()
    yield b"{"
    for start in range(0, len(order), CHUNK):
        tick("write", start, len(order))
        chunk = order[start : start + CHUNK].astype(np.int64)
        id_pieces = ids.pieces(chunk)
        entries, alone = visited_entry_pieces(view, chunk, b": ") or entry_pieces(entry_columns(view, chunk), b": ")
        stops = np.where(alone, len(id_pieces) + 1, len(id_pieces) + len(entries)) if alone.any() else None
        text = paste([*id_pieces, *entries], len(chunk), stops)
        yield text[1:] if start == 0 else text
    yield b"\n  }"


def _trace(events: list[Event], tree: Tree, dumps: Callable[[Any], bytes]) -> Iterator[bytes]:
    """The ``trace`` list: one event per line, each written by ``dumps``."""
    if not events:
        yield b"[]"
        return
    yield b"["
    for start in range(0, len(events), CHUNK):
        lines = bytearray()
        for event in events[start : start + CHUNK]:
            lines += LINE
            lines += dumps(event_document(event, tree))  # appended at once: orjson's result holds ~4 KB while it lives
        yield lines[1:] if start == 0 else lines
    yield b"\n  ]"
