"""Answer files (contract section 4): read them and check their shape (keys: :mod:`gametree_cli.views.answer_key`).

An answer file holds one exercise mapping, a list of them, or a mapping with
``exercises: [...]`` (whose other keys, e.g. ``tree``, are defaults for every
exercise). An exercise names its tree (a path relative to the answer file,
or the tree itself inline), how to solve it, and ``answers``: any subset of
the JSON result's keys. Reading checks the file's shape only, naming
file:line for every mistake; :mod:`gametree_cli.exercises.check` solves and compares.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..core.lazy import lazy_module
yaml = lazy_module("yaml")

from ..search.registry import Options, get_algorithm
from ..core.errors import ExerciseError, GameTreeError, TreeFormatError
from ..io.files import read_input_text
from ..io.document import build_tree
from ..io.loader import load_tree, read_document
from ..io.locate import deep_call
from ..core.model import Source, Tree
from ..core.numbers import parse_number
from .answer_shape import validate_answers

__all__ = [
    "ANSWER_SUFFIXES",
    "ANSWER_KEYS",
    "Exercise",
    "read_answer_file",
    "parse_answer_text",
]

#: What ``gametree check DIRECTORY`` looks for.
ANSWER_SUFFIXES = (".answers.yaml", ".answers.yml", ".answers.json")

#: Keys of the JSON result an answer may give (``trace`` is not checked).
ANSWER_KEYS = (
    "algorithm",
    "value",
    "best_move",
    "best_moves",
    "principal_variation",
    "pruned",
    "visit_order",
    "nodes",
    "stats",
    "depth",
    "players",
)
#: Per-node answers in the long form ``{value: 3, alpha: ..., beta: ...}``.
_OPTION_KEYS = ("variant", "strict", "order", "ties", "sum", "bounds")
_EXERCISE_KEYS = frozenset({"name", "tree", "algorithm", "depth", "answers", "comment", "description", *_OPTION_KEYS})
_FILE_KEYS = frozenset({"exercises", "title", "comment", "description"})

KeyPath = tuple[Any, ...]


class _Positions:
    """Line and column of any value of a YAML/JSON text, by its path of keys
    and indexes; the text is composed again only when an error needs one."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._root: Any = None
        self._composed = False

    def _document(self) -> Any:
        if not self._composed:
            self._composed = True
            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            try:
                self._root = deep_call(yaml.compose, self.text, loader)
            except (yaml.YAMLError, RecursionError):
                self._root = None
        return self._root

    def node(self, path: KeyPath, *, key: bool = False) -> Any:
        """The composed node at ``path`` (its key node when ``key``), or None."""
        current = self._document()
        for depth, step in enumerate(path):
            current = _step(current, step, key=key and depth == len(path) - 1)
            if current is None:
                return None
        return current

    def written(self, path: KeyPath, *, key: bool = False) -> str | None:
        """The text of the integer at ``path`` (its key when ``key``), as written, or None."""
        node = self.node(path, key=key)
        return node.value if isinstance(node, yaml.ScalarNode) and node.tag == _INT_TAG else None

    def __call__(self, path: KeyPath, *, key: bool = False) -> tuple[int | None, int | None]:
        return _mark(self.node(path, key=key))

    def tree_locator(self, base: KeyPath) -> Callable[[tuple[Any, ...]], tuple[int | None, int | None]]:
        """A tree locator (see :mod:`gametree_cli.io.locate`) for a tree written inline at ``base``."""

        def locate(path: tuple[Any, ...]) -> tuple[int | None, int | None]:
            if path and path[0] == "key":
                return self(base + (path[1],), key=True)
            node = self.node(base)
            node = _step(node, "root") or node
            for position in path:  # one step per level: a deep tree costs its depth, once
                if isinstance(node, yaml.MappingNode):
                    node = _step(node, "children")
                node = _step(node, position)
                if node is None:
                    return None, None
            return _mark(node)

        return locate


