"""Game plugins by name, discovered through the ``smtourney.games`` entry points."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from .plugin import GamePlugin

ENTRY_POINT_GROUP = "smtourney.games"


@cache
def games() -> dict[str, GamePlugin]:
    """Every installed game plugin, by registry name."""
    found: dict[str, GamePlugin] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        plugin: GamePlugin = entry.load()
        found[plugin.name] = plugin
    return found


def get_game(name: str) -> GamePlugin:
    """The plugin named ``name``; ``KeyError`` lists the known games."""
    known = games()
    if name not in known:
        raise KeyError(f"unknown game {name!r}; installed games: {', '.join(sorted(known)) or 'none'}")
    return known[name]
