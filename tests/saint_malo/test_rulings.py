"""One or more tests per binding ruling R1-R7 (and per bullet that states a rule of its own)."""

from __future__ import annotations

import pytest

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import BOTTOM, LEFT, RIGHT, TOP

from .builders import (
    S,
    add_churches,
    add_vp,
    decision_of,
    expect_illegal,
    fill,
    fill_except,
    give_defence,
    quiet_turn,
    roll_and_stop,
    set_pirate_boxes,
    set_stock,
    sq,
    take_turn,
    to_place,
)

P = sm.Person
NO_SWORDS = (S.LOG, S.CRATE, S.WALL, S.CROSS, S.HEAD)


# --- R1 the city board -----------------------------------------------------------


def test_r1_board_has_45_spaces_20_outer_25_inner() -> None:
    """A 7x7 grid minus 4 corner towers: 45 spaces, a ring of 20 outer and 5x5 inner."""
    assert sm.SPACES.bit_count() == 45
    assert sm.OUTER.bit_count() == 20
    assert sm.INNER.bit_count() == 25
    assert sm.OUTER & sm.INNER == 0
    for tower in ((0, 0), (0, 6), (6, 0), (6, 6)):
        assert not sm.SPACES & sq(tower)
    assert sq(*((r, c) for r in range(1, 6) for c in range(1, 6))) == sm.INNER


def test_r1_sides_are_five_outer_spaces_each() -> None:
    """top = row 0, right = col 6, bottom = row 6, left = col 0 (cols/rows 1-5)."""
    assert sm.SIDE_NAMES == ("top", "right", "bottom", "left")
    assert sm.SIDE_MASKS[TOP] == sq(*((0, c) for c in range(1, 6)))
    assert sm.SIDE_MASKS[RIGHT] == sq(*((r, 6) for r in range(1, 6)))
    assert sm.SIDE_MASKS[BOTTOM] == sq(*((6, c) for c in range(1, 6)))
    assert sm.SIDE_MASKS[LEFT] == sq(*((r, 0) for r in range(1, 6)))
    union = 0
    for mask in sm.SIDE_MASKS:
        assert mask.bit_count() == 5
        union |= mask
    assert union == sm.OUTER


def test_r1_towers_cannot_be_built_on() -> None:
    """A corner tower is not a space: nothing may be placed there."""
    state = sm.new_game(2)
    to_place(state, (S.CROSS, S.CROSS, S.LOG, S.LOG, S.LOG), S.CROSS)
    expect_illegal(state, sm.PlaceChurch(sm.square(0, 0), 1), "R4 church")
    expect_illegal(state, sm.PlaceChurch(sm.square(6, 6), 2), "R4 church")


def test_r1_walls_never_on_inner_spaces_but_other_items_go_anywhere() -> None:
    """A wall on an inner space is rejected; a church on an outer space is fine."""
    state = sm.new_game(2)
    to_place(state, (S.WALL, S.WALL, S.LOG, S.LOG, S.LOG), S.WALL)
    expect_illegal(state, sm.PlaceWalls(sq((3, 3))), "R4 walls")
    expect_illegal(state, sm.PlaceWalls(sq((0, 3), (1, 3))), "R4 walls")
    state.apply(sm.PlaceWalls(sq((0, 3), (6, 3))))
    take_turn(state, (S.CROSS, S.LOG, S.LOG, S.LOG, S.LOG), S.CROSS, sm.PlaceChurch(sm.square(0, 3), 1))
    assert state.cities[1].church_at(sm.square(0, 3)) == 1


def test_r1_connected_means_orthogonal() -> None:
    """Crates that only touch diagonally are not one group; side by side they are."""
    state = sm.new_game(2)
    to_place(state, (S.CRATE, S.CRATE, S.LOG, S.LOG, S.LOG), S.CRATE)
    expect_illegal(state, sm.PlaceCrates(sq((4, 4), (5, 5))), "R4 crates")
    state.apply(sm.PlaceCrates(sq((4, 4), (5, 4))))
    assert state.cities[0].crates & sq((4, 4), (5, 4)) == sq((4, 4), (5, 4))


