"""The stopping rule with entrants of known strength (a performance of strength + N(0, 1) per match,
benchmarks/simulated_entrants.py): it stops sooner for entrants far apart than for close ones, and
its standings are in the true order in at least 95 % of seeded runs. Marked slow (about a minute)."""

from __future__ import annotations

import statistics

import pytest

from benchmarks.simulated_entrants import play
from benchmarks.stopping_rule import ENTRANTS, in_true_order, plan
from server.tournament.progression import StageRules, StopRule
from server.tournament.ratings import rate

pytestmark = pytest.mark.slow

SEEDS = 40


def runs(gap: float) -> tuple[list[int], int]:
    """Rounds the rule played, per seed, and how many runs ended in the true order."""
    strengths = [gap * i for i in range(ENTRANTS)]  # weakest first: seed order never helps
    rule = StageRules("", "round-robin", 1, until=StopRule(0.95, 40))
    rounds: list[int] = []
    right = 0
    for seed in range(SEEDS):
        _, matches, results = play(plan(seed, rule), strengths, seed)
        rounds.append(max(m.round for m in matches))
        right += in_true_order(rate(ENTRANTS, results)[0], strengths)
    return rounds, right


def test_entrants_far_apart_settle_sooner_and_both_end_in_the_true_order() -> None:
    far, far_right = runs(1.0)
    close, close_right = runs(0.5)
    assert statistics.fmean(far) < statistics.fmean(close) / 2, (far, close)
    assert sum(f < c for f in far for c in close) > 0.9 * SEEDS * SEEDS  # nearly every pair of runs
    assert far_right >= 0.95 * SEEDS and close_right >= 0.95 * SEEDS, (far_right, close_right)
