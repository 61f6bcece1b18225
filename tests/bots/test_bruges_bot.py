"""The Bruges heuristic bot: legal answers over the wire for every decision kind, decisions from the
observation alone, the 80 % bar against random (slow), and a real match as a launched process."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bots.bruges.bot import BrugesHeuristicBot
from bots.bruges.policy import BrugesPolicy
from sdk.games import bruges as bg
from sdk.games.bruges.hidden import resample_hidden
from sdk.games.decisions import DecisionContext
from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.registry import games

CONTEXT = DecisionContext("m", 1, 0, 1000, 1000, "bruges")


def _play(seed: int, hero: int) -> list[int]:
    """One 2-player game: the policy in seat ``hero``, uniform random play in the other; the ranks."""
    policy, rng = BrugesPolicy(), random.Random(seed)
    policies: list[Callable[[bg.State], bg.Action]] = [RandomPolicy(rng), RandomPolicy(rng)]
    policies[hero] = lambda state: policy.decide(bg.observe(state, hero))
    return play_to_end(bg.new_game(2), policies, rng).ranks()


def test_every_answer_survives_the_wire() -> None:
    from tests.bot_legality import check_every_answer_is_legal

    check_every_answer_is_legal(
        BrugesHeuristicBot(), games=60, players=lambda game: 2 + game % 3, game="bruges",
        asks=lambda state, seat: True,
    )  # fmt: skip


def test_the_bot_refuses_a_decision_the_observation_does_not_show() -> None:
    state = bg.new_game(2)
    state.apply(bg.Expose(0, 0))
    state.apply(bg.Expose(1, 1))
    with pytest.raises(ValueError, match="take_turn"):
        BrugesHeuristicBot().decide("take_turn", bg.observe(state, 0), CONTEXT)
    with pytest.raises(ValueError):
        BrugesHeuristicBot().decide("draw_pile", bg.observe(state, 1), CONTEXT)


def test_decisions_depend_only_on_the_observation() -> None:
    rng = random.Random(4)
    state = bg.new_game(3)
    policy = BrugesPolicy()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        twin = resample_hidden(state, seat, rng)
        answer = policy.decide(bg.observe(state, seat))
        assert policy.decide(bg.observe(twin, seat)) == answer
        state.apply(answer)
        checked += 1
    assert checked > 100


def test_recruits_the_best_person_it_can_afford() -> None:
    cheap, dear = bg.card_of(27, 0), bg.card_of(5, 2)  # Beggar (0), Cook (3)
    state = bg.new_game(2)
    state.apply(bg.Expose(0, 0))
    state.apply(bg.Expose(1, 1))
    state.phase, state.decision, state._options, state.dice = 3, None, None, [3] * 5
    for card in (cheap, dear, bg.card_of(9, 1)):
        state.pool.remove(card)
    state.hands[0] = [cheap, dear]
    state.houses[0] = [[bg.card_of(9, 1), -1]]
    state._advance()
    assert BrugesPolicy().decide(bg.observe(state, 0)) == bg.Play(dear, bg.RECRUIT)


def test_wins_clearly_more_than_random() -> None:
    ranks = [_play(seed, seed % 2) for seed in range(20)]
    wins = sum(r[seed % 2] == 1 and r.count(1) == 1 for seed, r in enumerate(ranks))
    assert wins >= 16, ranks


@pytest.mark.slow
def test_wins_at_least_80_percent_of_two_player_games() -> None:
    from benchmarks.bruges_strength import play, summarise

    results = [play((2, i % 2, 3 * 1_000_003 + i)) for i in range(200)]
    figures = summarise(results)
    assert figures["win_ci"][0] >= 0.8, figures


def test_plays_a_real_match(tmp_path: Path) -> None:
    """``python -m bots.bruges`` as a launched process, through the referee, against random."""
    from server.launcher import Limits
    from server.referee import RefereeConfig, TimeControl, run_match
    from server.seats import SeatSpec

    root = Path(__file__).resolve().parents[2]
    env = {"PYTHONPATH": str(root)}
    specs = [
        SeatSpec(name="heuristic", command=f"{sys.executable} -m bots.bruges", env=env),
        SeatSpec(name="random", command=f"{sys.executable} -m bots.random", env=env),
    ]
    config = RefereeConfig(TimeControl(2000, 20_000), startup_timeout_s=30.0, limits=Limits(memory_mb=None))
    record = run_match(
        games()["bruges"], specs, match_id="bruges-heuristic", seed=3, config=config, log_dir=tmp_path
    )
    assert record.end_reason == "completed"
    heuristic = record.seats[0]
    assert heuristic.bot == "bruges-heuristic 1.0"
    assert (heuristic.strikes, heuristic.forfeited, heuristic.faults) == (0, False, [])
    assert record.scores[0] > record.scores[1]
