"""One test per ruling not covered by the turn, card and round tests: set-up (M2), joining across two
walls with its palaces and towers (M5), at most one city per wall (M3.5), single options (M10)."""

from __future__ import annotations

import pytest

from sdk.games.masons import board
from sdk.games.masons.actions import Connect, FinalScore, Shuffle
from sdk.games.masons.cards import CARD_BY_NAME, FULL_DECK, KINDS
from sdk.games.masons.phases import CONNECT, FINAL, OVER, SCORE, WALL
from sdk.games.masons.state import City, State, new_game

from .builders import build, dealt, line, with_walls

RED, BLACK = 3, 0
CENTRE = board.point(2, 3)
HEXAGON = board.POINT_SPACES[CENTRE]
VERTEX = board.point(3, 3)
FAN = board.POINT_SPACES[VERTEX] & ~HEXAGON


def test_set_up_deals_six_cards_to_each_seat_from_the_top_and_seat_0_starts() -> None:
    state = new_game(3)
    assert state.is_chance_node() and state.supply_counts() == (33, 30, 60, 15)
    order = tuple(reversed(FULL_DECK))
    state.apply(Shuffle(order))
    for seat in range(3):
        dealt_cards = order[6 * seat : 6 * seat + 6]
        assert state.hands[seat] == [dealt_cards.count(k) for k in range(KINDS)]
    assert state.draw_pile == list(order[18:]) and state.active == 0 and state.phase == WALL
    assert state.points == [0, 0, 0]


def test_the_deal_must_hold_the_sixty_cards() -> None:
    with pytest.raises(ValueError, match="M6"):
        new_game(2).apply(Shuffle(FULL_DECK[:-1]))
    with pytest.raises(ValueError, match="players"):
        new_game(5)


def _hexagon_city(state: State) -> State:
    """The hexagon around (2,3) as a completed city holding one red house (set up directly)."""
    state.cities = [City(HEXAGON, [0, 0, 0, 1, 0], [0] * 5)]
    for sp in board.spaces_of(HEXAGON):
        state.city_of[sp] = 0
    state.city_spaces = HEXAGON
    state.closed = board.lines_within(HEXAGON)
    rim = board.lines_touching(HEXAGON) & ~state.closed
    state.walls |= rim
    state.walls_left -= rim.bit_count()
    state.houses_left[RED] -= 1
    return state


def _close_the_fan() -> tuple[State, int]:
    """The four spaces round (3,3) outside the hexagon, closed by one more wall; a black tower on (3,3)."""
    state = _hexagon_city(dealt(2))
    border = board.lines_touching(FAN) & ~board.lines_within(FAN) & ~state.walls
    last, *others = board.spaces_of(border)
    with_walls(state, others)
    state.towers[BLACK] |= 1 << VERTEX
    state.towers_left[BLACK] -= 1
    a, b = board.LINES[last]
    state.towers[2] |= 1 << a | 1 << b
    state.towers_left[2] -= 2
    build(state, last, houses=(RED, RED))
    return state, len(board.spaces_of(board.lines_touching(FAN) & board.lines_touching(HEXAGON)))


def test_joining_across_two_shared_walls_returns_both_and_the_inner_tower() -> None:
    """Like the rulebook's first option (walls B and C): the cities share two walls."""
    state, shared = _close_the_fan()
    assert shared == 2 and state.phase == CONNECT
    assert state.legal_actions() == [Connect(None), Connect(0)]
    walls = state.walls_left
    state.apply(Connect(0))
    assert [c.spaces for c in state.cities] == [HEXAGON | FAN] and state.scored_city == 0
    assert state.walls_left == walls + 2
    assert state.tower_at(VERTEX) == -1 and state.towers_left[BLACK] == 10  # (3,3) is now inside
    assert state.cities[0].palaces[RED] == 1  # the old red house pairs with the new one (M5.3)


def test_not_joining_keeps_the_walls_and_the_tower() -> None:
    state, _ = _close_the_fan()
    walls = state.walls_left
    state.apply(Connect(None))
    assert [c.spaces for c in state.cities] == [HEXAGON, FAN] and state.scored_city == 1
    assert state.walls_left == walls and state.tower_at(VERTEX) == BLACK
    assert state.cities[0].palaces[RED] == 0 and state.cities[1].houses[RED] == 1


def test_a_wall_splitting_an_area_closes_at_most_the_one_closed_side() -> None:
    """Space 0 is shut in when its last wall goes up; the other side stays open land (M3.5)."""
    state = with_walls(dealt(2), [line((0, 0), (0, 1)), line((0, 0), (1, 0))])
    state.towers[2] |= 1 << board.point(0, 1) | 1 << board.point(1, 0)
    build(state, line((0, 1), (1, 0)), houses=(RED, RED))
    assert [c.spaces for c in state.cities] == [1 << 0] and state.phase == SCORE
    assert not state.city_of[1] >= 0


def test_a_final_scorer_holding_only_city_cards_without_a_city_is_not_asked() -> None:
    state = dealt(2)
    large, walls = CARD_BY_NAME["large_city"], CARD_BY_NAME["land_walls"]
    state.hands = [[0] * KINDS, [0] * KINDS]
    state.hands[0][large] = 2
    state.hands[1][walls] = 1
    state.walls_left = 1
    state.towers[2] |= 1 << board.point(2, 2) | 1 << board.point(2, 3)
    build(state, line((2, 2), (2, 3)), houses=(RED, RED))
    assert state.phase == FINAL and state.current_player == 1
    state.apply(FinalScore(None, (walls,)))
    assert state.phase == OVER and state.points == [0, 1]
