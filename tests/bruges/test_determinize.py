"""A full state built from an observation alone (``determinize``): the deciding seat cannot tell it
from the real one, it keeps the game's invariants, its options are the seat's, and it plays on to
the end on the engine's own rules."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.games.bruges.hidden import determinize
from sdk.games.bruges.observation import observe
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.bruges.state import State, new_game

from .test_properties import check


def _play_on(state: State, rng: random.Random) -> None:
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng))
        check(state)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_a_determinized_state_looks_the_same_to_every_deciding_seat(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = new_game(players)
    kinds = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        for seat in state.deciding_seats():
            seen = observe(state, seat)
            twin = determinize(seen, random.Random(rng.random()))
            check(twin)
            assert observe(twin, seat) == seen
            assert set(twin.legal_actions()) == set(state.legal_actions())
            kinds.add(seen.decision)
        state.apply(state.sample_action(rng))
    assert {"draw_pile", "take_turn"} <= kinds


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 300))
def test_a_determinized_state_plays_to_the_end(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    state = new_game(2 + seed % 3)
    decisions = 0
    while not state.is_terminal() and decisions < cut:
        if not state.is_chance_node():
            decisions += 1
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng))
    if state.is_terminal() or state.is_chance_node():
        return
    twin = PLUGIN.determinize(observe(state, state.decider), rng)
    _play_on(twin, rng)
    assert twin.is_terminal()


def test_the_unseen_cards_are_dealt_differently_by_different_seeds() -> None:
    rng = random.Random(3)
    state = new_game(3)
    while state.is_chance_node() or state.decision != "take_turn":
        state.apply(state.sample_chance(rng) if state.is_chance_node() else state.sample_action(rng))
    seen = observe(state, state.decider)
    deals = {tuple(map(tuple, determinize(seen, random.Random(k)).hands)) for k in range(5)}
    assert len(deals) > 1
    assert all(list(seen.hand) == sorted(hands[seen.seat]) for hands in deals)
