"""The turn of M3 and cities of M5, with the rulebook's examples."""

from __future__ import annotations

import pytest

from sdk.games.errors import IllegalActionError
from sdk.games.masons import board
from sdk.games.masons.actions import Connect, Houses, Roll, Score, Towers, Wall
from sdk.games.masons.cards import CARD_BY_NAME
from sdk.games.masons.phases import CONNECT, HOUSES, SCORE, TOWERS, WALL
from sdk.games.masons.state import State

from .builders import build, dealt, line, with_walls

RED, BLUE, PINK = 3, 0, 4
BLACK, WHITE, GREY = 0, 1, 2
ANY = 5
BOTTOM_0, LEFT_0, RIGHT_0 = line((0, 0), (0, 1)), line((0, 0), (1, 0)), line((0, 1), (1, 0))
BOTTOM_2, RIGHT_2 = line((0, 1), (0, 2)), line((0, 2), (1, 1))
BETWEEN_1_2, TOP_1 = line((0, 1), (1, 1)), line((1, 0), (1, 1))
CENTRE = board.point(2, 3)


def options(state: State) -> set[tuple[int, ...]]:
    """The piece colours the deciding seat may choose from."""
    return {a.colours for a in state.legal_actions() if isinstance(a, Towers | Houses)}


HEXAGON = board.POINT_SPACES[CENTRE]
RIM = sorted(
    {n for sp in board.spaces_of(HEXAGON) for n in board.SPACE_LINES[sp] if CENTRE not in board.LINES[n]}
)
SPOKES = sorted({n for n, pair in enumerate(board.LINES) if CENTRE in pair})


def test_a_wall_goes_on_an_empty_line_and_the_turn_passes() -> None:
    state = dealt()
    build(state, line((2, 2), (2, 3)), tower=BLACK, houses=(BLUE, RED))
    assert state.phase == TOWERS  # both ends empty: the player places the second colour
    state.apply(Towers((BLACK, GREY)))
    assert state.phase == HOUSES
    state.apply(Houses((RED, BLUE)))
    assert state.phase == WALL and state.active == 1
    assert state.tower_at(board.point(2, 2)) == BLACK and state.tower_at(board.point(2, 3)) == GREY
    with pytest.raises(IllegalActionError, match=r"M3\.1"):
        state.apply(Wall(line((2, 2), (2, 3))))


def test_both_ends_empty_offer_the_rolled_colour_on_either_end() -> None:
    state = build(dealt(), line((2, 2), (2, 3)), tower=WHITE)
    options = {a.colours for a in state.legal_actions() if isinstance(a, Towers)}
    assert options == {(WHITE, BLACK), (WHITE, WHITE), (WHITE, GREY), (BLACK, WHITE), (GREY, WHITE)}
    with pytest.raises(IllegalActionError, match=r"M3\.3"):
        state.apply(Towers((BLACK, GREY)))


def test_one_empty_end_takes_the_rolled_colour_without_asking() -> None:
    state = dealt()
    state.towers[GREY] |= 1 << board.point(2, 2)
    build(state, line((2, 2), (2, 3)), tower=BLACK, houses=(RED, RED))
    assert state.tower_at(board.point(2, 3)) == BLACK and state.phase == WALL  # same colours: no choice


def test_a_wall_between_two_towers_places_none() -> None:
    state = dealt()
    state.towers[GREY] |= 1 << board.point(2, 2) | 1 << board.point(2, 3)
    build(state, line((2, 2), (2, 3)), tower=BLACK, houses=(RED, RED))
    assert state.towers_left == [10, 10, 10]


def test_an_exhausted_tower_colour_becomes_a_free_choice() -> None:
    state = dealt()
    state.towers_left = [0, 3, 3]
    state.towers[GREY] |= 1 << board.point(2, 2)
    build(state, line((2, 2), (2, 3)), tower=BLACK)
    assert options(state) == {
        (-1, WHITE),
        (-1, GREY),
    }


