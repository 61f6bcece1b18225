"""Saint Malo as a referee plugin (see :mod:`sdk.games.plugin` and :mod:`sdk.games.plugin_base`)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from sdk.games.plugin import Parameter
from sdk.games.plugin_base import Engine, PluginBase, Words

from .actions import Action, step_from_json, step_to_json
from .decisions import DECISIONS
from .defaults import default_action
from .observation import Observation, observe
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .state import State, new_game
from .tensors import TENSORS
from .view import describe, render, view

_DEFAULTS = Params().to_json()


class SaintMaloPlugin(PluginBase[State]):
    """Engine, decisions, defaults and renderers of Saint Malo for the referee.

    Every seat may see everything (only future dice are unknown): a seat's observation is the
    state itself, and a state it cannot tell apart is a copy.
    """

    name = "saint_malo"
    title = "Saint Malo"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters: tuple[Parameter, ...] = (
        Parameter("start_crates", _DEFAULTS["start_crates"], "squares [row, col] with a printed crate"),
        Parameter("side_bonuses", _DEFAULTS["side_bonuses"], "person, coins or vp per wall side"),
        Parameter("cannons", _DEFAULTS["cannons"], "cannons each player starts with"),
    )
    decisions = DECISIONS
    tensors = TENSORS
    chance_stream = "dice"
    web_script = Path(__file__).with_name("web") / "saint_malo.js"
    demo_seats = ("python -m bots.greedy", *["python -m bots.random"] * 3)
    engine = Engine(State, new_game, step_to_json, step_from_json, Params)
    words = Words(
        lambda state, seat: render(state),
        lambda state, seat: view(state),
        lambda state, step, seat: describe(state, step),
    )

    def observe(self, state: Any, seat: int) -> Observation:
        return observe(self.state_of(state), seat)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        return self.state_of(state).clone()

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        state: State = self.observation_of(observation)
        return state.sample_action(rng)

    def default_action(self, state: Any) -> Action:
        return default_action(self.state_of(state))

    def turn(self, state: Any) -> int:
        game = self.state_of(state)
        return game.turn if game.is_terminal() else game.turn + 1

    def summary(self, state: Any) -> dict[str, Any]:
        game = self.state_of(state)
        return {
            "turns": game.turn,
            "pirate_attacks": [
                {"turn": a.turn, "strength": a.strength, "defences": list(a.defences)} for a in game.attacks
            ],
            "score_breakdown": [
                {part.name.lower(): points for part, points in city.score_breakdown().items()}
                for city in game.cities
            ],
        }


PLUGIN = SaintMaloPlugin()
