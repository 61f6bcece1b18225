"""From the observation a bot receives to full states the engine can play forward.

A game whose observation is not its state offers ``determinize(observation, rng)``: a full state
consistent with the observation, everything the seat cannot see dealt at random. A game whose
observation is its whole state (nothing hidden but future chance) needs nothing more: the
plugin's ``resample_hidden`` copies it.

Where several seats are asked at once (``plugin.deciding_seats``), the engine still applies their
answers one after another, so a deal may stand at another seat's answer; :func:`seated` plays
those first, as a policy would, so the search starts where its own seat decides.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sdk.games.plugin import GamePlugin, GameState

from .rollout import RolloutPolicy

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


def seated(deal: Determinizer, seat: int, policy: RolloutPolicy) -> Determinizer:
    """Deals where ``seat`` is the one to decide: the answers the engine applies before its own
    (seats asked at the same time, whose answers ``seat`` does not see) are ``policy``'s."""

    def dealt(rng: random.Random) -> GameState:
        state = deal(rng)
        while state.current_player != seat:
            if state.is_terminal():
                raise ValueError(f"seat {seat} is not asked to decide in this observation")
            state.apply(state.sample_chance(rng) if state.is_chance_node() else policy(state, rng))
        return state

    return dealt
