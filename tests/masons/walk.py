"""Random games for the tests: each state with the step about to be applied to it."""

from __future__ import annotations

import random
from collections.abc import Iterator

from sdk.games.masons.actions import Step
from sdk.games.masons.state import State, new_game


def walk(seed: int, players: int) -> Iterator[tuple[State, Step]]:
    rng = random.Random(seed)
    state = new_game(players)
    while not state.is_terminal():
        step = state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng)
        yield state, step
        state.apply(step)
