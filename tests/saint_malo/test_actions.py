"""Each symbol's action, each person's immediate effect, and the placements the rules refuse."""

from __future__ import annotations

import pytest

from sdk.games import saint_malo as sm

from .builders import (
    S,
    add_churches,
    add_persons,
    expect_illegal,
    fill,
    fill_except,
    quiet_turn,
    roll_and_stop,
    set_stock,
    sq,
    take_turn,
    to_place,
)

P = sm.Person
HEADS = {n: (S.HEAD,) * n + (S.LOG,) * (5 - n) for n in range(1, 6)}
HEADS4 = HEADS[4]
C44 = sm.square(4, 4)


# --- the five symbols ------------------------------------------------------------


def test_log_delivery_adds_logs_for_2_coins() -> None:
    """Two of three log dice used: +2 logs, -2 coins, no space used, turn over."""
    state = sm.new_game(2)
    take_turn(state, (S.LOG, S.LOG, S.LOG, S.CRATE, S.HEAD), S.LOG, sm.PlaceLogs(2))
    city = state.cities[0]
    assert (city.logs, city.coins, city.empty_count) == (4, 1, 41)
    assert state.current == 1


def test_log_delivery_needs_2_coins() -> None:
    """With 1 coin logs are not available at all."""
    state = sm.new_game(2)
    set_stock(state.cities[0], coins=1)
    roll_and_stop(state, S.LOG, S.LOG, S.LOG, S.CRATE, S.HEAD)
    assert S.LOG not in state.available_symbols()
    expect_illegal(state, sm.Choose(S.LOG), "R4 choose")


def test_log_delivery_counts_coins_spent_on_rotation() -> None:
    """3 coins: rotating a die to a log (2) leaves 1, too few for the delivery."""
    state = sm.new_game(2)
    roll_and_stop(state, S.LOG, S.CRATE, S.CRATE, S.CRATE, S.HEAD)
    state.apply(sm.Choose(S.LOG))
    expect_illegal(state, sm.Rotate(0b00010), "R4 logs")
    state.apply(sm.Rotate(0))
    state.apply(sm.PlaceLogs(1))
    assert (state.cities[0].logs, state.cities[0].coins) == (3, 1)


def test_log_not_available_when_only_a_rotation_could_show_it_and_coins_are_short() -> None:
    """No log showing and 3 coins: rotation (2) plus delivery (2) is unaffordable; 4 coins suffice."""
    state = sm.new_game(2)
    roll_and_stop(state, S.CRATE, S.CRATE, S.CRATE, S.CRATE, S.HEAD)
    expect_illegal(state, sm.Choose(S.LOG), "R4 choose")
    other = sm.new_game(2)
    set_stock(other.cities[0], coins=4)
    roll_and_stop(other, S.CRATE, S.CRATE, S.CRATE, S.CRATE, S.HEAD)
    other.apply(sm.Choose(S.LOG))
    other.apply(sm.Rotate(0b10000))
    other.apply(sm.PlaceLogs(1))
    assert (other.cities[0].logs, other.cities[0].coins) == (3, 0)


def test_crates_one_per_die_as_one_connected_group() -> None:
    """Four crate dice, an L-shaped group of four crates."""
    state = sm.new_game(2)
    group = sq((4, 2), (4, 3), (4, 4), (5, 4))
    take_turn(state, (S.CRATE, S.CRATE, S.CRATE, S.CRATE, S.HEAD), S.CRATE, sm.PlaceCrates(group))
    city = state.cities[0]
    assert city.crates == sq((1, 1), (1, 2), (2, 1), (3, 1)) | group
    assert city.empty_count == 37


@pytest.mark.parametrize(
    "spaces",
    [
        ((4, 4), (5, 5)),  # diagonal only
        ((4, 1), (4, 3)),  # a gap
        ((4, 1), (4, 2), (5, 5)),  # two groups
    ],
)
def test_crates_not_orthogonally_connected_are_refused(spaces: tuple[tuple[int, int], ...]) -> None:
    """Crates of one turn that do not form one edge-connected group break the crate rule."""
    state = sm.new_game(2)
    to_place(state, (S.CRATE, S.CRATE, S.CRATE, S.LOG, S.LOG), S.CRATE)
    expect_illegal(state, sm.PlaceCrates(sq(*spaces)), "R4 crates")


