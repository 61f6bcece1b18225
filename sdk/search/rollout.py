"""Rollout policies (how a simulation plays on past the tree) and leaf evaluators."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from sdk.games.plugin import GameState

#: The action the deciding seat plays in a simulation, from the full (determinized) state.
RolloutPolicy = Callable[[GameState, random.Random], Any]
#: Each seat's reward in [0, 1] for a position where a simulation stops.
Evaluator = Callable[[GameState], Sequence[float]]


def random_rollout(state: GameState, rng: random.Random) -> Any:
    """Uniform over the legal actions: the default, and what any game supports."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def seat_policy(
    observe: Callable[[GameState, int], Any], decide: Callable[[Any, random.Random], Any]
) -> RolloutPolicy:
    """A rollout policy from a bot's heuristic, which decides from an observation.

    ``observe`` is the plugin's ``observe``: the heuristic sees, in simulations, only what the
    deciding seat would see there, so it plays as it would in a real game.
    """

    def policy(state: GameState, rng: random.Random) -> Any:
        return decide(observe(state, state.current_player), rng)

    return policy
