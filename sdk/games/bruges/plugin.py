"""Bruges as a referee plugin (see :mod:`sdk.games.plugin`).

Secrecy: a seat's requests, views and step descriptions are built from what that seat may know
(:func:`observe`); the organiser's view (``seat=None``) shows everything.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from sdk.games.plugin import Parameter
from sdk.games.plugin_base import Engine, PluginBase, Words

from .actions import Action, step_from_json, step_to_json
from .cards import CARD_PERSON, PERSONS
from .decisions import DECISIONS
from .defaults import default_action
from .hidden import determinize, resample_hidden
from .observation import Observation, observe
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .phases import MAJORITY_NAMES
from .scoring import final_points
from .state import State, new_game
from .tensors import TENSORS
from .view import describe, render, view

__all__ = ["PLUGIN", "BrugesPlugin"]

_DEFAULTS = Params().to_json()


class BrugesPlugin(PluginBase[State]):
    """Engine, decisions, secrecy, defaults and renderers of Bruges for the referee."""

    name = "bruges"
    title = "Bruges"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters = tuple(
        Parameter(key, value, summary)
        for (key, value), summary in zip(
            _DEFAULTS.items(),
            (
                "threat markers per colour in the supply (B2)",
                "the statue stack, top first (B2)",
                "guilders each player starts with (B5)",
                "score each player starts with (B5)",
                "points of reputation steps 0..12 at game end (B6)",
                "cost of canal spaces 1..5 (B7)",
                "colours of the spaces of sections A and B (B7)",
                "cards a hand is filled to in phase 1 (B9)",
                "laps of turns per round (B14)",
                "points of a space-3 canal token (B16)",
                "points of a flipped majority marker (B21)",
            ),
            strict=True,
        )
    )
    decisions = DECISIONS
    chance_stream = "cards"
    web_script = Path(__file__).with_name("web") / "bruges.js"
    demo_seats = ("python -m bots.bruges", *["python -m bots.random"] * 3)
    engine = Engine(State, new_game, step_to_json, step_from_json, Params)
    observation_type = Observation
    tensors = TENSORS
    words = Words(render, view, describe)

    def deciding_seats(self, state: Any) -> tuple[int, ...]:
        return self.state_of(state).deciding_seats()

    def observe(self, state: Any, seat: int) -> Observation:
        return observe(self.state_of(state), seat)

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> State:
        return resample_hidden(self.state_of(state), seat, rng)

    def determinize(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with ``observation``, the unseen cards dealt at random (for search)."""
        return determinize(self.observation_of(observation), rng)

    def random_action(self, observation: Any, rng: random.Random) -> Action:
        """Uniform over the seat's legal actions, which its observation lists."""
        options: tuple[Action, ...] = self.observation_of(observation).options
        if not options:
            raise ValueError("the observation lists no options: this seat is not deciding")
        return options[rng.randrange(len(options))]

    def default_action(self, state: Any) -> Action:
        return default_action(self.state_of(state))

    def turn(self, state: Any) -> int:
        """The turns played, and each round's preparation (drawing, dice, threats, reputation) as a turn
        of its own before the round's first: viewers list it apart, not inside a player's turn."""
        game = self.state_of(state)
        return game.turns + game.round

    def summary(self, state: Any) -> dict[str, Any]:
        game = self.state_of(state)
        return {
            "rounds": game.round,
            "final_round": game.final_round,
            "turns": game.turns,
            "final_scoring": [final_points(game, s) for s in range(game.n)] if game.is_terminal() else None,
            "persons": [[PERSONS[CARD_PERSON[c]].name for c in game.persons_of(s)] for s in range(game.n)],
            "majorities": [[MAJORITY_NAMES[k] for k in range(3) if m[k]] for m in game.majorities],
        }


PLUGIN = BrugesPlugin()