def test_r1_adjacent_is_the_eight_squares_and_crosses_a_tower_diagonally() -> None:
    """(0,1) and (1,0) touch across the top-left tower; the tower is not a neighbour."""
    a, b = sm.square(0, 1), sm.square(1, 0)
    assert sm.ADJACENT[a] & (1 << b)
    assert sm.ADJACENT[b] & (1 << a)
    assert not sm.ADJACENT[a] & sq((0, 0))
    assert sm.ADJACENT[sm.square(3, 3)].bit_count() == 8
    assert sm.ORTHOGONAL[sm.square(3, 3)] == sq((2, 3), (4, 3), (3, 2), (3, 4))


def test_r1_merchant_counts_a_crate_diagonally_across_a_tower() -> None:
    """A merchant on (0,1) gains for the crate on (1,0) and the start crates (1,1), (1,2)."""
    state = sm.new_game(2)
    fill(state.cities[0], crates=sq((1, 0)))
    take_turn(
        state, (S.HEAD, S.HEAD, S.HEAD, S.LOG, S.LOG), S.HEAD, sm.PlacePerson(P.MERCHANT, sm.square(0, 1))
    )
    assert state.cities[0].coins == 3 + 3


# --- R2 start of the game --------------------------------------------------------


def test_r2_start_stock_and_start_player() -> None:
    """Every player starts with 3 coins, 2 logs, 0 VP, 4 crates on fixed spaces; seat 0 rolls first."""
    state = sm.new_game(3)
    assert state.is_chance_node() and state.current == 0 and state.round == 1
    for city in state.cities:
        assert (city.coins, city.logs, city.vp, city.cannons_lost) == (3, 2, 0, 0)
        assert city.crates == sq((1, 1), (1, 2), (2, 1), (3, 1))
        assert city.empty_count == 41
    assert state.scores() == [1 + 2] * 3  # 3 coins -> 1 VP, 2 logs -> 2 VP


def test_r2_start_crates_count_for_merchants() -> None:
    """The four printed crates are ordinary crates: a merchant at (2,2) gains 4 coins."""
    state = sm.new_game(2)
    take_turn(
        state, (S.HEAD, S.HEAD, S.HEAD, S.LOG, S.LOG), S.HEAD, sm.PlacePerson(P.MERCHANT, sm.square(2, 2))
    )
    assert state.cities[0].coins == 7


def test_r2_start_crates_fill_their_spaces() -> None:
    """Nothing can be placed on a start crate."""
    state = sm.new_game(2)
    to_place(state, (S.CROSS, S.LOG, S.LOG, S.LOG, S.LOG), S.CROSS)
    expect_illegal(state, sm.PlaceChurch(sm.square(1, 1), 1), "R4 church")


# --- R3 rolling ------------------------------------------------------------------


def test_r3_keep_after_rolls_1_and_2_but_not_after_roll_3() -> None:
    """Keep decisions follow roll 1 and roll 2; roll 3 leads straight to choose."""
    state = sm.new_game(2)
    state.apply(sm.Roll((S.LOG, S.LOG, S.CRATE, S.WALL, S.HEAD)))
    assert state.decision is sm.Decision.KEEP
    state.apply(sm.Keep(0b11100))
    assert state.is_chance_node()
    state.apply(sm.Roll((S.LOG, S.LOG, S.LOG)))
    assert state.decision is sm.Decision.KEEP
    state.apply(sm.Keep(0b00001))
    state.apply(sm.Roll((S.LOG,)))
    assert decision_of(state) is sm.Decision.CHOOSE
    assert state.dice == [S.LOG] * 5
    expect_illegal(state, sm.Keep(0b00001), "R7 decisions")
    expect_illegal(state, sm.Keep(0), "R7 decisions")


def test_r3_first_roll_is_all_five_dice() -> None:
    """The first roll of a turn rolls five dice; an outcome of another size is rejected."""
    state = sm.new_game(2)
    expect_illegal(state, sm.Roll((S.LOG, S.LOG, S.LOG, S.LOG)), "R3 rolling")
    state.apply(sm.Roll(NO_SWORDS))
    state.apply(sm.Keep(0b00011))
    expect_illegal(state, sm.Roll((S.LOG, S.LOG, S.LOG)), "R3 rolling")


