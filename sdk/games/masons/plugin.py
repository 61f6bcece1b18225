"""Masons as a referee plugin (see :mod:`sdk.games.plugin`).

Secrecy (M9): requests, views and step texts for a seat are built from what it may know
(:func:`~sdk.games.masons.observation.observe`): the board, supplies, scores, hand sizes,
the discard pile, the draw pile's size and its own hand. The organiser's view shows every hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sdk.games.plugin import Parameter, PluginDefaults

from .actions import Action, Step, step_from_json, step_to_json
from .decisions_table import DECISIONS
from .hidden import determinize, resample_hidden
from .observation import Observation, observe
from .state import MAX_PLAYERS, MIN_PLAYERS, State, new_game
from .view import describe, render, view

__all__ = ["PLUGIN", "MasonsPlugin"]


def _state(state: Any) -> State:
    if not isinstance(state, State):
        raise TypeError(f"not a Masons state: {state!r}")
    return state


class MasonsPlugin(PluginDefaults):
    """Engine, decisions, secrecy, defaults and renderers of Masons for the referee."""

    name = "masons"
    title = "Masons"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters: tuple[Parameter, ...] = ()
    decisions = DECISIONS
    chance_stream = "dice_and_cards"
    web_script = Path(__file__).with_name("web") / "masons.js"
    demo_seats = ("python -m bots.masons", *["python -m bots.random"] * 3)

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        if params:
            raise ValueError(f"unknown parameter {sorted(params)[0]!r} (Masons takes no parameters)")
        return {}

    def new_state(self, players: int, params: Mapping[str, Any]) -> State:
        self.normalize_params(params)
        return new_game(players)

    def decision_kind(self, state: Any) -> str:
        decision = _state(state).decision
        if decision is None:
            raise ValueError("no decision is pending")
        return decision

    def observe(self, state: Any, seat: int) -> Observation:
        return observe(_state(state), seat)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        return resample_hidden(_state(state), seat, rng)

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        """Uniform over the seat's legal actions (a swap: each card with odds 1/2), from its observation."""
        if not isinstance(observation, Observation):
            raise TypeError(f"not a Masons observation: {observation!r}")
        return determinize(observation, rng).sample_action(rng)

    def default_action(self, state: Any) -> Action:
        """The first legal action: the lowest line or colours, no join, the lowest card, keep, pass."""
        actions = _state(state).legal_actions()
        if not actions:
            raise ValueError("no decision is pending")
        return actions[0]

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def step_to_json(self, step: Step) -> dict[str, Any]:
        return step_to_json(step)

    def step_from_json(self, data: Mapping[str, Any]) -> Step:
        return step_from_json(dict(data))

    def turn(self, state: Any) -> int:
        return max(1, _state(state).turn)

    def render(self, state: Any, seat: int | None = None) -> str:
        return render(_state(state), seat)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        return view(_state(state), seat)

    def describe(self, state: Any, step: Step, seat: int | None = None) -> str | None:
        return describe(_state(state), step, seat)

    def summary(self, state: Any) -> dict[str, Any]:
        game = _state(state)
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