def test_crates_on_filled_or_tower_squares_are_refused() -> None:
    """Crates go on empty spaces only."""
    state = sm.new_game(2)
    to_place(state, (S.CRATE, S.CRATE, S.LOG, S.LOG, S.LOG), S.CRATE)
    expect_illegal(state, sm.PlaceCrates(sq((3, 1), (4, 1))), "R4 crates")
    expect_illegal(state, sm.PlaceCrates(sq((0, 0), (0, 1))), "R4 crates")
    expect_illegal(state, sm.PlaceCrates(sq((4, 1), (4, 2), (4, 3))), "R4 place")
    expect_illegal(state, sm.PlaceCrates(0), "R4 place")


def test_walls_on_outer_spaces() -> None:
    """Each wall die puts a wall on an empty outer space."""
    state = sm.new_game(2)
    walls = sq((0, 1), (1, 0))
    take_turn(state, (S.WALL, S.WALL, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(walls))
    assert state.cities[0].walls == walls


def test_walls_refused_inside_on_filled_or_beyond_the_dice() -> None:
    """Inner spaces, filled spaces and more walls than wall dice are refused."""
    state = sm.new_game(2)
    fill(state.cities[0], walls=sq((0, 3)))
    to_place(state, (S.WALL, S.WALL, S.LOG, S.LOG, S.LOG), S.WALL)
    expect_illegal(state, sm.PlaceWalls(sq((2, 2))), "R4 walls")
    expect_illegal(state, sm.PlaceWalls(sq((0, 3), (0, 4))), "R4 walls")
    expect_illegal(state, sm.PlaceWalls(sq((0, 0))), "R4 walls")
    expect_illegal(state, sm.PlaceWalls(sq((0, 1), (0, 2), (6, 3))), "R4 place")


def test_walls_too_few_free_outer_spaces_means_fewer_dice() -> None:
    """Two free outer spaces and four wall dice: three walls are refused, two are fine."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, houses=sm.OUTER & ~sq((6, 2), (6, 4)))
    to_place(state, (S.WALL, S.WALL, S.WALL, S.WALL, S.LOG), S.WALL)
    expect_illegal(state, sm.PlaceWalls(sq((6, 2), (6, 3), (6, 4))), "R4 walls")
    state.apply(sm.PlaceWalls(sq((6, 2), (6, 4))))
    assert city.walls == sq((6, 2), (6, 4))
    assert not sm.OUTER & city.empty


def test_wall_not_available_without_a_free_outer_space() -> None:
    """A ring with no empty space leaves walls unavailable even when wall dice show."""
    state = sm.new_game(2)
    fill(state.cities[0], houses=sm.OUTER)
    roll_and_stop(state, S.WALL, S.WALL, S.WALL, S.CROSS, S.LOG)
    assert state.available_symbols() == [S.LOG, S.CRATE, S.CROSS, S.HEAD]
    expect_illegal(state, sm.Choose(S.WALL), "R4 choose")


def test_church_on_one_empty_space() -> None:
    """Crosses build one church; it fills a space and scores nothing during play."""
    state = sm.new_game(2)
    take_turn(state, (S.CROSS, S.CROSS, S.CROSS, S.LOG, S.LOG), S.CROSS, sm.PlaceChurch(sm.square(2, 2), 3))
    city = state.cities[0]
    assert city.church_at(sm.square(2, 2)) == 3
    assert city.vp == 0 and city.empty_count == 40


def test_church_on_filled_space_or_off_board_refused() -> None:
    """A church needs one empty space of the 45."""
    state = sm.new_game(2)
    to_place(state, (S.CROSS, S.CROSS, S.LOG, S.LOG, S.LOG), S.CROSS)
    expect_illegal(state, sm.PlaceChurch(sm.square(2, 1), 1), "R4 church")
    expect_illegal(state, sm.PlaceChurch(49, 1), "R4 church")
    expect_illegal(state, sm.PlaceChurch(-1, 1), "R4 church")


def test_symbols_are_not_split_over_two_actions() -> None:
    """One place per turn: after a size-1 church the turn is over, no second church from the same dice."""
    state = sm.new_game(2)
    take_turn(state, (S.CROSS, S.CROSS, S.CROSS, S.LOG, S.LOG), S.CROSS, sm.PlaceChurch(sm.square(2, 2), 1))
    assert state.current == 1 and state.is_chance_node()
    expect_illegal(state, sm.PlaceChurch(sm.square(2, 3), 2), "R7 decisions")


# --- the seven people ------------------------------------------------------------


def test_citizen_scores_1_vp() -> None:
    """One head: a citizen, +1 VP."""
    state = sm.new_game(2)
    take_turn(state, HEADS[1], S.HEAD, sm.PlacePerson(P.CITIZEN, C44))
    city = state.cities[0]
    assert city.vp == 1 and city.score_breakdown()[sm.ScorePart.CITIZENS] == 1
    assert city.person_at(C44) is P.CITIZEN


def test_soldier_adds_1_defence_and_nothing_else() -> None:
    """Two heads: a soldier, defence +1, no VP or coins."""
    state = sm.new_game(2)
    take_turn(state, HEADS[2], S.HEAD, sm.PlacePerson(P.SOLDIER, C44))
    city = state.cities[0]
    assert (city.defence, city.vp, city.coins) == (1, 0, 3)


def test_priest_scores_adjacent_churches_including_diagonals_once() -> None:
    """Priest at (4,4): churches at (3,3), (4,5), (5,5) count, (2,2) does not; later churches add nothing."""
    state = sm.new_game(2)
    city = state.cities[0]
    add_churches(city, 1, sq((3, 3), (2, 2)))
    add_churches(city, 2, sq((4, 5)))
    add_churches(city, 5, sq((5, 5)))
    take_turn(state, HEADS[2], S.HEAD, sm.PlacePerson(P.PRIEST, C44))
    assert city.vp == 3 and city.score_breakdown()[sm.ScorePart.PRIESTS] == 3
    quiet_turn(state)
    take_turn(state, (S.CROSS,) * 5, S.CROSS, sm.PlaceChurch(sm.square(3, 4), 1))
    assert city.vp == 3


def test_architect_without_houses() -> None:
    """An architect may build no house at all: no logs used, no VP."""
    state = sm.new_game(2)
    take_turn(state, HEADS[3], S.HEAD, sm.PlacePerson(P.ARCHITECT, C44))
    city = state.cities[0]
    assert (city.logs, city.vp, city.houses) == (2, 0, 0)


def test_architect_builds_three_houses_for_9_vp() -> None:
    """With 5 logs an architect builds at most 3 houses: -3 logs, +9 VP."""
    state = sm.new_game(2)
    city = state.cities[0]
    set_stock(city, logs=5)
    houses = sq((5, 3), (5, 4), (5, 5))
    take_turn(state, HEADS[3], S.HEAD, sm.PlacePerson(P.ARCHITECT, C44, houses))
    assert (city.logs, city.vp, city.houses) == (2, 9, houses)


def test_architect_houses_may_touch_old_houses() -> None:
    """New houses may stand next to earlier houses and architects."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, houses=sq((4, 5)))
    add_persons(city, P.ARCHITECT, sq((5, 5)))
    take_turn(state, HEADS[3], S.HEAD, sm.PlacePerson(P.ARCHITECT, C44, sq((3, 5))))
    assert city.houses == sq((4, 5), (3, 5)) and city.vp == 3


@pytest.mark.parametrize(
    "houses",
    [
        ((2, 2), (5, 5)),  # not connected, (2,2) not even adjacent
        ((3, 4), (5, 4)),  # both adjacent but not connected to each other
    ],
)
def test_architect_houses_must_be_connected(houses: tuple[tuple[int, int], ...]) -> None:
    """The houses of one turn form one orthogonally connected group."""
    state = sm.new_game(2)
    set_stock(state.cities[0], logs=3)
    to_place(state, HEADS[3], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, sm.square(4, 4), sq(*houses)), "R4 architect")


