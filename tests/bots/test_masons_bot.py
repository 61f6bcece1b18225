"""The greedy Masons bot: every decision kind answered legally over the wire, answers that follow
from the observation and the decision's public facts alone, the clear choices of a scoring round,
and a clear edge over random play."""

from __future__ import annotations

import random
from collections.abc import Callable

from bots.masons import MasonsGreedyBot
from bots.masons.policy import choose_final, choose_score, decide
from sdk.games import masons as ms
from sdk.games.decisions import DecisionContext
from sdk.games.masons.cards import CARD_BY_NAME, KINDS
from sdk.games.play import RandomPolicy, play_to_end

from ..bot_legality import check_every_answer_is_legal
from ..masons.positions import scoring_example


def test_every_decision_kind_is_answered_legally() -> None:
    """The bot is seat 0 and answers every seat's swaps and final scorings (seat 0 rarely comes last);
    random players make the others' other decisions. Every answer crosses the wire, rules checked."""
    check_every_answer_is_legal(MasonsGreedyBot(), 8, lambda n: 2 + n % 3, game="masons", asks=_bot_answers)


def _bot_answers(state: ms.State, seat: int) -> bool:
    return seat == 0 or state.decision in ("swap", "final_score")


def test_the_same_observation_and_context_give_the_same_answer() -> None:
    bot = MasonsGreedyBot()
    rng = random.Random(4)
    state = ms.new_game(3)
    answers = 0
    while not state.is_terminal() and answers < 40:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        context = DecisionContext("same", answers + 1, seat, 1000, 1000, "masons")
        first = bot.decide(state.decision or "", ms.observe(state, seat), context)
        twin = ms.resample_hidden(state, seat, rng)  # other hands differ: the answer must not
        assert bot.decide(state.decision or "", ms.observe(twin, seat), context) == first
        state.apply(first)
        answers += 1


def _hand(state: ms.State, seat: int, names: list[str]) -> None:
    for k in range(KINDS):
        state.draw_pile += [k] * state.hands[seat][k]
    state.hands[seat] = [0] * KINDS
    for name in names:
        state.hands[seat][CARD_BY_NAME[name]] += 1
        state.draw_pile.remove(CARD_BY_NAME[name])


def test_the_best_pair_is_played_for_the_scored_city() -> None:
    state = scoring_example()
    _hand(state, 0, ["large_city", "shore_towers", "small_city", "land_houses_red"])
    action = choose_score(state, 0)
    assert action == ms.Score(tuple(sorted((CARD_BY_NAME["large_city"], CARD_BY_NAME["shore_towers"]))))


def test_a_hand_worth_nothing_now_discards_and_draws_two() -> None:
    state = scoring_example()
    _hand(state, 0, ["small_city", "land_houses_red", "land_region_east"])
    action = choose_score(state, 0)
    assert action.discard and len(action.cards) == 1


def test_the_final_scoring_names_the_city_where_the_cards_score_most() -> None:
    state = scoring_example()
    state.phase, state.queue, state.scored_city = 8, [0], -1
    _hand(state, 0, ["small_city", "land_walls"])
    action = choose_final(state, 0)
    assert action.city in (1, 2, 3) and len(action.cards) == 2  # a one-space city: small_city scores 6


def test_wins_clearly_more_than_random() -> None:
    wins = 0
    for number in range(10):
        chance, rival, mine = random.Random(number), random.Random(number + 50), random.Random(number + 99)
        seat = number % 2
        policies: list[Callable[[ms.State], ms.Action]] = [RandomPolicy(rival), RandomPolicy(rival)]

        def greedy(state: ms.State, seat: int = seat, mine: random.Random = mine) -> ms.Action:
            return decide(ms.observe(state, seat), mine)

        policies[seat] = greedy
        wins += play_to_end(ms.new_game(2), policies, chance).ranks()[seat] == 1
    assert wins >= 7
