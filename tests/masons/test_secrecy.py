"""Secret hands (M9): what a seat sees does not change when the hidden cards are redrawn, and does
change with its own hand; resampled and determinized states play on to the end."""

from __future__ import annotations

import random

import pytest

from sdk.games.masons.hidden import determinize, resample_hidden
from sdk.games.masons.observation import observe

from .walk import walk


@pytest.mark.parametrize(("seed", "players"), [(4, 2), (5, 3), (6, 4)])
def test_the_observation_is_unchanged_when_everything_hidden_is_redrawn(seed: int, players: int) -> None:
    rng = random.Random(seed)
    changed = 0
    for number, (state, _) in enumerate(walk(seed, players)):
        if number % 4:
            continue
        for seat in range(players):
            twin = resample_hidden(state, seat, rng)
            assert observe(twin, seat) == observe(state, seat)
            assert twin.hands[seat] == state.hands[seat]
            changed += twin.to_json() != state.to_json()
    assert changed > 0, "resampling must really redraw the hidden cards"


def test_another_seat_s_observation_shows_its_own_hand_only() -> None:
    for state, _ in walk(7, 3):
        if state.is_chance_node():
            continue
        twin = resample_hidden(state, 0, random.Random(1))
        if twin.hands[1] != state.hands[1]:
            assert observe(twin, 1) != observe(state, 1)
            assert observe(twin, 0) == observe(state, 0)
            return
    raise AssertionError("no position where the hands could differ")


def test_determinized_states_agree_with_the_observation_and_play_on() -> None:
    rng = random.Random(8)
    for number, (state, _) in enumerate(walk(8, 4)):
        if number % 9 or state.is_chance_node():
            continue
        seat = state.current_player
        guess = determinize(observe(state, seat), rng)
        assert observe(guess, seat) == observe(state, seat)
        assert guess.legal_actions() == state.legal_actions()
        while not guess.is_terminal():
            guess.apply(guess.sample_chance(rng) if guess.is_chance_node() else guess.sample_action(rng))


def test_an_observation_names_the_decision_only_for_the_deciding_seat() -> None:
    for number, (state, _) in enumerate(walk(9, 3)):
        if number % 3:
            continue
        for seat in range(3):
            expected = state.decision if seat == state.current_player else None  # None at chance
            assert observe(state, seat).kind == expected
