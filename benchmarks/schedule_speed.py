"""Schedule generation speed: make_schedule for 100 entrants at 2 to 5 players per table.

    python benchmarks/schedule_speed.py [--entrants 100] [--repeat 3] [--rounds 1] [--json]

With the default ``max_tables`` (500) every size here has more subsets than that, so
each schedule is built on a balanced design (for 2 players: every pair once). The
design cache is cleared before each run, so every run builds its design from scratch.
Reports the median wall and CPU time per schedule, the tables per round and the
counting lower bound ceil(C(n, 2) / C(k, 2)) they are compared with.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from math import comb

from server.tournament.design import balanced_design
from server.tournament.schedule import make_schedule


def run(
    entrants: int, players: int, rounds: int, seed: int, max_tables: int, repeat: int
) -> dict[str, float]:
    """Build the schedule ``repeat`` times; return timings and its size."""
    walls: list[float] = []
    cpus: list[float] = []
    matches = 0
    for _ in range(repeat):
        balanced_design.cache_clear()
        wall, cpu = time.perf_counter(), time.process_time()
        matches = len(make_schedule(entrants, players, rounds=rounds, seed=seed, max_tables=max_tables))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    tables = matches // (rounds * players)
    lower = -(-comb(entrants, 2) // comb(players, 2))
    return {
        "players": players,
        "design": comb(entrants, players) > max_tables,
        "tables": tables,
        "lower_bound": lower,
        "ratio": tables / lower,
        "matches": matches,
        "ms": 1e3 * statistics.median(walls),
        "cpu_ms": 1e3 * statistics.median(cpus),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-tables", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results = [
        run(args.entrants, k, args.rounds, args.seed, args.max_tables, args.repeat) for k in args.players
    ]
    if args.json:
        print(json.dumps({"entrants": args.entrants, "rounds": args.rounds, "results": results}))
        return
    print(f"{args.entrants} entrants, {args.rounds} round(s), median of {args.repeat} runs")
    print(f"{'k':>2} {'tables':>7} {'bound':>6} {'ratio':>6} {'matches':>8} {'ms':>8} {'cpu ms':>8}")
    for r in results:
        print(
            f"{r['players']:>2} {r['tables']:>7} {r['lower_bound']:>6} {r['ratio']:>6.3f}"
            f" {r['matches']:>8} {r['ms']:>8.1f} {r['cpu_ms']:>8.1f}"
        )


if __name__ == "__main__":
    main()