def test_the_last_tower_leaves_the_other_end_empty() -> None:
    state = dealt()
    state.towers_left = [1, 0, 0]
    build(state, line((2, 2), (2, 3)), tower=WHITE, houses=(RED, RED))
    assert options(state) == {
        (BLACK, -1),
        (-1, BLACK),
    }
    state.apply(Towers((BLACK, -1)))
    assert state.ending  # the last tower left the supply (M4)


def test_two_house_dice_go_one_to_each_side_as_the_player_decides() -> None:
    state = dealt()
    state.towers[GREY] |= 1 << board.point(2, 2) | 1 << board.point(2, 3)
    build(state, line((2, 2), (2, 3)), houses=(RED, ANY))
    spaces = board.LINE_SPACES[line((2, 2), (2, 3))]
    offered = options(state)
    assert (RED, PINK) in offered and (BLUE, RED) in offered and (PINK, PINK) not in offered
    state.apply(Houses((PINK, RED)))
    assert state.houses[spaces[0]][PINK] == 1 and state.houses[spaces[1]][RED] == 1


def test_an_edge_line_gets_one_house_in_either_die_s_colour() -> None:
    state = dealt()
    state.towers[GREY] |= 1 << board.point(0, 3) | 1 << board.point(0, 4)
    build(state, line((0, 3), (0, 4)), houses=(RED, BLUE))
    assert options(state) == {(RED,), (BLUE,)}
    state.apply(Houses((BLUE,)))
    assert sum(sum(h) for h in state.houses) == 1


def test_an_exhausted_house_colour_becomes_a_free_choice_and_none_left_means_none() -> None:
    state = dealt()
    state.towers[GREY] |= 1 << board.point(0, 3) | 1 << board.point(0, 4)
    state.houses_left = [0, 0, 0, 2, 0]
    build(state, line((0, 3), (0, 4)), houses=(BLUE, BLUE))
    assert state.houses[board.LINE_SPACES[line((0, 3), (0, 4))][0]][RED] == 1  # forced: the only colour left
    state = dealt()
    state.towers[GREY] |= 1 << board.point(2, 2) | 1 << board.point(2, 3)
    state.houses_left = [0, 0, 0, 1, 0]
    build(state, line((2, 2), (2, 3)), houses=(BLUE, BLUE))
    assert options(state) == {
        (RED, -1),
        (-1, RED),
    }


def test_a_wall_closing_one_space_with_the_edge_completes_a_city_and_scoring_follows() -> None:
    state = with_walls(dealt(), [BOTTOM_0, LEFT_0])
    state.towers[GREY] |= 1 << board.point(0, 1) | 1 << board.point(1, 0)
    build(state, RIGHT_0, houses=(RED, RED))
    assert [c.spaces for c in state.cities] == [1]
    assert state.phase == SCORE and state.queue == [0, 1]
    assert state.closed == 0  # one space: no line inside
    state.apply(Score((CARD_BY_NAME["small_city"],)))
    assert state.points[0] == 6


def test_two_red_houses_in_a_new_city_become_a_red_palace() -> None:
    """The rulebook's palace example: the house placed after the closing wall counts."""
    state = with_walls(dealt(), [BOTTOM_0, LEFT_0])
    state.towers[GREY] |= 1 << board.point(0, 1) | 1 << board.point(1, 0)
    state.houses[0][RED] = 1
    state.houses_left[RED] -= 1
    build(state, RIGHT_0, houses=(RED, BLUE))
    state.apply(Houses((RED, BLUE)))  # red on space 0, blue on space 1
    city = state.cities[0]
    assert city.palaces[RED] == 1 and city.houses[RED] == 0
    assert state.houses_left[RED] == 12 and state.palaces_left[RED] == 2
    assert state.houses[0] == [0] * 5 and state.houses[1][BLUE] == 1


