"""``smtourney duel``: two bot classes in-process, seats alternated, and its score interval's maths."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.duel import duel_game
from server.duel_score import DuelScore, elo_difference
from server.intervals import Z95, wilson

from ..commands import invoke

TRIVIAL = "benchmarks.trivial_bot:TrivialBot"
RANDOM = "bots.random:RandomBot"


def test_a_duel_reports_every_game_from_the_first_bots_side_and_repeats_with_its_seed() -> None:
    code, output = invoke("duel", RANDOM, TRIVIAL, "--games", "6", "--seed", "5", "--json")
    assert code == 0, output
    result = json.loads(output)
    assert result["games"] == result["wins"] + result["draws"] + result["losses"] == 6
    assert result["game"] == "saint_malo"  # the only game the trivial bot plays
    assert result["score_low"] <= result["score"] <= result["score_high"]
    assert result["strikes"] == [0, 0] and result["forfeits"] == [0, 0]
    assert invoke("duel", RANDOM, TRIVIAL, "--games", "6", "--seed", "5", "--json") == (code, output)


def test_the_text_report_names_the_outcome_and_the_intervals() -> None:
    code, output = invoke("duel", RANDOM, TRIVIAL, "--games", "4")
    assert code == 0, output
    assert "wins" in output and "95 % interval" in output and "Elo difference" in output


def test_games_come_in_pairs_with_one_seed_and_the_seats_swapped() -> None:
    games = [duel_game(11, index) for index in range(6)]
    assert [seat for _, seat in games] == [0, 1, 0, 1, 0, 1]
    assert games[0][0] == games[1][0] != games[2][0] == games[3][0] != games[4][0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nowhere_at_all:Bot", RANDOM), "error: nowhere_at_all:Bot: cannot import 'nowhere_at_all'"),
        ((RANDOM, "bots.random"), "error: bots.random: expected module:Class"),
        ((RANDOM, RANDOM), "error: --game: choose a game; both bots play: "),
        ((RANDOM, "bots.cities.bot:CitiesHeuristicBot", "--game", "saint_malo"), "does not play saint_malo"),
        ((RANDOM, RANDOM, "--game", "chess"), "error: --game: "),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_status_2(args: tuple[str, ...], message: str) -> None:
    code, output = invoke("duel", *args, "--games", "2")
    assert code == 2
    assert output.startswith(message) or message in output
    assert output.count("\n") == 1


def test_elo_difference_of_known_scores() -> None:
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_difference(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_a_duel_of_one_outcome_still_has_a_wide_interval_for_few_games() -> None:
    low, high = DuelScore(wins=5, draws=0, losses=0).interval
    assert high == 1.0 and 0.5 < low < 0.6  # Wilson: 5 / (5 + 1.96^2) = 0.566
    assert DuelScore(wins=0, draws=0, losses=5).interval[0] == 0.0


def test_every_game_won_gives_an_infinite_elo_upper_end() -> None:
    code, output = invoke("duel", "bots.greedy:GreedyBot", RANDOM, "--games", "10", "--json")
    result = json.loads(output)
    assert code == 0 and result["wins"] == 10, "the greedy bot must win every game for this check"
    assert result["score_high"] == 1.0 and result["elo"] is None and result["elo_high"] is None
    assert result["elo_low"] == pytest.approx(elo_difference(10 / (10 + Z95**2)))
    code, text = invoke("duel", "bots.greedy:GreedyBot", RANDOM, "--games", "10")
    assert code == 0 and "Elo difference +inf (95 % interval +" in text and " to +inf)" in text


def test_a_perfect_score_has_an_interval_end_of_exactly_one() -> None:
    """Rounding used to leave 1 - 1e-16 (a finite Elo end) for 613 of these N."""
    for trials in range(1, 2001):
        assert wilson(1.0, trials)[1] == 1.0 and wilson(0.0, trials)[0] == 0.0
        assert DuelScore(trials, 0, 0).interval[1] == 1.0 and DuelScore(0, 0, trials).interval[0] == 0.0


def test_a_hundred_wins_are_not_rated_below_ninety_nine_wins_and_a_loss() -> None:
    perfect, almost = DuelScore(100, 0, 0).interval, DuelScore(99, 0, 1).interval
    assert perfect[0] == pytest.approx(100 / (100 + Z95**2)) and perfect[1] == 1.0
    assert perfect[0] > almost[0] and perfect[1] > almost[1]


def test_every_game_drawn_still_has_a_wide_interval_for_few_games() -> None:
    low, high = DuelScore(0, 2, 0).interval
    assert low == pytest.approx(1 - high) and 0.15 < low < 0.2
    assert 0.48 < DuelScore(0, 100, 0).interval[0] < 0.49


outcomes = st.tuples(st.integers(0, 300), st.integers(0, 300), st.integers(0, 300)).filter(
    lambda o: sum(o) > 0
)


@given(outcomes)
def test_a_loss_turned_into_a_win_or_a_win_added_never_lowers_the_lower_end(
    outcome: tuple[int, int, int],
) -> None:
    wins, draws, losses = outcome
    low = DuelScore(wins, draws, losses).interval[0]
    assert DuelScore(wins + 1, draws, losses).interval[0] >= low
    if losses:
        assert DuelScore(wins + 1, draws, losses - 1).interval[0] >= low


@given(outcomes)
def test_one_method_for_every_outcome_the_ends_reject_nothing_inside(outcome: tuple[int, int, int]) -> None:
    """Each end solves ``(s - μ)² = z² (μ(1-μ) - d/4) / N`` (d = D / (N + z²)), zero variance or not,
    and the score lies between them."""
    wins, draws, losses = outcome
    duel = DuelScore(wins, draws, losses)
    n, s, d = duel.games, duel.score, draws / (duel.games + Z95**2)
    low, high = duel.interval
    assert 0.0 <= low <= s <= high <= 1.0
    for end in (low, high):
        assert (s - end) ** 2 * n == pytest.approx(Z95**2 * (end * (1 - end) - d / 4), abs=1e-9)


@pytest.mark.parametrize(("p_win", "p_draw"), [(0.5, 0.0), (0.45, 0.2), (0.2, 0.6), (0.7, 0.1)])
def test_the_95_percent_interval_covers_the_true_score_in_about_95_percent_of_duels(
    p_win: float, p_draw: float
) -> None:
    """Seeded: 2,000 duels of 200 games with known outcome probabilities; the interval must cover the
    true expected score p_win + p_draw / 2 in 93-97 % of them (95 % +/- 4 standard errors of 0.49 %)."""
    rng = random.Random(20261126)
    truth = p_win + p_draw / 2
    covered = 0
    duels = 2000
    for _ in range(duels):
        outcomes = [rng.random() for _ in range(200)]
        wins = sum(u < p_win for u in outcomes)
        draws = sum(p_win <= u < p_win + p_draw for u in outcomes)
        low, high = DuelScore(wins, draws, 200 - wins - draws).interval
        covered += low <= truth <= high
    assert 0.93 <= covered / duels <= 0.97