def test_architect_needs_a_house_adjacent_to_him() -> None:
    """Two connected houses none of which touches the new architect are refused."""
    state = sm.new_game(2)
    to_place(state, HEADS[3], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, C44, sq((2, 4), (2, 5))), "R4 architect")


def test_architect_house_rules_on_space_logs_and_filled() -> None:
    """No house on his own space, on a filled space, or beyond 3 / the logs held."""
    state = sm.new_game(2)
    set_stock(state.cities[0], logs=9)
    to_place(state, HEADS[3], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, C44, sq((4, 4), (4, 5))), "R4 architect")
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, sm.square(2, 2), sq((2, 1))), "R4 architect")
    four = sq((5, 2), (5, 3), (5, 4), (5, 5))
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, C44, four), "R4 architect")


def test_only_an_architect_builds_houses() -> None:
    """A merchant placed with houses is refused."""
    state = sm.new_game(2)
    to_place(state, HEADS[3], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.MERCHANT, C44, sq((4, 5))), "R4 architect")


def test_merchant_gains_a_coin_per_adjacent_crate() -> None:
    """Merchant at (2,2) next to the 4 start crates and one more diagonal crate: +5 coins."""
    state = sm.new_game(2)
    city = state.cities[0]
    fill(city, crates=sq((3, 3), (5, 5)))
    take_turn(state, HEADS[3], S.HEAD, sm.PlacePerson(P.MERCHANT, sm.square(2, 2)))
    assert (city.coins, city.vp) == (3 + 5, 0)


