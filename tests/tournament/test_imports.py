"""The tournament package's imports point one way: no circle among its modules, none dodged.

Read from the source (the AST), not from a run: an import at module level (under ``if`` or
``try`` included, under ``if TYPE_CHECKING`` not, as it never runs) is an edge of the graph. A
relative import inside a function is how a circle is dodged at call time, so none is allowed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "tournament"


def module_name(path: Path, root: Path) -> str:
    """Dotted name of ``path`` within the package at ``root`` (named after its folder)."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Imports that run when the module is imported: not in functions or classes, nor TYPE_CHECKING."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not is_type_checking(node.test):
                yield from module_level_imports(node.body)
            yield from module_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from module_level_imports(block)
        elif isinstance(node, ast.With):
            yield from module_level_imports(node.body)


def targets(
    node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, modules: set[str]
) -> set[str]:
    """The package's modules that ``node`` imports (``from x import y`` counts ``x.y`` when a module)."""
    if isinstance(node, ast.Import):
        bases = [alias.name for alias in node.names]
        names: list[str] = []
    else:
        if node.level:
            package = importer.split(".") if is_package else importer.split(".")[:-1]
            anchor = package[: len(package) - (node.level - 1)]
            bases = [".".join([*anchor, *([node.module] if node.module else [])])]
        else:
            bases = [node.module or ""]
        names = [alias.name for alias in node.names]
    found = set()
    for base in bases:
        for candidate in (base, *(f"{base}.{name}" for name in names)):
            short = candidate.removeprefix("server.")
            if short in modules:
                found.add(short)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at ``root`` and the package modules it imports at module level."""
    files = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges: set[str] = set()
        for node in module_level_imports(tree.body):
            edges |= targets(node, name, path.name == "__init__.py", set(files))
        graph[name] = edges - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan), as a path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [path_through(graph, group) for group in groups]


def path_through(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A circle within ``group`` from its first module back to it, for the failure message."""
    start = group[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for nxt in sorted(graph[node] & set(group)):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                frontier.append(nxt)
    raise AssertionError("a strongly connected group has a circle")  # pragma: no cover


def relative_imports_in_functions(root: Path) -> list[str]:
    """``file:line`` of each relative import inside a function body."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom) and node.level:
                        found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return sorted(set(found))


def test_no_import_circle_among_the_tournament_modules() -> None:
    graph = import_graph(PACKAGE)
    assert "tournament.executors" in graph and "tournament.pool" in graph["tournament.executors"]
    assert circles(graph) == []


def test_no_relative_import_inside_a_function_of_the_tournament_package() -> None:
    assert relative_imports_in_functions(PACKAGE) == []


@pytest.fixture
def circular_package(tmp_path: Path) -> Path:
    """A package whose circle is at module level (a -> b -> c -> a) and whose d dodges one."""
    root = tmp_path / "tournament"
    (root / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "from .b import x\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import y\n"
        "from .sub import c\n",
        "sub/__init__.py": "",
        "sub/c.py": "try:\n    from ..a import z\nexcept ImportError:\n    pass\n",
        "d.py": "def late():\n    from .b import x\n    return x\n",
    }
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def test_the_checks_find_a_circle_and_a_dodged_import(circular_package: Path) -> None:
    """The checks above can fail: a module-level circle through a subpackage is reported as a
    path, an import under TYPE_CHECKING is no edge, and an import inside a function is found."""
    graph = import_graph(circular_package)
    assert graph["tournament.b"] == {"tournament.sub", "tournament.sub.c"}
    assert circles(graph) == [["tournament.a", "tournament.b", "tournament.sub.c", "tournament.a"]]
    assert relative_imports_in_functions(circular_package) == ["tournament/d.py:2"]
