"""Phases 1, 2 and 4 (B9-B13, B17): blind drawing, running out, threats, penalties, reputation,
majorities, and the rulebook's worked examples."""

from __future__ import annotations

import pytest

from sdk.games.bruges.actions import (
    FIRE_EMPTY,
    FIRE_HOUSE,
    FIRE_SECTION_A,
    Advance,
    CancelPenalty,
    DrawPile,
    Expose,
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Roll,
)
from sdk.games.bruges.cards import BLUE, BROWN, CARD_COLOUR, PURPLE, RED, YELLOW
from sdk.games.bruges.observation import observe
from sdk.games.bruges.phases import (
    ADVANCE_REPUTATION,
    CANCEL_PENALTY,
    DRAW,
    DRAW_PILE,
    FIRE_CHOICE,
    PENALTY_ORDER,
    PLAGUE_DISCARD,
    REPUTATION,
    TURNS,
)

from .builders import at_threats, at_turn, c, table

# --- phase 1 ------------------------------------------------------------------------------------------


def _draw(state, pile: int = 0) -> None:  # type: ignore[no-untyped-def]
    state.apply(DrawPile(pile))
    while state.is_chance_node() and state.exposing:
        state.apply(Expose(state.exposing[0], state.pool[0]))


def test_a_player_draws_five_blind_then_sees_them() -> None:
    state = table(2)
    for k in range(5):
        assert state.decision == DRAW_PILE and state.decider == 0
        obs = observe(state, 0)
        assert obs.hand == () and sum(obs.blind_colours) == k  # colours only while drawing (B25)
        assert obs.pile_colours[0] == CARD_COLOUR[state.pile_top[0]]
        _draw(state, k % 2)
    assert len(state.hands[0]) == 5 and state.decider == 1
    assert observe(state, 0).hand == tuple(sorted(state.hands[0]))  # revealed when the drawing ends
    assert observe(state, 1).hand == () and sum(observe(state, 1).hand_colours[0]) == 5


def test_inventor_fills_the_hand_to_six_and_a_full_hand_draws_nothing() -> None:
    state = table(2)
    state.pmask[0] |= 1 << 30  # Inventor in play
    state.hands[1] = [
        state.pool.pop(),
        state.pool.pop(),
        state.pool.pop(),
        state.pool.pop(),
        state.pool.pop(),
    ]
    for _ in range(6):
        _draw(state)
    assert len(state.hands[0]) == 6
    assert state.phase != DRAW  # seat 1 already holds 5: nothing to draw, phase 2 follows
    assert state.rolling


def test_one_non_empty_pile_is_drawn_without_asking() -> None:
    state = table(2)
    state.extra_used = True
    state.pile_size = [0, 10]
    state.pool = sorted([*state.pool, state.pile_top[0]])
    state.pile_top[0] = -1
    state.decision = None
    state._advance()
    assert state.is_chance_node()  # seat 0 drew from pile 2 at once (B23); its new top is due
    assert len(state.hands[0]) == 1 and state.pile_size == [0, 9]


def test_running_out_in_phase_1_brings_the_extra_pile_and_makes_this_round_final() -> None:
    state = table(2)
    state.pile_size[0] = 1
    state.apply(DrawPile(0))
    assert state.pile_size[0] == 99 and state.extra_size == 0 and state.extra_used
    assert state.exposing == [0] and state.final_round == 1


def test_running_out_in_phase_3_makes_the_next_round_final() -> None:
    servant = c("servant", "blue")
    state = at_turn(
        hands={0: [c("cook", "red")], 1: [c("cook", "blue")]}, houses={0: [(c("nun", "red"), servant)]}
    )
    state.pile_size[1] = 1
    from sdk.games.bruges.actions import Activate

    state.apply(Activate(servant, 1))
    assert state.final_round == state.round + 1 and state.pile_size[1] == 99


def test_after_the_extra_pile_an_empty_pile_takes_half_of_the_other() -> None:
    state = table(2)
    state.extra_used, state.extra_size = True, 0
    state.pile_size = [1, 7]
    old_top = state.pile_top[1]
    state.apply(DrawPile(0))
    assert state.pile_size == [3, 4] and state.pile_top[0] == old_top and state.exposing == [1]


def test_with_both_piles_empty_draws_are_skipped() -> None:
    state = table(2)
    state.extra_used, state.extra_size = True, 0
    state.pool = sorted([*state.pool, *state.pile_top])
    state.pile_size, state.pile_top = [0, 0], [-1, -1]
    state.decision = None
    state._advance()
    assert state.rolling and not state.hands[0]


def test_the_final_round_once_set_never_changes() -> None:
    state = table(2)
    state.final_round = 3
    state.pile_size[0] = 1
    state.apply(DrawPile(0))
    assert state.final_round == 3


# --- phase 2: threats ---------------------------------------------------------------------------------


def test_rulebook_example_a_red_5_and_a_yellow_6_give_every_player_a_red_and_a_yellow_marker() -> None:
    state = at_threats(3)
    state.apply(Roll((3, 4, 5, 1, 6)))
    for seat in range(3):
        assert state.threats[seat] == [0, 0, 1, 0, 1]
    assert state.supply == [9, 9, 6, 9, 6]


