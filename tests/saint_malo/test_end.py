"""Game end (a full city, the round played out), final scoring and ranks."""

from __future__ import annotations

from sdk.games import saint_malo as sm

from .builders import (
    S,
    add_churches,
    add_vp,
    expect_illegal,
    fill,
    fill_except,
    quiet_turn,
    set_stock,
    sq,
    take_turn,
)

P = sm.Person
LAST = sm.square(4, 4)
CHURCH_ON_LAST = ((S.CROSS, S.LOG, S.LOG, S.LOG, S.LOG), S.CROSS, sm.PlaceChurch(LAST, 1))


def _fill_last_space(state: sm.State) -> None:
    """The player to move, whose only empty space is (4,4), fills it with a church."""
    faces, symbol, place = CHURCH_ON_LAST
    take_turn(state, faces, symbol, place)


def test_full_city_mid_round_later_seats_still_play() -> None:
    """Seat 1 of 3 fills its city: seat 2 plays its turn, then the game is over."""
    state = sm.new_game(3)
    quiet_turn(state)
    fill_except(state.cities[1], keep=1 << LAST)
    _fill_last_space(state)
    assert state.cities[1].is_full
    assert not state.is_terminal() and state.current == 2
    quiet_turn(state)
    assert state.is_terminal()
    assert state.current_player == sm.TERMINAL and state.decision is None
    assert state.turn == 3


def test_full_city_at_seat_0_lets_every_other_seat_play() -> None:
    """Seat 0 fills its city in round 1: seats 1 and 2 play, seat 0 does not play again."""
    state = sm.new_game(3)
    fill_except(state.cities[0], keep=1 << LAST)
    _fill_last_space(state)
    quiet_turn(state)
    assert not state.is_terminal() and state.current == 2
    quiet_turn(state)
    assert state.is_terminal() and state.turn == 3


def test_full_city_at_the_last_seat_ends_at_once() -> None:
    """The seat before seat 0 fills its city: the round is complete, the game ends."""
    state = sm.new_game(3)
    quiet_turn(state)
    quiet_turn(state)
    fill_except(state.cities[2], keep=1 << LAST)
    _fill_last_space(state)
    assert state.is_terminal() and state.turn == 3


def test_full_city_in_a_later_round() -> None:
    """Filling in round 2 still ends the game after the last seat of round 2."""
    state = sm.new_game(2)
    quiet_turn(state)
    quiet_turn(state)
    assert state.round == 2
    fill_except(state.cities[0], keep=1 << LAST)
    _fill_last_space(state)
    assert not state.is_terminal()
    quiet_turn(state)
    assert state.is_terminal() and state.turn == 4


def test_two_full_cities_in_one_round() -> None:
    """Seats 0 and 1 of 3 both fill their cities: the game still ends after seat 2."""
    state = sm.new_game(3)
    for seat in (0, 1):
        fill_except(state.cities[seat], keep=1 << LAST)
        _fill_last_space(state)
    assert not state.is_terminal() and state.current == 2
    quiet_turn(state)
    assert state.is_terminal()


def test_bonus_person_filling_the_last_space_ends_the_game() -> None:
    """The top side's bonus citizen takes the last space: the city is full, the round ends."""
    state = sm.new_game(2)
    city = state.cities[1]
    quiet_turn(state)
    fill(city, walls=sq((0, 1), (0, 2), (0, 3), (0, 4)))
    fill_except(city, keep=sq((0, 5)) | 1 << LAST)
    take_turn(state, (S.WALL, S.LOG, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((0, 5))))
    assert state.decision is sm.Decision.BONUS_PERSON
    state.apply(sm.PlacePerson(P.CITIZEN, LAST))
    assert city.is_full and state.is_terminal()


def test_no_move_after_the_end() -> None:
    """A finished game accepts no roll and no decision."""
    state = sm.new_game(2)
    quiet_turn(state)
    fill_except(state.cities[1], keep=1 << LAST)
    _fill_last_space(state)
    assert state.is_terminal()
    expect_illegal(state, sm.Roll((S.LOG,) * 5), "R7 decisions")
    expect_illegal(state, sm.Keep(0), "R7 decisions")
    expect_illegal(state, sm.Choose(S.LOG), "R7 decisions")


def test_final_scores_of_a_finished_game() -> None:
    """Each part of the final score, for a full and a non-full city, at the terminal state."""
    state = sm.new_game(2)
    full, other = state.cities
    # Seat 0: churches 1,2,3 and an extra 1 (8 + 1), 7 coins, 1 log, 1 cannon lost, 12 VP in play.
    add_churches(full, 1, sq((4, 1), (4, 2)))
    add_churches(full, 2, sq((4, 3)))
    add_churches(full, 3, sq((5, 1)))
    fill_except(full, keep=1 << LAST)
    set_stock(full, coins=7, logs=1)
    full.cannons_lost = 1
    add_vp(full, 12)
    _fill_last_space(state)  # a fourth church, of size 1: series 1-2-3 (8) + 1 + 1
    # Seat 1: 5 coins after its delivery, 5 logs, no churches.
    set_stock(other, coins=7, logs=4)
    take_turn(state, (S.LOG, S.CROSS, S.CROSS, S.CROSS, S.CROSS), S.LOG, sm.PlaceLogs(1))
    assert state.is_terminal()
    parts = full.score_breakdown()
    assert parts[sm.ScorePart.FULL_CITY] == 5
    assert parts[sm.ScorePart.COINS] == 3
    assert parts[sm.ScorePart.LOGS] == 1
    assert parts[sm.ScorePart.CHURCHES] == 8 + 1 + 1
    assert parts[sm.ScorePart.CANNONS] == -5
    assert sum(parts.values()) == full.final_score()
    assert state.scores() == [12 + 5 + 3 + 1 + 10 - 5, 2 + 5]
    assert state.ranks() == [1, 2]


def test_tie_goes_to_more_empty_spaces() -> None:
    """Equal scores at the end: the full city (0 empty spaces) ranks behind."""
    state = sm.new_game(2)
    full, other = state.cities
    fill_except(full, keep=1 << LAST)
    _fill_last_space(state)
    quiet_turn(state)
    assert state.is_terminal()
    # Level the scores by giving seat 1 in-play points.
    gap = full.final_score() - other.final_score()
    add_vp(other, gap)
    assert state.scores()[0] == state.scores()[1]
    assert state.ranks() == [2, 1]


def test_full_tie_shares_the_rank() -> None:
    """Same score and same number of empty spaces share a rank; one space less breaks the tie."""
    state = sm.new_game(3)
    add_vp(state.cities[2], 4)
    assert state.ranks() == [2, 2, 1]
    fill(state.cities[0], houses=sq((5, 5)))
    assert state.ranks() == [3, 2, 1]
