"""A sequential probability ratio test on pairs of matches, as fastchess and cutechess-cli run one.

Two entrants play pairs: the same chance seed twice with the seats swapped (duplicate
rotations), so the luck of chance and of the seat cancels within a pair. A pair scores the
candidate 0, 1/4, 1/2, 3/4 or 1 (the mean of its two match scores: 1 a win, 1/2 a tie, 0 a
loss): the *pentanomial* model, which counts the correlation within a pair that a model of
single matches (wins, draws, losses: trinomial) ignores.

H0: the candidate's expected score is ``p0``; H1: it is ``p1``. For each hypothesis the
distribution over the five outcomes that is most likely given the observed frequencies and
has that expected score is found (Van den Bergh, "Comments on Normalized Elo", prop. 1.1:
p_i = f_i / (1 + theta (a_i - s)), theta solving sum f_i (a_i - s) / (1 + theta (a_i - s)) = 0).
The log-likelihood ratio of the pairs under the two is LLR = N sum f_i log(p1_i / p0_i). An
outcome never seen counts 0.001 times, so the estimates stay inside the simplex. Wald's bounds:
stop for H1 once LLR >= log((1 - beta) / alpha), for H0 once LLR <= log(beta / (1 - alpha));
then the chance of accepting H1 when p = p0 is at most about alpha, and of accepting H0 when
p = p1 at most about beta.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import log
from typing import Literal

__all__ = ["SCORES", "SprtState", "bounds", "evaluate", "llr", "pair_outcome"]

SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score for the candidate, by outcome."""
UNSEEN = 1e-3
"""The count given to an outcome not seen yet."""

Verdict = Literal["H0", "H1", "continue"]


@dataclass(frozen=True, slots=True)
class SprtState:
    llr: float
    lower: float
    upper: float
    pairs: int
    verdict: Verdict

    def line(self) -> str:
        """As fastchess prints it."""
        return f"LLR {self.llr:.2f} ({self.lower:.2f}, {self.upper:.2f}) after {self.pairs} pairs"


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    return log(beta / (1 - alpha)), log((1 - beta) / alpha)


def llr(counts: Sequence[int], p0: float, p1: float) -> float:
    """The log-likelihood ratio of H1 (expected score p1) to H0 (p0) for pentanomial ``counts``."""
    regular = [c if c else UNSEEN for c in counts]
    total = sum(regular)
    freqs = [c / total for c in regular]
    first = _most_likely(freqs, p0)
    second = _most_likely(freqs, p1)
    return total * sum(f * (log(b) - log(a)) for f, a, b in zip(freqs, first, second, strict=True))


def _most_likely(freqs: Sequence[float], s: float) -> list[float]:
    """The distribution over :data:`SCORES` with mean ``s`` most likely to give ``freqs``."""
    # Imported here: SciPy (with NumPy) takes tens of MiB, which a run without an SPRT never needs.
    from scipy.optimize import brentq

    def slope(theta: float) -> float:
        return sum(f * (a - s) / (1 + theta * (a - s)) for f, a in zip(freqs, SCORES, strict=True))

    # theta keeps every 1 + theta (a_i - s) positive: between -1 / (max a - s) and -1 / (min a - s).
    low, high = -1 / (SCORES[-1] - s), -1 / (SCORES[0] - s)
    margin = 1e-12 * (high - low)
    theta = brentq(slope, low + margin, high - margin, xtol=1e-14)
    return [f / (1 + theta * (a - s)) for f, a in zip(freqs, SCORES, strict=True)]


def evaluate(counts: Sequence[int], p0: float, p1: float, alpha: float, beta: float) -> SprtState:
    """Where the test stands after the pairs counted in ``counts``."""
    lower, upper = bounds(alpha, beta)
    pairs = sum(counts)
    value = llr(counts, p0, p1) if pairs else 0.0
    verdict: Verdict = "H1" if value >= upper else "H0" if value <= lower else "continue"
    return SprtState(value, lower, upper, pairs, verdict)


def pair_outcome(first: float, second: float) -> int:
    """The outcome index (0 to 4) of a pair whose match scores for the candidate are given."""
    return round(2 * (first + second))
