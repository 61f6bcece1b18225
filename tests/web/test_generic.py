"""The web viewer knows no game: everything game-specific comes from the game's own drawing module."""

from __future__ import annotations

import re
from pathlib import Path

from sdk.games.registry import games

WEB = Path(__file__).resolve().parents[2] / "server" / "web"
#: Words of the first game's board that a generic viewer has no business saying.
GAME_WORDS = re.compile(r"\b(dice|die|pirates?|city|cities)\b", re.IGNORECASE)


def web_sources() -> dict[Path, str]:
    found = {
        path: path.read_text(encoding="utf-8")
        for path in sorted(WEB.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert {p.suffix for p in found} >= {".py", ".html", ".js", ".css"}, found.keys()
    return found


def test_no_installed_game_is_named_in_the_web_viewer() -> None:
    names = {
        spelling.lower()
        for plugin in games().values()
        for name in (plugin.name, plugin.title)
        for spelling in (name, name.replace("_", " "), name.replace("_", "-"), name.replace(" ", "_"))
    }
    assert names, "no game is installed"
    for path, text in web_sources().items():
        lowered = text.lower()
        assert not [n for n in names if n in lowered], f"{path} names a game"


def test_no_game_concept_is_named_in_the_web_viewer() -> None:
    for path, text in web_sources().items():
        assert not GAME_WORDS.findall(text), f"{path}: {sorted(set(GAME_WORDS.findall(text)))}"
