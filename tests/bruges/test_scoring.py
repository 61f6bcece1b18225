"""Final scoring and ranks (B21, B22), and the end of the game."""

from __future__ import annotations

from sdk.games.bruges.actions import WORKERS, Play
from sdk.games.bruges.phases import OVER
from sdk.games.bruges.scoring import final_points

from .builders import at_turn, c


def test_rulebook_example_final_scoring_gives_36_points() -> None:
    persons = [c(p, "red") for p in ("prince", "councilman", "mayor", "beggar", "accountant")]
    houses = [
        (c("cook", colour), person)
        for colour, person in zip(("blue", "brown", "purple", "yellow", "red"), persons, strict=False)
    ]
    houses.append((c("nun", "blue"), -1))
    state = at_turn(2, hands={0: [c("nun", "red")], 1: [c("nun", "brown")]}, houses={0: houses})
    state.majorities[0] = [True, True, False]
    state.canals[0] = [3, 0]
    state.rep[0] = 6
    points = final_points(state, 0)
    assert points == {
        "persons": 3 + 1 + 2 + 0 + 2,
        "houses": 6,
        "final_persons": 2 * 2,
        "majorities": 2 * 4,
        "space3": 3,
        "statues": 0,
        "reputation": 7,
    }
    assert sum(points.values()) == 36


def test_final_persons_count_bishop_banker_painter() -> None:
    persons = [c("count", "red"), c("bishop", "red"), c("banker", "red"), c("painter", "red")]
    houses = [
        (c("cook", colour), p)
        for colour, p in zip(("blue", "brown", "purple", "yellow"), persons, strict=False)
    ]
    state = at_turn(2, hands={0: [c("nun", "red")], 1: [c("nun", "brown")]}, houses={0: houses})
    state.majorities[0] = [True, False, True]
    state.workers[0] = [3, 2, 0, 0, 0]
    state.guilders[0] = 11
    # Count 2x2, Bishop 5//2, Banker 11//3, Painter 3 groups (Noble, Church, Merchant, Artist = 4)
    assert final_points(state, 0)["final_persons"] == 4 + 2 + 3 + 4


def test_statues_and_both_space3_tokens_score() -> None:
    state = at_turn(2, hands={0: [c("nun", "red")], 1: [c("nun", "brown")]})
    state.canals[0] = [5, 3]
    state.statues[0] = [7]
    points = final_points(state, 0)
    assert points["space3"] == 6 and points["statues"] == 7


def test_the_final_round_ends_the_game_with_final_scoring_and_ranks() -> None:
    state = at_turn(2, hands={0: [c("nun", "red")], 1: [c("nun", "brown")]}, final_round=1, guilders=[5, 5])
    state.apply(Play(c("nun", "red"), WORKERS))
    state.apply(Play(c("nun", "brown"), WORKERS))
    assert state.phase == OVER and state.is_terminal() and state.legal_actions() == []
    assert state.scores() == [5, 5] and state.ranks() == [1, 1]  # same score, same guilders: shared


def test_ranks_break_ties_by_guilders_then_share() -> None:
    state = at_turn(3, hands={0: [c("nun", "red")]}, score=[10, 10, 12], guilders=[3, 4, 0])
    assert state.ranks() == [3, 2, 1]
    state.guilders = [4, 4, 0]
    assert state.ranks() == [2, 2, 1]
