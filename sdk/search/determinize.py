"""From the observation a bot receives to full states the engine can play forward.

A game whose observation is not its state offers ``determinize(observation, rng)``: a full state
consistent with the observation, everything the seat cannot see dealt at random. A game whose
observation is its whole state (nothing hidden but future chance) needs nothing more: the
plugin's ``resample_hidden`` copies it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sdk.games.plugin import GamePlugin, GameState

#: A fresh full state consistent with what the seat knows, drawn with the given RNG.
Determinizer = Callable[[random.Random], GameState]


def determinizer(plugin: GamePlugin, observation: Any, seat: int) -> Determinizer:
    """How to deal full states from ``observation``, ``seat``'s view; TypeError if the game cannot."""
    own: Callable[[Any, random.Random], GameState] | None = getattr(plugin, "determinize", None)
    if own is not None:
        return lambda rng: own(observation, rng)
    if callable(getattr(observation, "legal_actions", None)) and callable(
        getattr(observation, "clone", None)
    ):
        return lambda rng: plugin.resample_hidden(observation, seat, rng)
    raise TypeError(
        f"{plugin.title} observations are not states and the plugin offers no determinize(observation, rng)"
    )