def test_r3_dice_kept_after_roll_1_may_be_rerolled_after_roll_2() -> None:
    """Keeping dice 0-1 after roll 1 does not stop them being rolled again at roll 3."""
    state = sm.new_game(2)
    state.apply(sm.Roll((S.HEAD, S.HEAD, S.LOG, S.LOG, S.LOG)))
    state.apply(sm.Keep(0b11100))  # keep the two heads
    state.apply(sm.Roll((S.CROSS, S.CROSS, S.CROSS)))
    state.apply(sm.Keep(0b00011))  # now re-roll the two heads kept before
    state.apply(sm.Roll((S.CROSS, S.CROSS)))
    assert state.dice == [S.CROSS] * 5
    assert state.decision is sm.Decision.CHOOSE


def test_r3_keep_none_stops_rolling() -> None:
    """Re-rolling no die ends the rolling at once."""
    state = sm.new_game(2)
    state.apply(sm.Roll(NO_SWORDS))
    state.apply(sm.Keep(0))
    assert state.decision is sm.Decision.CHOOSE
    assert state.dice == list(NO_SWORDS)


def test_r3_swords_may_be_kept_or_rerolled() -> None:
    """A swords die is re-rolled like any other, and a kept one stays."""
    state = sm.new_game(2)
    state.apply(sm.Roll((S.SWORDS, S.SWORDS, S.LOG, S.LOG, S.LOG)))
    state.apply(sm.Keep(0b00001))  # re-roll one sword, keep the other
    state.apply(sm.Roll((S.LOG,)))
    state.apply(sm.Keep(0))
    assert state.dice == [S.LOG, S.SWORDS, S.LOG, S.LOG, S.LOG]
    state.apply(sm.Choose(S.LOG))
    state.apply(sm.Rotate(0))
    state.apply(sm.PlaceLogs(4))
    assert state.pirate_boxes == 1


def test_r3_keep_mask_must_name_five_dice() -> None:
    """A re-roll mask outside the five dice is rejected."""
    state = sm.new_game(2)
    state.apply(sm.Roll(NO_SWORDS))
    expect_illegal(state, sm.Keep(0b100000), "R3 keep")
    expect_illegal(state, sm.Keep(-1), "R3 keep")


def test_r3_roll_faces_must_be_symbols() -> None:
    """A face that is no die symbol is rejected."""
    state = sm.new_game(2)
    bad = sm.Roll((S.LOG, S.LOG, S.LOG, S.LOG, 6))  # type: ignore[arg-type]
    expect_illegal(state, bad, "R3 rolling")


# --- R4 scoring a turn -----------------------------------------------------------


def test_r4_choose_only_an_available_symbol() -> None:
    """A symbol with no die showing it and no coins to rotate is refused; a showing one is allowed."""
    state = sm.new_game(2)
    set_stock(state.cities[0], coins=1)
    roll_and_stop(state, S.CRATE, S.CRATE, S.WALL, S.WALL, S.SWORDS)
    assert state.available_symbols() == [S.CRATE, S.WALL]
    expect_illegal(state, sm.Choose(S.HEAD), "R4 choose")
    expect_illegal(state, sm.Choose(S.CROSS), "R4 choose")
    state.apply(sm.Choose(S.WALL))
    assert state.decision is sm.Decision.ROTATE


def test_r4_choose_a_symbol_reachable_only_by_rotation() -> None:
    """With 2 coins, a symbol no die shows is available and must then be rotated to."""
    state = sm.new_game(2)
    roll_and_stop(state, S.CRATE, S.CRATE, S.WALL, S.WALL, S.SWORDS)
    assert state.available_symbols() == [S.CRATE, S.WALL, S.CROSS, S.HEAD]  # log needs 4 coins
    state.apply(sm.Choose(S.HEAD))
    expect_illegal(state, sm.Rotate(0), "R4 rotate")
    state.apply(sm.Rotate(0b00001))
    state.apply(sm.PlacePerson(P.CITIZEN, sm.square(4, 4)))
    assert (state.cities[0].coins, state.cities[0].vp) == (1, 1)


