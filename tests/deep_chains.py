"""Deep chains as JSON tree files, for the tests and measurements of deep results (docs/limits.md).

Why strings: ``json.dumps`` recurses and stops near 1,000 levels; a chain is
one repeated opening, a leaf and the matching closings, so it is written as such.
"""

from __future__ import annotations


def explicit_chain(depth: int) -> str:
    """A chain ``depth`` plies deep, every node with its own short id (``n0`` ... ``n<depth>``),
    alternating max and min, its one leaf worth 7."""
    kinds = ("max", "min")
    opening = "".join(f'{{"id": "n{level}", "type": "{kinds[level % 2]}", "children": [' for level in range(depth))
    return '{"root": ' + opening + f'{{"id": "n{depth}", "value": 7}}' + "]}" * depth + "}\n"


def default_chain(depth: int) -> str:
    """A chain ``depth`` plies deep without ids: the contract names its nodes ``1``, ``1.1``, ``1.1.1``, ..."""
    return '{"root": ' + '{"children": [' * depth + "7" + "]}" * depth + "}\n"


def chain_ids(depth: int, explicit: bool) -> list[str]:
    """The ids of the chain's nodes, root first, by the contract's rule (written independently of the code)."""
    if explicit:
        return [f"n{level}" for level in range(depth + 1)]
    ids, current = ["root"], ""
    for _ in range(depth):
        current = f"{current}.1" if current else "1"
        ids.append(current)
    return ids
