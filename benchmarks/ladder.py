"""Ladder matchmaking speed: the time to form one table among many active bots.

    python benchmarks/ladder.py [--bots 1000] [--players 4] [--candidates 32] [--tables 500] [--json]

Active bots get seeded random ratings and game counts; ``--tables`` tables are formed one after
another (each with its own decision number) and the mean and 95th-percentile times per table are
printed, against the bar of 5 ms per table with 1,000 active bots. The leaderboard latency and the
ladder's matches per minute are not measured yet: the matches themselves are not played by a ladder yet.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from server.ladder.matchmaking import Rated, form_table

BAR_MS = 5.0


def measure(bots: int, players: int, candidates: int, tables: int, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    active = [Rated(i, rng.uniform(10, 40), rng.uniform(1, 8.4), rng.randrange(200)) for i in range(bots)]
    times: list[float] = []
    for number in range(tables):
        start = time.perf_counter()
        table = form_table(active, players, candidates=candidates, min_quality=0, number=number)
        times.append((time.perf_counter() - start) * 1000)
        assert table is not None
    times.sort()
    return {
        "bots": bots,
        "players": players,
        "candidates": candidates,
        "tables": tables,
        "mean_ms": statistics.fmean(times),
        "p95_ms": times[int(0.95 * (len(times) - 1))],
        "bar_ms": BAR_MS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=32)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    figures = measure(args.bots, args.players, args.candidates, args.tables)
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"matchmaking with {figures['bots']:,} active bots, {figures['players']} players, "
        f"{figures['candidates']} candidates: mean {figures['mean_ms']:.2f} ms, "
        f"p95 {figures['p95_ms']:.2f} ms per table (bar: <= {BAR_MS:.0f} ms)"
    )


if __name__ == "__main__":
    main()