def test_r4_rotation_costs_2_coins_per_die_paid_at_once() -> None:
    """Turning two dice costs 4 coins in one step."""
    state = sm.new_game(2)
    set_stock(state.cities[0], coins=5)
    roll_and_stop(state, S.CROSS, S.LOG, S.WALL, S.CROSS, S.HEAD)
    state.apply(sm.Choose(S.CROSS))
    state.apply(sm.Rotate(0b00110))
    assert state.cities[0].coins == 1
    assert state.dice == [S.CROSS, S.CROSS, S.CROSS, S.CROSS, S.HEAD]
    state.apply(sm.PlaceChurch(sm.square(3, 3), 4))
    assert state.cities[0].church_at(sm.square(3, 3)) == 4


def test_r4_rotate_only_dice_not_showing_the_chosen_symbol() -> None:
    """A die already showing the chosen symbol cannot be rotated (and charged for)."""
    state = sm.new_game(2)
    roll_and_stop(state, S.CROSS, S.LOG, S.WALL, S.CROSS, S.HEAD)
    state.apply(sm.Choose(S.CROSS))
    expect_illegal(state, sm.Rotate(0b00001), "R4 rotate")
    expect_illegal(state, sm.Rotate(0b100000), "R4 rotate")


def test_r4_coins_never_go_below_zero() -> None:
    """Two rotations need 4 coins; with 3 the rotation is refused."""
    state = sm.new_game(2)
    roll_and_stop(state, S.CROSS, S.LOG, S.WALL, S.CROSS, S.HEAD)
    state.apply(sm.Choose(S.CROSS))
    expect_illegal(state, sm.Rotate(0b00110), "R4 rotate")
    state.apply(sm.Rotate(0b00010))
    assert state.cities[0].coins == 1


def test_r4_place_uses_between_one_and_all_showing_dice() -> None:
    """Using 0 dice or more dice than show the symbol is refused; fewer is allowed."""
    state = sm.new_game(2)
    to_place(state, (S.CROSS, S.CROSS, S.CROSS, S.LOG, S.LOG), S.CROSS)
    expect_illegal(state, sm.PlaceChurch(sm.square(3, 3), 4), "R4 place")
    expect_illegal(state, sm.PlaceChurch(sm.square(3, 3), 0), "R4 place")
    state.apply(sm.PlaceChurch(sm.square(3, 3), 2))
    assert state.cities[0].church_at(sm.square(3, 3)) == 2


def test_r4_logs_cost_2_coins_per_delivery_not_per_log() -> None:
    """Three logs in one delivery cost 2 coins."""
    state = sm.new_game(2)
    take_turn(state, (S.LOG, S.LOG, S.LOG, S.CROSS, S.CROSS), S.LOG, sm.PlaceLogs(3))
    assert (state.cities[0].logs, state.cities[0].coins) == (5, 1)


def test_r4_crates_may_but_need_not_touch_earlier_crates() -> None:
    """New crates form their own group, next to old ones or far from them."""
    state = sm.new_game(2)
    take_turn(state, (S.CRATE, S.CRATE, S.LOG, S.LOG, S.LOG), S.CRATE, sm.PlaceCrates(sq((4, 1), (5, 1))))
    take_turn(state, (S.CRATE, S.CRATE, S.LOG, S.LOG, S.LOG), S.CRATE, sm.PlaceCrates(sq((5, 5), (4, 5))))
    assert state.cities[0].crates == sq((1, 1), (1, 2), (2, 1), (3, 1), (4, 1), (5, 1))
    assert state.cities[1].crates == sq((1, 1), (1, 2), (2, 1), (3, 1), (4, 5), (5, 5))