def test_juggler_scores_2_per_distinct_adjacent_type() -> None:
    """Citizen, soldier, two priests, merchant around the juggler: 4 types, 8 VP."""
    state = sm.new_game(2)
    city = state.cities[0]
    add_persons(city, P.CITIZEN, sq((3, 3)))
    add_persons(city, P.SOLDIER, sq((3, 4)))
    add_persons(city, P.PRIEST, sq((3, 5), (5, 5)))
    add_persons(city, P.MERCHANT, sq((5, 3)))
    add_persons(city, P.NOBLE, sq((2, 4)))  # not adjacent to (4,4)
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.JUGGLER, C44))
    assert city.vp == 8


def test_juggler_counts_all_seven_types() -> None:
    """All seven person types around him: 14 VP."""
    state = sm.new_game(2)
    city = state.cities[0]
    around = [(3, 3), (3, 4), (3, 5), (4, 3), (4, 5), (5, 3), (5, 4)]
    for person, cell in zip(P, around, strict=True):
        add_persons(city, person, sq(cell))
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.JUGGLER, C44))
    assert city.vp == 14


def test_juggler_gains_nothing_for_later_neighbours() -> None:
    """A person added next to an old juggler earns the juggler nothing."""
    state = sm.new_game(2)
    city = state.cities[0]
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.JUGGLER, C44))
    assert city.vp == 0
    quiet_turn(state)
    take_turn(state, HEADS[1], S.HEAD, sm.PlacePerson(P.CITIZEN, sm.square(4, 5)))
    assert city.vp == 1


def test_noble_scores_7_vp() -> None:
    """Five heads: a noble, +7 VP."""
    state = sm.new_game(2)
    take_turn(state, HEADS[5], S.HEAD, sm.PlacePerson(P.NOBLE, C44))
    assert state.cities[0].vp == 7
    assert state.cities[0].score_breakdown()[sm.ScorePart.NOBLES] == 7


def test_fewer_heads_than_rolled_may_be_used() -> None:
    """Two of four heads: a soldier instead of a juggler."""
    state = sm.new_game(2)
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.SOLDIER, C44))
    assert state.cities[0].defence == 1


def test_person_on_filled_space_or_tower_refused() -> None:
    """A person needs one empty space."""
    state = sm.new_game(2)
    to_place(state, HEADS[1], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, sm.square(1, 1)), "R4 person")
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, sm.square(6, 0)), "R4 person")


def test_person_needing_more_heads_than_shown_refused() -> None:
    """Two heads cannot make a merchant."""
    state = sm.new_game(2)
    to_place(state, HEADS[2], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.MERCHANT, C44), "R4 place")
    expect_illegal(state, sm.PlacePerson(P.NOBLE, C44), "R4 place")


# --- nothing to score ------------------------------------------------------------


def test_five_swords_score_nothing_but_mark_five_boxes() -> None:
    """All swords: no symbol is available, the turn passes, five boxes are marked."""
    state = sm.new_game(3)
    before = state.cities[0].to_json()
    state.apply(sm.Roll((S.SWORDS,) * 5))
    assert state.available_symbols() == []
    state.apply(sm.Keep(0))
    assert state.pirate_boxes == 5
    assert state.cities[0].to_json() == before
    assert state.current == 1 and state.is_chance_node()
    assert list(state.attacks) == []


def test_full_city_without_coins_scores_nothing_but_swords_mark() -> None:
    """A full city with 1 coin cannot use any symbol; its swords still count."""
    state = sm.new_game(3)
    city = state.cities[0]
    fill_except(city)
    set_stock(city, coins=1)
    roll_and_stop(state, S.LOG, S.LOG, S.CRATE, S.SWORDS, S.SWORDS)
    assert state.pirate_boxes == 2
    assert (city.coins, city.logs, city.vp) == (1, 2, 0)
    assert state.current == 1 and state.is_chance_node()


