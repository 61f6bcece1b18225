"""Strength of the Bruges heuristic bot against a uniformly random player, in-process.

    python benchmarks/bruges_strength.py [--games 400] [--players 2] [--workers 1] [--json]

Plays ``--games`` games on the engine alone: the referee's chance comes from
``Random(seed * 1_000_003 + i)`` for game ``i``, the random player draws uniformly among its
legal actions from its own seeded RNG, and the heuristic bot decides from its seat's
observation, every answer applied through the checked ``State.apply``. The heuristic bot's seat
cycles through all seats, one random player in each other seat.

A *win* is a sole first place; a first place shared with a random player (equal score and equal
guilders, B22) is a *draw*, counted apart; anything else is a loss. Rates carry 95 % Wilson
intervals, mean scores 95 % normal intervals; decision times are the heuristic bot's.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.strength_stats import Timed, decision_times, mean_ci, wilson
from benchmarks.strength_stats import outcome as sole_first
from bots.bruges import BrugesPolicy
from sdk.games import bruges as bg
from sdk.games.play import RandomPolicy, play_to_end


@dataclass(frozen=True, slots=True)
class Result:
    players: int
    seat: int
    scores: list[int]
    ranks: list[int]
    rounds: int
    times_ms: list[float]
    cpu_ms: list[float]


_POLICY = BrugesPolicy()


def play(game: tuple[int, int, int]) -> Result:
    """Play one game: the heuristic bot in ``seat``, random players elsewhere."""
    players, seat, seed = game
    chance, rival = random.Random(seed), random.Random(seed ^ 0x5EED)
    hero = Timed(lambda state: _POLICY.decide(bg.observe(state, seat)))
    policies: list[Callable[[bg.State], bg.Action]] = [RandomPolicy(rival)] * players
    policies[seat] = hero
    state = play_to_end(bg.new_game(players), policies, chance)
    return Result(players, seat, state.scores(), state.ranks(), state.round, hero.times_ms, hero.cpu_ms)


def outcome(result: Result) -> str:
    """``win`` (sole first), ``draw`` (first place shared) or ``loss``."""
    return sole_first(result.ranks, result.seat)


def summarise(results: list[Result]) -> dict[str, Any]:
    counts = {kind: sum(1 for r in results if outcome(r) == kind) for kind in ("win", "draw", "loss")}
    figures: dict[str, Any] = {"games": len(results), **counts}
    for kind in ("win", "draw", "loss"):
        rate, low, high = wilson(counts[kind], len(results))
        figures[f"{kind}_rate"], figures[f"{kind}_ci"] = rate, [low, high]
    figures["heuristic_mean"] = mean_ci([float(r.scores[r.seat]) for r in results])
    figures["random_mean"] = mean_ci(
        [float(s) for r in results for i, s in enumerate(r.scores) if i != r.seat]
    )
    figures["rounds_mean"] = sum(r.rounds for r in results) / max(1, len(results))
    return figures


def timing(results: list[Result]) -> dict[str, float]:
    return decision_times(t for r in results for t in r.times_ms)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400, help="games; the heuristic bot's seat cycles")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="table size")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    games = [(args.players, i % args.players, args.seed * 1_000_003 + i) for i in range(args.games)]
    start = time.perf_counter()
    if args.workers <= 1:
        results = [play(game) for game in games]
    else:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            results = pool.map(play, games, chunksize=4)
    elapsed = time.perf_counter() - start
    figures: dict[str, Any] = {
        "players": args.players,
        "seed": args.seed,
        "workers": args.workers,
        "seconds": elapsed,
        "load_after": os.getloadavg(),
        "results": summarise(results),
        "timing": timing(results),
    }
    if args.json:
        print(json.dumps(figures))
        return
    f = figures["results"]
    print(f"{args.players} players, heuristic vs random, seat cycled: {f['games']} games in {elapsed:.0f} s")
    for kind, label in (("win", "heuristic wins"), ("draw", "shared firsts"), ("loss", "losses")):
        low, high = f[f"{kind}_ci"]
        print(f"  {label:18s} {f[f'{kind}_rate']:6.1%}  (95% CI {low:.1%} - {high:.1%})")
    for name, key in (("heuristic mean score", "heuristic_mean"), ("random mean score", "random_mean")):
        mean, lo, hi = f[key]
        print(f"  {name:20s} {mean:5.2f}  (95% CI {lo:.2f} - {hi:.2f})")
    print(f"  {f['rounds_mean']:.1f} rounds a game")
    t = figures["timing"]
    if t:
        print(f"heuristic decision time over {t['decisions']} decisions: median {t['median_ms']:.3f} ms")


if __name__ == "__main__":
    main()
