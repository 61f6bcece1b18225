"""The search reference bot: legal, deterministic, sound tables, and stronger than greedy.

Legality is checked the way a bot is really asked: on the state decoded from
the wire, with every answer applied through the checked ``State.apply``.
"""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from bots.greedy import GreedyPolicy
from bots.search import SearchBot, SearchPolicy, Weights, position_value
from bots.search.planner import FINALS, KEEPABLE, PARTIALS, REROLLS, multiset, reroll_mask
from sdk.games import saint_malo as sm
from tests.saint_malo.bot_answers import check_saint_malo_bot
from tests.server.conftest import launched, play


def test_the_dice_tables_are_sound() -> None:
    assert len(FINALS) == 252 and len(PARTIALS) == 210
    for outcomes in REROLLS:
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(len(subs) == len(set(subs)) for subs in KEEPABLE)
    # Five different faces can keep any of 2**5 - 1 proper subsets.
    assert len(KEEPABLE[FINALS.index((1, 1, 1, 1, 1, 0))]) == 31


def test_reroll_mask_keeps_the_named_dice() -> None:
    head, swords, log = sm.Symbol.HEAD, sm.Symbol.SWORDS, sm.Symbol.LOG
    dice = [head, swords, head, log, head]
    assert reroll_mask(dice, (0, 0, 0, 0, 2, 0)) == 0b11010
    assert reroll_mask(dice, multiset(dice)) == 0
    assert reroll_mask(dice, (0,) * 6) == 0b11111


def test_every_answer_is_legal() -> None:
    """Seat 0 is the search bot; bonus persons of every seat are its to place.

    Every side grants a bonus person, so the rare bonus-person decision comes up.
    """
    check_saint_malo_bot(SearchBot(), games=3, players=lambda game: 2 + game)


def test_decisions_depend_only_on_the_state() -> None:
    """A fresh policy, and one that has seen other turns, repeat every decision of a game."""
    played: list[tuple[sm.State, sm.Action]] = []
    policy = SearchPolicy()

    def recording(state: sm.State) -> sm.Action:
        action = policy(state)
        played.append((state.clone(), action))
        return action

    sm.play_game([recording, GreedyPolicy()], random.Random(3))
    warm = SearchPolicy()
    for state, action in played[::5]:
        assert SearchPolicy()(state) == action
    for state, action in reversed(played[::7]):
        assert warm(state) == action


def test_weights_round_trip_and_reject_unknown_names() -> None:
    weights = Weights(coin=0.7, threat=1.1)
    assert Weights.from_json(weights.to_json()) == weights
    with pytest.raises(ValueError, match="unknown weight"):
        Weights.from_json({"coins": 1.0})


def test_a_finished_game_is_valued_by_its_score_difference() -> None:
    state, _ = sm.play_game([SearchPolicy(), sm.RandomPolicy(random.Random(1))], random.Random(1))
    scores = state.scores()
    assert position_value(state, 0, Weights()) == scores[0] - scores[1]


def test_search_plays_a_real_match(tmp_path: Path) -> None:
    """``python -m bots.search`` as a launched process, through the referee."""
    record = play([launched("search", "bots.search"), launched("random", "bots.random")], tmp_path, seed=4)
    assert record.end_reason == "completed"
    search, _ = record.seats
    assert search.bot == "search 1.0"
    assert (search.strikes, search.forfeited, search.faults) == (0, False, [])
    assert record.scores[0] > record.scores[1]


@pytest.mark.slow
def test_search_beats_greedy() -> None:
    """40 two-player games, seats alternated: search wins at least 30 (greedy's 50 % would not)."""
    wins = 0
    margins = []
    for game in range(40):
        seat = game % 2
        policies: list[sm.Policy] = [GreedyPolicy(), GreedyPolicy()]
        policies[seat] = SearchPolicy()
        state, _ = sm.play_game(policies, random.Random(10_000 + game), check=False)
        scores = state.scores()
        wins += state.ranks()[seat] == 1
        margins.append(scores[seat] - scores[1 - seat])
    assert wins >= 30, (wins, statistics.fmean(margins))
