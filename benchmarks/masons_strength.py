"""Strength of the greedy Masons bot against a uniformly random player, in-process.

    python benchmarks/masons_strength.py [--games 400] [--players 2] [--workers 1] [--json]

Plays ``--games`` games on the engine alone: the referee's chance (shuffles and dice) comes
from ``Random(seed * 1_000_003 + i)`` for game ``i``, the random player draws uniformly among
its legal actions (``State.sample_action``) from its own seeded RNG, and the greedy bot decides
from its seat's observation with every answer applied through the checked ``State.apply``. The
greedy bot's seat cycles through all seats (both seat orders at two players).

A *win* is a sole first place (points, then cards in hand, M4); a shared first place is a *draw*,
counted apart; anything else is a loss. Rates carry 95 % Wilson intervals, mean scores 95 %
normal intervals; decision times are the greedy bot's, wall-clock and processor time.
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
from typing import Any

from benchmarks.strength_stats import Timed, decision_times, mean_ci, wilson
from benchmarks.strength_stats import outcome as sole_first
from bots.masons.policy import decide
from sdk.games import masons as ms
from sdk.games.play import RandomPolicy, play_to_end


@dataclass(frozen=True, slots=True)
class Game:
    players: int
    seat: int
    seed: int


@dataclass(frozen=True, slots=True)
class Result:
    players: int
    seat: int
    scores: list[int]
    ranks: list[int]
    cities: int
    turns: int
    times_ms: list[float]
    cpu_ms: list[float]


def play(game: Game) -> Result:
    """Play one game: the greedy bot in ``game.seat``, random players elsewhere."""
    chance = random.Random(game.seed)
    rival = random.Random(game.seed ^ 0x5EED)
    mine = random.Random(game.seed ^ 0xB07)
    hero = Timed(lambda state: decide(ms.observe(state, game.seat), mine))
    policies: list[Callable[[ms.State], ms.Action]] = [RandomPolicy(rival)] * game.players
    policies[game.seat] = hero
    state = play_to_end(ms.new_game(game.players), policies, chance)
    return Result(
        game.players,
        game.seat,
        state.scores(),
        state.ranks(),
        len(state.cities),
        state.turn,
        hero.times_ms,
        hero.cpu_ms,
    )


def outcome(result: Result) -> str:
    """``win`` (sole first), ``draw`` (first place shared) or ``loss``."""
    return sole_first(result.ranks, result.seat)


def summarise(results: list[Result]) -> dict[str, Any]:
    counts = {kind: sum(1 for r in results if outcome(r) == kind) for kind in ("win", "draw", "loss")}
    figures: dict[str, Any] = {"games": len(results), **counts}
    for kind in ("win", "draw", "loss"):
        rate, low, high = wilson(counts[kind], len(results))
        figures[f"{kind}_rate"] = rate
        figures[f"{kind}_ci"] = [low, high]
    by_seat = {}
    for seat in range(results[0].players if results else 0):
        played = [r for r in results if r.seat == seat]
        rate, low, high = wilson(sum(1 for r in played if outcome(r) == "win"), len(played))
        by_seat[str(seat)] = {"games": len(played), "win_rate": rate, "win_ci": [low, high]}
    figures.update(
        {
            "by_seat": by_seat,
            "greedy_mean": mean_ci([float(r.scores[r.seat]) for r in results]),
            "random_mean": mean_ci(
                [float(s) for r in results for i, s in enumerate(r.scores) if i != r.seat]
            ),
            "cities_mean": statistics.fmean(r.cities for r in results) if results else 0.0,
            "turns_mean": statistics.fmean(r.turns for r in results) if results else 0.0,
        }
    )
    return figures


def timing(results: list[Result], cpu: bool = False) -> dict[str, float]:
    return decision_times(t for r in results for t in (r.cpu_ms if cpu else r.times_ms))


def run(games: list[Game], workers: int) -> list[Result]:
    if workers <= 1:
        return [play(game) for game in games]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(play, games, chunksize=4)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400, help="games; the greedy bot's seat cycles")
    parser.add_argument("--players", type=int, default=2, help="table size (one greedy bot, the rest random)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    start = time.perf_counter()
    games = [Game(args.players, i % args.players, args.seed * 1_000_003 + i) for i in range(args.games)]
    results = run(games, args.workers)
    elapsed = time.perf_counter() - start
    figures: dict[str, Any] = {
        "players": args.players,
        "seed": args.seed,
        "cpus": os.cpu_count(),
        "workers": args.workers,
        "load_after": os.getloadavg(),
        "seconds": elapsed,
        "results": summarise(results),
        "timing": timing(results),
        "cpu_timing": timing(results, cpu=True),
    }
    if args.json:
        print(json.dumps(figures))
        return
    f = figures["results"]
    rivals = "random" if args.players == 2 else f"{args.players - 1} random"
    print(f"{args.players} players, greedy vs {rivals}, seat cycled: {f['games']} games in {elapsed:.0f} s")
    print(f"  greedy wins        {f['win_rate']:6.1%}  (95% CI {f['win_ci'][0]:.1%} - {f['win_ci'][1]:.1%})")
    print(
        f"  shared firsts      {f['draw_rate']:6.1%}  (95% CI {f['draw_ci'][0]:.1%} - {f['draw_ci'][1]:.1%})"
    )
    print(
        f"  losses             {f['loss_rate']:6.1%}  (95% CI {f['loss_ci'][0]:.1%} - {f['loss_ci'][1]:.1%})"
    )
    for seat, s in f["by_seat"].items():
        low, high = s["win_ci"]
        print(
            f"  as seat {seat}: wins   {s['win_rate']:6.1%}  (95% CI {low:.1%} - {high:.1%}) of {s['games']}"
        )
    for name, key in (("greedy mean score", "greedy_mean"), ("random mean score", "random_mean")):
        mean, lo, hi = f[key]
        print(f"  {name:20s} {mean:6.2f}  (95% CI {lo:.2f} - {hi:.2f})")
    print(f"  {f['cities_mean']:.1f} cities and {f['turns_mean']:.1f} turns a game")
    for key, what in (("timing", "wall-clock"), ("cpu_timing", "processor")):
        t = figures[key]
        if t:
            print(
                f"greedy decision time ({what}) over {t['decisions']} decisions:"
                f" median {t['median_ms']:.2f} ms, p90 {t['p90_ms']:.1f} ms, max {t['max_ms']:.1f} ms"
            )


if __name__ == "__main__":
    main()
