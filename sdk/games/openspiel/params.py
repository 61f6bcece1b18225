"""A game's parameters: OpenSpiel's own, checked by OpenSpiel's ``load_game``.

A bracket's ``params:`` go to ``pyspiel.load_game(name, params)`` as they are; the normalized
form is every parameter the game has, defaults filled in, as ``get_parameters()`` reports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .loader import pyspiel

#: The parameter OpenSpiel games with a variable number of players take it under.
PLAYERS = "players"


@dataclass(frozen=True, slots=True)
class Loaded:
    """A loaded OpenSpiel game with the parameters it was loaded with (normalized)."""

    name: str
    params: dict[str, Any]
    game: Any  # pyspiel.Game

    @property
    def players(self) -> int:
        return int(self.game.num_players())


def _plain(value: Any) -> Any:
    """A parameter value as JSON and ``load_game`` both take it."""
    return value if isinstance(value, bool | int | float | str) else str(value)


@cache
def _specification(name: str) -> tuple[str, ...]:
    """The parameter names of ``name``, checked here before OpenSpiel (which prints its refusals)."""
    for kind in pyspiel().registered_games():
        if kind.short_name == name:
            return tuple(sorted(kind.parameter_specification))
    raise ValueError(f"unknown OpenSpiel game {name!r}")


@cache
def _load(name: str, frozen: tuple[tuple[str, Any], ...]) -> Loaded:
    spiel = pyspiel()
    try:
        game = spiel.load_game(name, dict(frozen))
    except spiel.SpielError as error:
        message = str(error).split("OpenSpiel exception:")[0].strip()
        raise ValueError(f"openspiel:{name}: {message}") from None
    # Only the game's own parameters: some games report their inner game's too (liars_dice_ir's
    # rollout_length), which loading them again would refuse.
    own = _specification(name)
    params = {key: _plain(value) for key, value in sorted(game.get_parameters().items()) if key in own}
    return Loaded(name, params, game)


def load(name: str, params: Mapping[str, Any]) -> Loaded:
    """The game ``name`` with ``params``; ValueError naming a wrong parameter or value."""
    known = _specification(name)
    for key, value in params.items():
        if key not in known:
            raise ValueError(
                f"openspiel:{name}: Unknown parameter {key!r}. Available parameters are: {', '.join(known)}"
            )
        if not isinstance(value, bool | int | float | str):
            raise ValueError(f"openspiel:{name}: parameter {key!r} must be a number, a string or a boolean")
    return _load(name, tuple(sorted(params.items())))
