"""Phase 3 (B14-B16, B18-B20): the six actions, canals and statues, and every person."""

from __future__ import annotations

import pytest

from sdk.games.bruges.actions import (
    CANAL,
    GUILDERS,
    HOUSE,
    RECRUIT,
    THREAT,
    WORKERS,
    Activate,
    CancelPenalty,
    End,
    Expose,
    Play,
)  # fmt: skip
from sdk.games.bruges.cards import BLUE, BROWN, PURPLE, RED, YELLOW
from sdk.games.bruges.phases import CANCEL_PENALTY, EXTRA_PLAY, TAKE_TURN
from sdk.games.bruges.state import State
from sdk.games.errors import IllegalActionError

from .builders import at_turn, c

FILLER = {1: [c("beggar", "blue"), c("beggar", "brown")]}
DICE = (1, 2, 4, 5, 6)


def turn(hand: list[int], persons: list[int] | None = None, **fields: object) -> State:
    """Seat 0 to play ``hand``, with ``persons`` in houses (house cards: smuggler cards)."""
    houses = [
        (c("smuggler", colour), p)
        for colour, p in zip(("blue", "brown", "red", "purple", "yellow"), persons or [], strict=False)
    ]
    hands = {0: hand, **FILLER}
    return at_turn(2, dice=DICE, hands=hands, houses={0: houses}, **fields)  # type: ignore[arg-type]


# --- the six actions ---------------------------------------------------------------------------------


def test_action_1_takes_two_workers_of_the_card_colour_and_the_lawyer_three() -> None:
    card = c("cook", "red")
    state = turn([card, c("cook", "blue")])
    state.apply(Play(card, WORKERS))
    assert state.workers[0][RED] == 3 and state.discard == [card] and state.decider == 1
    state = turn([card], [c("lawyer", "red")])
    state.apply(Play(card, WORKERS))
    assert state.workers[0][RED] == 4


def test_action_2_takes_the_die_of_the_card_colour_and_the_juggler_the_highest() -> None:
    card = c("cook", "brown")
    state = turn([card, c("cook", "blue")])
    state.apply(Play(card, GUILDERS))
    assert state.guilders[0] == 5 + 2
    state = turn([card], [c("juggler", "red")])
    state.apply(Play(card, GUILDERS))
    assert state.guilders[0] == 5 + 6


def test_action_3_returns_a_marker_of_the_card_colour_for_a_point() -> None:
    card = c("cook", "purple")
    state = turn([card, c("cook", "blue")])
    with pytest.raises(IllegalActionError, match="B14"):
        state.apply(Play(card, THREAT))
    state = turn([card, c("cook", "blue")], threats=[[0, 0, 0, 2, 0], [0] * 5], supply=[9, 9, 9, 7, 9])
    state.apply(Play(card, THREAT))
    assert state.threats[0][PURPLE] == 1 and state.score[0] == 6 and state.supply[PURPLE] == 8


def test_action_4_builds_the_next_space_of_the_matching_colour_and_pays_its_cost() -> None:
    blue, red = c("cook", "blue"), c("cook", "red")
    state = turn([blue, red, c("nun", "red")])
    assert Play(red, CANAL, 0) not in state.legal_actions()  # A1 is blue, B1 brown
    state.apply(Play(blue, CANAL, 0))
    assert state.canals[0] == [1, 0] and state.guilders[0] == 4
    state = turn([red, c("nun", "red")], canals=[[1, 0], [0, 0]])
    state.apply(Play(red, CANAL, 0))  # A2 is red, costs 2
    assert state.canals[0] == [2, 0] and state.guilders[0] == 3


def test_action_4_needs_the_guilders_and_the_dyer_takes_any_colour() -> None:
    red = c("cook", "red")
    state = turn([red, c("nun", "red")], [c("dyer", "blue")], guilders=[0, 5])
    assert not [a for a in state.legal_actions() if isinstance(a, Play) and a.action == CANAL]
    state = turn([red, c("nun", "red")], [c("dyer", "blue")])
    state.apply(Play(red, CANAL, 1))
    assert state.canals[0] == [0, 1]


