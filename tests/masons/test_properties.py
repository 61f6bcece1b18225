"""Random play keeps the rules' invariants (hypothesis chooses the seeds and table sizes)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.games.masons.board import ALL_SPACES, EDGE_LINES, lines_touching, lines_within, spaces_of
from sdk.games.masons.cards import COPIES, KINDS
from sdk.games.masons.enclosure import area, closed
from sdk.games.masons.hidden import determinize
from sdk.games.masons.observation import observe
from sdk.games.masons.phases import WALL
from sdk.games.masons.state import State, new_game


def _check(state: State) -> None:
    on_board = state.walls.bit_count()
    assert on_board + state.walls_left == 33
    for colour in range(3):
        assert state.towers[colour].bit_count() + state.towers_left[colour] == 10
    for colour in range(5):
        land = sum(h[colour] for h in state.houses)
        in_cities = sum(c.houses[colour] for c in state.cities)
        palaces = sum(c.palaces[colour] for c in state.cities)
        assert land + in_cities + state.houses_left[colour] == 12
        assert palaces + state.palaces_left[colour] == 3
    for k in range(KINDS):
        held = sum(hand[k] for hand in state.hands)
        assert held + state.draw_pile.count(k) + state.discards[k] == COPIES[k]
    assert state.walls & state.closed == 0, "no wall inside a city"
    seen = 0
    for city in state.cities:
        assert city.spaces & seen == 0
        seen |= city.spaces
        border = lines_touching(city.spaces) & ~lines_within(city.spaces)
        assert border & ~state.walls == 0, "every city is enclosed, edge lines included"
        assert lines_within(city.spaces) & ~state.closed == 0
        assert area(spaces_of(city.spaces)[0], state.walls) == city.spaces, "a city is one area"
    assert seen == state.city_spaces
    if state.phase == WALL:
        land = ALL_SPACES & ~state.city_spaces
        while land:
            start = spaces_of(land)[0]
            region = area(start, state.walls)
            assert not closed(region, state.walls), "every closed area is a completed city"
            land &= ~region
    assert EDGE_LINES & state.closed == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_random_play_keeps_supplies_cities_and_cards_consistent(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = new_game(players)
    cities_before = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            seat = state.current_player
            assert determinize(observe(state, seat), rng).legal_actions() == state.legal_actions()
            state.apply(state.sample_action(rng))
        _check(state)
        assert len(state.cities) <= cities_before + 1, "one wall completes at most one city"
        cities_before = len(state.cities)
    assert state.ending or not state.open_lines()
