"""No game module imports a sibling inside a function.

An import inside a function body is how an import circle gets dodged at call time: the circle
stays, and the hot path pays for the lookup on every call. A game's modules import each other at
the top; a module that needs another's type only for hints imports it under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_SOURCES = [
    *sorted((ROOT / "sdk" / "games").rglob("*.py")),
    *sorted((ROOT / "tests" / "example_game" / "smtourney_example").rglob("*.py")),
]


def imports_inside_functions(source: str) -> list[tuple[int, str]]:
    """(line, import) of every relative or ``sdk.games`` import inside a function body."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom):
                own = node.level > 0 or (node.module or "").startswith("sdk.games")
            elif isinstance(node, ast.Import):
                own = any(alias.name.startswith("sdk.games") for alias in node.names)
            else:
                continue
            if own:
                found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


def test_the_scan_sees_an_import_inside_a_function() -> None:
    source = "from . import state\n\ndef apply(x):\n    from .rules import check\n    return check(x)\n"
    assert imports_inside_functions(source) == [(4, "from .rules import check")]


def test_no_game_module_imports_a_sibling_inside_a_function() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in GAME_SOURCES
        for line, text in imports_inside_functions(path.read_text())
    ]
    advice = "import at the top; an import only for type hints goes under TYPE_CHECKING"
    assert not hits, f"imports inside functions ({advice}):\n" + "\n".join(hits)
