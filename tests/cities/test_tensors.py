"""Cities' tensors: every legal action numbered or made by exactly one sequence of parts, the legal
ones derived from the observation alone, the tensor fixed-shape and in [0, 1], from every seat of
random games at every table size."""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np
import pytest

from sdk.games import cities as ci
from sdk.games.cities.tensors import ACTIONS, EXCHANGE_END, TENSORS, ExchangeEvent
from sdk.games.tensors import action_mask, mask_of
from sdk.tensor_arrays import tensor_array

from .builders import position

E = ci.EventType


def _exchange(*returns: ci.EventType) -> ci.Play:
    return ci.Play(E.EDUCATION, education=ci.EducationMode.EXCHANGE, returns=returns)


def _made(observation: ci.Observation, chosen: tuple[Any, ...] = ()) -> list[ci.Action]:
    """Every action the parts open after ``chosen`` make, once per sequence of parts that makes it."""
    made: list[ci.Action] = []
    for part in TENSORS.options(observation, chosen):
        ACTIONS.index(part)
        whole = TENSORS.whole((*chosen, part))
        made += _made(observation, (*chosen, part)) if whole is None else [whole]
    return made


def _choose(rng: random.Random, observation: ci.Observation) -> ci.Action:
    """A random action chosen number by number, as a policy chooses it (part by part when in parts)."""
    chosen: tuple[Any, ...] = ()
    while True:
        mask = action_mask(TENSORS, observation, chosen)
        part = ACTIONS.action(rng.choice([number for number, on in enumerate(mask) if on]))
        if not TENSORS.in_parts(observation):
            return cast(ci.Action, part)
        chosen = (*chosen, part)
        whole = TENSORS.whole(chosen)
        if whole is not None:
            return cast(ci.Action, whole)


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
        observation = state.observation(deciding)
        assert list(TENSORS.legal(observation)) == engine
        exchanging = any(isinstance(a, ci.Play) and a.education == ci.EducationMode.EXCHANGE for a in engine)
        assert TENSORS.in_parts(observation) == exchanging
        if exchanging:
            made = _made(observation)
            assert sorted(map(repr, made)) == sorted(map(repr, engine))
            action = _choose(rng, observation)
        else:
            numbers = [ACTIONS.index(action) for action in engine]
            assert [ACTIONS.action(number) for number in numbers] == engine
            assert ACTIONS.indices(engine) == numbers
            mask = mask_of(ACTIONS, engine)
            assert action_mask(TENSORS, observation) == mask and mask.count(1) == len(set(numbers))
            action = rng.choice(engine)
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


def test_every_exchange_of_a_hand_is_made_by_exactly_one_sequence_of_parts_up_to_five_events() -> None:
    hand = [E.EDUCATION, E.EDUCATION, E.ATTACK, E.ATTACK, E.ATTACK, E.TRADE, E.CURSE, E.FLOOD, E.UNREST]
    state = position(3, hands={0: hand})
    observation = state.observation(0)
    engine = state.legal_actions()
    exchanges = [a for a in engine if isinstance(a, ci.Play) and a.education == ci.EducationMode.EXCHANGE]
    assert {len(a.returns) for a in exchanges} == {1, 2, 3, 4, 5}
    assert TENSORS.in_parts(observation)
    made = _made(observation)
    assert len(made) == len(set(made)) and set(made) == set(engine)
    for action in made:
        state.clone().apply(action)


def test_an_exchange_is_taken_event_by_event_in_ascending_order_then_ended() -> None:
    state = position(3, hands={0: [E.EDUCATION, E.EDUCATION, E.ATTACK, E.ATTACK, E.TRADE, E.CURSE]})
    observation = state.observation(0)
    first = set(TENSORS.options(observation))
    kinds = {ExchangeEvent(ev) for ev in (E.EDUCATION, E.ATTACK, E.TRADE, E.CURSE)}
    assert kinds <= first and EXCHANGE_END not in first
    assert all(not isinstance(p, ci.Play) or p.education != ci.EducationMode.EXCHANGE for p in first)
    one_attack = (ExchangeEvent(E.ATTACK),)
    assert set(TENSORS.options(observation, one_attack)) == {
        EXCHANGE_END, *(ExchangeEvent(ev) for ev in (E.ATTACK, E.TRADE, E.EDUCATION, E.CURSE))
    }  # fmt: skip
    two_attacks = (*one_attack, ExchangeEvent(E.ATTACK))
    assert ExchangeEvent(E.ATTACK) not in set(TENSORS.options(observation, two_attacks))
    one_education = (ExchangeEvent(E.EDUCATION),)
    assert set(TENSORS.options(observation, one_education)) == {EXCHANGE_END, ExchangeEvent(E.CURSE)}
    five = (*two_attacks, ExchangeEvent(E.TRADE), ExchangeEvent(E.EDUCATION), ExchangeEvent(E.CURSE))
    assert list(TENSORS.options(observation, five)) == [EXCHANGE_END]
    assert TENSORS.whole(five) is None
    assert TENSORS.whole((*five, EXCHANGE_END)) == ci.Play(
        E.EDUCATION,
        education=ci.EducationMode.EXCHANGE,
        returns=(E.ATTACK, E.ATTACK, E.TRADE, E.EDUCATION, E.CURSE),
    )


def test_the_events_chosen_so_far_are_in_the_tensor() -> None:
    observation = position(3, hands={0: [E.EDUCATION, E.ATTACK, E.ATTACK, E.TRADE]}).observation(0)
    start, end = TENSORS.features.offsets["exchange_chosen"]
    assert not any(TENSORS.encode(observation)[start:end])
    chosen = (ExchangeEvent(E.ATTACK), ExchangeEvent(E.ATTACK), ExchangeEvent(E.TRADE))
    block = list(TENSORS.encode(observation, chosen)[start:end])
    copies = [ci.EVENT_CARDS.count(ev) for ev in E]
    assert block[E.ATTACK] == pytest.approx(2 / copies[E.ATTACK]) and block[E.TRADE] == pytest.approx(
        1 / copies[E.TRADE]
    )
    assert sum(1 for value in block if value) == 2


def test_a_play_decision_without_an_exchange_is_numbered_whole() -> None:
    observation = position(3, hands={0: [E.EDUCATION]}).observation(0)
    assert not TENSORS.in_parts(observation)
    observation = position(3, hands={0: [E.ATTACK, E.TRADE]}).observation(0)
    assert not TENSORS.in_parts(observation)


def test_actions_the_rules_never_allow_have_no_number() -> None:
    for action in (
        _exchange(E.ATTACK),  # an exchange is taken in parts
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
