"""How viewers count Bruges' turns: each round's preparation is a turn of its own, then one per
player's turn, so no player's turn holds the drawing, the dice or the reputation steps of a round."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from sdk.games.bruges.phases import TURNS
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.bruges.state import State
from sdk.games.play import RandomPolicy


@pytest.mark.parametrize("seed", range(4))
def test_a_rounds_preparation_is_a_turn_apart_and_turns_count_up_one_at_a_time(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    state: State = PLUGIN.new_state(players, {})
    policies = [RandomPolicy(random.Random(seed * 10 + seat)) for seat in range(players)]
    turns: list[tuple[int, bool]] = []  # (turn, in the turns phase) at every position
    while not state.is_terminal():
        turns.append((PLUGIN.turn(state), state.phase == TURNS))
        state.apply(
            state.sample_chance(rng) if state.is_chance_node() else policies[state.current_player](state)
        )
    numbers = [turn for turn, _ in turns]
    assert numbers[0] == 1 and all(b - a in (0, 1) for a, b in pairwise(numbers))
    for number in set(numbers):
        phases = {playing for turn, playing in turns if turn == number}
        assert len(phases) == 1, f"turn {number} mixes a round's preparation with a player's turn"
    preparations = {turn for turn, playing in turns if not playing}
    assert len(preparations) == state.round
    assert PLUGIN.turn(state) == numbers[-1]  # the game ends in its last turn
    assert numbers[-1] == state.turns + state.round