def test_completing_a_section_takes_the_top_statue_once_and_the_sculptor_pays() -> None:
    purple = c("cook", "purple")
    state = turn([purple, c("nun", "red")], [c("sculptor", "blue")], canals=[[4, 0], [0, 0]], guilders=[9, 5])
    state.apply(Play(purple, CANAL, 0))
    assert state.canals[0] == [5, 0] and state.statues[0] == [7] and state.statue_stack == [6, 5, 4, 3, 2]
    assert state.score[0] == 5 + 3 and state.guilders[0] == 4
    # lost to Fire and rebuilt: no second statue from the same section
    state = turn(
        [purple, c("nun", "red")], canals=[[4, 0], [0, 0]], statue_given=[[True, False], [False, False]]
    )
    state.statues[0] = [7]
    state.apply(Play(purple, CANAL, 0))
    assert state.statues[0] == [7]


def test_an_empty_statue_stack_gives_nothing() -> None:
    purple = c("cook", "purple")
    state = turn([purple, c("nun", "red")], canals=[[4, 0], [0, 0]], statue_stack=[])
    state.apply(Play(purple, CANAL, 0))
    assert state.statues[0] == [] and state.canals[0] == [5, 0]


def test_action_5_builds_a_house_paying_a_worker_of_its_colour_or_any_with_the_stonemason() -> None:
    red = c("cook", "red")
    state = turn([red, c("nun", "red")])
    assert [
        a for a in state.legal_actions() if isinstance(a, Play) and a.card == red and a.action == HOUSE
    ] == [Play(red, HOUSE, RED)]
    state.apply(Play(red, HOUSE, RED))
    assert state.houses[0] == [[red, -1]] and state.workers[0][RED] == 0 and red not in state.discard
    state = turn([red, c("nun", "red")], [c("stonemason", "blue"), c("carpenter", "blue")])
    state.apply(Play(red, HOUSE, YELLOW))
    assert state.workers[0][YELLOW] == 0 and state.workers[0][RED] == 1 and state.score[0] == 6
    state = turn([red, c("nun", "red")], workers=[[1, 1, 0, 1, 1], [1] * 5])
    assert not [
        a for a in state.legal_actions() if isinstance(a, Play) and a.action == HOUSE and a.card == red
    ]


def test_action_6_recruits_into_the_earliest_empty_house() -> None:
    cook, first, second = c("cook", "red"), c("nun", "blue"), c("nun", "brown")
    state = at_turn(
        2, dice=DICE, hands={0: [cook, c("lawyer", "red")], **FILLER}, houses={0: [(first, -1), (second, -1)]}
    )
    state.apply(Play(cook, RECRUIT))
    assert state.houses[0] == [[first, cook], [second, -1]] and state.guilders[0] == 2
    assert state.has(0, 5)


def test_recruiting_needs_a_house_the_price_and_no_copy_in_play() -> None:
    cook, cook2 = c("cook", "red"), c("cook", "blue")
    state = turn([cook, c("lawyer", "red")])
    assert Play(cook, RECRUIT) not in state.legal_actions()  # no house
    state = at_turn(
        2,
        dice=DICE,
        hands={0: [cook2, c("lawyer", "red")], **FILLER},
        houses={0: [(c("nun", "blue"), cook), (c("nun", "red"), -1)]},
    )
    assert Play(cook2, RECRUIT) not in state.legal_actions()  # B19: never two Cooks in play
    state = at_turn(
        2, dice=DICE, hands={0: [c("prince", "red"), cook2]}, houses={0: [(c("nun", "blue"), -1)]}
    )
    assert Play(c("prince", "red"), RECRUIT) not in state.legal_actions()  # 9 > 5 guilders


def test_the_turn_card_is_exactly_one_and_the_turn_ends_only_after_it() -> None:
    card = c("cook", "red")
    state = turn([card, c("cook", "blue")], [c("beggar", "red")])
    assert End() not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="must be played first"):
        state.apply(End())
    state.apply(Play(card, WORKERS))
    assert state.decision == TAKE_TURN and state.decider == 0  # the Beggar may still be activated
    with pytest.raises(IllegalActionError, match="already played"):
        state.apply(Play(c("cook", "blue"), WORKERS))
    state.apply(End())
    assert state.decider == 1


