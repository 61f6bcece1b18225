"""Nothing outside a game's own package names a game, its decision kinds or its concepts.

What would name a game: its registry name and title (any case), its decision kinds as string
literals in Python code (where a dispatch on them would be), and the nouns of its rules listed
below (the games this repository ships; any other installed game is checked by name, title and
kinds). The shared
code (referee, store, tournament, viewers, SDK core, generic bots) must mention none of it, with
one exception: a bracket without ``game:`` is a Saint Malo bracket, as it was before there were
other games, so that brackets written then still run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sdk.games.registry import games

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

#: The nouns of each shipped game's rules, as whole words in any case.
CONCEPTS = {
    "saint_malo": [
        "dice", "pirate", "pirates", "crate", "crates", "wall", "walls", "church", "churches",
        "cannon", "cannons", "citizen", "juggler", "noble", "architect", "merchant", "priest", "soldier",
    ],
    "cities": [
        "empire", "empires", "wonder", "wonders", "capital", "capitals", "unification", "commander",
        "festival", "barbarians", "plague", "protection", "espionage",
    ],
    "masons": [
        "tower", "towers", "house", "houses", "palace", "palaces", "guild", "shore", "mason",
    ],
    "blind_auction": ["prize", "prizes", "bid", "bids"],
    "bruges": [
        "canal", "canals", "guilder", "guilders", "statue", "statues", "reputation", "threat", "threats",
        "majority", "majorities", "penalty", "penalties", "houses", "persons", "knight", "jester", "flood",
        "raid", "intrigue",
    ],
}  # fmt: skip


def patterns(name: str, path: Path) -> list[re.Pattern[str]]:
    plugin = games()[name]
    words = [*CONCEPTS.get(name, []), plugin.name, plugin.title]
    found = [re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)]
    if path.suffix == ".py":
        kinds = "|".join(re.escape(kind) for kind in plugin.decisions.kinds)
        found.append(re.compile(rf"[\"']({kinds})[\"']"))
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
