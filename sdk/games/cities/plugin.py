"""Cities as a referee plugin (see :mod:`sdk.games.plugin`): the wiring of its engine, decision
table, secrecy, default actions and words (:mod:`.view`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from sdk.games.plugin import Parameter
from sdk.games.plugin_base import Engine, PluginBase, Words

from . import defaults, view
from .actions import Action, step_from_json, step_to_json
from .decisions import DECISIONS
from .observation import Observation
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .state import State, determinize, new_game
from .tensors import TENSORS

__all__ = ["PLUGIN", "CitiesPlugin"]

_DEFAULTS = Params().to_json()


class CitiesPlugin(PluginBase[State]):
    """Engine, decisions, secrecy, defaults and renderers of Cities for the referee."""

    name = "cities"
    title = "Cities"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters: tuple[Parameter, ...] = (
        Parameter("size", _DEFAULTS["size"], "which cards are used: full, regular, fast or very-short"),
        Parameter(
            "max_rounds", _DEFAULTS["max_rounds"], "the game ends after this round at the latest (1-1000)"
        ),
    )
    decisions = DECISIONS
    chance_stream = "shuffles"
    web_script = Path(__file__).with_name("web") / "cities.js"
    demo_seats = ("python -m bots.cities", *["python -m bots.random"] * 3)
    engine = Engine(State, new_game, step_to_json, step_from_json, Params)
    observation_type = Observation
    words = Words(view.render, view.view, view.describe)
    tensors = TENSORS

    def determinize(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with ``observation``, the unseen cards dealt at random (for search)."""
        return determinize(self.observation_of(observation), rng)

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        """Uniform over the seat's legal actions, from a state determinized from its observation."""
        return determinize(self.observation_of(observation), rng).sample_action(rng)

    def default_action(self, state: Any) -> Action:
        return defaults.default_action(self.state_of(state))

    def summary(self, state: Any) -> dict[str, Any]:
        return view.summary(self.state_of(state))


PLUGIN = CitiesPlugin()
