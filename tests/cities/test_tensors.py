"""Cities' tensors: every legal action numbered, the legal ones derived from the observation alone,
the tensor fixed-shape and in [0, 1], from every seat of random games at every table size."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import numpy as np
import pytest

from sdk.games import cities as ci
from sdk.games.cities.tensors import ACTIONS, EXCHANGES, MOST_RETURNED, RETURN_CAPS, TENSORS
from sdk.games.tensors import action_mask, mask_of
from sdk.tensor_arrays import tensor_array

from .builders import position

E = ci.EventType


def _exchange(*returns: ci.EventType) -> ci.Play:
    return ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=returns)


def _numbered(action: ci.Action) -> ci.Action:
    """The action a number stands for: an exchange of more than three events is one of its first three."""
    if isinstance(action, ci.Play) and len(action.returns) > MOST_RETURNED:
        return _exchange(*action.returns[:MOST_RETURNED])
    return action


def _check_game(players: int, seed: int, size: str) -> set[type]:
    """Play a random game checking every decision; the kinds of action seen."""
    rng = random.Random(seed)
    state = ci.new_game(players, ci.Params(size=size))
    seen: set[type] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        deciding = state.current_player
        for seat in range(players):
            tensor = tensor_array(TENSORS.encode(state.observation(seat)))
            assert tensor.shape == TENSORS.shape
            assert np.isfinite(tensor).all() and tensor.min() >= 0.0 and tensor.max() <= 1.0
        engine = state.legal_actions()
        numbers = [ACTIONS.index(action) for action in engine]
        assert [ACTIONS.action(number) for number in numbers] == [_numbered(action) for action in engine]
        mine = {ACTIONS.index(action) for action in TENSORS.legal(state.observation(deciding))}
        assert mine == set(numbers)
        assert ACTIONS.indices(engine) == numbers
        mask = mask_of(ACTIONS, engine)
        assert action_mask(TENSORS, state.observation(deciding)) == mask
        assert mask.count(1) == len(mine) and all(mask[number] for number in mine)
        action = ACTIONS.action(rng.choice(numbers))
        seen.add(type(action) if not isinstance(action, ci.Play) else ci.Play)
        state.apply(action)
    return seen


@pytest.mark.parametrize("players", range(ci.MIN_PLAYERS, ci.MAX_PLAYERS + 1))
def test_every_legal_action_is_numbered_and_derived_from_the_observation(players: int) -> None:
    seen: set[type] = set()
    for seed in range(3):
        seen |= _check_game(players, seed * 10 + players, "full")
    assert {ci.Pass, ci.Play, ci.React, ci.GiveCity} <= seen


@pytest.mark.parametrize("size", ["regular", "fast", "very-short"])
def test_smaller_games_use_the_same_numbering(size: str) -> None:
    _check_game(3, 5, size)


def test_every_decision_kind_and_every_kind_of_play_occurs_in_the_checked_games() -> None:
    seen: set[type] = set()
    for seed in range(12):
        seen |= _check_game(4, 100 + seed, "full")
    assert seen == {ci.Draw, ci.Pass, ci.Play, ci.React, ci.Exchange, ci.GiveCity, ci.GiveEvent}


def test_educations_exchanges_are_numbered_one_to_one_after_the_listed_actions() -> None:
    first = ACTIONS.size - EXCHANGES
    for size in (1, 2, 3):
        numbers = [
            ACTIONS.index(_exchange(*returns))
            for returns in combinations_with_replacement(list(E), size)
            if all(returns.count(ev) <= RETURN_CAPS[ev] for ev in returns)
        ]
        assert sorted(numbers) == list(range(first, first + len(numbers)))
        first += len(numbers)
    first = ACTIONS.size - EXCHANGES
    rng = random.Random(3)
    for number in [first, ACTIONS.size - 1, *(rng.randrange(first, ACTIONS.size) for _ in range(500))]:
        assert ACTIONS.index(ACTIONS.action(number)) == number


def test_an_exchange_of_more_than_three_events_has_the_number_of_its_three_lowest() -> None:
    three = ACTIONS.index(_exchange(E.ATTACK, E.ATTACK, E.TRADE))
    assert ACTIONS.index(_exchange(E.TRADE, E.ATTACK, E.CURSE, E.ATTACK, E.FLOOD)) == three
    assert ACTIONS.index(_exchange(E.ATTACK, E.TRADE, E.ATTACK, E.CURSE)) == three
    assert ACTIONS.index(_exchange(E.ATTACK, E.ATTACK, E.CURSE)) != three
    assert ACTIONS.size == 35_450 + EXCHANGES and EXCHANGES == 53 + 1_390 + 24_054


def test_a_hand_allowing_exchanges_of_five_marks_the_numbers_of_their_first_three() -> None:
    hand = [E.EDUCATION, E.ATTACK, E.ATTACK, E.TRADE, E.CURSE, E.FLOOD, E.UNREST]
    state = position(3, hands={0: hand})
    engine = state.legal_actions()
    assert any(isinstance(action, ci.Play) and len(action.returns) == 5 for action in engine)
    numbers = {ACTIONS.index(action) for action in engine}
    assert numbers == {ACTIONS.index(action) for action in TENSORS.legal(state.observation(0))}
    assert {ACTIONS.action(number) for number in numbers} <= {_numbered(action) for action in engine}
    for number in numbers:
        state.clone().apply(ACTIONS.action(number))


def test_actions_the_rules_never_allow_have_no_number() -> None:
    for action in (
        _exchange(*[E.ATTACK] * 6),  # more than five events
        _exchange(E.EDUCATION, E.EDUCATION, E.EDUCATION),  # the played Education is not given back
        _exchange(E.FLOOD, E.FLOOD),  # one Flood in the game
        ci.Play(E.BASIC_PROTECTION),  # protection is only revealed
        ci.Play(E.ATTACK, target=6, take_city=0),  # no seventh seat
    ):
        with pytest.raises(KeyError):
            ACTIONS.index(action)
    with pytest.raises(IndexError):
        ACTIONS.action(ACTIONS.size)


def _face_up_block(observation: ci.Observation) -> list[float]:
    start, end = TENSORS.features.offsets["face_up"]
    return list(TENSORS.encode(observation)[start:end])


def _counted(observation: ci.Observation) -> list[float]:
    counts = [0] * len(E)
    shown = [(record.play.event, record.revealed) for record in observation.log]
    if observation.resolving is not None:
        shown.append((observation.resolving.play.event, observation.resolving.revealed))
    for event, revealed in shown:
        counts[event] += 1
        for _, card in revealed:
            counts[card] += 1
    copies = [ci.EVENT_CARDS.count(ev) for ev in E]
    return [float(np.float32(count / copy)) for count, copy in zip(counts, copies, strict=True)]


def test_face_up_counts_stay_right_across_interleaved_games_and_copies() -> None:
    rng = random.Random(11)
    games = [ci.new_game(4), ci.new_game(3)]
    forks: list[ci.State] = []
    for step in range(600):
        state = games[step % 2] if step % 5 else rng.choice(games + forks or games)
        if state.is_terminal():
            continue
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if step % 37 == 0:
            forks.append(state.clone())
        observation = state.observation(rng.randrange(state.num_players))
        assert _face_up_block(observation) == _counted(observation)
        state.apply(state.sample_action(rng))
