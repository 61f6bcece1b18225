"""Game parameters (side_bonuses, start_crates, cannons) change the rules they name."""

from __future__ import annotations

import pytest

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import BOTTOM, RIGHT, TOP

from .builders import S, expect_illegal, fill, roll_and_stop, set_pirate_boxes, sq, take_turn, to_place

P = sm.Person
ONE_WALL = (S.WALL, S.LOG, S.LOG, S.LOG, S.LOG)


def _close(state: sm.State, side: int) -> None:
    """The player to move has four walls of ``side`` and places the fifth."""
    spaces = list(sm.squares_of(sm.SIDE_MASKS[side]))
    fill(state.cities[state.current], walls=sm.mask_of(*spaces[:4]))
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sm.mask_of(spaces[4])))


def test_defaults_are_the_published_game() -> None:
    """Top person, right coins, bottom VP, left coins; 4 start crates; 6 cannons."""
    params = sm.Params()
    assert params.side_bonuses == ("person", "coins", "vp", "coins")
    assert params.start_crates_mask == sq((1, 1), (1, 2), (2, 1), (3, 1))
    assert params.cannons == 6


def test_side_bonuses_param_moves_the_bonuses() -> None:
    """With top=vp, right=person, bottom=coins the bonuses follow the parameter."""
    params = sm.Params(side_bonuses=("vp", "person", "coins", "coins"))
    state = sm.new_game(2, params)
    _close(state, TOP)
    assert state.cities[0].vp == 3
    assert state.current == 1 and state.decision is None
    _close(state, RIGHT)
    assert state.decision is sm.Decision.BONUS_PERSON and state.current == 1
    state.apply(sm.PlacePerson(P.CITIZEN, sm.square(4, 4)))
    assert state.cities[1].vp == 1
    _close(state, BOTTOM)
    assert (state.cities[0].coins, state.cities[0].vp) == (5, 3)


def test_side_bonuses_param_two_person_sides() -> None:
    """Two person sides closed in one placement give two bonus-person decisions."""
    params = sm.Params(side_bonuses=("person", "person", "vp", "coins"))
    state = sm.new_game(2, params)
    fill(state.cities[0], walls=sq((0, 1), (0, 2), (0, 3), (0, 4), (1, 6), (2, 6), (3, 6), (4, 6)))
    take_turn(state, (S.WALL, S.WALL, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((0, 5), (5, 6))))
    assert state.decision is sm.Decision.BONUS_PERSON
    state.apply(sm.PlacePerson(P.SOLDIER, sm.square(4, 4)))
    assert state.decision is sm.Decision.BONUS_PERSON and state.current == 0
    state.apply(sm.PlacePerson(P.SOLDIER, sm.square(4, 5)))
    assert state.current == 1 and state.cities[0].defence == 2 + 2 + 2


def test_start_crates_param_sets_the_printed_crates() -> None:
    """One start crate on (3,3): 44 empty spaces; a merchant at (2,2) gains 1 coin."""
    state = sm.new_game(2, sm.Params(start_crates=(sm.square(3, 3),)))
    city = state.cities[0]
    assert city.crates == sq((3, 3)) and city.empty_count == 44
    take_turn(
        state,
        (S.HEAD, S.HEAD, S.HEAD, S.LOG, S.LOG),
        S.HEAD,
        sm.PlacePerson(P.MERCHANT, sm.square(2, 2)),
    )
    assert city.coins == 4


def test_no_start_crates() -> None:
    """An empty start_crates leaves all 45 spaces free (and (1,1) buildable)."""
    state = sm.new_game(2, sm.Params(start_crates=()))
    assert state.cities[1].crates == 0 and state.cities[1].empty_count == 45
    take_turn(state, (S.CROSS, S.LOG, S.LOG, S.LOG, S.LOG), S.CROSS, sm.PlaceChurch(sm.square(1, 1), 1))
    assert state.cities[0].church_at(sm.square(1, 1)) == 1


def test_start_crate_on_a_side_destroys_it() -> None:
    """A start crate on the top side: walls on the other four never complete it."""
    state = sm.new_game(2, sm.Params(start_crates=(sm.square(0, 3),)))
    city = state.cities[0]
    assert city.destroyed_sides == 1 << TOP
    fill(city, walls=sq((0, 1), (0, 2), (0, 4)))
    take_turn(state, ONE_WALL, S.WALL, sm.PlaceWalls(sq((0, 5))))
    assert city.complete_sides == 0 and state.current == 1


def test_start_crates_are_filled_spaces() -> None:
    """Nothing goes on a parametrised start crate."""
    state = sm.new_game(2, sm.Params(start_crates=(sm.square(5, 5),)))
    to_place(state, (S.CROSS, S.LOG, S.LOG, S.LOG, S.LOG), S.CROSS)
    expect_illegal(state, sm.PlaceChurch(sm.square(5, 5), 1), "R4 church")


def test_cannons_param_limits_the_total_loss() -> None:
    """With 2 cannons a player never loses more than 2, however many attacks."""
    state = sm.new_game(2, sm.Params(cannons=2))
    set_pirate_boxes(state, 3)
    roll_and_stop(state, *(S.SWORDS,) * 5)  # attacks 1 and 2
    set_pirate_boxes(state, 11)
    roll_and_stop(state, *(S.SWORDS,) * 5)  # attacks 3 and 4
    assert [a.strength for a in state.attacks] == [1, 3, 6, 8]
    assert [c.cannons_lost for c in state.cities] == [2, 2]
    assert state.cities[0].score_breakdown()[sm.ScorePart.CANNONS] == -10


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start_crates": (sm.square(0, 0),)},
        {"start_crates": (sm.square(2, 2), sm.square(2, 2))},
        {"side_bonuses": ("person", "coins", "vp")},
        {"side_bonuses": ("person", "coins", "vp", "gold")},
        {"cannons": -1},
    ],
)
def test_bad_params_are_refused(kwargs: dict[str, object]) -> None:
    """Towers or repeated squares as crates, a wrong bonus list, negative cannons: ValueError."""
    with pytest.raises(ValueError):
        sm.Params(**kwargs)  # type: ignore[arg-type]