def test_full_city_with_coins_may_still_take_logs() -> None:
    """Logs need no space: a full city with 2 coins may only choose logs."""
    state = sm.new_game(3)
    fill_except(state.cities[0])
    roll_and_stop(state, S.LOG, S.CRATE, S.WALL, S.CROSS, S.HEAD)
    assert state.available_symbols() == [S.LOG]
    expect_illegal(state, sm.Choose(S.CROSS), "R4 choose")


def test_no_coins_and_no_matching_die_means_symbol_unavailable() -> None:
    """With 0 coins only the symbols on the dice can be chosen."""
    state = sm.new_game(2)
    set_stock(state.cities[0], coins=0)
    roll_and_stop(state, S.CROSS, S.CROSS, S.SWORDS, S.SWORDS, S.SWORDS)
    assert state.available_symbols() == [S.CROSS]
    expect_illegal(state, sm.Choose(S.HEAD), "R4 choose")


# --- malformed actions -----------------------------------------------------------


def test_off_board_person_and_house_squares_are_refused() -> None:
    """A person off the 45 spaces, or houses off the board, break the person/architect rules."""
    state = sm.new_game(2)
    to_place(state, HEADS[3], S.HEAD)
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, 49), "R4 person")
    expect_illegal(state, sm.PlacePerson(P.CITIZEN, -3), "R4 person")
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, C44, 1 << 49), "R4 architect")
    expect_illegal(state, sm.PlacePerson(P.ARCHITECT, C44, -1), "R4 architect")


@pytest.mark.parametrize("person", [7, -1])
def test_unknown_person_is_refused_by_rule(person: int) -> None:
    """A person id outside the seven types is an illegal place, rejected with the rule named."""
    state = sm.new_game(2)
    to_place(state, HEADS[5], S.HEAD)
    expect_illegal(state, sm.PlacePerson(person, C44), "R4 person")  # type: ignore[arg-type]


@pytest.mark.parametrize("person", [7, -1])
def test_unknown_bonus_person_is_refused_by_rule(person: int) -> None:
    """The same at the bonus-person decision."""
    state = sm.new_game(2)
    fill(state.cities[0], walls=sq((0, 1), (0, 2), (0, 3), (0, 4)))
    take_turn(state, (S.WALL, S.LOG, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((0, 5))))
    assert state.decision is sm.Decision.BONUS_PERSON
    expect_illegal(state, sm.PlacePerson(person, C44), "R4 bonus person")  # type: ignore[arg-type]


# --- legal actions agree with the checks -----------------------------------------


@pytest.mark.parametrize(
    ("coins", "faces", "symbol"),
    [
        (3, (S.LOG, S.CRATE, S.WALL, S.SWORDS, S.HEAD), S.LOG),
        (5, (S.LOG, S.CRATE, S.WALL, S.SWORDS, S.HEAD), S.LOG),
        (4, (S.CRATE, S.CRATE, S.WALL, S.SWORDS, S.HEAD), S.LOG),
        (9, (S.CROSS, S.CRATE, S.WALL, S.SWORDS, S.SWORDS), S.CROSS),
        (2, (S.CRATE, S.CRATE, S.WALL, S.SWORDS, S.CRATE), S.HEAD),
    ],
)
def test_legal_rotations_are_exactly_the_accepted_ones(
    coins: int, faces: tuple[sm.Symbol, ...], symbol: sm.Symbol
) -> None:
    """Every rotate mask the checker accepts is listed as legal, and nothing else."""
    state = sm.new_game(2)
    set_stock(state.cities[0], coins=coins)
    roll_and_stop(state, *faces)
    state.apply(sm.Choose(symbol))
    accepted: set[sm.Action] = set()
    for mask in range(32):
        trial = state.clone()
        try:
            trial.apply(sm.Rotate(mask))
        except sm.IllegalActionError:
            continue
        accepted.add(sm.Rotate(mask))
    assert accepted
    assert set(state.legal_actions()) == accepted
    for rotate in accepted:
        assert isinstance(rotate, sm.Rotate)
        assert 2 * rotate.dice.bit_count() + (2 if symbol is S.LOG else 0) <= coins
        assert rotate.dice & ~state.rotatable_dice() == 0