def test_an_empty_hand_ends_the_turn_at_once_and_four_laps_make_a_round() -> None:
    state = at_turn(2, dice=DICE, hands={0: [c("cook", "red")], 1: [c("cook", "blue")]})
    state.apply(Play(c("cook", "red"), WORKERS))
    assert state.decider == 1
    state.apply(Play(c("cook", "blue"), WORKERS))
    assert state.round == 2 and state.start == 1  # laps 2-4 ran by themselves


def test_an_illegal_step_changes_nothing() -> None:
    state = turn([c("cook", "red"), c("cook", "blue")])
    before = state.to_json()
    for bad in (Play(c("prince", "red"), WORKERS), Activate(c("cook", "red")), Play(c("cook", "red"), 9)):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before


# --- persons -----------------------------------------------------------------------------------------


def activate(person: str, *args: int, hand: list[int] | None = None, **fields: object) -> State:
    card = c(person, "red")
    state = turn(hand or [c("cook", "blue"), c("cook", "brown")], [card], **fields)
    state.apply(Activate(card, *args))
    return state


def test_prince_moves_up_for_a_yellow_worker_unless_bought_this_round() -> None:
    state = activate("prince")
    assert state.rep[0] == 1 and state.workers[0][YELLOW] == 0 and c("prince", "red") in state.rotated
    state = turn([c("cook", "blue")], [c("prince", "red")], advanced=[True, False])
    assert not [a for a in state.legal_actions() if isinstance(a, Activate)]
    state = turn([c("cook", "blue")], [c("prince", "red")], rep=[12, 0])
    assert not [a for a in state.legal_actions() if isinstance(a, Activate)]


def test_a_rotated_person_is_not_offered_again_until_phase_4() -> None:
    state = activate("prince")
    assert not [a for a in state.legal_actions() if isinstance(a, Activate)]
    state.apply(Play(c("cook", "blue"), WORKERS))
    assert state.rotated  # seat 1 to play
    while state.round == 1:
        state.apply(End() if End() in state.legal_actions() else state.legal_actions()[0])
    assert state.rotated == []


def test_servant_draws_from_the_named_pile_then_plays_an_extra_card() -> None:
    state = turn([c("cook", "blue")], [c("servant", "red")])
    top = state.pile_top[1]
    state.apply(Activate(c("servant", "red"), 1))
    state.apply(Expose(1, state.pool[0]))
    assert top in state.hands[0] and state.decision == EXTRA_PLAY and state.workers[0][RED] == 0
    assert End() not in state.legal_actions()
    state.apply(Play(top, WORKERS))
    assert not state.turn_played and state.decision == TAKE_TURN  # the turn card is still due


def test_coachman_plays_one_more_card_which_is_not_the_turn_card() -> None:
    state = activate("coachman", hand=[c("cook", "blue"), c("cook", "brown")])
    assert state.decision == EXTRA_PLAY
    state.apply(Play(c("cook", "blue"), WORKERS))
    assert not state.turn_played
    state.apply(Play(c("cook", "brown"), WORKERS))
    assert state.hands[0] == [] and state.decider == 1  # the turn card: the turn is over


def test_coachman_needs_a_card_in_hand() -> None:
    state = turn([c("cook", "blue")], [c("coachman", "red")])
    state.apply(Play(c("cook", "blue"), WORKERS))
    assert state.decider == 1  # nothing left to do: the turn ended by itself


@pytest.mark.parametrize(("person", "guilders"), [("cook", 9), ("accountant", 7), ("beggar", 6)])
def test_money_persons(person: str, guilders: int) -> None:
    assert activate(person).guilders[0] == guilders


def test_nun_returns_a_named_worker_for_a_point() -> None:
    state = activate("nun", BLUE)
    assert state.workers[0][BLUE] == 0 and state.score[0] == 6


