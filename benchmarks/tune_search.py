"""Tune the search bot's evaluation weights by self-play.

    python benchmarks/tune_search.py [--pairs 128] [--steps 1 0.5] [--workers 2] [--out FILE] [--json]

Coordinate ascent over duplicate two-player games. Starting from ``--start``
(default: the weights in ``bots/search/evaluation.py``), each tuned weight (or
each named by ``--only``) in turn is moved up, then down, by its step (``STEPS`` times the current
``--steps`` factor, floored at 0). The candidate plays ``--pairs`` pairs of
games against the incumbent; both games of a pair use the same dice seed, with
the seats swapped, which cancels the first-player edge and much of the luck of
the dice. The candidate replaces the incumbent when its mean score margin per
game is above ``--z`` standard errors; the other direction of that weight is
then skipped. One pass over every weight is a sweep; each factor of
``--steps`` gives one sweep. Every comparison draws fresh seeds, so a change
must win on new dice, not on the ones it was first tried on.

Not tuned: ``fill_rate`` and ``sword_rate`` are calibrated from games (spaces
filled and pirate boxes marked per turn) and ``rival`` stays 1, which makes a
two-player evaluation zero-sum. Prints one line per comparison and the final
weights; ``--out`` writes them as JSON (``Weights.from_json`` reads them back).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bots.search import SearchPolicy, Weights
from sdk.games import saint_malo as sm

#: The tuned weights and the size of one full step for each.
STEPS: dict[str, float] = {
    "coin": 0.3,
    "log": 0.5,
    "space": 0.3,
    "orphan": 0.3,
    "priest_spot": 0.4,
    "merchant_spot": 0.2,
    "juggler_spot": 0.5,
    "wall": 0.3,
    "threat": 0.4,
    "horizon": 4.0,
}


def duel(job: tuple[dict[str, float], dict[str, float], int]) -> float:
    """Mean margin of the candidate over the incumbent in a pair of games on one dice seed."""
    candidate, incumbent, seed = job
    margins = []
    for seat in (0, 1):
        policies = [SearchPolicy(Weights.from_json(incumbent)), SearchPolicy(Weights.from_json(incumbent))]
        policies[seat] = SearchPolicy(Weights.from_json(candidate))
        state, _ = sm.play_game(policies, random.Random(seed), check=False)
        scores = state.scores()
        margins.append(scores[seat] - scores[1 - seat])
    return statistics.fmean(margins)


def compare(pool: Any, candidate: Weights, incumbent: Weights, seeds: range) -> tuple[float, float]:
    """Mean margin per game of ``candidate`` and its standard error."""
    jobs = [(candidate.to_json(), incumbent.to_json(), seed) for seed in seeds]
    margins: list[float] = pool.map(duel, jobs, chunksize=1)
    return statistics.fmean(margins), statistics.stdev(margins) / math.sqrt(len(margins))


def tune(
    start: Weights, names: list[str], pairs: int, factors: list[float], z: float, seed: int, workers: int
) -> tuple[Weights, list[dict[str, Any]]]:
    incumbent = start
    history: list[dict[str, Any]] = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for sweep, factor in enumerate(factors):
            for name in names:
                step = STEPS[name]
                for sign in (1, -1):
                    value = getattr(incumbent, name)
                    moved = round(max(0.0, value + sign * factor * step), 4)
                    if moved == value:
                        continue
                    candidate = replace(incumbent, **{name: moved})
                    first = seed * 1_000_000 + len(history) * pairs
                    began = time.perf_counter()
                    mean, error = compare(pool, candidate, incumbent, range(first, first + pairs))
                    accepted = mean > z * error
                    history.append(
                        {
                            "sweep": sweep,
                            "weight": name,
                            "from": value,
                            "to": moved,
                            "margin": mean,
                            "stderr": error,
                            "accepted": accepted,
                        }
                    )
                    verdict = "ACCEPT" if accepted else "keep"
                    seconds = time.perf_counter() - began
                    print(
                        f"sweep {sweep} {name:14s} {value:7.3f} -> {moved:7.3f}: "
                        f"{mean:+6.2f} +- {error:4.2f} per game  {verdict}  ({seconds:.0f} s)",
                        flush=True,
                    )
                    if accepted:
                        incumbent = candidate
                        break
    return incumbent, history


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=128, help="game pairs per comparison")
    parser.add_argument("--steps", type=float, nargs="+", default=[1.0, 0.5], help="step factor per sweep")
    parser.add_argument("--z", type=float, default=1.5, help="standard errors a change must win by")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--start", type=Path, help="JSON file of starting weights")
    parser.add_argument("--only", nargs="+", choices=list(STEPS), default=list(STEPS), help="weights to tune")
    parser.add_argument("--out", type=Path, help="write the final weights here as JSON")
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = parser.parse_args()
    start = Weights.from_json(json.loads(args.start.read_text())) if args.start else Weights()
    final, history = tune(start, args.only, args.pairs, args.steps, args.z, args.seed, args.workers)
    if args.out:
        args.out.write_text(json.dumps(final.to_json(), indent=2) + "\n")
    if args.json:
        print(json.dumps({"start": start.to_json(), "final": final.to_json(), "history": history}))
    else:
        print("final weights:", json.dumps(final.to_json()))


if __name__ == "__main__":
    main()
