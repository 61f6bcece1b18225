"""Strength of the search bot against greedy, in-process, with seeded dice.

    python benchmarks/search_strength.py [--games2 200] [--games4 200] [--workers 2] [--json]

Plays ``--games2`` two-player games of search against greedy, the search bot
taking seat 0 and seat 1 in turn, and ``--games4`` four-player games of one
search bot against three greedy bots, the search bot's seat cycling 0-3.
Game ``i`` of a setting draws its dice from ``Random(seed * 1_000_003 + i)``
(the 4-player games add 500_000 to the seed). A win is a sole first place
(shared firsts are counted apart); win rates carry 95 % Wilson intervals and
mean scores 95 % normal intervals. Decision times are those of the search
bot, measured in the process that plays, so with ``--workers`` equal to the
cores they are taken under full load. Most decisions reuse the plan the
turn's first decision built, so the median is small; p90 and above show the
cost of building it. ``--weights FILE`` plays other evaluation
weights (a JSON object, as ``benchmarks/tune_search.py`` writes).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.strength_stats import decision_times, mean_ci, wilson
from bots.greedy import GreedyPolicy
from bots.search import SearchPolicy, Weights
from sdk.games import saint_malo as sm

SEED_4P_OFFSET = 500_000


@dataclass(frozen=True, slots=True)
class Game:
    """One game to play: table size, the search bot's seat, the dice seed, the weights."""

    players: int
    seat: int
    seed: int
    weights: dict[str, float]


@dataclass(frozen=True, slots=True)
class Result:
    players: int
    seat: int
    scores: list[int]
    ranks: list[int]
    times_ms: list[float]


class Timed:
    """A policy wrapper that records how long each decision takes."""

    def __init__(self, policy: Callable[[sm.State], sm.Action]) -> None:
        self.policy = policy
        self.times_ms: list[float] = []

    def __call__(self, state: sm.State) -> sm.Action:
        start = time.perf_counter()
        action = self.policy(state)
        self.times_ms.append((time.perf_counter() - start) * 1000)
        return action


_POLICY: dict[str, SearchPolicy] = {}


def play(game: Game) -> Result:
    """Play one game (a fresh search policy per weights per process; its cache carries over)."""
    key = json.dumps(game.weights, sort_keys=True)
    if key not in _POLICY:
        _POLICY[key] = SearchPolicy(Weights.from_json(game.weights))
    timed = Timed(_POLICY[key])
    policies: list[Callable[[sm.State], sm.Action]] = [GreedyPolicy() for _ in range(game.players)]
    policies[game.seat] = timed
    state, _ = sm.play_game(policies, random.Random(game.seed), check=True)
    return Result(game.players, game.seat, state.scores(), state.ranks(), timed.times_ms)


def schedule(games2: int, games4: int, seed: int, weights: Weights) -> list[Game]:
    plain = weights.to_json()
    two = [Game(2, i % 2, seed * 1_000_003 + i, plain) for i in range(games2)]
    four = [Game(4, i % 4, (seed + SEED_4P_OFFSET) * 1_000_003 + i, plain) for i in range(games4)]
    return two + four


def summarise(results: list[Result]) -> dict[str, Any]:
    """Win rate, ties, mean scores and their differences for one table size."""
    wins = sum(1 for r in results if r.ranks[r.seat] == 1 and r.ranks.count(1) == 1)
    ties = sum(1 for r in results if r.ranks[r.seat] == 1 and r.ranks.count(1) > 1)
    search = [float(r.scores[r.seat]) for r in results]
    greedy_each = [float(s) for r in results for i, s in enumerate(r.scores) if i != r.seat]
    margin = [
        r.scores[r.seat] - statistics.fmean(s for i, s in enumerate(r.scores) if i != r.seat) for r in results
    ]
    rate, low, high = wilson(wins, len(results))
    return {
        "games": len(results),
        "wins": wins,
        "ties": ties,
        "win_rate": rate,
        "win_ci": [low, high],
        "search_mean": mean_ci(search),
        "greedy_mean": mean_ci(greedy_each),
        "margin_mean": mean_ci(margin),
    }


def timing(results: list[Result]) -> dict[str, float]:
    return decision_times(t for r in results for t in r.times_ms)


def run(games: list[Game], workers: int) -> list[Result]:
    if workers <= 1:
        return [play(game) for game in games]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(play, games, chunksize=1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games2", type=int, default=200, help="2-player games, seats alternated")
    parser.add_argument("--games4", type=int, default=200, help="4-player games, 1 search vs 3 greedy")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", type=Path, help="JSON file of evaluation weights")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    weights = Weights.from_json(json.loads(args.weights.read_text())) if args.weights else Weights()
    load_before = os.getloadavg()
    start = time.perf_counter()
    results = run(schedule(args.games2, args.games4, args.seed, weights), args.workers)
    elapsed = time.perf_counter() - start
    figures: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "workers": args.workers,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "seconds": elapsed,
        "weights": weights.to_json(),
        "timing": timing(results),
    }
    for players in (2, 4):
        chosen = [r for r in results if r.players == players]
        if chosen:
            figures[f"{players}p"] = summarise(chosen)
    if args.json:
        print(json.dumps(figures))
        return
    load = ", ".join(f"{x:.2f}" for x in figures["load_before"])
    print(f"{args.workers} worker(s) on {figures['cpus']} CPUs; load average before {load}; {elapsed:.0f} s")
    for players, label in ((2, "search vs greedy, seats alternated"), (4, "1 search vs 3 greedy")):
        if f"{players}p" not in figures:
            continue
        f = figures[f"{players}p"]
        print(f"\n{players} players, {label}: {f['games']} games")
        low, high = f["win_ci"]
        print(
            f"  search wins        {f['win_rate']:6.1%}  (95% CI {low:.1%} - {high:.1%}),"
            f" shared firsts {f['ties']}"
        )
        for name, key in (("search mean score", "search_mean"), ("greedy mean score", "greedy_mean")):
            mean, lo, hi = f[key]
            print(f"  {name}  {mean:6.1f}  (95% CI {lo:.1f} - {hi:.1f})")
        mean, lo, hi = f["margin_mean"]
        print(f"  search - greedy    {mean:+6.1f}  (95% CI {lo:+.1f} - {hi:+.1f}) per game")
    t = figures["timing"]
    if t:
        print(
            f"\nsearch decision time over {t['decisions']} decisions: median {t['median_ms']:.2f} ms, "
            f"p90 {t['p90_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms, max {t['max_ms']:.1f} ms"
        )
    load = ", ".join(f"{x:.2f}" for x in figures["load_after"])
    print(f"load average after {load}")


if __name__ == "__main__":
    main()
