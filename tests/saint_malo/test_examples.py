"""The rulebook's worked examples, rebuilt as positions and played through the engine."""

from __future__ import annotations

import pytest

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import RIGHT

from .builders import (
    S,
    add_churches,
    add_persons,
    expect_illegal,
    fill,
    give_defence,
    quiet_turn,
    roll_and_stop,
    set_pirate_boxes,
    sq,
    take_turn,
    to_place,
)

P = sm.Person
HEADS4 = (S.HEAD, S.HEAD, S.HEAD, S.HEAD, S.CROSS)


def test_church_example_scores_25() -> None:
    """Three 1s, two 2s, one 3, one 4, two 5s: a full series, a 1-2 series and a lone 1 (20+4+1)."""
    state = sm.new_game(2)
    city = state.cities[0]
    add_churches(city, 1, sq((4, 1), (4, 2), (4, 3)))
    add_churches(city, 2, sq((5, 1), (5, 2)))
    add_churches(city, 3, sq((5, 3)))
    add_churches(city, 4, sq((5, 4)))
    add_churches(city, 5, sq((5, 5), (4, 5)))
    assert city.score_breakdown()[sm.ScorePart.CHURCHES] == 25
    assert sm.church_series_points([3, 2, 1, 1, 2]) == 25


def test_merchant_example_gains_7_then_a_later_merchant_gains_4() -> None:
    """A merchant gains a coin per crate around him; a later one re-uses shared crates, no retro gain."""
    state = sm.new_game(2)
    city = state.cities[0]
    # Start crates (1,1) (1,2) (2,1) (3,1) plus three more: 7 of the 8 squares around (2,2).
    fill(city, crates=sq((1, 3), (2, 3), (3, 2)))
    take_turn(
        state, (S.HEAD, S.HEAD, S.HEAD, S.LOG, S.LOG), S.HEAD, sm.PlacePerson(P.MERCHANT, sm.square(2, 2))
    )
    assert city.coins == 3 + 7
    quiet_turn(state)
    # Two new crates next to the square (3,3); adding them earns the first merchant nothing.
    take_turn(state, (S.CRATE, S.CRATE, S.LOG, S.LOG, S.LOG), S.CRATE, sm.PlaceCrates(sq((2, 4), (3, 4))))
    assert city.coins == 10
    quiet_turn(state)
    # The later merchant at (3,3) touches (2,3) and (3,2) again plus the two new crates.
    take_turn(
        state, (S.HEAD, S.HEAD, S.HEAD, S.LOG, S.LOG), S.HEAD, sm.PlacePerson(P.MERCHANT, sm.square(3, 3))
    )
    assert city.coins == 10 + 4
    assert city.persons[P.MERCHANT] == sq((2, 2), (3, 3))


def test_juggler_example_scores_6_and_a_second_juggler_6_more() -> None:
    """A juggler scores 2 VP per distinct adjacent type: two architects count once; jugglers count too."""
    state = sm.new_game(2)
    city = state.cities[0]
    add_persons(city, P.ARCHITECT, sq((3, 3), (3, 5)))
    add_persons(city, P.MERCHANT, sq((5, 3)))
    add_persons(city, P.PRIEST, sq((5, 5)))
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.JUGGLER, sm.square(4, 4)))
    assert city.vp == 6
    assert city.score_breakdown()[sm.ScorePart.JUGGLERS] == 6
    quiet_turn(state)
    # Around (4,5): an architect, the first juggler and the priest -> 3 types.
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.JUGGLER, sm.square(4, 5)))
    assert city.vp == 12


def test_architect_example_two_houses_for_6_vp_with_the_last_two_logs() -> None:
    """3 of 4 heads make an architect; 2 logs become 2 vertically joined houses, one diagonal to him."""
    state = sm.new_game(2)
    city = state.cities[0]
    assert city.logs == 2
    houses = sq((2, 5), (3, 5))  # (3,5) is diagonal to (4,4); (2,5) is not adjacent at all
    take_turn(state, HEADS4, S.HEAD, sm.PlacePerson(P.ARCHITECT, sm.square(4, 4), houses))
    assert city.logs == 0
    assert city.vp == 6
    assert city.score_breakdown()[sm.ScorePart.HOUSES] == 6
    assert city.houses == houses
    assert city.person_at(sm.square(4, 4)) is P.ARCHITECT
    assert city.coins == 3  # using logs costs nothing
    assert state.current == 1


