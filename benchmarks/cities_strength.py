"""Strength of the Cities heuristic bot against a uniformly random player, in-process.

    python benchmarks/cities_strength.py [--games 400] [--players 2] [--size full] [--workers 1] [--json]

Plays ``--games`` games on the engine alone: the referee's shuffles come from
``Random(seed * 1_000_003 + i)`` for game ``i``, the random player draws uniformly
among its legal actions (``State.sample_action``) from its own seeded RNG, and the
heuristic bot decides from its seat's observation (``State.observation``) with every
answer applied through the checked ``State.apply``. The heuristic bot's seat cycles
through all seats (both seat orders at two players), one random player in each other
seat.

A *win* is a sole first place. A first place shared with a random player (equal
score and equal cities held, C7) is a *draw*, counted apart and never as a win;
anything else is a loss. Rates carry 95 % Wilson intervals, mean scores 95 % normal
intervals. Decision times are the heuristic bot's, measured in the process that
plays, both wall-clock and processor time (the latter leaves out the time other
jobs on a loaded machine take the processor away).
"""

from __future__ import annotations

import argparse
import json
import math
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
from bots.cities import CitiesPolicy
from sdk.games import cities as ci
from sdk.games.play import RandomPolicy, play_to_end


@dataclass(frozen=True, slots=True)
class Game:
    """One game to play: table size, the heuristic bot's seat, the seed, the game size."""

    players: int
    seat: int
    seed: int
    size: str


@dataclass(frozen=True, slots=True)
class Result:
    players: int
    seat: int
    scores: list[int]
    ranks: list[int]
    wonders: int  # the seat that scored the wonders bonus, or -1
    rounds: int
    times_ms: list[float]  # wall-clock time of each heuristic decision
    cpu_ms: list[float]  # processor time of each heuristic decision (this process only)


_POLICY = CitiesPolicy()


def play(game: Game) -> Result:
    """Play one game: the heuristic bot in ``game.seat``, random players elsewhere."""
    chance = random.Random(game.seed)
    rival = random.Random(game.seed ^ 0x5EED)
    hero = Timed(lambda state: _POLICY.decide(state.observation(game.seat)))
    policies: list[Callable[[ci.State], ci.Action]] = [RandomPolicy(rival)] * game.players
    policies[game.seat] = hero
    state = play_to_end(ci.new_game(game.players, ci.Params(size=game.size)), policies, chance)
    return Result(
        game.players,
        game.seat,
        state.scores(),
        state.ranks(),
        state.wonders,
        state.round,
        hero.times_ms,
        hero.cpu_ms,
    )


def schedule(games: int, players: int, seed: int, size: str) -> list[Game]:
    return [Game(players, i % players, seed * 1_000_003 + i, size) for i in range(games)]


def outcome(result: Result) -> str:
    """``win`` (sole first), ``draw`` (first place shared) or ``loss``."""
    return sole_first(result.ranks, result.seat)


