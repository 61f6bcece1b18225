"""Nothing outside a game's own package names a game, its decision kinds or its concepts.

What would name a game: its registry name and title (any case), its decision kinds as string
literals in Python code (where a dispatch on them would be), and the nouns of its rules, which
every game declares in its own folder (``NOUNS`` in its ``view.py``). The shared
code (referee, store, tournament, viewers, SDK core, generic bots) must mention none of it, with
one exception: a bracket without ``game:`` is a Saint Malo bracket, as it was before there were
other games, so that brackets written then still run.
"""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from sdk.games.registry import get_game

from .example_install import installed_games_with_example

ROOT = Path(__file__).resolve().parent.parent.parent
SHARED = [
    *sorted((ROOT / "server").rglob("*.py")),
    *sorted((ROOT / "server").rglob("*.js")),
    *sorted((ROOT / "server").rglob("*.html")),
    *sorted((ROOT / "sdk").glob("*.py")),
    *sorted((ROOT / "sdk" / "games").glob("*.py")),
    *sorted((ROOT / "sdk" / "search").glob("*.py")),
    ROOT / "bots" / "random.py",
    ROOT / "proto" / "smtourney" / "v1" / "bot.proto",
]
BRACKET = ROOT / "server" / "tournament" / "bracket.py"
LEGACY_DEFAULT = 'default="saint_malo",  # brackets from before'


def nouns(name: str) -> tuple[str, ...]:
    """The game's own ``NOUNS``, from the ``view`` module beside its plugin."""
    package = type(get_game(name)).__module__.rpartition(".")[0]
    try:
        view = importlib.import_module(f"{package}.view")
    except ModuleNotFoundError:
        view = None
    declared = getattr(view, "NOUNS", None)
    assert declared, f"{name}: declare NOUNS, the nouns of its rules, in {package}.view"
    return tuple(declared)


def patterns(name: str, path: Path) -> list[re.Pattern[str]]:
    plugin = get_game(name)
    words = [*nouns(name), plugin.name, plugin.title]
    found = [re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)]
    # A kind that is a word of the shared code is the game's clash, reported by the test below.
    kinds = [kind for kind in plugin.decisions.kinds if kind not in shared_literals()]
    if path.suffix == ".py" and kinds:
        found.append(re.compile(r"[\"'](" + "|".join(map(re.escape, kinds)) + r")[\"']"))
    return found


@pytest.mark.parametrize("game", installed_games_with_example())
def test_shared_code_names_nothing_of_a_game(game: str) -> None:
    hits = []
    for path in SHARED:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if path == BRACKET and line.strip().startswith(LEGACY_DEFAULT):
                continue
            for pattern in patterns(game, path):
                found = pattern.search(line)
                if found:
                    hits.append(f"{path.relative_to(ROOT)}:{number}: {found.group(0)!r} in {line.strip()}")
    assert not hits, f"shared code names {game}:\n" + "\n".join(hits)


@pytest.mark.parametrize("game", installed_games_with_example())
def test_no_decision_kind_is_a_word_of_the_shared_code(game: str) -> None:
    """A decision kind that is also a string of the shared code is almost always a game naming its
    kind like a word the shared code uses (``turn``): the message says so, naming the kind first."""
    shared = shared_literals()
    clashes = sorted(kind for kind in get_game(game).decisions.kinds if kind in shared)
    assert not clashes, (
        f"{game}'s decision kind {', '.join(map(repr, clashes))} is a word the shared code already uses "
        "(as a string): rename the kind after the game's own thing (Bruges calls its rules' 'turn' "
        "'take_turn'), unless the shared code dispatches on the game's kind, which it must not"
    )


@cache
def shared_literals() -> frozenset[str]:
    """Every string literal of the shared Python code."""
    found: set[str] = set()
    for path in SHARED:
        if path.suffix == ".py":
            found.update(
                node.value
                for node in ast.walk(ast.parse(path.read_text()))
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            )
    return frozenset(found)


def test_the_clash_check_sees_the_words_of_the_shared_code() -> None:
    assert {"turn", "seat"} <= shared_literals() and "take_turn" not in shared_literals()
