"""Random play keeps the game's invariants at every step (hypothesis chooses seeds and tables)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.games.bruges.hidden import resample_hidden
from sdk.games.bruges.observation import observe
from sdk.games.bruges.state import State, new_game

from .builders import count_cards, unplaced_total


def check(state: State) -> None:
    assert count_cards(state) == 165, "cards are conserved"
    assert len(state.pool) == unplaced_total(state), "the pool is exactly the cards not yet placed"
    assert state.pool == sorted(state.pool)
    for seat in range(state.n):
        assert state.guilders[seat] >= 0 and state.score[seat] >= 0
        assert all(w >= 0 for w in state.workers[seat])
        assert all(0 <= t <= 2 for t in state.threats[seat]) or state.victim == seat
        assert len(state.statues[seat]) <= 2
        assert all(0 <= k <= 5 for k in state.canals[seat])
        assert 0 <= state.rep[seat] <= 12
        persons = [h[1] for h in state.houses[seat] if h[1] >= 0]
        assert len({p // 5 for p in persons}) == len(persons), "never two of one person in play"
        assert state.pmask[seat] == sum(1 << (p // 5) for p in persons)
    for colour in range(5):
        assert state.supply[colour] + sum(t[colour] for t in state.threats) == 9


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_play_keeps_the_invariants(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = new_game(players)
    steps = 0
    while not state.is_terminal():
        check(state)
        if steps % 17 == 0:
            seat = steps % players
            assert observe(resample_hidden(state, seat, rng), seat) == observe(state, seat)
        step = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply(step)
        steps += 1
    check(state)
    assert state.final_round == state.round and len(state.ranks()) == players