def summarise(results: list[Result]) -> dict[str, Any]:
    """Win, draw and loss rates, mean scores and the margin over the best random player."""
    counts = {kind: sum(1 for r in results if outcome(r) == kind) for kind in ("win", "draw", "loss")}
    heuristic = [float(r.scores[r.seat]) for r in results]
    rivals = [float(s) for r in results for i, s in enumerate(r.scores) if i != r.seat]
    margin = [r.scores[r.seat] - max(s for i, s in enumerate(r.scores) if i != r.seat) for r in results]
    by_seat = {}
    for seat in range(results[0].players if results else 0):
        mine = [r for r in results if r.seat == seat]
        rate, low, high = wilson(sum(1 for r in mine if outcome(r) == "win"), len(mine))
        by_seat[str(seat)] = {"games": len(mine), "win_rate": rate, "win_ci": [low, high]}
    figures: dict[str, Any] = {"games": len(results), **counts}
    for kind in ("win", "draw", "loss"):
        rate, low, high = wilson(counts[kind], len(results))
        figures[f"{kind}_rate"] = rate
        figures[f"{kind}_ci"] = [low, high]
    figures.update(
        {
            "by_seat": by_seat,
            "heuristic_mean": mean_ci(heuristic),
            "random_mean": mean_ci(rivals),
            "margin_mean": mean_ci([float(m) for m in margin]),
            "wonders_bonus": sum(1 for r in results if r.wonders == r.seat),
            "rival_wonders_bonus": sum(1 for r in results if r.wonders not in (-1, r.seat)),
            "rounds_mean": statistics.fmean(r.rounds for r in results) if results else math.nan,
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
    parser.add_argument("--games", type=int, default=400, help="games; the heuristic bot's seat cycles")
    parser.add_argument(
        "--players", type=int, default=2, help="table size (one heuristic bot, the rest random)"
    )
    parser.add_argument("--size", default="full", choices=sorted(ci.SIZES), help="game size (C3)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    load_before = os.getloadavg()
    start = time.perf_counter()
    results = run(schedule(args.games, args.players, args.seed, args.size), args.workers)
    elapsed = time.perf_counter() - start
    figures: dict[str, Any] = {
        "players": args.players,
        "size": args.size,
        "seed": args.seed,
        "cpus": os.cpu_count(),
        "workers": args.workers,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "seconds": elapsed,
        "results": summarise(results),
        "timing": timing(results),
        "cpu_timing": timing(results, cpu=True),
    }
    if args.json:
        print(json.dumps(figures))
        return
    load = ", ".join(f"{x:.2f}" for x in figures["load_before"])
    print(f"{args.workers} worker(s) on {figures['cpus']} CPUs; load average before {load}; {elapsed:.0f} s")
    f = figures["results"]
    rivals = "random" if args.players == 2 else f"{args.players - 1} random"
    print(f"\n{args.players} players ({args.size}), heuristic vs {rivals}, seat cycled: {f['games']} games")
    print(f"  heuristic wins     {f['win_rate']:6.1%}  (95% CI {f['win_ci'][0]:.1%} - {f['win_ci'][1]:.1%})")
    print(
        f"  shared firsts      {f['draw_rate']:6.1%}  (95% CI {f['draw_ci'][0]:.1%} - {f['draw_ci'][1]:.1%})"
        "  (draws, not wins)"
    )
    print(
        f"  losses             {f['loss_rate']:6.1%}  (95% CI {f['loss_ci'][0]:.1%} - {f['loss_ci'][1]:.1%})"
    )
    for seat, s in f["by_seat"].items():
        low, high = s["win_ci"]
        print(
            f"  as seat {seat}: wins   {s['win_rate']:6.1%}  (95% CI {low:.1%} - {high:.1%}) of {s['games']}"
        )
    for name, key in (("heuristic mean score", "heuristic_mean"), ("random mean score", "random_mean")):
        mean, lo, hi = f[key]
        print(f"  {name:20s} {mean:5.2f}  (95% CI {lo:.2f} - {hi:.2f})")
    mean, lo, hi = f["margin_mean"]
    print(f"  margin over best random {mean:+.2f}  (95% CI {lo:+.2f} - {hi:+.2f}) per game")
    print(
        f"  wonders bonus: heuristic {f['wonders_bonus']} games, random {f['rival_wonders_bonus']};"
        f" {f['rounds_mean']:.1f} rounds a game"
    )
    print()
    for key, what in (("timing", "wall-clock"), ("cpu_timing", "processor")):
        t = figures[key]
        if t:
            print(
                f"heuristic decision time ({what}) over {t['decisions']}"
                f" decisions: median {t['median_ms']:.2f} ms, p90 {t['p90_ms']:.1f} ms,"
                f" p99 {t['p99_ms']:.1f} ms, max {t['max_ms']:.1f} ms"
            )
    load = ", ".join(f"{x:.2f}" for x in figures["load_after"])
    print(f"load average after {load}")


if __name__ == "__main__":
    main()