def test_shipowner_builds_ignoring_the_colour_and_pays() -> None:
    state = activate("shipowner", 1, canals=[[0, 2], [0, 0]])
    assert state.canals[0] == [0, 3] and state.guilders[0] == 2 and state.workers[0][BLUE] == 0


def test_jailer_returns_a_named_marker_for_a_point() -> None:
    state = activate("jailer", YELLOW, threats=[[0, 0, 0, 0, 2], [0] * 5])
    assert state.threats[0][YELLOW] == 1 and state.score[0] == 6 and state.workers[0][PURPLE] == 0


def test_thief_takes_a_guilder_from_each_other_player_holding_one() -> None:
    state = activate("thief", guilders=[5, 3])
    assert state.guilders == [6, 2]
    state = turn([c("cook", "blue")], [c("thief", "red")], guilders=[5, 0])
    assert not [a for a in state.legal_actions() if isinstance(a, Activate)]


def test_smuggler_swaps_a_worker_for_another_colour() -> None:
    state = activate("smuggler", RED, BROWN)
    assert state.workers[0] == [1, 2, 0, 1, 1]
    with pytest.raises(IllegalActionError):
        turn([c("cook", "blue")], [c("smuggler", "red")]).apply(Activate(c("smuggler", "red"), RED, RED))


def test_a_person_recruited_this_turn_may_be_activated_at_once() -> None:
    cook = c("cook", "red")
    state = at_turn(
        2, dice=DICE, hands={0: [cook, c("nun", "red")], **FILLER}, houses={0: [(c("nun", "blue"), -1)]}
    )
    state.apply(Play(cook, RECRUIT))
    state.apply(Activate(cook))
    assert state.guilders[0] == 5 - 3 + 4


def test_immediate_persons_poet_alchemist() -> None:
    poet, alchemist = c("poet", "red"), c("alchemist", "red")
    state = at_turn(
        2,
        dice=DICE,
        hands={0: [poet, c("nun", "red")], **FILLER},
        guilders=[6, 5],
        houses={0: [(c("nun", "blue"), c("lawyer", "red")), (c("nun", "brown"), -1)]},
    )
    state.apply(Play(poet, RECRUIT))
    assert state.score[0] == 5 + 2
    state = at_turn(
        2,
        dice=DICE,
        hands={0: [alchemist, c("nun", "red")], **FILLER},
        guilders=[6, 5],
        houses={0: [(c("nun", "blue"), -1)]},
    )
    state.apply(Play(alchemist, RECRUIT))
    assert state.guilders[0] == 6


def test_minstrel_pays_two_for_each_later_recruit() -> None:
    cook = c("cook", "red")
    state = at_turn(
        2,
        dice=DICE,
        hands={0: [cook, c("nun", "red")], **FILLER},
        houses={0: [(c("nun", "blue"), c("minstrel", "red")), (c("nun", "brown"), -1)]},
    )
    state.apply(Play(cook, RECRUIT))
    assert state.guilders[0] == 5 - 3 + 2


def test_jester_gives_each_other_player_a_purple_marker_and_a_knight_owner_may_answer() -> None:
    jester = c("jester", "red")
    state = at_turn(
        3,
        dice=DICE,
        hands={0: [jester, c("nun", "red")], 1: [c("nun", "blue")], 2: [c("nun", "brown")]},
        houses={0: [(c("nun", "yellow"), -1)], 2: [(c("cook", "red"), c("knight", "red"))]},
        threats=[[0] * 5, [0, 0, 0, 2, 0], [0, 0, 0, 2, 0]],
        supply=[9, 9, 9, 5, 9],
    )
    state.apply(Play(jester, RECRUIT))
    assert state.score[1] == 2 and state.threats[1][PURPLE] == 0  # Intrigue for seat 1
    assert state.decision == CANCEL_PENALTY and state.decider == 2  # a non-active seat decides
    state.apply(CancelPenalty(True))
    assert state.score[2] == 5 and state.workers[2][PURPLE] == 0 and state.decider == 1  # seat 0 is done
    assert state.threats[0][PURPLE] == 0
