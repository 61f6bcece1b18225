"""The stopping rule against fixed rounds: for the same confidence, how many matches each needs.

Four entrants of known strength (a performance of strength + N(0, 1) per match; adjacent entrants
``gap`` apart) play a two-player round robin (12 matches a round). For each seed, the stopping rule
(``until: {confidence: C, max_rounds: M}``) plays until it stops; the same seed with fixed rounds is
played to M rounds, looking after each round whether the standings are in the true order. Printed:
the matches the rule needed (mean, and how often its final order was right), and the fewest fixed
rounds whose standings were in the true order in at least C of the seeds, in matches.

    python -m benchmarks.stopping_rule [--seeds 40] [--confidence 0.95] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence

import trueskill

from server.store.repository import MatchResult
from server.tournament.formats import ranking
from server.tournament.progression import Plan, StageRules, StopRule
from server.tournament.ratings import rate

from .simulated_entrants import play

ENTRANTS = 4
MATCHES_PER_ROUND = ENTRANTS * (ENTRANTS - 1)


def plan(seed: int, rules: StageRules) -> Plan:
    names = tuple(f"e{i}" for i in range(ENTRANTS))
    return Plan(names, 2, seed, False, 500, frozenset(), (rules,))


def in_true_order(ratings: Sequence[trueskill.Rating], strengths: Sequence[float]) -> bool:
    """Whether the standings order the entrants strongest first."""
    order = [e for e, _ in ranking(range(ENTRANTS), ratings)]
    return order == sorted(range(ENTRANTS), key=lambda e: -strengths[e])


def measure(gap: float, seeds: int, confidence: float, max_rounds: int) -> dict[str, object]:
    # Weakest first in the entrant list, so that seed order never helps the standings.
    strengths = [gap * i for i in range(ENTRANTS)]
    rule = StageRules("", "round-robin", 1, until=StopRule(confidence, max_rounds))
    needed: list[int] = []
    right = 0
    right_after = [0] * (max_rounds + 1)
    for seed in range(seeds):
        _, matches, results = play(plan(seed, rule), strengths, seed)
        needed.append(len(matches))
        right += in_true_order(rate(ENTRANTS, results)[0], strengths)
        _, _, fixed = play(plan(seed, StageRules("", "round-robin", max_rounds)), strengths, seed)
        ratings = rate(ENTRANTS, ())[0]
        for round_ in range(1, max_rounds + 1):
            this_round: list[MatchResult] = fixed[
                (round_ - 1) * MATCHES_PER_ROUND : round_ * MATCHES_PER_ROUND
            ]
            ratings = rate(ENTRANTS, this_round, ratings)[0]
            right_after[round_] += in_true_order(ratings, strengths)
    enough = next((r for r in range(1, max_rounds + 1) if right_after[r] >= confidence * seeds), None)
    return {
        "gap": gap,
        "seeds": seeds,
        "rule_matches_mean": statistics.fmean(needed),
        "rule_matches_max": max(needed),
        "rule_in_true_order": right / seeds,
        "fixed_rounds_needed": enough,
        "fixed_matches_needed": None if enough is None else enough * MATCHES_PER_ROUND,
        "fixed_in_true_order_at_max_rounds": right_after[max_rounds] / seeds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--max-rounds", type=int, default=40)
    parser.add_argument("--gaps", type=float, nargs="+", default=[1.0, 0.5])
    parser.add_argument("--json", action="store_true", help="Print JSON.")
    args = parser.parse_args()
    rows = [measure(gap, args.seeds, args.confidence, args.max_rounds) for gap in args.gaps]
    if args.json:
        print(json.dumps({"confidence": args.confidence, "max_rounds": args.max_rounds, "results": rows}))
        return
    print(
        f"4 entrants, 2 to a table ({MATCHES_PER_ROUND} matches a round); confidence {args.confidence}, "
        f"max_rounds {args.max_rounds}, {args.seeds} seeds; simulated entrants (strength + N(0, 1))"
    )
    for row in rows:
        fixed = row["fixed_matches_needed"]
        at_max = row["fixed_in_true_order_at_max_rounds"]
        fixed_text = (
            f"{fixed} matches ({row['fixed_rounds_needed']} rounds)"
            if fixed is not None
            else f"more than {args.max_rounds} rounds ({at_max:.0%} right there)"
        )
        print(
            f"gap {row['gap']}: stopping rule {row['rule_matches_mean']:.1f} matches on average "
            f"(at most {row['rule_matches_max']}), true order in {row['rule_in_true_order']:.0%} of seeds; "
            f"fixed rounds in the true order in {args.confidence:.0%} of seeds: {fixed_text}"
        )


if __name__ == "__main__":
    main()
