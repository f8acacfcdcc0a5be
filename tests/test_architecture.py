"""The package's shape (docs/architecture.md): layers import downward only, no cycles, small modules."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gametree_cli"
#: a layer may import its own layer and those with a lower rank; the facade (the package's
#: __init__, api.py, __main__.py) sits above everything
RANK = {"core": 0, "io": 1, "generate": 1, "search": 2, "views": 3, "exercises": 4, "cli": 5}
FACADE = 9
MAX_MODULE_LINES = 400


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["gametree_cli", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every package module ``name`` imports, also inside functions and TYPE_CHECKING blocks."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                found.add(candidate if candidate in modules else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module in modules and module != name}


def _rank(module: str) -> int:
    parts = module.split(".")
    return RANK.get(parts[1], FACADE) if len(parts) > 1 else FACADE


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def test_every_module_is_in_a_layer() -> None:
    loose = [name for name in _graph() if _rank(name) == FACADE
             and name not in ("gametree_cli", "gametree_cli.api", "gametree_cli.__main__")]
    assert not loose, f"modules outside the layers (docs/architecture.md): {loose}"


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a higher layer (or, within io's rank, of the neighbour package)."""
    return sorted(f"{name} -> {target}" for name, targets in graph.items() for target in targets
                  if _rank(target) > _rank(name)
                  or (_rank(target) == _rank(name) == RANK["io"] and name.split(".")[1] != target.split(".")[1]))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles: strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(sorted(graph[start])))]
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_layers_import_downward_only() -> None:
    upward = upward_imports(_graph())
    assert not upward, "imports against the layers (docs/architecture.md):\n" + "\n".join(upward)


def test_no_import_cycles() -> None:
    assert not cycles(_graph())


def test_the_checks_can_fail() -> None:
    """A made-up graph with a cycle and an upward import is caught."""
    made_up = {"gametree_cli.core.a": {"gametree_cli.views.b"}, "gametree_cli.views.b": {"gametree_cli.core.a"},
               "gametree_cli.io.c": {"gametree_cli.generate.d"}, "gametree_cli.generate.d": set()}
    assert cycles(made_up) == [["gametree_cli.core.a", "gametree_cli.views.b"]]
    assert upward_imports(made_up) == ["gametree_cli.core.a -> gametree_cli.views.b",
                                       "gametree_cli.io.c -> gametree_cli.generate.d"]
    modules = _modules()
    assert "gametree_cli.search.record" in _imports("gametree_cli.views.annotated",
                                                    modules["gametree_cli.views.annotated"], modules)


def test_modules_are_small() -> None:
    big = {str(path.relative_to(PACKAGE)): lines for path in PACKAGE.rglob("*.py")
           if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not big, f"modules over {MAX_MODULE_LINES} lines: {big}"
