"""Bruges' tensors: every legal action numbered, legal actions read from the observation as the engine
lists them, the tensor fixed-shape, in [0, 1] and written from the observing seat's side."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import get_args

import numpy as np
import pytest

from sdk.games.bruges.actions import Action
from sdk.games.bruges.cards import NUM_CARDS
from sdk.games.bruges.observation import observe
from sdk.games.bruges.params import Params
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.bruges.rules import options_for
from sdk.games.bruges.state import State, new_game
from sdk.games.bruges.tensors import (
    ACTIONS,
    FEATURES,
    MOST_GUILDERS,
    MOST_POINTS,
    SEAT_LENGTH,
    TENSORS,
)  # fmt: skip
from sdk.games.tensors import tensors_of
from sdk.tensor_arrays import tensor_array

GAMES_PER_COUNT = 12


def decisions(players: int, seed: int) -> Iterator[State]:
    """Every decision of a seeded random game."""
    rng = random.Random(seed)
    state = new_game(players)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        yield state
        state.apply(state.sample_action(rng))


def test_the_plugin_declares_the_tensors() -> None:
    assert tensors_of(PLUGIN) is TENSORS
    assert ACTIONS.size == 2360
    assert FEATURES.size == 1116


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_action_is_numbered_and_read_from_every_deciding_seats_observation(players: int) -> None:
    seen: set[type] = set()
    for seed in range(GAMES_PER_COUNT):
        for state in decisions(players, 100 * players + seed):
            assert state.decision is not None
            for seat in PLUGIN.deciding_seats(state):
                engine: list[Action] = options_for(state, state.decision, seat)
                if seat == state.decider:
                    assert engine == state.legal_actions()
                from_observation = list(TENSORS.legal(observe(state, seat)))
                assert from_observation == engine
                for action in from_observation:
                    assert ACTIONS.action(ACTIONS.index(action)) == action
                    seen.add(type(action))
    if players == 4:  # every kind of action came up, penalties' choices too
        assert seen == set(get_args(Action))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seats_tensor_has_the_shape_is_finite_and_in_zero_to_one(players: int) -> None:
    for state in decisions(players, players):
        for seat in range(players):
            tensor = tensor_array(TENSORS.encode(observe(state, seat)))
            assert tensor.shape == TENSORS.shape == (FEATURES.size,)
            assert np.isfinite(tensor).all() and tensor.min() >= 0.0 and tensor.max() <= 1.0


def test_seat_blocks_and_the_hand_are_counted_from_the_observing_seat() -> None:
    players = 3
    state = next(s for s in decisions(players, 7) if s.round == 2 and len(set(s.guilders)) == players)
    start, _ = FEATURES.offsets["seats"]
    hand, _ = FEATURES.offsets["hand"]
    for seat in range(players):
        tensor = tensor_array(TENSORS.encode(observe(state, seat)))
        for k in range(players):
            other = (seat + k) % players
            block = start + k * SEAT_LENGTH
            assert tensor[block] == pytest.approx(min(state.score[other], MOST_POINTS) / MOST_POINTS)
            guilders = min(state.guilders[other], MOST_GUILDERS) / MOST_GUILDERS
            assert tensor[block + 1] == pytest.approx(guilders)
        assert not tensor[start + players * SEAT_LENGTH :].any()  # the absent fourth seat stays zero
        held = {card for card in range(NUM_CARDS) if tensor[hand + card]}
        assert held == {card for card in state.hands[seat] if card not in state.blind}


def test_a_seat_is_told_apart_only_by_what_it_may_know() -> None:
    """Two seats' tensors differ only where their own hands and house cards differ, not by the
    others' hidden persons: redrawing them leaves the tensor as it was."""
    rng = random.Random(3)
    for state in decisions(4, 11):
        if state.turns < 6:
            continue
        seat = state.decider
        before = TENSORS.encode(observe(state, seat))
        twin = PLUGIN.resample_hidden(state, seat, rng)
        assert TENSORS.encode(observe(twin, seat)) == before
        if state.round == 3:
            break


def test_the_table_and_board_blocks_say_who_decides_and_what_the_dice_show() -> None:
    players = 4
    state = next(s for s in decisions(players, 5) if s.decision == "take_turn" and s.round == 2)
    table, _ = FEATURES.offsets["table"]
    board, _ = FEATURES.offsets["board"]
    decider = table + 4 + 4 + 3 + 5 + 4 + 8  # after players, start, round, phase, turn, decision
    for seat in range(players):
        tensor = tensor_array(TENSORS.encode(observe(state, seat)))
        relative = (state.decider - seat) % players
        assert list(tensor[decider : decider + 4]) == [float(k == relative) for k in range(4)]
        assert list(tensor[decider + 4 : decider + 8]) == [float(k == relative) for k in range(4)]  # active
        assert list(tensor[board + 14 : board + 19]) == pytest.approx([die / 6 for die in state.dice])
        supply = [count / state.params.threat_markers for count in state.supply]
        assert list(tensor[board + 19 : board + 24]) == pytest.approx(supply)


@pytest.mark.parametrize(
    "params",
    [
        Params(threat_markers=0, statues=(), reputation_points=(0, 1), hand_size=2, turns_per_round=1),
        Params(threat_markers=30, statues=(50,) * 20, start_guilders=500, start_score=500, hand_size=12),
    ],
)
def test_tensors_stay_in_zero_to_one_under_any_parameters(params: Params) -> None:
    rng = random.Random(9)
    state = new_game(3, params)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        for seat in range(3):
            tensor = tensor_array(TENSORS.encode(observe(state, seat)))
            assert np.isfinite(tensor).all() and tensor.min() >= 0.0 and tensor.max() <= 1.0
        state.apply(state.sample_action(rng))
