"""The score of a duel (wins, draws, losses of one bot against another) with its 95 % interval,
and the Elo difference it implies, as match-testing tools for chess engines report them.

Maths (the trinomial model, as cutechess-cli and fastchess use, with the interval's ends exact):

* each game scores ``x = 1`` (win), ``1/2`` (draw) or ``0`` (loss) for the first bot, and the
  score is their mean ``s = (W + D/2) / N``;
* a game of expected score ``μ`` and draw rate ``d`` has variance ``μ(1-μ) - d/4``; at ``μ = s`` and
  ``d = D/N`` this is the variance cutechess-cli and fastchess estimate,
  ``(W (1 - s)^2 + D (1/2 - s)^2 + L s^2) / N`` (divided by N, not N - 1), so draws narrow the
  interval as they should;
* the 95 % interval is every ``μ`` with ``(s - μ)^2 <= 1.96^2 (μ(1-μ) - d/4) / N``
  (:func:`~server.intervals.score_interval`), the same method for every outcome. Where cutechess and
  fastchess take ``s -/+ 1.96 sqrt(v / N)`` with ``v`` fixed at ``μ = s``, the variance here follows
  ``μ``: the interval stays inside [0, 1] and does not shrink to a point when every game has the same
  outcome (for N wins out of N: ``[N / (N + 1.96^2), 1]``, Wilson's interval). The draw rate is taken
  as ``D / (N + 1.96^2)``, as if 1.96^2 more games had been played without a draw, so N draws out of N
  do not shrink it to a point either; without draws the interval is Wilson's exactly. It covers the
  true expected score in about 95 % of duels once N is in the tens (a seeded test checks it), and
  turning a loss into a win never lowers its lower end (a property test checks it);
* the Elo difference is ``-400 log10(1/s - 1)``, the logistic model's difference for expected score
  ``s``; it is increasing in ``s``, so the interval's bounds map to the Elo interval's bounds. A
  score of 0 or 1 has an infinite Elo difference: an interval's end is exactly 1 when every game was
  won (exactly 0 when every game was lost), and the Elo interval's end is then infinite (``null`` in
  JSON, ``+inf`` or ``-inf`` in text).

The two games of a pair (seats swapped, same chance outcomes) are not independent: luck that
favours a seat helps each bot once, so a pair's results are usually negatively correlated and the
trinomial interval, which treats games as independent, is then a little wide: it errs on the safe side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .intervals import Z95, score_interval


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
        """The score's 95 % interval (NaN before any game)."""
        n = self.games
        if n == 0:
            return (math.nan, math.nan)
        return score_interval(self.score, self.draws / (n + Z95**2), n)

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
