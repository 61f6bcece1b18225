"""The Masons search bot answers legally, reproducibly for a seed and a deal budget, from its view alone."""

from __future__ import annotations

import random

from bots.masons.policy import choose_score, choose_swap, decide
from bots.masons.rollout import Closers, fast_action
from bots.masons.search import BUILDS, MasonsSearchBot, Plan, choose, ranked_plays, ranked_swaps
from sdk.games import masons as ms
from sdk.games.decisions import DecisionContext
from sdk.games.masons.board import LINE_SPACES
from sdk.games.masons.enclosure import area, closed, completed_by
from sdk.games.play import play_to_end

#: Small budgets keep the tests quick; the search works the same at any budget.
SMALL = Plan(deals=2, turns=2, seconds=60.0)


def _positions(players: int, seed: int) -> list[ms.State]:
    """Every decision of one game played by the greedy policy (copies, in order)."""
    rng = random.Random(seed)
    found = []

    def greedy(state: ms.State) -> ms.Action:
        found.append(state.clone())
        return decide(ms.observe(state, state.current_player), rng)

    play_to_end(ms.new_game(players), [greedy] * players, rng)
    return found


def test_the_bot_answers_every_kind_of_decision_legally_from_its_observation() -> None:
    bot = MasonsSearchBot(SMALL)
    kinds = set()
    for players, seed in ((2, 1), (4, 2)):
        for n, state in enumerate(_positions(players, seed)[::3]):
            seat = state.current_player
            context = DecisionContext(f"m{seed}", n, seat, 1000, 0, "masons")
            action = bot.decide(state.decision or "", ms.observe(state, seat), context)
            assert action in state.legal_actions()
            kinds.add(state.decision)
    assert {"wall", "houses", "score_cards"} <= kinds


def test_a_seed_and_a_deal_budget_give_the_same_search_every_time() -> None:
    walls = [s for s in _positions(2, 3) if s.decision == "wall"][5:8]
    for state in walls:
        observation = ms.observe(state, state.current_player)
        random.seed(1)
        first = choose(observation, 42, SMALL)
        random.seed(2)  # a global RNG left in any state changes nothing
        second = choose(observation, 42, SMALL)
        assert (first.action, first.root) == (second.action, second.root)
        assert [stats.visits for stats in first.root] == [SMALL.deals] * (SMALL.candidates + SMALL.extra)


def test_the_search_cannot_see_the_other_hands_or_the_draw_pile() -> None:
    """Two true states the seat cannot tell apart (the hidden part poisoned) get the same search."""
    builds = [s for s in _positions(2, 4) if s.decision in BUILDS][4:10]
    for n, state in enumerate(builds):
        seat = state.current_player
        poisoned = ms.resample_hidden(state, seat, random.Random(n))
        assert ms.observe(poisoned, seat) == ms.observe(state, seat)
        assert poisoned.hands != state.hands or poisoned.draw_pile != state.draw_pile
        results = [choose(ms.observe(truth, seat), 7, SMALL) for truth in (state, poisoned)]
        assert (results[0].action, results[0].root) == (results[1].action, results[1].root)


def test_the_time_limit_stops_a_search_after_its_first_deal() -> None:
    state = next(s for s in _positions(2, 5) if s.decision == "wall")
    choice = choose(ms.observe(state, state.current_player), 1, Plan(deals=50), seconds=1e-9)
    assert {stats.visits for stats in choice.root} == {1}
    assert choice.action in state.legal_actions()


def test_the_model_of_the_greedy_policy_plays_legal_games_to_the_end() -> None:
    rng = random.Random(6)
    closers = Closers()
    for players in (2, 3, 4):
        model = [lambda state: fast_action(state, closers, rng)] * players
        state = play_to_end(ms.new_game(players), model, rng)  # checked: a model's mistake fails here
        assert state.turn > 10


def test_the_early_stopping_city_check_agrees_with_the_full_flood_fill() -> None:
    rng = random.Random(8)
    for _ in range(30):
        walls = 0
        for line in rng.sample(range(82), rng.randrange(10, 70)):
            walls |= 1 << line
            full = 0
            for side in LINE_SPACES[line]:
                region = area(side, walls)
                if closed(region, walls) and not full:
                    full = region
            assert completed_by(line, walls) == full


def test_card_plays_and_swaps_search_the_greedy_choice_first_among_distinct_legal_options() -> None:
    seen = set()
    for state in _positions(3, 9):
        seat = state.current_player
        greedy: ms.Action
        if state.decision == "score_cards":
            ranked, greedy = ranked_plays(state, seat), choose_score(state, seat)
        elif state.decision == "swap":
            ranked, greedy = ranked_swaps(state, seat), choose_swap(state, seat)
        else:
            continue
        seen.add(state.decision)
        assert ranked[0] == greedy
        assert len(set(ranked)) == len(ranked)
        assert all(action in state.legal_actions() for action in ranked)
    assert seen == {"score_cards", "swap"}
