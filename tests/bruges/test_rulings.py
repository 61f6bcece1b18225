"""Rulings that the phase and turn tests do not already pin down, one test each."""

from __future__ import annotations

from sdk.games.bruges.actions import (
    FIRE_HOUSE,
    FIRE_SECTION_A,
    GUILDERS,
    RECRUIT,
    WORKERS,
    Activate,
    CancelPenalty,
    End,
    Expose,
    FireChoice,
    Play,
    Roll,
)
from sdk.games.bruges.cards import BROWN, PRIEST, RED
from sdk.games.bruges.observation import observe
from sdk.games.bruges.phases import FIRE_CHOICE

from .builders import at_threats, at_turn, c


def test_b6_the_top_step_gives_no_councilman_point() -> None:
    state = at_threats(2, rep=[12, 0], houses={0: [(c("cook", "red"), c("councilman", "red"))]})
    state._move_up(0)
    assert state.rep[0] == 12 and state.score[0] == 5


def test_b12_a_priest_lost_to_plague_pays_nothing() -> None:
    state = at_threats(2, houses={0: [(c("cook", "red"), c("priest", "red"))]})
    state.threats[0][BROWN] = 2
    state.apply(Roll((3, 5, 3, 3, 3)))
    assert not state.has(0, PRIEST) and state.score[0] == 5


def test_b12_a_priest_whose_house_burns_pays_nothing_and_returns_to_the_hand() -> None:
    priest = c("priest", "red")
    state = at_threats(2, houses={0: [(c("cook", "red"), priest)]})
    state.canals[0] = [1, 0]
    state.threats[0][RED] = 2
    state.apply(Roll((3, 3, 6, 3, 3)))
    assert state.decision == FIRE_CHOICE
    state.apply(FireChoice(FIRE_HOUSE, priest))
    assert state.score[0] == 5 and priest in state.hands[0]


def test_b12_the_knight_cancel_still_lets_the_priest_pay() -> None:
    houses = [(c("cook", "red"), c("knight", "red")), (c("cook", "blue"), c("priest", "red"))]
    state = at_threats(2, houses={0: houses})
    state.threats[0][RED] = 2
    state.apply(Roll((3, 3, 6, 3, 3)))
    state.apply(CancelPenalty(True))
    assert state.score[0] == 7 and len(state.houses[0]) == 2


def test_b16_a_completed_section_that_burns_keeps_its_statue_and_never_gives_another() -> None:
    purple = c("cook", "purple")
    state = at_threats(2, canals=[[5, 0], [0, 0]], statue_given=[[True, False], [False, False]])
    state.statues[0] = [7]
    state.statue_stack = [6, 5, 4, 3, 2]
    state.threats[0][RED] = 2
    state.apply(Roll((3, 3, 6, 3, 3)))
    assert state.canals[0] == [4, 0] and state.statues[0] == [7]
    state.dice = [3, 3, 3, 3, 3]
    state.phase, state.seat_idx, state.lap, state.decision, state._options = 3, 0, 0, None, None
    state.hands[0] = [purple]
    state.pool.remove(purple)
    state._advance()
    state.apply(Play(purple, 4, 0))
    assert state.canals[0] == [5, 0] and state.statues[0] == [7]


def test_b16_a_fire_on_section_a_takes_its_highest_token() -> None:
    state = at_threats(2, canals=[[3, 2], [0, 0]])
    state.threats[0][RED] = 2
    state.apply(Roll((3, 3, 6, 3, 3)))
    state.apply(FireChoice(FIRE_SECTION_A))
    assert state.canals[0] == [2, 2]


def test_b15_every_card_can_take_workers_or_guilders() -> None:
    hand = [c("prince", "red"), c("count", "blue"), c("beggar", "yellow")]
    state = at_turn(2, hands={0: hand}, workers=[[0] * 5, [1] * 5], guilders=[0, 5])
    options = state.legal_actions()
    for card in hand:
        assert Play(card, WORKERS) in options and Play(card, GUILDERS) in options


def test_b18_a_burnt_person_leaves_its_rotation_behind() -> None:
    cook = c("cook", "red")
    state = at_turn(
        2, hands={0: [c("nun", "red")], 1: [c("nun", "blue")]}, houses={0: [(c("beggar", "red"), cook)]}
    )
    state.apply(Activate(cook))
    assert cook in state.rotated
    state._burn(0, FireChoice(FIRE_HOUSE, cook))
    assert cook not in state.rotated and cook in state.hands[0]


def test_b19_copies_in_different_play_areas_are_independent() -> None:
    mine, theirs = c("cook", "red"), c("cook", "blue")
    state = at_turn(
        2,
        hands={0: [c("nun", "red")], 1: [theirs, c("nun", "blue")]},
        houses={0: [(c("beggar", "red"), mine)], 1: [(c("beggar", "blue"), -1)]},
    )
    state.apply(Play(c("nun", "red"), WORKERS))
    state.apply(End())
    state.apply(Play(theirs, RECRUIT))
    assert state.has(0, 5) and state.has(1, 5)


def test_b25_a_servant_card_is_seen_at_once_and_other_hands_show_colours() -> None:
    servant = c("servant", "red")
    state = at_turn(
        2, hands={0: [c("nun", "red")], 1: [c("nun", "blue")]}, houses={0: [(c("beggar", "red"), servant)]}
    )
    drawn = state.pile_top[0]
    state.apply(Activate(servant, 0))
    state.apply(Expose(0, state.pool[0]))
    assert drawn in observe(state, 0).hand
    assert drawn not in observe(state, 1).hand and sum(observe(state, 1).hand_colours[0]) == 2
