"""The statistics of the standings and of ``smtourney stats``, on results drawn from known models.

The slow tests are seeded Monte Carlo checks of the documented maths (docs/statistics.md): the rank
interval covers the true rank, the seat test rejects an even share about 5 % of the time when it
holds and nearly always when a seat is favoured, and the intervals cover the true share and mean.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from server.store.repository import MatchResult
from server.tournament.ratings import rate, standings
from server.tournament.statistics import head_to_head, rank_intervals, seat_advantage

#: TrueSkill's performance noise: the model the ratings assume, used to draw the results.
BETA = 25 / 6


def result(
    index: int,
    entrants: Sequence[int],
    ranks: Sequence[int],
    scores: Sequence[int] | None = None,
    forfeited: Sequence[bool] | None = None,
) -> MatchResult:
    size = len(entrants)
    return MatchResult(
        index,
        f"m{index}",
        tuple(entrants),
        tuple(scores or [0] * size),
        tuple(ranks),
        (0,) * size,
        tuple(forfeited or [False] * size),
    )


def round_robin(skills: Sequence[float], rounds: int, rng: random.Random) -> list[MatchResult]:
    """Two-player tables in both seat orders; each performance drawn from N(skill, BETA²)."""
    results: list[MatchResult] = []
    for _ in range(rounds):
        for table in itertools.combinations(range(len(skills)), 2):
            for seats in (table, table[::-1]):
                first = rng.gauss(skills[seats[0]], BETA) > rng.gauss(skills[seats[1]], BETA)
                results.append(result(len(results), seats, (1, 2) if first else (2, 1)))
    return results


def seat_matches(count: int, players: int, p_first: float, rng: random.Random) -> list[MatchResult]:
    """Seat 0 wins with probability ``p_first``, the others share the rest; the winner scores 10,
    the others 0 to 9 at random."""
    results = []
    for index in range(count):
        winner = 0 if rng.random() < p_first else rng.randrange(1, players)
        others = [seat for seat in range(players) if seat != winner]
        rng.shuffle(others)
        ranks = [0] * players
        ranks[winner] = 1
        for place, seat in enumerate(others, start=2):
            ranks[seat] = place
        scores = [10 if seat == winner else rng.randrange(10) for seat in range(players)]
        results.append(result(index, range(players), ranks, scores))
    return results


def test_rank_intervals_are_seeded_and_follow_the_ratings() -> None:
    mus, sigmas = [40.0, 25.0, 10.0, 25.0], [0.5, 6.0, 0.5, 0.5]
    # The wide one passes the first or falls below the third in under 1 % of draws each (2.5 sigma),
    # and is above or below the fourth half of the time.
    assert rank_intervals(mus, sigmas) == [(1, 1), (2, 3), (4, 4), (2, 3)]
    assert rank_intervals(mus, sigmas) == rank_intervals(mus, sigmas, seed=1)
    assert rank_intervals([40.0, 25.0], [0.5, 8.0]) == [(1, 2), (1, 2)]  # 3 % of draws reorder them


def test_a_match_every_seat_forfeited_rates_nobody_and_is_nobodys_win() -> None:
    played = [result(0, (0, 1), (1, 2)), result(1, (1, 2), (1, 2), forfeited=(True, True))]
    ratings, history = rate(3, played)
    assert [r.mu for r in ratings] == [r.mu for r in rate(3, played[:1])[0]]
    assert {s.match_index for s in history} == {0}
    by_name = {row.name: row for row in standings(["a", "b", "c"], played)}
    assert (by_name["b"].wins, by_name["b"].forfeits, by_name["c"].wins) == (0, 1, 0)
    assert by_name["a"].wins == 1


def test_head_to_head_counts_each_shared_match_from_both_sides() -> None:
    played = [
        result(0, (0, 1, 2), (1, 2, 3)),
        result(1, (1, 2, 0), (1, 1, 3)),
        result(2, (2, 0), (1, 2)),
        result(3, (0, 1), (1, 2), forfeited=(True, True)),  # says nothing about play: left out
    ]
    matrix = head_to_head(["a", "b", "c"], played)
    a_b, b_a = matrix[0][1], matrix[1][0]
    assert (a_b.matches, a_b.ahead, a_b.behind, a_b.level, a_b.share) == (2, 1, 1, 0, 0.5)
    assert (b_a.ahead, b_a.behind) == (1, 1)
    b_c = matrix[1][2]
    assert (b_c.matches, b_c.ahead, b_c.level, b_c.share) == (2, 1, 1, 0.5)
    assert (matrix[2][0].matches, matrix[2][0].ahead) == (3, 2)
    assert matrix[0][0].matches == 0 and matrix[0][0].share is None


def test_seat_table_counts_sole_wins_and_leaves_out_forfeits() -> None:
    played = [
        result(0, (0, 1), (1, 2), (5, 3)),
        result(1, (1, 0), (1, 1), (4, 4)),  # a shared first place is nobody's sole win
        result(2, (0, 1), (2, 1), (1, 9), forfeited=(True, False)),
    ]
    (table,) = seat_advantage(played)
    assert (table.players, table.matches) == (2, 2)
    assert [(s.wins, s.win_share, s.mean_score) for s in table.seats] == [(1, 0.5, 4.5), (0, 0.0, 3.5)]
    assert table.p_value is None and not table.significant  # too few wins to test


@pytest.mark.slow
def test_rank_intervals_cover_the_true_rank_and_narrow_with_more_matches() -> None:
    skills = [18.0, 22.0, 25.0, 26.0, 29.0, 33.0]
    names = [f"e{i}" for i in range(len(skills))]
    true_rank = {name: len(skills) - i for i, name in enumerate(names)}
    widths: dict[int, list[int]] = {1: [], 4: []}
    covered = apart = runs = 0
    for seed in range(100):
        for rounds in (1, 4):
            rows = standings(names, round_robin(skills, rounds, random.Random(f"{seed}-{rounds}")))
            for row in rows:
                low, high = row.rank_interval
                covered += low <= true_rank[row.name] <= high
                widths[rounds].append(high - low)
            if rounds == 4:
                runs += 1
                interval = {row.name: row.rank_interval for row in rows}
                apart += interval["e5"][1] < interval["e0"][0]  # best and worst never overlap
    assert covered / (2 * 100 * len(skills)) >= 0.95
    assert sum(widths[4]) < 0.75 * sum(widths[1])
    assert apart / runs >= 0.95


@pytest.mark.slow
@pytest.mark.parametrize(("players", "favoured", "power"), [(2, 0.6, 0.75), (4, 0.35, 0.6)])
def test_seat_test_holds_its_level_and_finds_a_favoured_seat(
    players: int, favoured: float, power: float
) -> None:
    even = 1 / players
    runs = 300
    false_alarms = sum(
        seat_advantage(seat_matches(200, players, even, random.Random(f"even-{players}-{s}")))[0].significant
        for s in range(runs)
    )
    found = sum(
        seat_advantage(seat_matches(200, players, favoured, random.Random(f"fav-{players}-{s}")))[
            0
        ].significant
        for s in range(runs)
    )
    # 5 % level: 15 expected of 300, standard deviation 3.8; the bounds are three of them.
    assert 4 <= false_alarms <= 27
    assert found / runs >= power


@pytest.mark.slow
def test_win_share_and_mean_score_intervals_cover_the_truth() -> None:
    p_first = 0.4
    true_mean = 10 * p_first + 4.5 * (1 - p_first)  # a winner scores 10, others 0 to 9 uniformly
    share_covered = mean_covered = 0
    runs = 300
    for seed in range(runs):
        seat = seat_advantage(seat_matches(100, 2, p_first, random.Random(f"cover-{seed}")))[0].seats[0]
        share_covered += seat.win_share_interval[0] <= p_first <= seat.win_share_interval[1]
        mean_covered += seat.mean_score_interval[0] <= true_mean <= seat.mean_score_interval[1]
    # 95 % intervals: 285 expected of 300, standard deviation 3.8.
    assert 273 <= share_covered <= 297
    assert 273 <= mean_covered <= 297


def test_a_mean_score_interval_stays_within_the_scores_seen() -> None:
    """Two matches: the t interval of seat 0's mean (20 and 60) is 40 ± 254; it is clipped to the
    lowest and highest scores of the table size, 10 and 60, as docs/statistics.md says."""
    (table,) = seat_advantage([result(0, (0, 1), (1, 2), (20, 10)), result(1, (1, 0), (1, 2), (60, 30))])
    first, second = table.seats
    assert first.mean_score == 40 and first.mean_score_interval == (10, 60)
    assert second.mean_score == 20 and second.mean_score_interval == (10, 60)  # 20 ± 127, clipped
    # Many matches: nothing to clip, the plain t interval.
    many = [result(i, (0, 1), (1, 2), (10 + i % 5, i % 3)) for i in range(60)]
    low, high = seat_advantage(many)[0].seats[0].mean_score_interval
    assert 10 < low < 12 < high < 14