def test_r4_walls_go_anywhere_on_the_ring() -> None:
    """Walls of one turn need not touch each other."""
    state = sm.new_game(2)
    walls = sq((0, 2), (3, 6), (6, 1))
    take_turn(state, (S.WALL, S.WALL, S.WALL, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(walls))
    assert state.cities[0].walls == walls


def test_r4_a_church_has_the_size_of_the_dice_used() -> None:
    """Five crosses may build a size-5 church."""
    state = sm.new_game(2)
    take_turn(state, (S.CROSS,) * 5, S.CROSS, sm.PlaceChurch(sm.square(5, 5), 5))
    assert state.cities[0].churches == (0, 0, 0, 0, sq((5, 5)))


@pytest.mark.parametrize(
    ("person", "heads"),
    [
        (P.CITIZEN, 1),
        (P.SOLDIER, 2),
        (P.PRIEST, 2),
        (P.ARCHITECT, 3),
        (P.MERCHANT, 3),
        (P.JUGGLER, 4),
        (P.NOBLE, 5),
    ],
)
def test_r4_a_person_needs_exactly_its_number_of_heads(person: sm.Person, heads: int) -> None:
    """The person's level is the number of head dice it uses: one head fewer is refused."""
    faces = (S.HEAD,) * heads + (S.LOG,) * (5 - heads)
    state = sm.new_game(2)
    to_place(state, faces, S.HEAD)
    state.apply(sm.PlacePerson(person, sm.square(4, 4)))
    assert state.cities[0].person_at(sm.square(4, 4)) is person
    if heads > 1:
        fewer = (S.HEAD,) * (heads - 1) + (S.LOG,) * (6 - heads)
        other = sm.new_game(2)
        to_place(other, fewer, S.HEAD)
        expect_illegal(other, sm.PlacePerson(person, sm.square(4, 4)), "R4 place")


def test_r4_fewer_free_spaces_than_dice_means_fewer_dice() -> None:
    """With two free spaces, three crates are refused, two are placed."""
    state = sm.new_game(2)
    fill_except(state.cities[0], keep=sq((4, 4), (4, 5)))
    to_place(state, (S.CRATE, S.CRATE, S.CRATE, S.CRATE, S.LOG), S.CRATE)
    expect_illegal(state, sm.PlaceCrates(sq((4, 3), (4, 4), (4, 5))), "R4 crates")
    state.apply(sm.PlaceCrates(sq((4, 4), (4, 5))))
    assert state.cities[0].is_full


def test_r4_a_non_wall_on_a_side_destroys_it_for_good() -> None:
    """Walls on the rest of a side that holds a church neither complete it nor add defence or bonus."""
    state = sm.new_game(2)
    city = state.cities[0]
    add_churches(city, 1, sq((3, 6)))
    fill(city, walls=sq((1, 6), (2, 6), (4, 6)))
    take_turn(state, (S.WALL, S.LOG, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((5, 6))))
    assert city.coins == 3
    assert city.complete_sides == 0
    assert city.destroyed_sides == 1 << RIGHT
    assert city.defence == 0


def test_r4_completing_a_side_gives_its_bonus_at_once_and_2_defence() -> None:
    """The fifth wall of the right side: +2 coins now and defence 2."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, walls=sq((1, 6), (2, 6), (3, 6), (4, 6)))
    assert city.defence == 0
    take_turn(state, (S.WALL, S.LOG, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((5, 6))))
    assert city.coins == 5
    assert city.complete_sides == 1 << RIGHT
    assert city.defence == 2


def test_r4_one_placement_completing_two_sides_gets_both_bonuses() -> None:
    """Walls closing the right and bottom sides at once: +2 coins and +3 VP."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, walls=sq((1, 6), (2, 6), (3, 6), (4, 6), (6, 1), (6, 2), (6, 3), (6, 4)))
    take_turn(state, (S.WALL, S.WALL, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((5, 6), (6, 5))))
    assert (city.coins, city.vp) == (5, 3)
    assert city.score_breakdown()[sm.ScorePart.WALL_BONUSES] == 3
    assert city.defence == 4


def test_r4_defence_is_soldiers_plus_two_per_complete_side() -> None:
    """Three soldiers and two complete sides give defence 7."""
    city = sm.new_game(2).cities[0]
    give_defence(city, soldiers=3, sides=(TOP, LEFT))
    assert city.defence == 7


# --- R5 pirates ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r5_a_row_has_two_boxes_per_player(players: int) -> None:
    """The first attack comes with box 2 x players, not before."""
    state = sm.new_game(players)
    set_pirate_boxes(state, 2 * players - 2)
    take_turn(state, (S.SWORDS, S.LOG, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    assert list(state.attacks) == []
    assert state.pirate_boxes == 2 * players - 1
    assert state.next_attack_strength == 1
    take_turn(state, (S.SWORDS, S.LOG, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    assert [a.strength for a in state.attacks] == [1]
    assert all(city.cannons_lost == 1 for city in state.cities)


def test_r5_attack_strengths_are_1_3_6_8_10_12() -> None:
    """Six rows, six attacks, in that strength order."""
    state = sm.new_game(2)
    strengths: list[int] = []
    for row in range(6):
        set_pirate_boxes(state, 4 * row + 3)
        set_stock(state.cities[state.current], coins=3)  # keep deliveries affordable
        take_turn(state, (S.SWORDS, S.LOG, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
        strengths.append(state.attacks[-1].strength)
    assert strengths == [1, 3, 6, 8, 10, 12]
    assert state.next_attack_strength is None


def test_r5_equal_defence_holds_lower_loses() -> None:
    """Against strength 3, defence 3 holds and defence 2 loses a cannon."""
    state = sm.new_game(3)
    give_defence(state.cities[0], soldiers=3)
    give_defence(state.cities[1], sides=(BOTTOM,))
    give_defence(state.cities[2], soldiers=4)
    set_pirate_boxes(state, 6 + 5)
    take_turn(state, (S.SWORDS, S.LOG, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    assert state.attacks == (sm.PirateAttack(0, 3, (3, 2, 4)),)
    assert [c.cannons_lost for c in state.cities] == [0, 1, 0]


def test_r5_swords_resolve_after_scoring_and_bonuses() -> None:
    """A top side completed this turn (+2) and its bonus soldier (+1) already defend against strength 3."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, walls=sq((0, 1), (0, 2), (0, 3), (0, 4)))
    set_pirate_boxes(state, 4 + 3)
    take_turn(state, (S.WALL, S.SWORDS, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((0, 5))))
    assert state.decision is sm.Decision.BONUS_PERSON
    assert state.pirate_boxes == 7  # swords wait until the bonus person is placed
    state.apply(sm.PlacePerson(P.SOLDIER, sm.square(4, 4)))
    assert state.attacks == (sm.PirateAttack(0, 3, (3, 0)),)
    assert [c.cannons_lost for c in state.cities] == [0, 1]


def test_r5_swords_overflow_into_the_next_row() -> None:
    """From 3 of 4 boxes, two swords fill row 1 (attack) and mark one box of row 2."""
    state = sm.new_game(2)
    set_pirate_boxes(state, 3)
    take_turn(state, (S.SWORDS, S.SWORDS, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(3))
    assert state.pirate_boxes == 5
    assert [a.strength for a in state.attacks] == [1]
    assert state.next_attack_strength == 3


def test_r5_a_turn_may_trigger_two_attacks() -> None:
    """Five swords from 3 boxes complete rows 1 and 2: strength 1 then 3, each hitting separately."""
    state = sm.new_game(2)
    give_defence(state.cities[0], soldiers=1)
    set_pirate_boxes(state, 3)
    roll_and_stop(state, *(S.SWORDS,) * 5)
    assert state.pirate_boxes == 8
    assert state.attacks == (sm.PirateAttack(0, 1, (1, 0)), sm.PirateAttack(0, 3, (1, 0)))
    assert [c.cannons_lost for c in state.cities] == [1, 2]


def test_r5_swords_ignored_after_the_sixth_attack() -> None:
    """Once row 6 is full no more boxes or attacks happen, and swords still cannot be rotated."""
    state = sm.new_game(2)
    set_pirate_boxes(state, 22)
    take_turn(state, (S.SWORDS, S.SWORDS, S.SWORDS, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(2))
    assert state.pirate_boxes == 24
    assert [a.strength for a in state.attacks] == [12]
    assert [c.cannons_lost for c in state.cities] == [1, 1]
    set_stock(state.cities[1], coins=9)
    roll_and_stop(state, S.SWORDS, S.SWORDS, S.CROSS, S.LOG, S.LOG)
    state.apply(sm.Choose(S.CROSS))
    expect_illegal(state, sm.Rotate(0b00001), "R4 rotate")
    state.apply(sm.Rotate(0))
    state.apply(sm.PlaceChurch(sm.square(4, 4), 1))
    assert state.pirate_boxes == 24
    assert len(state.attacks) == 1
    assert [c.cannons_lost for c in state.cities] == [1, 1]


def test_r5_no_cannon_left_means_no_further_loss() -> None:
    """With all 6 cannons lost, a failed defence costs nothing more."""
    state = sm.new_game(2)
    state.cities[1].cannons_lost = 6
    set_pirate_boxes(state, 3)
    take_turn(state, (S.SWORDS, S.LOG, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    assert [c.cannons_lost for c in state.cities] == [1, 6]
    assert state.cities[1].score_breakdown()[sm.ScorePart.CANNONS] == -30


# --- R6 end and final scoring ----------------------------------------------------


def test_r6_round_is_played_out_after_a_full_city() -> None:
    """Seat 0 fills its city: seat 1 still plays, then the game ends with equal turns."""
    state = sm.new_game(2)
    fill_except(state.cities[0], keep=sq((4, 4)))
    take_turn(state, (S.CROSS, S.LOG, S.LOG, S.LOG, S.LOG), S.CROSS, sm.PlaceChurch(sm.square(4, 4), 1))
    assert not state.is_terminal()
    assert state.current == 1 and state.is_chance_node()
    quiet_turn(state)
    assert state.is_terminal()
    assert state.current_player == sm.TERMINAL
    assert state.turn == 2


def test_r6_final_additions() -> None:
    """+5 full city, +1 per 2 coins (down), +1 per log, church series, -5 per cannon lost."""
    state = sm.new_game(2)
    city = state.cities[1]
    add_churches(city, 1, sq((4, 1), (4, 2)))
    add_churches(city, 2, sq((4, 3)))
    fill_except(city)
    set_stock(city, coins=7, logs=4)
    city.cannons_lost = 2
    add_vp(city, 10)
    parts = city.score_breakdown()
    assert parts[sm.ScorePart.FULL_CITY] == 5
    assert parts[sm.ScorePart.COINS] == 3
    assert parts[sm.ScorePart.LOGS] == 4
    assert parts[sm.ScorePart.CHURCHES] == 4 + 1
    assert parts[sm.ScorePart.CANNONS] == -10
    assert state.scores()[1] == 10 + 5 + 3 + 4 + 5 - 10


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([0, 0, 0, 0, 0], 0),
        ([1, 0, 0, 0, 0], 1),
        ([0, 1, 1, 1, 1], 0),
        ([1, 1, 0, 0, 0], 4),
        ([1, 1, 1, 0, 0], 8),
        ([1, 1, 1, 1, 0], 13),
        ([1, 1, 1, 1, 1], 20),
        ([1, 1, 0, 1, 1], 4),
        ([2, 1, 1, 0, 0], 9),
        ([2, 2, 2, 2, 2], 40),
        ([3, 2, 1, 1, 2], 25),
    ],
)
def test_r6_church_series(counts: list[int], points: int) -> None:
    """Longest 1..m run first, then the next, while a size-1 church is left."""
    assert sm.church_series_points(counts) == points


def test_r6_ranks_by_score_then_empty_spaces_then_shared() -> None:
    """Higher score first; on a tie more empty spaces first; a full tie shares the rank."""
    state = sm.new_game(4)
    c0, c1, c2, c3 = state.cities
    for city, points in ((c0, 17), (c1, 17), (c2, 17), (c3, 22)):
        add_vp(city, points)
    fill(c1, houses=sq((5, 5)))  # one empty space fewer than seats 0 and 2
    assert state.scores() == [20, 20, 20, 25]
    assert state.ranks() == [2, 4, 2, 1]


# --- R7 decision order -----------------------------------------------------------


def test_r7_decisions_come_in_order() -> None:
    """keep, keep, choose, rotate, place, bonus person; dice are chance nodes between."""
    state = sm.new_game(2)
    fill(state.cities[0], walls=sq((0, 1), (0, 2), (0, 3), (0, 4)))
    seen: list[sm.Decision | None] = [state.decision]
    state.apply(sm.Roll((S.WALL, S.LOG, S.LOG, S.LOG, S.LOG)))
    seen.append(state.decision)
    state.apply(sm.Keep(0b11110))
    seen.append(state.decision)
    state.apply(sm.Roll((S.LOG, S.LOG, S.LOG, S.LOG)))
    seen.append(state.decision)
    state.apply(sm.Keep(0b11110))
    state.apply(sm.Roll((S.LOG, S.LOG, S.LOG, S.LOG)))
    seen.append(state.decision)
    state.apply(sm.Choose(S.WALL))
    seen.append(state.decision)
    state.apply(sm.Rotate(0))
    seen.append(state.decision)
    state.apply(sm.PlaceWalls(sq((0, 5))))
    seen.append(state.decision)
    assert state.current_player == 0
    state.apply(sm.PlacePerson(P.CITIZEN, sm.square(4, 4)))
    seen.append(state.decision)
    d = sm.Decision
    assert seen == [None, d.KEEP, None, d.KEEP, d.CHOOSE, d.ROTATE, d.PLACE, d.BONUS_PERSON, None]
    assert state.current_player == sm.CHANCE and state.current == 1


def test_r7_an_action_for_another_decision_is_rejected() -> None:
    """Each decision accepts only its own action type."""
    state = sm.new_game(2)
    at_roll: tuple[sm.Step, ...] = (sm.Keep(0), sm.Choose(S.LOG), sm.Rotate(0), sm.PlaceLogs(1))
    for step in at_roll:
        expect_illegal(state, step, "R7 decisions")
    state.apply(sm.Roll((S.LOG, S.LOG, S.CROSS, S.CROSS, S.HEAD)))
    at_keep: tuple[sm.Step, ...] = (
        sm.Roll((S.LOG,)),
        sm.Choose(S.LOG),
        sm.Rotate(0),
        sm.PlaceChurch(sm.square(4, 4), 1),
    )
    for step in at_keep:
        expect_illegal(state, step, "R7 decisions")
    state.apply(sm.Keep(0))
    at_choose: tuple[sm.Step, ...] = (sm.Keep(0), sm.Rotate(0), sm.PlacePerson(P.CITIZEN, sm.square(4, 4)))
    for step in at_choose:
        expect_illegal(state, step, "R7 decisions")
    state.apply(sm.Choose(S.CROSS))
    at_rotate: tuple[sm.Step, ...] = (sm.Choose(S.CROSS), sm.PlaceChurch(sm.square(4, 4), 1))
    for step in at_rotate:
        expect_illegal(state, step, "R7 decisions")
    state.apply(sm.Rotate(0))
    at_place: tuple[sm.Step, ...] = (sm.Rotate(0), sm.Keep(0), sm.Choose(S.CROSS))
    for step in at_place:
        expect_illegal(state, step, "R7 decisions")


def test_r7_a_place_of_the_wrong_kind_is_rejected() -> None:
    """At the place decision only the placement for the chosen symbol is accepted."""
    state = sm.new_game(2)
    to_place(state, (S.LOG, S.LOG, S.CROSS, S.CROSS, S.HEAD), S.CROSS)
    expect_illegal(state, sm.PlaceLogs(1), "R4 place")
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, sm.square(4, 4)), "R4 place")
    expect_illegal(state, sm.PlaceCrates(sq((4, 4))), "R4 place")


def test_r7_a_non_action_is_rejected() -> None:
    """Anything that is not a Saint Malo action is refused by the decision rule."""
    state = sm.new_game(2)
    expect_illegal(state, "roll", "R7 decisions")  # type: ignore[arg-type]
