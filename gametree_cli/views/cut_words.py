"""The reasons of many alpha-beta cuts at once, for the JSON result's ``cut`` key.

Why: a million-node alpha-beta result has tens of thousands of cuts, and
asking the record for each one's :class:`~gametree_cli.search.record_facts.Cut`
builds a Python object and a sentence per cut. A cut's sentence depends only
on the node's side and two of its numbers (``v``, ``alpha``, ``beta``,
chosen by :func:`~gametree_cli.search.record_facts.cut_form`), so each
distinct pair of the record's codes for them is decoded and worded once, by
``Cut.reason`` itself.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.lazy import lazy_module
np = lazy_module("numpy")

from ..core.model import MAX
from ..search.record import SearchRecord
from ..core.numbers import format_value
from ..search.record_facts import Cut, cut_form
from .slot_codes import same_value_sources

__all__ = ["cut_codes"]


def cut_codes(record: SearchRecord) -> tuple[np.ndarray, np.ndarray, list[str]] | None:
    """``(nodes, codes, reasons)``: the cut nodes (int64) and per node an index into the distinct
    reasons; None when the record cannot give them in bulk (then ask ``record.cuts``)."""
    nodes = record.cut_nodes()
    if nodes is None:
        return None
    values, bounds = record.value_codes(nodes), record.bound_codes(nodes)
    if values is None or bounds is None or len(values[0]) != len(nodes) or len(bounds[0]) != len(nodes):
        return None
    raw = {"v": values[1], "alpha": bounds[1], "beta": bounds[2]}
    strict = bool(record.options.get("strict"))
    hard = record.options.get("variant") in ("hard", "practical")
    is_max = np.frombuffer(record.tree.kind, dtype=np.uint8)[nodes] == MAX
    codes = np.full(len(nodes), -1, dtype=np.int64)
    reasons: list[str] = []
    for side in (True, False):
        here = np.flatnonzero(is_max == side)
        if not len(here):
            continue
        left, op, right = cut_form(side, strict, hard)
        left_texts, left_index = _texts(record, left, raw[left][here])
        right_texts, right_index = _texts(record, right, raw[right][here])
        pairs, inverse = np.unique(left_index * len(right_texts) + right_index, return_inverse=True)
        codes[here] = inverse.reshape(-1) + len(reasons)
        word = _wording(left, op, right)
        reasons += [word(left_texts[pair // len(right_texts)], right_texts[pair % len(right_texts)])
                    for pair in pairs.tolist()]
    return nodes, codes, reasons


def _wording(left: str, op: str, right: str) -> Callable[[str, str], str]:
    """``Cut.reason`` for two numbers' texts: its sentence, with the texts pasted into it."""
    def reason(left_text: str, right_text: str) -> str:  # (format_value keeps a text as it is)
        return Cut(left_text, op, right, right_text, None, left).reason()

    sentence = reason("\0L", "\0R")
    head, found, rest = sentence.partition("\0L")
    middle, found_too, tail = rest.partition("\0R")
    if not found or not found_too or "\0" in head + middle + tail:
        return reason
    return lambda left_text, right_text: f"{head}{left_text}{middle}{right_text}{tail}"


def _texts(record: SearchRecord, name: str, raw: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The distinct texts (``format_value``) of the values of ``raw`` codes of ``v``, ``alpha`` or ``beta``,
    and per code its text's index."""
    same = same_value_sources(record.tree, raw)  # leaves of equal values: one code (one decoding)
    distinct, inverse = np.unique(raw if same is None else same, return_inverse=True)
    texts = list(map(format_value, _decode(record, name, distinct)))
    position: dict[str, int] = {}
    merged = np.fromiter((position.setdefault(text, len(position)) for text in texts), dtype=np.int64,
                         count=len(texts))
    return list(position), merged[inverse.reshape(-1)]


def _decode(record: SearchRecord, name: str, codes: np.ndarray) -> list[Any]:
    """The values of the record's codes of ``v``, ``alpha`` or ``beta``."""
    if name == "v":
        return record.decode_values(codes)
    none = codes[:0]
    alphas, betas = record.decode_bounds(codes, none) if name == "alpha" else record.decode_bounds(none, codes)
    return alphas if name == "alpha" else betas