def test_architect_example_cannot_build_a_third_house_without_a_log() -> None:
    """With two logs left an architect cannot build three houses."""
    state = sm.new_game(2)
    to_place(state, HEADS4, S.HEAD)
    step = sm.PlacePerson(P.ARCHITECT, sm.square(4, 4), sq((1, 5), (2, 5), (3, 5)))
    expect_illegal(state, step, "R4 architect")


def _michaela_table(defences: tuple[int, int, int, int]) -> sm.State:
    """4 players, rows 1-2 of the pirate track full and 5 of 8 boxes of row 3 crossed off."""
    state = sm.new_game(4)
    for city, defence in zip(state.cities, defences, strict=True):
        sides: tuple[int, ...] = (RIGHT,) if defence >= 2 else ()
        give_defence(city, soldiers=defence - 2 * len(sides), sides=sides)
        assert city.defence == defence
    set_pirate_boxes(state, 2 * 8 + 5)
    return state


def test_three_swords_cause_a_strength_6_attack_on_four_players() -> None:
    """Michaela turns a head to a wall (2 coins), builds 2 walls, then 3 swords fill row 3: strength 6."""
    state = _michaela_table((0, 3, 5, 6))
    michaela = state.cities[0]
    roll_and_stop(state, S.WALL, S.HEAD, S.SWORDS, S.SWORDS, S.SWORDS)
    state.apply(sm.Choose(S.WALL))
    state.apply(sm.Rotate(0b00010))
    assert michaela.coins == 1
    state.apply(sm.PlaceWalls(sq((6, 2), (6, 3))))
    assert state.pirate_boxes == 24
    assert state.attacks == (sm.PirateAttack(0, 6, (0, 3, 5, 6)),)
    assert [c.cannons_lost for c in state.cities] == [1, 1, 1, 0]
    assert state.current == 1 and state.is_chance_node()


@pytest.mark.parametrize("defence", range(8))
def test_strength_6_attack_hits_exactly_the_defences_below_6(defence: int) -> None:
    """Every defence 0-5 loses a cannon against strength 6; 6 and more hold."""
    state = _michaela_table((0, defence, 0, 0))
    take_turn(state, (S.WALL, S.WALL, S.SWORDS, S.SWORDS, S.SWORDS), S.WALL, sm.PlaceWalls(sq((6, 2))))
    assert state.cities[1].cannons_lost == (1 if defence < 6 else 0)
    assert state.cities[1].score_breakdown()[sm.ScorePart.CANNONS] == (-5 if defence < 6 else 0)


def test_rotating_one_die_costs_2_coins() -> None:
    """Anke keeps two crates and turns the wall die into a third crate for 2 coins; the sword marks a box."""
    state = sm.new_game(2)
    city = state.cities[0]
    roll_and_stop(state, S.CRATE, S.CRATE, S.WALL, S.HEAD, S.SWORDS)
    state.apply(sm.Choose(S.CRATE))
    state.apply(sm.Rotate(0b00100))
    assert city.coins == 1
    assert state.dice == [S.CRATE, S.CRATE, S.CRATE, S.HEAD, S.SWORDS]
    state.apply(sm.PlaceCrates(sq((4, 3), (4, 4), (4, 5))))
    assert city.crates & sq((4, 3), (4, 4), (4, 5)) == sq((4, 3), (4, 4), (4, 5))
    assert state.pirate_boxes == 1


def test_swords_can_never_be_rotated_from() -> None:
    """The sword die in Anke's roll may not be turned into a crate."""
    state = sm.new_game(2)
    roll_and_stop(state, S.CRATE, S.CRATE, S.WALL, S.HEAD, S.SWORDS)
    state.apply(sm.Choose(S.CRATE))
    expect_illegal(state, sm.Rotate(0b10000), "R4 rotate")
    expect_illegal(state, sm.Rotate(0b10100), "R4 rotate")


def test_swords_can_never_be_rotated_to() -> None:
    """Swords can never be the chosen symbol, so no die can be turned into swords."""
    state = sm.new_game(2)
    roll_and_stop(state, S.CRATE, S.CRATE, S.WALL, S.HEAD, S.SWORDS)
    expect_illegal(state, sm.Choose(S.SWORDS), "R4 choose")
    assert S.SWORDS not in state.available_symbols()
