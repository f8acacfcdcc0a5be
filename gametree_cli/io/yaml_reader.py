"""Reading YAML trees: PyYAML (libyaml when there) behind the fast reader, with located errors.

Why a module of its own: PyYAML costs start-up time that a JSON or binary
tree never needs, so :mod:`.loader` imports this only for a YAML file.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..core.errors import TreeFormatError
from .deepyaml import DeepSafeLoader, DepthExceeded, read_by_depth
from .locate import Locator, deep_call, yaml_locator
from .node_rules import NumberText, is_decimal_text
from .strict_json import line_column, too_long_integer

__all__ = ["read_yaml", "load_yaml", "YAML_MAX_DEPTH", "YAML_MAX_PLIES"]


class _UniqueKeys:
    """PyYAML's safe loading, refusing a key given twice in one mapping.

    PyYAML keeps the last of two ``children:`` silently; a user who wrote both
    meant something else. (The fast reader refuses duplicates too, and hands
    such files to this loader for the message.)
    """

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: dict[str, int] = {}
        written: list[tuple[str, str]] | None = None
        for key_node, value_node in node.value if isinstance(node, yaml.MappingNode) else ():  # !!map on a scalar: PyYAML says
            if isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<":
                if key_node.value in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None,
                        f"the key {key_node.value!r} is given twice in one mapping (also at line {seen[key_node.value]})",
                        key_node.start_mark,
                    )
                seen[key_node.value] = key_node.start_mark.line + 1
                if value_node.tag == _INT_TAG and key_node.value in _NAME_KEYS and isinstance(value_node, yaml.ScalarNode) \
                        and not is_decimal_text(value_node.value):
                    written = (written or []) + [(key_node.value, value_node.value)]
        mapping = super().construct_mapping(node, deep)  # type: ignore[misc]
        if written:  # an id or move YAML 1.1 read as a number from other text (0x1F, 017, 1:30)
            for key, text in written:
                if isinstance(mapping.get(key), int):
                    mapping[key] = NumberText(text, mapping[key])
        return mapping


#: the keys whose integers are names, kept with their text when that is not their decimal digits
_NAME_KEYS = frozenset({"id", "move"})
_INT_TAG = "tag:yaml.org,2002:int"


class _TagChecks(_UniqueKeys):
    """Says where a tagged value is that PyYAML's constructors crash on or
    cannot convert (``!!timestamp x``, ``!!bool x``, ``!!int ""``, ``!!int
    1/3``). A wrapper per node costs a third more time, so only a load that
    raised is repeated with it."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)  # type: ignore[misc]
        except _CONSTRUCTOR_CRASHES as error:
            if isinstance(error, ValueError) and "digits" in str(error):
                raise  # an integer too long: located by too_long_integer
            why = f" ({error})" if isinstance(error, ValueError) else ""
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise yaml.constructor.ConstructorError(
                None, None, f"the value {node.value!r} does not fit its tag {tag}{why}", node.start_mark) from None


_CONSTRUCTOR_CRASHES = (AttributeError, KeyError, IndexError, TypeError, ValueError)

#: Deepest tree (plies below the root) a YAML file may hold, whatever form ``convert`` writes it in.
YAML_MAX_PLIES = 100_000
#: Deepest YAML nesting read (mappings and lists), from the plies: the document's mapping, then two
#: levels a ply (a node's mapping and its ``children`` list), and the deepest leaf's mapping with its
#: vector value (n players) under it. Past libyaml's own cap (1,000 levels) PyYAML's pure-Python
#: parser reads 25,000-50,000 levels a second (docs/limits.md).
YAML_MAX_DEPTH = 1 + 2 * YAML_MAX_PLIES + 2

_LIBYAML = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_UniqueKeys, _LIBYAML):  # type: ignore[misc,valid-type]
    """libyaml's loader (PyYAML's own when libyaml is missing): ordinary files."""


class _TagCheckingLoader(_TagChecks, _LIBYAML):  # type: ignore[misc,valid-type]
    pass


class _DeepUniqueKeyLoader(_UniqueKeys, DeepSafeLoader):
    """PyYAML's pure-Python loader, any depth up to :data:`YAML_MAX_DEPTH`: files libyaml cannot nest."""

    max_depth = YAML_MAX_DEPTH