def _step(node: Any, step: Any, *, key: bool = False) -> Any:
    """A composed mapping's entry ``step`` (or its key node), a sequence's item ``step``, or None."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if str(key_node.value) == str(step):
                return key_node if key else value_node
        if type(step) is int:  # a key YAML read as an integer from other text: nodes: {0x1F: 3}
            for key_node, value_node in node.value:
                if key_node.tag == _INT_TAG and _read_int(key_node.value) == step:
                    return key_node if key else value_node
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
        return node.value[step]
    return None


_INT_TAG = "tag:yaml.org,2002:int"


def _read_int(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def _mark(node: Any) -> tuple[int | None, int | None]:
    if node is None:
        return None, None
    return node.start_mark.line + 1, node.start_mark.column + 1


@dataclass
class Exercise:
    """One exercise of an answer file, validated but not yet solved.

    Attributes:
        name: what the report calls it (``name`` in the file, else the file's stem).
        file: the answer file, as the user named it.
        tree: the tree's path (relative to the working directory), or the inline document.
        tree_label: how reports show the tree (the path, or ``inline``).
        algorithm: the ``--algo`` to use; None lets the tree choose.
        options: depth, variant, strict, order and algorithm-specific settings.
        answers: the expected subset of the JSON result, as written.
        where: the exercise's path inside the answer file (for locating errors).
    """

    name: str
    file: str
    tree: str | Any
    tree_label: str
    algorithm: str | None
    options: Options
    answers: dict[str, Any]
    where: KeyPath = ()
    positions: _Positions | None = field(default=None, repr=False)

    def error(self, message: str, *path: Any, key: bool = False) -> ExerciseError:
        """An ExerciseError located at ``path`` below this exercise (file:line:col)."""
        line, column = self.positions(self.where + path, key=key) if self.positions else (None, None)
        if line is None and self.positions is not None:
            line, column = self.positions(self.where)
        return ExerciseError(message, file=self.file, line=line, column=column)

    def load_tree(self) -> Tree:
        """The exercise's tree: its file, or the inline document (errors name the answer file's lines)."""
        if isinstance(self.tree, str):
            if not os.path.exists(self.tree):
                raise self.error(f"tree: no such file {self.tree}", "tree")
            return load_tree(self.tree)
        locator = self.positions.tree_locator(self.where + ("tree",)) if self.positions else None
        return build_tree(self.tree, Source(self.file, locator))


def read_answer_file(path: str | os.PathLike[str]) -> list[Exercise]:
    """Read and validate an answer file.

    Raises:
        ExerciseError: unreadable file, bad YAML/JSON, or a shape the contract
            does not allow (unknown key, missing ``tree`` or ``answers``, a bad
            option); the message names file:line.
    """
    name = os.fspath(path)
    text = read_input_text(name, error=ExerciseError, what="an answer file")
    return parse_answer_text(text, name)


def parse_answer_text(text: str, name: str) -> list[Exercise]:
    """Exercises from the text of an answer file called ``name`` (paths in it are relative to ``name``)."""
    if not text.strip():
        raise ExerciseError("empty file: expected an exercise, a list of them, or 'exercises: [...]'", file=name, line=1)
    if text.lstrip().startswith("EFG "):
        raise ExerciseError(_TREE_NOT_ANSWERS.format(kind="a Gambit game (.efg)"), file=name, line=1)
    fmt = "json" if name.lower().endswith(".json") else "yaml"
    try:
        document, _ = read_document(text, name, fmt)
    except TreeFormatError as error:
        raise ExerciseError(error.message, file=name, line=error.line, column=error.column) from None
    kind = _tree_file_kind(document)
    if kind is not None:
        raise ExerciseError(_TREE_NOT_ANSWERS.format(kind=kind), file=name, line=1)
    positions = _Positions(text)

    def fail(message: str, path: KeyPath = (), key: bool = False) -> ExerciseError:
        line, column = positions(path, key=key)
        return ExerciseError(message, file=name, line=line, column=column)

    defaults: dict[str, Any] = {}
    if isinstance(document, list):
        raws, base = document, ()
    elif isinstance(document, dict) and "exercises" in document:
        raws, base = document["exercises"], ("exercises",)
        if not isinstance(raws, list):
            raise fail("exercises must be a list of exercises", base)
        for key, item in document.items():
            if key in _FILE_KEYS:
                continue
            if key == "answers" or key not in _EXERCISE_KEYS:
                raise fail(f"unknown key {key!r} beside exercises (allowed: defaults for every exercise: "
                           f"{', '.join(sorted(_EXERCISE_KEYS - {'answers', 'name', 'comment', 'description'}))})", (key,), True)
            defaults[key] = item
    elif isinstance(document, dict):
        raws, base = [document], None
    else:
        raise fail("expected an exercise (a mapping with tree and answers), a list of them, or 'exercises: [...]'")
    if not raws:
        raise fail("no exercises in the file", base or ())
    stem = Path(name).name
    for suffix in ANSWER_SUFFIXES + (".yaml", ".yml", ".json"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    exercises = []
    for index, raw in enumerate(raws):
        where: KeyPath = () if base is None else base + (index,)
        default_name = stem if len(raws) == 1 else f"{stem} #{index + 1}"
        exercises.append(_exercise(raw, defaults, name, where, default_name, positions))
    return exercises


_TREE_NOT_ANSWERS = ("this is a tree file ({kind}), not an answer file: run `gametree solve` on it, "
                     "or name it in an answer file's `tree:` (docs/exercises.md)")


def _tree_file_kind(document: Any) -> str | None:
    """What kind of tree file ``document`` is, or None when it may be an answer file.

    ``check`` is often handed the tree by mistake; its keys (``root``, ``title``)
    would otherwise be reported one by one as unknown exercise keys.
    """
    if isinstance(document, dict) and "root" in document and not {"tree", "answers", "exercises"} & document.keys():
        return "it has a root"
    if isinstance(document, list) and document and all(
            isinstance(item, (int, float, list)) and not isinstance(item, bool) for item in document):
        return "a nested list: the compact form"
    return None


def _exercise(raw: Any, defaults: dict[str, Any], file: str, where: KeyPath, default_name: str, positions: _Positions) -> Exercise:
    def fail(message: str, *path: Any, key: bool = False) -> ExerciseError:
        line, column = positions(where + path, key=key)
        if line is None:
            line, column = positions(where)
        return ExerciseError(message, file=file, line=line, column=column)

    if not isinstance(raw, dict):
        raise fail("an exercise must be a mapping with tree and answers")
    unknown = [key for key in raw if key not in _EXERCISE_KEYS]
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} in an exercise (known: {', '.join(sorted(_EXERCISE_KEYS))})", unknown[0], key=True)
    spec = {**defaults, **raw}
    if spec.get("tree") is None:
        raise fail("no tree: give 'tree: PATH' (relative to this file) or the tree inline")
    tree = spec["tree"]
    if isinstance(tree, str):
        if tree == "-":
            raise fail("tree: '-' (standard input) cannot be used in an answer file", "tree")
        tree_path = tree if os.path.isabs(tree) else os.path.normpath(os.path.join(os.path.dirname(file), tree))
        tree_value: str | Any = tree_path
        label = tree_path
    elif isinstance(tree, (dict, list)):
        tree_value, label = tree, "inline"
    else:
        raise fail("tree: expected a file path or a tree written inline", "tree")
    algorithm = spec.get("algorithm")
    if algorithm is not None:
        if not isinstance(algorithm, str):
            raise fail("algorithm: expected a name", "algorithm")
        try:
            algorithm = get_algorithm(algorithm).name
        except GameTreeError as error:
            raise fail(f"algorithm: {error.message}", "algorithm") from None
    options = _options(spec, fail)
    answers = spec.get("answers")
    if answers is None:
        raise fail("no answers: give 'answers:' with some of value, best_move, pruned, nodes, ...")
    if not isinstance(answers, dict) or not answers:
        raise fail("answers must be a mapping with some of the JSON result's keys", "answers")
    for key in answers:
        if key not in ANSWER_KEYS:
            raise fail(f"answers: unknown key {key!r} (known: {', '.join(ANSWER_KEYS)})", "answers", key, key=True)
    exercise_name = spec.get("name")
    exercise = Exercise(
        name=str(exercise_name) if exercise_name is not None else default_name,
        file=file,
        tree=tree_value,
        tree_label=label,
        algorithm=algorithm,
        options=options,
        answers=answers,
        where=where,
        positions=positions,
    )
    validate_answers(exercise.answers, exercise.error, lambda path, key=False: positions.written(where + path, key=key))
    return exercise


def _options(spec: dict[str, Any], fail: Callable[..., ExerciseError]) -> Options:
    options = Options()
    depth = spec.get("depth")
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise fail("depth: expected a whole number of plies, 0 or more (or null)", "depth")
        options.depth = depth
    variant = spec.get("variant", "soft")
    if variant not in ("soft", "hard", "practical"):
        raise fail(f"variant: expected soft, hard or practical, not {variant!r}", "variant")
    options.variant = variant
    strict = spec.get("strict", False)
    if not isinstance(strict, bool):
        raise fail("strict: expected true or false", "strict")
    options.strict = strict
    order = spec.get("order", "given")
    if order not in ("given", "best", "worst"):
        raise fail(f"order: expected given, best or worst, not {order!r}", "order")
    options.order = order
    if spec.get("ties") is not None:
        options.extra["ties"] = str(spec["ties"])
    if spec.get("sum") is not None:
        try:
            options.extra["sum"] = parse_number(spec["sum"])
        except ValueError as error:
            raise fail(f"sum: {error}", "sum") from None
    bounds = spec.get("bounds")
    if bounds is not None:
        if not isinstance(bounds, list) or len(bounds) != 2:
            raise fail("bounds: expected [lowest, highest]", "bounds")
        try:
            options.extra["bounds"] = (parse_number(bounds[0]), parse_number(bounds[1]))
        except ValueError as error:
            raise fail(f"bounds: {error}", "bounds") from None
    return options
