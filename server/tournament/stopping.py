"""The stopping rule: add rounds until the ranking is settled under the rating model.

TrueSkill keeps a normal belief N(mu, sigma^2) about each entrant's skill, independent across
entrants. For entrants i above j in the ranking, the belief that i is truly the stronger is
P(s_i - s_j > 0) = Phi((mu_i - mu_j) / sqrt(sigma_i^2 + sigma_j^2)). The ranking is settled when
every adjacent pair (or, with ``settle: K``, the first K adjacent pairs: the order of the top K
and the boundary below them) has that probability at least ``confidence``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import NormalDist

import trueskill

_NORMAL = NormalDist()


@dataclass(frozen=True, slots=True)
class PairBelief:
    """How surely the entrant ranked above is the stronger of an adjacent pair."""

    above: int
    below: int
    probability: float


def ordered_probability(above: trueskill.Rating, below: trueskill.Rating) -> float:
    """P(skill of ``above`` > skill of ``below``) under independent normal beliefs."""
    spread = sqrt(above.sigma**2 + below.sigma**2)
    return _NORMAL.cdf((above.mu - below.mu) / spread)


def least_settled(ranked: Sequence[tuple[int, trueskill.Rating]], settle: int | None) -> PairBelief | None:
    """The adjacent pair the rule checks whose order is least sure (None with fewer than two)."""
    pairs = len(ranked) - 1 if settle is None else min(settle, len(ranked) - 1)
    beliefs = [
        PairBelief(ranked[k][0], ranked[k + 1][0], ordered_probability(ranked[k][1], ranked[k + 1][1]))
        for k in range(pairs)
    ]
    return min(beliefs, key=lambda b: b.probability, default=None)
