"""What the results say beyond the ratings: how sure each rank is, who beats whom, and whether a
seat wins more than its share. The maths of each figure is in docs/statistics.md.

Pure functions of stored results; numpy and scipy do the sampling, quantiles and tests. scipy.stats
is imported where a seat table is computed, not with the module: it costs every ``smtourney`` command
most of a second of start-up, and only the seat tables need it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np

from server.intervals import wilson
from server.store.repository import MatchResult

#: Every interval is a 95 % interval; a test is significant below this p-value.
CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE
#: Draws of the rating model behind a rank interval, and their fixed seed (same results, same intervals).
RANK_DRAWS = 4000
RANK_SEED = 20_260_101
DIGITS = 4


def rank_intervals(
    mus: Sequence[float], sigmas: Sequence[float], *, draws: int = RANK_DRAWS, seed: int = RANK_SEED
) -> list[tuple[int, int]]:
    """Each entrant's 95 % rank interval under the rating model.

    Skills are drawn independently from N(mu, sigma²) (TrueSkill's posterior), the entrants ranked
    by the drawn skills (1 = best), and the interval runs from the 2.5 % to the 97.5 % quantile of
    each entrant's rank over the draws (quantiles taken on observed ranks, so both ends are ranks).
    """
    if not mus:
        return []
    rng = np.random.default_rng(seed)
    skills = rng.normal(np.asarray(mus), np.asarray(sigmas), size=(draws, len(mus)))
    # Rank 1 for the highest skill of a draw: the place of each entrant in the descending order.
    ranks = np.argsort(np.argsort(-skills, axis=1, kind="stable"), axis=1) + 1
    low = np.quantile(ranks, ALPHA / 2, axis=0, method="inverted_cdf")
    high = np.quantile(ranks, 1 - ALPHA / 2, axis=0, method="inverted_cdf")
    return [(int(a), int(b)) for a, b in zip(low, high, strict=True)]


def rated(results: Sequence[MatchResult]) -> list[MatchResult]:
    """The matches that say something about play: not those in which every seat was forfeited."""
    return [r for r in results if not all(r.forfeited)]


@dataclass(frozen=True, slots=True)
class Pairing:
    """How often ``row`` finished ahead of, behind and level with ``column`` at the same table."""

    row: str
    column: str
    matches: int
    ahead: int
    behind: int
    level: int

    @property
    def share(self) -> float | None:
        """Share of the shared matches in which ``row`` finished strictly ahead."""
        return round(self.ahead / self.matches, DIGITS) if self.matches else None

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "share": self.share}


def head_to_head(names: Sequence[str], results: Sequence[MatchResult]) -> list[list[Pairing]]:
    """The matrix of every ordered pair of entrants (the diagonal included, with no matches)."""
    count = len(names)
    ahead = np.zeros((count, count), dtype=int)
    level = np.zeros((count, count), dtype=int)
    shared = np.zeros((count, count), dtype=int)
    for result in rated(results):
        rank_of: dict[int, int] = {}
        for entrant, rank in zip(result.entrants, result.ranks, strict=True):
            rank_of[entrant] = min(rank, rank_of.get(entrant, rank))  # an entrant's best seat
        for a, rank_a in rank_of.items():
            for b, rank_b in rank_of.items():
                if a != b:
                    shared[a, b] += 1
                    ahead[a, b] += rank_a < rank_b
                    level[a, b] += rank_a == rank_b
    return [
        [
            Pairing(
                names[a],
                names[b],
                int(shared[a, b]),
                int(ahead[a, b]),
                int(shared[a, b] - ahead[a, b] - level[a, b]),
                int(level[a, b]),
            )
            for b in range(count)
        ]
        for a in range(count)
    ]


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat of a table: its wins (sole first places), win share and mean score, 95 % intervals."""

    seat: int
    matches: int
    wins: int
    win_share: float
    win_share_interval: tuple[float, float]
    mean_score: float
    mean_score_interval: tuple[float, float]


@dataclass(frozen=True, slots=True)
class SeatAdvantage:
    """The seat table of one table size, and the test of an even share of wins."""

    players: int
    matches: int
    seats: list[SeatRow]
    chi_square: float | None
    p_value: float | None

    @property
    def significant(self) -> bool:
        """Whether the wins differ from an even share at the 5 % level."""
        return self.p_value is not None and self.p_value < ALPHA

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "significant": self.significant}


def seat_advantage(results: Sequence[MatchResult]) -> list[SeatAdvantage]:
    """Per table size, from the matches without a forfeit (a forfeit decides a match, not a seat).

    A win is a sole first place. Win shares get Wilson score intervals; mean scores get Student t
    intervals; the chi-square goodness-of-fit test compares the seats' wins with an even share of
    the matches that had a sole winner (the test is left out, ``None``, with fewer than 5 expected
    wins per seat, where the chi-square approximation fails).
    """
    by_size: dict[int, list[MatchResult]] = {}
    for result in results:
        if not any(result.forfeited):
            by_size.setdefault(len(result.entrants), []).append(result)
    return [_seat_table(players, matches) for players, matches in sorted(by_size.items())]


def _seat_table(players: int, matches: list[MatchResult]) -> SeatAdvantage:
    ranks = np.array([r.ranks for r in matches])
    scores = np.array([r.scores for r in matches], dtype=float)
    sole = (ranks == 1) & ((ranks == 1).sum(axis=1) == 1)[:, None]
    wins = sole.sum(axis=0)
    count = len(matches)
    rows = [
        SeatRow(
            seat=seat,
            matches=count,
            wins=int(wins[seat]),
            win_share=round(int(wins[seat]) / count, DIGITS),
            win_share_interval=_wilson(int(wins[seat]), count),
            mean_score=round(float(scores[:, seat].mean()), DIGITS),
            mean_score_interval=_mean_interval(scores[:, seat], float(scores.min()), float(scores.max())),
        )
        for seat in range(players)
    ]
    decided = int(wins.sum())
    if decided / players < 5:
        return SeatAdvantage(players, count, rows, None, None)
    from scipy import stats as scipy_stats

    test = scipy_stats.chisquare(wins)
    statistic, p_value = round(float(test.statistic), DIGITS), round(float(test.pvalue), DIGITS)
    return SeatAdvantage(players, count, rows, statistic, p_value)


def _wilson(successes: int, trials: int) -> tuple[float, float]:
    low, high = wilson(successes / trials, trials)
    return round(low, DIGITS), round(high, DIGITS)


def _mean_interval(values: np.ndarray, lowest: float, highest: float) -> tuple[float, float]:
    """Student t interval of the mean, kept within the scores seen (``lowest`` to ``highest``): with
    few matches the t interval reaches far past any score, even below 0 for scores that cannot be
    negative. A single value (or no spread) is its own interval."""
    from scipy import stats as scipy_stats

    mean = float(values.mean())
    if len(values) < 2 or float(values.std()) == 0.0:
        return round(mean, DIGITS), round(mean, DIGITS)
    low, high = scipy_stats.t.interval(
        CONFIDENCE, len(values) - 1, loc=mean, scale=float(scipy_stats.sem(values))
    )
    return round(max(float(low), lowest), DIGITS), round(min(float(high), highest), DIGITS)
