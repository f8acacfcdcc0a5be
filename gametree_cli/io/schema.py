"""A JSON Schema (draft 2020-12) for tree files, contract section 1.

Editors (VS Code's YAML extension, JetBrains) use it to complete keys and flag
mistakes while a tree is being typed, long before ``gametree solve`` runs;
CI jobs of course repositories can validate their trees with it. The schema
checks shape only: rules that need the whole tree (unique ids, probabilities
summing to 1, vector lengths matching ``players``, alternation) stay with the
loader.
"""

from __future__ import annotations

from typing import Any

__all__ = ["tree_schema", "TYPE_PATTERN"]

#: Exact fractions and integers as strings: "7/3", "-2".
_FRACTION_PATTERN = r"^-?\d+(/\d+)?$"
#: Decimals as strings: "0.25", "-.5", "1e-3" (YAML may leave them quoted).
_DECIMAL_PATTERN = r"^-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$"
#: The characters Python's ``str.strip()`` removes (``str.isspace``), spelled out: the loader strips
#: them around ``type``, and ``\s`` differs between Python and an editor's ECMA-262 regular expressions.
_SPACE = r"[\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
#: ``max``, ``min`` or ``chance`` in any case, as the loader reads ``type`` (``str(t).strip().lower()``).
TYPE_PATTERN = rf"^{_SPACE}*([mM][aA][xX]|[mM][iI][nN]|[cC][hH][aA][nN][cC][eE]){_SPACE}*$"


def tree_schema() -> dict[str, Any]:
    """The JSON Schema of a tree file (a new dict on every call; callers may edit it).

    The top level is a mapping with ``root``, a bare node mapping, a compact
    nested list, or a single number, as the loader accepts them.
    """
    number: dict[str, Any] = {
        "description": "an integer, a decimal, or an exact fraction written as a string \"a/b\"",
        "anyOf": [
            {"type": "number"},
            {"type": "string", "pattern": _FRACTION_PATTERN},
            {"type": "string", "pattern": _DECIMAL_PATTERN},
        ],
    }
    vector = {
        "description": "one payoff per player (n-player trees)",
        "type": "array",
        "items": {"$ref": "#/$defs/number"},
        "minItems": 2,
    }
    compact = {
        "description": "a compact subtree: numbers are leaves, lists are inner nodes, levels alternate",
        "type": "array",
        "minItems": 1,
        "items": {"anyOf": [{"$ref": "#/$defs/number"}, {"$ref": "#/$defs/compact"}]},
    }
    node = _node_schema()
    child = {
        "description": "a node, a bare number (a leaf), a bare vector or a compact nested list",
        "anyOf": [{"$ref": "#/$defs/node"}, {"$ref": "#/$defs/number"}, {"$ref": "#/$defs/compact"}],
    }
    probability = {
        "anyOf": [
            {"type": "number", "minimum": 0, "maximum": 1},
            {"type": "string", "pattern": r"^\d+(/\d+)?$"},
            {"type": "string", "pattern": r"^(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$"},
        ]
    }
    document = _document_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gametree tree file",
        "description": "an explicit game tree for gametree (YAML or JSON)",
        "anyOf": [
            {"$ref": "#/$defs/document"},
            {"$ref": "#/$defs/node"},
            {"$ref": "#/$defs/compact"},
            {"$ref": "#/$defs/number"},
        ],
        "$defs": {
            "document": document,
            "node": node,
            "child": child,
            "compact": compact,
            "vector": vector,
            "number": number,
            "probability": probability,
        },
    }


def _node_schema() -> dict[str, Any]:
    """A node mapping: its keys and what each may hold."""
    return {
        "description": "a node: a leaf has value, an inner node children",
        "type": "object",
        "properties": {
            "id": {
                "description": "unique name; default: the parent's id, a dot, the 1-based child index",
                "type": ["string", "integer"],
                "minLength": 1,
            },
            "move": {"description": "label of the edge from the parent; default: the id", "type": ["string", "integer"]},
            "type": {"description": "max, min or chance; case does not matter",  # the enum: editors complete it
                     "anyOf": [{"enum": ["max", "min", "chance"]}, {"type": "string", "pattern": TYPE_PATTERN}]},
            "player": {
                "description": "n-player trees: the name or 0-based index of the player to move",
                "anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}],
            },
            "children": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/child"}},
            "value": {"anyOf": [{"$ref": "#/$defs/number"}, {"$ref": "#/$defs/vector"}]},
            "eval": {
                "description": "heuristic value used where a depth limit stops the search",
                "anyOf": [{"$ref": "#/$defs/number"}, {"$ref": "#/$defs/vector"}],
            },
            "p": {"description": "probability of this child under a chance parent", "$ref": "#/$defs/probability"},
            "random": {
                "description": "opponent model: probability that this decision node moves uniformly at random",
                "$ref": "#/$defs/probability",
            },
            "comment": {"type": "string"},
            "label": {"type": "string"},
        },
        "additionalProperties": False,
        "oneOf": [{"required": ["children"]}, {"required": ["value"]}],
    }


def _document_schema() -> dict[str, Any]:
    """The top-level mapping: the header keys and the root."""
    return {
        "description": "a tree file: optional header keys and the root",
        "type": "object",
        "properties": {
            "$schema": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            "comment": {"type": "string"},
            "players": {
                "description": "default [MAX, MIN]; three or more names make an n-player tree",
                "type": "array",
                "items": {"type": ["string", "number"]},
                "minItems": 2,
                "uniqueItems": True,
            },
            "sum": {"description": "the constant sum of every leaf vector", "$ref": "#/$defs/number"},
            "bounds": {
                "description": "lowest and highest possible leaf value",
                "type": "array",
                "prefixItems": [{"$ref": "#/$defs/number"}, {"$ref": "#/$defs/number"}],
                "minItems": 2,
                "maxItems": 2,
            },
            "general_sum": {
                "description": "a two-player game with payoff vectors (read from a general-sum .efg file)",
                "type": "boolean",
            },
            "root": {"anyOf": [{"$ref": "#/$defs/node"}, {"$ref": "#/$defs/compact"}, {"$ref": "#/$defs/number"}]},
        },
        "required": ["root"],
        "additionalProperties": False,
    }
