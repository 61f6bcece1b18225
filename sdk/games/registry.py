"""Game plugins by name, discovered through the ``smtourney.games`` entry points.

A game family (``smtourney.game_families``) adapts a whole collection of games: its games are
named ``<prefix>:<game>`` and made on demand (``get_game``); the ones it lists are checked and
shown with the installed games (``listed_games``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

from .plugin import GamePlugin

ENTRY_POINT_GROUP = "smtourney.games"
FAMILY_GROUP = "smtourney.game_families"


class GameFamily(Protocol):
    """A collection of games adapted as one: ``<prefix>:<game>``."""

    prefix: str

    def game(self, name: str) -> GamePlugin:
        """The plugin of ``name`` (after the prefix); KeyError, one line, when there is none."""
        ...

    def listed(self) -> dict[str, GamePlugin]:
        """The family's games checked and listed with the installed games, by registry name."""
        ...


#: The project file of a source checkout, whose entry points are only seen once installed.
PROJECT_FILE = Path(__file__).resolve().parents[2] / "pyproject.toml"


@cache
def games() -> dict[str, GamePlugin]:
    """Every installed game plugin, by registry name."""
    found: dict[str, GamePlugin] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        plugin: GamePlugin = entry.load()
        found[plugin.name] = plugin
    return found


@cache
def families() -> dict[str, GameFamily]:
    """Every installed game family, by prefix."""
    found: dict[str, GameFamily] = {}
    for entry in entry_points(group=FAMILY_GROUP):
        family: GameFamily = entry.load()
        found[family.prefix] = family
    return found


def listed_games() -> dict[str, GamePlugin]:
    """The installed games and those the families list, by registry name."""
    found = dict(games())
    for family in families().values():
        found.update(family.listed())
    return found


def get_game(name: str) -> GamePlugin:
    """The plugin named ``name``; ``KeyError`` lists the known games, or says how to install a game
    the project declares but the installed metadata does not have yet."""
    prefix, colon, rest = name.partition(":")
    if colon:
        family = families().get(prefix)
        if family is None:
            installed = ", ".join(sorted(families())) or "none"
            raise KeyError(f"unknown game family {prefix!r} in {name!r}; installed: {installed}")
        return family.game(rest)
    known = games()
    if name not in known:
        for missing in declared_but_not_installed():
            if missing.name == name:
                raise KeyError(missing.hint())
        raise KeyError(f"unknown game {name!r}; installed games: {', '.join(sorted(known)) or 'none'}")
    return known[name]


@dataclass(frozen=True, slots=True)
class UninstalledGame:
    """An entry point the project file declares that the installed metadata does not have yet."""

    name: str
    target: str
    project_file: Path

    def hint(self) -> str:
        return (
            f"game {self.name!r} ({self.target}) is declared in {self.project_file} but not installed; "
            f"reinstall the project to register it: pip install -e {self.project_file.parent}"
        )


def declared_but_not_installed(project_file: Path | None = None) -> list[UninstalledGame]:
    """Games the project file declares under ``smtourney.games`` that no installed entry point has.

    Entry points are read from the installed metadata, written when the project was installed, so
    a game added to the project file later stays unseen until the project is reinstalled.
    """
    project_file = project_file or PROJECT_FILE
    if not project_file.is_file():
        return []
    try:
        project = tomllib.loads(project_file.read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return []
    declared: dict[str, str] = project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    installed = {entry.name for entry in entry_points(group=ENTRY_POINT_GROUP)}
    return [
        UninstalledGame(name, target, project_file)
        for name, target in sorted(declared.items())
        if name not in installed
    ]