def test_rulebook_example_fire_and_raid_resolve_together_in_the_order_the_player_picks() -> None:
    house = c("cook", "red")
    state = at_threats(2, houses={0: [(house, -1)]})
    state.threats[0] = [0, 0, 2, 0, 2]
    state.supply = [9, 9, 7, 9, 7]
    state.apply(Roll((3, 3, 5, 3, 6)))
    assert state.decision == PENALTY_ORDER and state.legal_actions() == [
        PenaltyOrder(RED),
        PenaltyOrder(YELLOW),
    ]
    state.apply(PenaltyOrder(RED))  # Fire: the only thing to lose is the house, taken without asking
    assert state.houses[0] == [] and house in state.discard
    assert state.guilders[0] == 0  # then Raid
    assert state.threats[0][RED] == 0 and state.threats[0][YELLOW] == 0 and state.score[0] == 5
    assert state.supply[RED] == 9 - 1 and state.supply[YELLOW] == 9 - 1  # seat 1's markers are out


def test_flood_returns_every_worker() -> None:
    state = at_threats(2)
    state.threats[0][BLUE] = 2
    state.apply(Roll((6, 3, 3, 3, 3)))
    assert state.workers[0] == [0] * 5 and state.workers[1] == [1] * 5


def test_intrigue_costs_3_points_but_never_below_0() -> None:
    state = at_threats(2, score=[2, 7])
    state.threats[0][PURPLE] = 2
    state.threats[1][PURPLE] = 2
    state.apply(Roll((3, 3, 3, 5, 3)))
    assert state.score == [0, 4]


def test_plague_asks_which_person_goes_and_the_house_stays() -> None:
    nun, cook = c("nun", "red"), c("cook", "red")
    state = at_threats(2, houses={0: [(c("beggar", "red"), nun), (c("beggar", "blue"), cook)]})
    state.threats[0][BROWN] = 2
    state.apply(Roll((3, 5, 3, 3, 3)))
    assert state.decision == PLAGUE_DISCARD and set(state.legal_actions()) == {
        PlagueDiscard(nun),
        PlagueDiscard(cook),
    }
    state.apply(PlagueDiscard(cook))
    assert state.houses[0][1][1] == -1 and len(state.houses[0]) == 2 and cook in state.discard
    assert not state.has(0, 5)


def test_plague_with_one_person_takes_it_without_asking() -> None:
    nun = c("nun", "red")
    state = at_threats(2, houses={0: [(c("beggar", "red"), nun)]})
    state.threats[0][BROWN] = 2
    state.apply(Roll((3, 5, 3, 3, 3)))
    assert nun in state.discard and state.decision != PLAGUE_DISCARD


def test_fire_options_and_a_burnt_house_returns_its_person_to_the_hand_publicly() -> None:
    nun = c("nun", "red")
    state = at_threats(2, houses={0: [(c("beggar", "red"), nun), (c("beggar", "blue"), -1)]})
    state.canals[0] = [1, 0]
    state.threats[0][RED] = 2
    state.apply(Roll((3, 3, 6, 3, 3)))
    assert state.decision == FIRE_CHOICE
    assert state.legal_actions() == [
        FireChoice(FIRE_HOUSE, nun),
        FireChoice(FIRE_EMPTY),
        FireChoice(FIRE_SECTION_A),
    ]
    state.apply(FireChoice(FIRE_HOUSE, nun))
    assert nun in state.hands[0] and observe(state, 1).public_hands[0] == (nun,)
    assert c("beggar", "red") in state.discard and len(state.houses[0]) == 1


def test_fire_takes_the_latest_empty_house_or_the_last_canal_token() -> None:
    first, second = c("beggar", "red"), c("beggar", "blue")
    state = at_threats(2, houses={0: [(first, -1), (second, -1)]})
    state.canals[0] = [2, 0]
    state.threats[0][RED] = 2
    state.apply(Roll((3, 3, 6, 3, 3)))
    state.apply(FireChoice(FIRE_EMPTY))
    assert [h[0] for h in state.houses[0]] == [first] and second in state.discard
    state2 = at_threats(2)
    state2.canals[0] = [2, 0]
    state2.threats[0][RED] = 2
    state2.apply(Roll((3, 3, 6, 3, 3)))
    assert state2.canals[0] == [1, 0]  # the only option: taken without asking


def test_physician_and_watchman_give_immunity_and_the_priest_still_pays() -> None:
    houses = [(c("cook", "red"), c("physician", "red")), (c("cook", "blue"), c("watchman", "red"))]
    houses.append((c("cook", "purple"), c("priest", "red")))
    state = at_threats(2, houses={0: houses})
    state.threats[0] = [0, 2, 0, 0, 2]
    state.apply(Roll((3, 5, 3, 3, 5)))
    assert state.decision == PENALTY_ORDER
    state.apply(PenaltyOrder(BROWN))
    assert len(state.persons_of(0)) == 3 and state.guilders[0] == 5  # nothing lost
    assert state.score[0] == 5 + 2 + 2  # the Priest pays after each circle, even a harmless one


