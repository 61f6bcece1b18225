"""95 % score intervals of a mean score per trial, one implementation for the duel score, the seat
table of ``smtourney stats`` and the strength benchmarks.

Each trial scores 1, 1/2 (a draw) or 0; with draw rate ``d`` a trial of expected score ``μ`` has
variance ``μ(1-μ) - d/4`` (without draws, the binomial ``μ(1-μ)``). The interval holds every ``μ``
the observed mean ``s`` of ``n`` trials does not reject at 95 %: ``(s - μ)² <= z² (μ(1-μ) - d/4) / n``,
a quadratic in ``μ`` (the *score* interval). Without draws it is Wilson's interval,
``(s + z²/2n ± z sqrt(s(1-s)/n + z²/4n²)) / (1 + z²/n)``: unlike ``s ± z sqrt(s(1-s)/n)`` it stays
inside [0, 1] and does not shrink to a point when every trial has the same outcome.

Each end is the smaller root of its quadratic, in the form without cancellation, the upper one
found as the lower end of the mirrored score ``1 - s``: an end is exactly 0 or 1 when the score
is (every trial lost, or won), never ``1 - 1e-16``, so an Elo difference derived from it is
infinite exactly then.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(rate: float, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a binomial proportion observed as ``rate`` in ``trials``."""
    return score_interval(rate, 0.0, trials)


def score_interval(score: float, draw_rate: float, trials: int) -> tuple[float, float]:
    """The 95 % score interval of a mean score observed as ``score`` in ``trials`` (see above);
    ``draw_rate`` (below 1) is the share of draws the variance assumes."""
    return (_lower_end(score, draw_rate, trials), 1.0 - _lower_end(1.0 - score, draw_rate, trials))


def _lower_end(score: float, draw_rate: float, trials: int) -> float:
    """The smaller root of ``(n + z²) μ² - (2ns + z²) μ + (ns² + z²d/4)``, computed as
    ``2c / (b + sqrt(b² - 4ac))``, exactly 0 when ``s`` is."""
    z2, n, s, d = Z95**2, trials, score, draw_rate
    discriminant = z2 * (4 * n * (s * (1 - s) - d / 4) + z2 * (1 - d))
    return 2 * (n * s * s + z2 * d / 4) / (2 * n * s + z2 + math.sqrt(discriminant))
