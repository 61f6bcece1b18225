"""A full random game runs, ends and scores."""

from __future__ import annotations

import random

from sdk.games import saint_malo as sm

from .builders import S, pass_turn, take_turn


def test_random_game_ends_with_ranks() -> None:
    state, record = sm.play_game([sm.RandomPolicy(random.Random(i)) for i in range(4)], random.Random(1))
    assert state.is_terminal()
    assert any(city.is_full for city in state.cities)
    assert sorted(state.ranks())[0] == 1
    assert sm.replay(record) == state


def test_builders_play_turns() -> None:
    state = sm.new_game(2)
    pass_turn(state)
    assert state.cities[0].logs == 3 and state.cities[0].coins == 1
    take_turn(state, (S.CROSS,) * 5, S.CROSS, sm.PlaceChurch(sm.square(3, 3), 5))
    assert state.cities[1].church_at(sm.square(3, 3)) == 5
    assert state.current == 0 and state.round == 2