def test_the_knight_may_cancel_with_a_worker_of_the_penalty_colour() -> None:
    state = at_threats(2, houses={0: [(c("cook", "red"), c("knight", "red"))]})
    state.threats[0][YELLOW] = 2
    state.apply(Roll((3, 3, 3, 3, 6)))
    assert state.decision == CANCEL_PENALTY and state.decider == 0
    state.apply(CancelPenalty(True))
    assert state.guilders[0] == 5 and state.workers[0][YELLOW] == 0 and state.threats[0][YELLOW] == 0


def test_the_knight_is_not_asked_without_the_worker_or_when_nothing_would_change() -> None:
    state = at_threats(2, houses={0: [(c("cook", "red"), c("knight", "red"))]}, guilders=[0, 5])
    state.threats[0][YELLOW] = 2
    state.apply(Roll((3, 3, 3, 3, 6)))
    assert state.decision != CANCEL_PENALTY and state.threats[0][YELLOW] == 0
    state = at_threats(2, houses={0: [(c("cook", "red"), c("knight", "red"))]})
    state.workers[0][YELLOW] = 0
    state.threats[0][YELLOW] = 2
    state.apply(Roll((3, 3, 3, 3, 6)))
    assert state.decision != CANCEL_PENALTY and state.guilders[0] == 0


def test_declining_the_knight_lets_the_penalty_apply() -> None:
    state = at_threats(2, houses={0: [(c("cook", "red"), c("knight", "red"))]})
    state.threats[0][YELLOW] = 2
    state.apply(Roll((3, 3, 3, 3, 6)))
    state.apply(CancelPenalty(False))
    assert state.guilders[0] == 0 and state.workers[0][YELLOW] == 1


def test_an_empty_supply_gives_no_marker() -> None:
    state = at_threats(2)
    state.supply[RED] = 1
    state.apply(Roll((3, 3, 5, 3, 3)))
    assert state.threats[0][RED] == 1 and state.threats[1][RED] == 0


# --- phase 2: reputation ------------------------------------------------------------------------------


def test_rulebook_example_a_purple_1_and_a_blue_2_make_a_step_cost_3() -> None:
    state = at_threats(2)
    state.apply(Roll((2, 3, 4, 1, 4)))
    assert state.phase == REPUTATION and state.decision == ADVANCE_REPUTATION and state.decider == 0
    state.apply(Advance(True))
    assert state.guilders[0] == 2 and state.rep[0] == 1 and state.advanced[0]
    state.apply(Advance(False))
    assert state.rep[1] == 0 and state.guilders[1] == 5 and state.round == 2  # empty hands: round over


def test_no_step_without_a_1_or_2_or_without_the_money() -> None:
    state = at_threats(2)
    state.apply(Roll((3, 3, 4, 5, 4)))
    assert state.round == 2 and state.rep == [0, 0]  # never asked; empty hands end the round
    state = at_threats(2, guilders=[3, 9])
    state.apply(Roll((2, 2, 2, 3, 3)))
    assert state.decider == 1  # seat 0 cannot pay 6


def test_princess_lowers_the_price_and_councilman_pays_a_point() -> None:
    houses = [(c("cook", "red"), c("princess", "red")), (c("cook", "blue"), c("councilman", "red"))]
    state = at_threats(2, houses={0: houses}, guilders=[1, 5])
    state.apply(Roll((1, 2, 4, 4, 4)))
    state.apply(Advance(True))
    assert state.guilders[0] == 0 and state.rep[0] == 1 and state.score[0] == 6


def test_the_top_step_cannot_be_bought() -> None:
    state = at_threats(2, rep=[12, 0])
    state.apply(Roll((1, 3, 4, 4, 4)))
    assert state.decider == 1


# --- phase 4 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rep", "canals", "flipped"),
    [
        ([3, 3, 1], [[1, 0], [0, 0], [0, 0]], [[False, False, True], [False] * 3, [False] * 3]),
        ([4, 3, 1], [[1, 0], [0, 1], [0, 0]], [[True, False, False], [False] * 3, [False] * 3]),
        ([0, 0, 0], [[0, 0], [0, 0], [0, 0]], [[False] * 3] * 3),
    ],
)
def test_majorities_need_strictly_more_than_every_other(
    rep: list[int], canals: list[list[int]], flipped: list[list[bool]]
) -> None:
    state = at_turn(3, rep=rep, canals=canals)  # empty hands: the round runs to its end
    assert state.round == 2 and state.majorities == flipped and state.start == 1 and state.phase == DRAW


def test_people_majority_and_markers_stay_flipped() -> None:
    state = at_turn(2, houses={1: [(c("cook", "red"), c("lawyer", "red"))]})
    assert state.majorities[1] == [False, True, False]
    state.houses[1][0][1] = -1
    state.pmask[1] = 0
    state.discard.append(c("lawyer", "red"))
    state.phase, state.seat_idx, state.lap, state.dice = TURNS, 0, 0, [3] * 5
    state.decision, state._options = None, None
    state._advance()
    assert state.round == 3 and state.majorities[1] == [False, True, False]  # flipped for good
