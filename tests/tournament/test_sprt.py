"""The SPRT's log-likelihood ratio on pentanomial counts: Wald's bounds, the sign of the evidence,
and agreement with the normal approximation it converges to."""

from __future__ import annotations

from math import log

import pytest

from server.tournament.sprt import SCORES, bounds, evaluate, llr, pair_outcome


def test_bounds_are_walds() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(log(0.05 / 0.95)) and upper == pytest.approx(log(0.95 / 0.05))
    assert (round(lower, 2), round(upper, 2)) == (-2.94, 2.94)


def test_pairs_scored_evenly_favour_h0_and_pairs_won_favour_h1() -> None:
    assert evaluate([0, 0, 30, 0, 0], 0.5, 0.6, 0.05, 0.05).verdict == "H0"
    assert evaluate([0, 0, 3, 0, 0], 0.5, 0.6, 0.05, 0.05).verdict == "continue"
    assert evaluate([0, 0, 2, 5, 10], 0.5, 0.6, 0.05, 0.05).verdict == "H1"
    assert evaluate([0, 0, 0, 0, 0], 0.5, 0.6, 0.05, 0.05).llr == 0.0


def test_mirrored_counts_and_hypotheses_give_the_opposite_ratio() -> None:
    counts = [3, 7, 20, 9, 4]
    assert llr(counts, 0.5, 0.6) == pytest.approx(-llr(counts[::-1], 0.4, 0.5), rel=1e-9)


def test_close_hypotheses_agree_with_the_normal_approximation() -> None:
    """For p1 - p0 small, LLR ~ N (p1 - p0) (2 mean - p0 - p1) / (2 var) (the GSPRT of fishtest)."""
    counts = [40, 160, 400, 240, 60]
    n = sum(counts)
    mean = sum(c * a for c, a in zip(counts, SCORES, strict=True)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, SCORES, strict=True)) / n
    p0, p1 = 0.53, 0.535  # either side of the mean (0.533)
    approx = n * (p1 - p0) * (2 * mean - p0 - p1) / (2 * var)
    assert llr(counts, p0, p1) == pytest.approx(approx, rel=0.005)


@pytest.mark.parametrize(
    ("first", "second", "index"), [(1, 1, 4), (1, 0.5, 3), (1, 0, 2), (0.5, 0.5, 2), (0, 0, 0)]
)
def test_a_pair_scores_the_mean_of_its_two_matches(first: float, second: float, index: int) -> None:
    assert pair_outcome(first, second) == index
