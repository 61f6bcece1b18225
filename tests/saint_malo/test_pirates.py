"""The pirate track: boxes, attacks, defence, cannons and the cap after the sixth attack."""

from __future__ import annotations

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import BOTTOM, RIGHT

from .builders import (
    S,
    add_churches,
    expect_illegal,
    fill,
    give_defence,
    quiet_turn,
    roll_and_stop,
    set_pirate_boxes,
    set_stock,
    sq,
    take_turn,
)

P = sm.Person
ONE_SWORD_LOGS = (S.SWORDS, S.LOG, S.LOG, S.LOG, S.LOG)


def test_boxes_accumulate_over_turns_of_different_players() -> None:
    """Each player's swords add to the same track; the row fills on the third player's sword."""
    state = sm.new_game(3)  # 6 boxes per row
    for _ in range(2):
        take_turn(state, (S.SWORDS, S.SWORDS, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    assert state.pirate_boxes == 4 and list(state.attacks) == []
    take_turn(state, (S.SWORDS, S.SWORDS, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    assert state.pirate_boxes == 6
    assert state.attacks == (sm.PirateAttack(2, 1, (0, 0, 0)),)
    assert [c.cannons_lost for c in state.cities] == [1, 1, 1]


def test_attack_hits_every_player_not_only_the_roller() -> None:
    """The roller holds with defence 3; the others, who did not roll swords, lose a cannon."""
    state = sm.new_game(4)
    give_defence(state.cities[0], soldiers=3)
    give_defence(state.cities[2], soldiers=2)
    set_pirate_boxes(state, 8 + 7)
    take_turn(state, ONE_SWORD_LOGS, S.LOG, sm.PlaceLogs(1))
    assert state.attacks == (sm.PirateAttack(0, 3, (3, 0, 2, 0)),)
    assert [c.cannons_lost for c in state.cities] == [0, 1, 1, 1]


def test_soldier_placed_this_turn_defends() -> None:
    """The sword of the same roll resolves after the soldier is in place."""
    state = sm.new_game(2)
    set_pirate_boxes(state, 3)
    take_turn(
        state, (S.HEAD, S.HEAD, S.SWORDS, S.LOG, S.LOG), S.HEAD, sm.PlacePerson(P.SOLDIER, sm.square(4, 4))
    )
    assert state.attacks == (sm.PirateAttack(0, 1, (1, 0)),)
    assert [c.cannons_lost for c in state.cities] == [0, 1]


def test_side_completed_this_turn_defends() -> None:
    """Closing the bottom side in the same turn gives defence 2 against strength 1."""
    state = sm.new_game(2)
    fill(state.cities[0], walls=sq((6, 1), (6, 2), (6, 3), (6, 4)))
    set_pirate_boxes(state, 3)
    take_turn(state, (S.WALL, S.SWORDS, S.LOG, S.LOG, S.LOG), S.WALL, sm.PlaceWalls(sq((6, 5))))
    assert state.attacks[0].defences == (2, 0)
    assert [c.cannons_lost for c in state.cities] == [0, 1]


def test_destroyed_side_gives_no_defence() -> None:
    """Walls around a church on the right side count for nothing in an attack."""
    state = sm.new_game(2)
    city = state.cities[1]
    add_churches(city, 1, sq((3, 6)))
    fill(city, walls=sq((1, 6), (2, 6), (4, 6), (5, 6)))
    give_defence(city, sides=(BOTTOM,))
    set_pirate_boxes(state, 3)
    take_turn(state, ONE_SWORD_LOGS, S.LOG, sm.PlaceLogs(1))
    assert state.attacks[0].defences == (0, 2)
    set_pirate_boxes(state, 7)
    take_turn(state, ONE_SWORD_LOGS, S.LOG, sm.PlaceLogs(1))
    assert state.attacks[1] == sm.PirateAttack(1, 3, (0, 2))
    assert [c.cannons_lost for c in state.cities] == [2, 1]
    assert city.complete_sides == 1 << BOTTOM and city.destroyed_sides == 1 << RIGHT


def test_all_swords_on_roll_three_end_the_turn() -> None:
    """Swords on every die after roll 3: straight to the next player, 5 boxes marked."""
    state = sm.new_game(3)
    state.apply(sm.Roll(ONE_SWORD_LOGS))
    state.apply(sm.Keep(0b11110))
    state.apply(sm.Roll((S.LOG,) * 4))
    state.apply(sm.Keep(0b11110))
    state.apply(sm.Roll((S.SWORDS,) * 4))
    assert state.pirate_boxes == 5
    assert state.current == 1 and state.is_chance_node()
    assert state.cities[0].to_json() == sm.new_game(3).cities[0].to_json()


def test_cap_holds_over_several_turns() -> None:
    """After the sixth attack, swords of later turns mark nothing and cost nobody a cannon."""
    state = sm.new_game(2)
    set_pirate_boxes(state, 23)
    take_turn(state, ONE_SWORD_LOGS, S.LOG, sm.PlaceLogs(1))
    assert state.attacks[-1].strength == 12
    assert state.next_attack_strength is None
    for _ in range(3):
        set_stock(state.cities[state.current], coins=2)
        take_turn(state, (S.SWORDS, S.SWORDS, S.LOG, S.LOG, S.LOG), S.LOG, sm.PlaceLogs(1))
    roll_and_stop(state, *(S.SWORDS,) * 5)
    assert state.pirate_boxes == 24
    assert len(state.attacks) == 1
    assert [c.cannons_lost for c in state.cities] == [1, 1]


def test_swords_not_rotatable_even_when_affordable_after_the_cap() -> None:
    """Rich player, track full: a swords die still cannot be turned."""
    state = sm.new_game(2)
    set_pirate_boxes(state, 24)
    set_stock(state.cities[0], coins=20)
    roll_and_stop(state, S.SWORDS, S.HEAD, S.HEAD, S.HEAD, S.HEAD)
    state.apply(sm.Choose(S.HEAD))
    expect_illegal(state, sm.Rotate(0b00001), "R4 rotate")


def test_lost_cannons_cost_5_each_at_the_end() -> None:
    """Two attacks lost: -10 in the final score."""
    state = sm.new_game(2)
    set_pirate_boxes(state, 3)
    roll_and_stop(state, *(S.SWORDS,) * 5)
    city = state.cities[0]
    assert city.cannons_lost == 2
    assert city.score_breakdown()[sm.ScorePart.CANNONS] == -10
    assert state.scores() == [1 + 2 - 10] * 2


def test_cannons_param_caps_losses() -> None:
    """With 1 cannon, two failed defences in one turn cost only one cannon."""
    state = sm.new_game(2, sm.Params(cannons=1))
    set_pirate_boxes(state, 3)
    roll_and_stop(state, *(S.SWORDS,) * 5)
    assert len(state.attacks) == 2
    assert [c.cannons_lost for c in state.cities] == [1, 1]
    quiet_turn(state)
    assert state.scores() == [1 + 2 - 5, 1 + 3 - 5]


def test_cannons_param_zero_means_no_loss() -> None:
    """With no cannons at all, attacks cost nothing."""
    state = sm.new_game(2, sm.Params(cannons=0))
    set_pirate_boxes(state, 3)
    roll_and_stop(state, *(S.SWORDS,) * 5)
    assert len(state.attacks) == 2
    assert [c.cannons_lost for c in state.cities] == [0, 0]
