"""The score of a duel (wins, draws, losses of one bot against another) with its 95 % interval,
and the Elo difference it implies, as match-testing tools for chess engines report them.

Maths (the trinomial normal approximation, as cutechess-cli and fastchess use):

* each game scores ``x = 1`` (win), ``1/2`` (draw) or ``0`` (loss) for the first bot, and the
  score is their mean ``s = (W + D/2) / N``;
* the per-game variance is estimated from the games themselves,
  ``v = (W (1 - s)^2 + D (1/2 - s)^2 + L s^2) / (N - 1)``, so draws narrow the interval as they
  should, and the score's standard error is ``sqrt(v / N)``;
* the 95 % interval is ``s -/+ 1.96 sqrt(v / N)``, clipped to [0, 1]: by the central limit theorem it
  covers the true expected score in about 95 % of duels once N is in the tens (a seeded test checks it);
* when every game had the same outcome the estimated variance is 0 and that interval would shrink
  to the score itself; the Wilson score interval of ``W + D/2`` points in ``N`` trials is given
  instead (for N wins out of N: ``[N / (N + 1.96^2), 1]``), which stays honest about small N;
* the Elo difference is ``-400 log10(1/s - 1)``, the logistic model's difference for expected score
  ``s``; it is increasing in ``s``, so the interval's bounds map to the Elo interval's bounds. A
  score of 0 or 1 has an infinite Elo difference.

The two games of a pair (seats swapped, same chance outcomes) are not independent: luck that
favours a seat helps each bot once, so a pair's results are usually negatively correlated and the
trinomial interval, which treats games as independent, is then a little wide: it errs on the safe side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .intervals import Z95, wilson


@dataclass(frozen=True, slots=True)
class DuelScore:
    """Wins, draws and losses of the first bot, and what they say."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Mean points per game of the first bot (NaN before any game)."""
        return (self.wins + self.draws / 2) / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The score's 95 % interval (NaN with fewer than two games)."""
        n, s = self.games, self.score
        if n < 2:
            return (math.nan, math.nan)
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / (n - 1)
        if variance == 0:
            return wilson(s, n)
        half = Z95 * math.sqrt(variance / n)
        return (max(0.0, s - half), min(1.0, s + half))

    @property
    def elo(self) -> float:
        return elo_difference(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.interval
        return (elo_difference(low), elo_difference(high))

    def to_json(self) -> dict[str, float | int | None]:
        """Plain figures; an infinite or undefined one is null."""
        low, high = self.interval
        elo_low, elo_high = self.elo_interval
        figures = {
            "score": self.score,
            "score_low": low,
            "score_high": high,
            "elo": self.elo,
            "elo_low": elo_low,
            "elo_high": elo_high,
        }
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            **{key: value if math.isfinite(value) else None for key, value in figures.items()},
        }


def elo_difference(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (±inf at 0 and 1, NaN for NaN)."""
    if math.isnan(score):
        return math.nan
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)
