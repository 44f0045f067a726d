"""The import graph of a package, as ``ast`` reads it from the source: every
import at any depth (module level, inside a function, under ``if TYPE_CHECKING``),
absolute or relative, ``from package import module`` and ``import_module("...")``
with a literal name.  ``tests/test_architecture.py`` checks the layers and the
cycles of ``src/metricdiff/`` with it; its own tests plant imports in a copy.

A module is named by its dotted name (``metricdiff.cases.fixtures``; a package by
its ``__init__.py``: ``metricdiff.cases``).  An import names the module it loads:
``from metricdiff.cases import fixtures`` is ``metricdiff.cases.fixtures``,
``from metricdiff.cases import Case`` is ``metricdiff.cases``.  Importing a
module also runs its parents' ``__init__.py``, but that is the import system's
doing, not an arrow of the importing module's: like any import-graph tool, this
one does not draw it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

Graph = dict[str, set[str]]


def module_names(package: Path) -> dict[str, Path]:
    """Every module of the package folder ``package``, by dotted name."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imported(node: ast.AST, here: str, is_package: bool) -> Iterator[tuple[str, list[str]]]:
    """(module named, names taken from it) for each import the node makes."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, []
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = here.split(".")
            if not is_package:
                parts.pop()
            parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*parts, base]) if base else ".".join(parts)
        yield base, [alias.name for alias in node.names]
    elif (isinstance(node, ast.Call) and node.args
          and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
          and (getattr(node.func, "attr", None) == "import_module"
               or getattr(node.func, "id", None) == "import_module")):
        yield node.args[0].value, []


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """The module ``name`` loads: itself, or the package it is an attribute of."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports(package: Path) -> dict[str, dict[str, int]]:
    """Module -> each module of the same package it imports, with the line of the
    first import of it: every import statement anywhere in the module."""
    modules = module_names(package)
    found: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: dict[str, int] = {}
        for node in ast.walk(tree):
            for base, taken in _imported(node, name, _is_package(path)):
                named = [f"{base}.{member}" for member in taken]
                loaded = {n if n in modules else _known(base, modules) for n in named}
                if not taken:
                    loaded = {_known(base, modules)}
                for target in loaded - {None, name}:
                    assert target is not None
                    line = getattr(node, "lineno", 0)
                    targets[target] = min(targets.get(target, line), line)
        found[name] = targets
    return found


def import_graph(package: Path) -> Graph:
    """Module -> the modules of the same package that it imports."""
    return {name: set(targets) for name, targets in imports(package).items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each
    sorted: the import cycles of the graph."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