class _DeepTagCheckingLoader(_TagChecks, DeepSafeLoader):
    max_depth = YAML_MAX_DEPTH


def load_yaml(text: str, deep: bool) -> Any:
    """PyYAML's document for ``text``; a tagged value it cannot construct becomes a located ConstructorError."""
    loader, checking = (_DeepUniqueKeyLoader, _DeepTagCheckingLoader) if deep else (_UniqueKeyLoader, _TagCheckingLoader)
    try:
        return yaml.load(text, loader)
    except _CONSTRUCTOR_CRASHES as error:
        if isinstance(error, ValueError) and "digits" in str(error):
            raise
        return yaml.load(text, checking)


#: texts shorter than this go straight to PyYAML: the fast path checks a text with NumPy, whose import
#: (~0.06 s) costs more than PyYAML reading 32 KB (~0.015 s; 7 KB: 4 ms); a course's trees are far smaller
FAST_FROM = 1 << 15


def _fast_yaml_document(text: str) -> tuple[bool, Any]:
    """:func:`.fastyaml.fast_yaml_document`, imported when first needed: a course's small file never
    takes the fast path, and the module's import (its regular expressions) cost ~4 ms of every YAML run."""
    from .fastyaml import fast_yaml_document
    return fast_yaml_document(text)


def read_yaml(text: str, name: str) -> tuple[Any, Locator | None]:
    # a plain file: the fast parser is 10-30x faster than PyYAML, same document
    parsed, document = _fast_yaml_document(text) if len(text) >= FAST_FROM else (False, None)
    if parsed and document is not None:
        return document, yaml_locator(text)
    try:
        document = deep_call(read_by_depth, text, lambda deep: load_yaml(text, deep))
    except DepthExceeded as error:
        raise TreeFormatError(f"the YAML nests deeper than {YAML_MAX_DEPTH:,} levels (a tree {YAML_MAX_PLIES:,} plies deep); "
                              "write deep trees in JSON",
                              file=name, line=error.mark.line + 1, column=error.mark.column + 1) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        if problem.startswith("could not determine a constructor for the tag"):
            tag = problem.rsplit(" ", 1)[-1].strip("'").replace("tag:yaml.org,2002:", "!!")
            problem = f"the tag {tag} is not allowed: gametree reads plain YAML data (standard tags only)"
            raise TreeFormatError(problem, file=name, line=mark.line + 1 if mark else None,
                                  column=mark.column + 1 if mark else None) from None
        at_tab = mark is not None and 0 <= mark.index < len(text) and text[mark.index] == "\t"
        if at_tab or "'\\t'" in problem or "\t" in problem:
            problem = "a tab character: YAML indentation must use spaces"
        else:
            problem = f"invalid YAML: {problem}"
            if error.context:
                problem += f" ({error.context})"
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        raise TreeFormatError(problem, file=name, line=line, column=column) from None
    except yaml.reader.ReaderError as error:  # a character YAML does not allow, e.g. NUL
        character = error.character if isinstance(error.character, str) else chr(error.character)
        # libyaml's position counts bytes; the first occurrence of the character is the one it reports
        line, column = line_column(text, text.find(character) if character in text else error.position)
        raise TreeFormatError(f"invalid YAML: the character U+{ord(character):04X} is not allowed in YAML text",
                              file=name, line=line, column=column) from None
    except yaml.YAMLError as error:
        raise TreeFormatError(f"invalid YAML: {error}", file=name) from None
    except RecursionError:
        raise TreeFormatError("the YAML nests too deeply to read", file=name) from None
    except ValueError as error:  # PyYAML converting a tagged or implicit scalar (int, float, timestamp)
        if "digits" in str(error):  # an integer of more than MAX_DIGITS digits
            parsed, document = (False, None) if len(text) >= FAST_FROM else _fast_yaml_document(text)
            if parsed:  # the fast parser reads long integers: the tree's checks then name the node too
                return document, yaml_locator(text)
            raise too_long_integer(text, name) from None
        raise TreeFormatError(f"invalid YAML: a value that cannot be converted: {error}", file=name) from None
    if document is None:
        raise TreeFormatError("empty file: expected a tree", file=name, line=1)
    return document, yaml_locator(text)