def test_houses_stay_when_no_palace_of_their_colour_is_left() -> None:
    state = with_walls(dealt(), [BOTTOM_0, LEFT_0])
    state.towers[GREY] |= 1 << board.point(0, 1) | 1 << board.point(1, 0)
    state.houses[0][RED] = 1
    state.palaces_left[RED] = 0
    build(state, RIGHT_0, houses=(RED, BLUE))
    state.apply(Houses((RED, BLUE)))
    assert state.cities[0].houses[RED] == 2 and state.cities[0].palaces[RED] == 0


def _three_way() -> State:
    """City 0 = space 0, city 1 = space 2; the next wall closes space 1 between them."""
    state = with_walls(dealt(), [BOTTOM_0, LEFT_0, BOTTOM_2, RIGHT_2])
    for point in (board.point(0, 1), board.point(1, 0), board.point(1, 1)):
        state.towers[GREY] |= 1 << point
    for wall in (RIGHT_0, BETWEEN_1_2):
        build(state, wall, houses=(RED, RED))
        while state.phase == SCORE or state.phase not in (WALL,):
            state.apply(state.legal_actions()[0])
    assert [c.spaces for c in state.cities] == [1 << 0, 1 << 2]
    build(state, TOP_1, houses=(RED, RED))
    return state


def test_connecting_offers_each_neighbour_or_none() -> None:
    """The rulebook's connecting example: join either bordering city, or neither."""
    state = _three_way()
    assert state.phase == CONNECT
    assert state.legal_actions() == [Connect(None), Connect(0), Connect(1)]


def test_connecting_returns_the_shared_walls() -> None:
    state = _three_way()
    walls = state.walls_left
    state.apply(Connect(0))
    assert [c.spaces for c in state.cities] == [0b11, 1 << 2]
    assert not state.walls >> RIGHT_0 & 1 and state.walls_left == walls + 1
    assert state.closed >> RIGHT_0 & 1
    assert state.walls >> BETWEEN_1_2 & 1
    with pytest.raises(IllegalActionError):
        state.apply(Wall(RIGHT_0))


def test_not_connecting_leaves_three_cities() -> None:
    state = _three_way()
    state.apply(Connect(None))
    assert len(state.cities) == 3 and state.walls >> RIGHT_0 & 1


def test_a_city_returns_its_interior_walls_and_towers() -> None:
    """The rulebook's example: a wall inside the new city and a tower inside it go back."""
    state = with_walls(dealt(), [*RIM[1:], SPOKES[0]])
    state.towers[BLACK] |= 1 << CENTRE
    state.towers_left[BLACK] -= 1
    a, b = board.LINES[RIM[0]]
    state.towers[GREY] |= 1 << a | 1 << b
    state.towers_left[GREY] -= 2
    build(state, RIM[0], houses=(RED, RED))
    assert [c.spaces for c in state.cities] == [HEXAGON]
    assert not state.walls >> SPOKES[0] & 1 and state.walls_left == 33 - 6
    assert state.tower_at(CENTRE) == -1 and state.towers_left[BLACK] == 10
    assert state.tower_at(a) == GREY  # a rim tower belongs to the city and stays
    assert all(state.closed >> n & 1 for n in SPOKES)
    assert state.city(0).towers == (0, 0, 2)


def test_no_wall_inside_a_completed_city() -> None:
    state = with_walls(dealt(), RIM[1:])
    build(state, RIM[0], houses=(RED, RED))
    while state.phase != WALL:
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match=r"M3\.1"):
        state.apply(Wall(SPOKES[2]))
    assert all(Wall(n) not in state.legal_actions() for n in SPOKES)


def test_the_dice_are_chance() -> None:
    state = dealt()
    state.apply(Wall(line((2, 2), (2, 3))))
    assert state.is_chance_node()
    with pytest.raises(IllegalActionError, match="M2"):
        state.apply(Roll(3, (0, 0)))
