"""Masons as a referee plugin (see :mod:`sdk.games.plugin` and :mod:`sdk.games.plugin_base`).

Secrecy (M9): requests, views and step texts for a seat are built from what it may know
(:func:`~sdk.games.masons.observation.observe`): the board, supplies, scores, hand sizes,
the discard pile, the draw pile's size and its own hand. The organiser's view shows every hand.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from sdk.games.plugin_base import Engine, PluginBase, Words

from .actions import Action, step_from_json, step_to_json
from .decisions import DECISIONS
from .defaults import default_action
from .hidden import determinize, resample_hidden
from .observation import Observation, observe
from .state import MAX_PLAYERS, MIN_PLAYERS, State, new_game
from .tensors import TENSORS
from .view import describe, render, view

__all__ = ["PLUGIN", "MasonsPlugin"]


class MasonsPlugin(PluginBase[State]):
    """Engine, decisions, secrecy, defaults and renderers of Masons for the referee."""

    name = "masons"
    title = "Masons"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    decisions = DECISIONS
    chance_stream = "dice_and_cards"
    web_script = Path(__file__).with_name("web") / "masons.js"
    demo_seats = ("python -m bots.masons", *["python -m bots.random"] * 3)
    engine = Engine(State, new_game, step_to_json, step_from_json)
    observation_type = Observation
    words = Words(render, view, describe)
    tensors = TENSORS

    def observe(self, state: Any, seat: int) -> Observation:
        return observe(self.state_of(state), seat)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        return resample_hidden(self.state_of(state), seat, rng)

    def determinize(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with ``observation``, the unseen cards dealt at random (for search)."""
        return determinize(self.observation_of(observation), rng)

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        """Uniform over the seat's legal actions (a swap: each card with odds 1/2), from its observation."""
        return determinize(self.observation_of(observation), rng).sample_action(rng)

    def default_action(self, state: Any) -> Action:
        return default_action(self.state_of(state))

    def summary(self, state: Any) -> dict[str, Any]:
        game = self.state_of(state)
        return {
            "turns": game.turn,
            "cities": len(game.cities),
            "city_sizes": [city.spaces.bit_count() for city in game.cities],
            "supply_left": {
                "walls": game.walls_left,
                "towers": sum(game.towers_left),
                "houses": sum(game.houses_left),
                "palaces": sum(game.palaces_left),
            },
            "hand_sizes": [sum(hand) for hand in game.hands],
        }


PLUGIN = MasonsPlugin()
