"""The 95 % Wilson score interval of a proportion, one implementation for the duel score, the seat
table of ``smtourney stats`` and the strength benchmarks.

For a proportion ``p`` observed in ``n`` trials and ``z`` the two-sided 95 % normal quantile, the
interval is ``(p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``, clipped to [0, 1]: unlike
``p ± z sqrt(p(1-p)/n)`` it stays inside [0, 1] and does not shrink to a point at 0 or n successes.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


def wilson(rate: float, trials: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a binomial proportion observed as ``rate`` in ``trials``."""
    z2 = Z95**2
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials**2)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))
