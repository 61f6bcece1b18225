"""The rulebook's scoring example as a position (set up directly, as a table would be)."""

from __future__ import annotations

from sdk.games.masons.board import lines_touching, lines_within, point
from sdk.games.masons.cards import CARD_BY_NAME, KINDS
from sdk.games.masons.phases import SCORE
from sdk.games.masons.state import City, State

from .builders import dealt

BLUE, GREEN, YELLOW, RED, PINK = range(5)
BLACK, WHITE, GREY = range(3)
CITY_X = 0b1111111  # spaces 0-6: seven spaces
ONE_SPACE_CITIES = (30, 41, 47)


def scoring_example(hands: list[list[str]] | None = None) -> State:
    """City X (7 spaces, 7 towers) just completed, 4 cities in all, and on the land: 5 shore
    towers and one more, 6 walls, 6 pink houses and 7 houses in the west."""
    state = dealt(4)
    x = City(CITY_X, [1, 0, 0, 1, 0], [0, 1, 0, 0, 1])
    state.cities = [x, *(City(1 << sp, [0] * 5, [0] * 5) for sp in ONE_SPACE_CITIES)]
    for index, city in enumerate(state.cities):
        for sp in range(48):
            if city.spaces >> sp & 1:
                state.city_of[sp] = index
        state.city_spaces |= city.spaces
        state.closed |= lines_within(city.spaces)
    border = lines_touching(state.city_spaces) & ~state.closed
    land_walls = [n for n in range(82) if not lines_touching(state.city_spaces) >> n & 1][:6]
    state.walls = border | sum(1 << n for n in land_walls)
    state.walls_left = 33 - state.walls.bit_count()
    placed = {BLACK: [0, 1, 2, point(2, 2)], WHITE: [3, 4], GREY: [7, 8, 6, 13, 14, 20, 21]}
    for colour, points in placed.items():
        for p in points:
            state.towers[colour] |= 1 << p
        state.towers_left[colour] -= len(points)
    for space, colour, count in ((12, PINK, 2), (13, PINK, 2), (14, BLUE, 3), (16, PINK, 2)):
        state.houses[space][colour] += count
        state.houses_left[colour] -= count
    state.phase, state.queue, state.scored_city, state.completed = SCORE, [0, 1, 2, 3], 0, True
    if hands is not None:
        deck = state.hands
        for seat, names in enumerate(hands):
            back = deck[seat]
            for k in range(KINDS):
                state.draw_pile += [k] * back[k]
            deck[seat] = [0] * KINDS
            for name in names:
                deck[seat][CARD_BY_NAME[name]] += 1
                state.draw_pile.remove(CARD_BY_NAME[name])
    return state
