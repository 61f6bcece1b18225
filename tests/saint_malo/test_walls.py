"""City walls: complete and destroyed sides, side bonuses and the top side's bonus person."""

from __future__ import annotations

import pytest

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import BOTTOM, LEFT, RIGHT, TOP

from .builders import (
    S,
    add_persons,
    expect_illegal,
    fill,
    fill_except,
    set_stock,
    sq,
    take_turn,
)

P = sm.Person
ONE_WALL = (S.WALL, S.LOG, S.LOG, S.LOG, S.LOG)
TOP_BUT_LAST = sq((0, 1), (0, 2), (0, 3), (0, 4))
LAST_TOP = sq((0, 5))


def _close_side(side: int, *, players: int = 2) -> sm.State:
    """Seat 0 holds four walls of ``side`` and places the fifth with one wall die."""
    state = sm.new_game(players)
    spaces = list(sm.squares_of(sm.SIDE_MASKS[side]))
    fill(state.cities[0], walls=sm.mask_of(*spaces[:4]))
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sm.mask_of(spaces[4])))
    return state


@pytest.mark.parametrize("side", [RIGHT, LEFT])
def test_right_and_left_sides_give_2_coins(side: int) -> None:
    """Completing the right or the left side adds 2 coins at once."""
    state = _close_side(side)
    city = state.cities[0]
    assert (city.coins, city.vp) == (5, 0)
    assert city.complete_sides == 1 << side
    assert state.current == 1


def test_bottom_side_gives_3_vp() -> None:
    """Completing the bottom side adds 3 VP, booked as a wall bonus."""
    state = _close_side(BOTTOM)
    city = state.cities[0]
    assert (city.coins, city.vp) == (3, 3)
    assert city.score_breakdown()[sm.ScorePart.WALL_BONUSES] == 3


def test_top_side_asks_for_a_bonus_person() -> None:
    """Completing the top side leaves the same player a bonus-person decision."""
    state = _close_side(TOP)
    assert state.decision is sm.Decision.BONUS_PERSON
    assert state.current_player == 0
    assert (state.cities[0].coins, state.cities[0].vp) == (3, 0)


def test_bonus_is_given_once() -> None:
    """Later walls elsewhere do not pay the bonus of an already complete side again."""
    state = _close_side(RIGHT)
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sq((6, 3))))
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sq((6, 2))))
    assert state.cities[0].coins == 5
    assert state.cities[0].walls.bit_count() == 6


def test_bonus_architect_builds_houses() -> None:
    """The bonus person may be an architect who builds houses from stored logs (+3 VP each)."""
    state = _close_side(TOP)
    city = state.cities[0]
    state.apply(sm.PlacePerson(P.ARCHITECT, sm.square(4, 4), sq((4, 5), (5, 5))))
    assert (city.logs, city.vp, city.houses) == (0, 6, sq((4, 5), (5, 5)))
    assert city.score_breakdown()[sm.ScorePart.HOUSES] == 6
    assert city.person_at(sm.square(4, 4)) is P.ARCHITECT
    assert state.current == 1 and state.is_chance_node()


def test_bonus_architect_follows_the_house_rules() -> None:
    """A bonus architect's houses must still be connected, adjacent and paid with logs."""
    state = _close_side(TOP)
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, sm.square(4, 4), sq((2, 4), (2, 5))), "R4 architect")
    expect_illegal(
        state, sm.PlacePerson(P.ARCHITECT, sm.square(4, 4), sq((5, 3), (5, 4), (5, 5))), "R4 architect"
    )


def test_bonus_merchant_gains_coins_without_head_dice() -> None:
    """A level-3 bonus person needs no heads: a merchant next to the 4 start crates gains 4 coins."""
    state = _close_side(TOP)
    state.apply(sm.PlacePerson(P.MERCHANT, sm.square(2, 2)))
    assert state.cities[0].coins == 7


@pytest.mark.parametrize("person", [P.JUGGLER, P.NOBLE])
def test_bonus_person_cannot_be_juggler_or_noble(person: sm.Person) -> None:
    """Only levels 1-3 may be taken as a bonus person."""
    state = _close_side(TOP)
    expect_illegal(state, sm.PlacePerson(person, sm.square(4, 4)), "R4 bonus person")


def test_bonus_person_needs_an_empty_space() -> None:
    """The bonus person goes on an empty space only."""
    state = _close_side(TOP)
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, sm.square(1, 1)), "R4 bonus person")
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, sm.square(0, 3)), "R4 bonus person")
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, sm.square(0, 0)), "R4 bonus person")


def test_bonus_person_decision_accepts_only_a_person() -> None:
    """Another placement kind or another action at the bonus decision is refused."""
    state = _close_side(TOP)
    expect_illegal(state, sm.PlaceChurch(sm.square(4, 4), 1), "R4 bonus person")
    expect_illegal(state, sm.PlaceWalls(sq((6, 3))), "R4 bonus person")
    expect_illegal(state, sm.Keep(0), "R7 decisions")
    expect_illegal(state, sm.Roll((S.LOG,) * 5), "R7 decisions")


def test_bonus_person_skipped_when_the_city_is_full() -> None:
    """The top wall that fills the last space gives no bonus person: the turn simply ends."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, walls=TOP_BUT_LAST)
    fill_except(city, keep=LAST_TOP)
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(LAST_TOP))
    assert city.is_full and city.complete_sides == 1 << TOP
    assert state.decision is None and state.current == 1


def test_top_and_right_completed_together() -> None:
    """One placement closing top and right: +2 coins at once, then the bonus person."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, walls=TOP_BUT_LAST | sq((1, 6), (2, 6), (3, 6), (4, 6)))
    take_turn(state, (S.WALL, S.WALL, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(LAST_TOP | sq((5, 6))))
    assert city.coins == 5
    assert state.decision is sm.Decision.BONUS_PERSON
    state.apply(sm.PlacePerson(P.SOLDIER, sm.square(4, 4)))
    assert city.defence == 2 + 2 + 1


def test_destroyed_top_side_gives_no_bonus_person() -> None:
    """A citizen on the top side: walls on its other four spaces never complete it."""
    state = sm.new_game(2)
    city = state.cities[0]
    add_persons(city, P.CITIZEN, LAST_TOP)
    fill(city, walls=sq((0, 1), (0, 2), (0, 3)))
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sq((0, 4))))
    assert state.decision is None and state.current == 1
    assert city.destroyed_sides == 1 << TOP
    assert city.complete_sides == 0 and city.defence == 0


def test_destroyed_side_is_destroyed_by_any_non_wall_item() -> None:
    """Crates, houses, churches and people on a side each destroy it."""
    city = sm.new_game(2).cities[0]
    fill(city, crates=sq((0, 3)), houses=sq((3, 6)))
    add_persons(city, P.SOLDIER, sq((6, 3)))
    assert city.destroyed_sides == (1 << TOP) | (1 << RIGHT) | (1 << BOTTOM)
    fill(city, walls=sm.SIDE_MASKS[LEFT])
    assert city.destroyed_sides == (1 << TOP) | (1 << RIGHT) | (1 << BOTTOM)
    assert city.complete_sides == 1 << LEFT
    assert city.defence == 1 + 2


def test_wall_bonus_coins_arrive_before_the_turn_ends() -> None:
    """Coins from a completed side are in the bank at once (usable for the next turn's rotation)."""
    state = sm.new_game(2)
    city = state.cities[0]
    set_stock(city, coins=0)
    fill(city, walls=sq((1, 0), (2, 0), (3, 0), (4, 0)))
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sq((5, 0))))
    assert city.coins == 2
