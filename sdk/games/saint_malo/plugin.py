"""Saint Malo as a referee plugin (see :mod:`sdk.games.plugin`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sdk.games.plugin import Parameter, PluginDefaults

from .actions import Action, Step, step_from_json, step_to_json
from .decisions import DECISIONS
from .defaults import default_action
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .render import render
from .state import State, new_game
from .view import describe, view

_DEFAULTS = Params().to_json()


def _state(state: Any) -> State:
    if not isinstance(state, State):
        raise TypeError(f"not a Saint Malo state: {state!r}")
    return state


class SaintMaloPlugin(PluginDefaults):
    """Engine, decisions, defaults and renderers of Saint Malo for the referee."""

    name = "saint_malo"
    title = "Saint Malo"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters = (
        Parameter("start_crates", _DEFAULTS["start_crates"], "squares [row, col] with a printed crate"),
        Parameter("side_bonuses", _DEFAULTS["side_bonuses"], "person, coins or vp per wall side"),
        Parameter("cannons", _DEFAULTS["cannons"], "cannons each player starts with"),
    )
    decisions = DECISIONS
    chance_stream = "dice"
    web_script = Path(__file__).with_name("web") / "saint_malo.js"
    demo_seats = ("python -m bots.greedy", *["python -m bots.random"] * 3)

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return Params.from_json(dict(params)).to_json()

    def new_state(self, players: int, params: Mapping[str, Any]) -> State:
        return new_game(players, Params.from_json(dict(params)))

    def decision_kind(self, state: Any) -> str:
        decision = _state(state).decision
        if decision is None:
            raise ValueError("no decision is pending")
        return decision.value

    def observe(self, state: Any, seat: int) -> State:
        """The state itself: every seat may see everything (only future dice are unknown)."""
        return _state(state)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        """A copy: nothing in a Saint Malo state is hidden from any seat."""
        return _state(state).clone()

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        return _state(observation).sample_action(rng)

    def default_action(self, state: Any) -> Action:
        return default_action(_state(state))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def step_to_json(self, step: Step) -> dict[str, Any]:
        return step_to_json(step)

    def step_from_json(self, data: Mapping[str, Any]) -> Step:
        return step_from_json(dict(data))

    def turn(self, state: Any) -> int:
        game = _state(state)
        return game.turn if game.is_terminal() else game.turn + 1

    def render(self, state: Any, seat: int | None = None) -> str:
        return render(_state(state))

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        return view(_state(state))

    def describe(self, state: Any, step: Step, seat: int | None = None) -> str:
        return describe(_state(state), step)

    def summary(self, state: Any) -> dict[str, Any]:
        state = _state(state)
        return {
            "turns": state.turn,
            "pirate_attacks": [
                {"turn": a.turn, "strength": a.strength, "defences": list(a.defences)} for a in state.attacks
            ],
            "score_breakdown": [
                {part.name.lower(): points for part, points in city.score_breakdown().items()}
                for city in state.cities
            ],
        }


PLUGIN = SaintMaloPlugin()
