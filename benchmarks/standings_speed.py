"""What the standings' statistics cost: the ratings alone, the full ``standings --json`` rows (rank
intervals, and decision times, bank and faults read from the seats' stored clock use) and ``stats --json``.

    python benchmarks/standings_speed.py --db tournaments/demo.db [--repeat 3] [--json]

Reports the median wall and CPU time of each, and per stored match. No replay is decoded: every figure
grows with the matches stored, the decision times also with the decisions each kept.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from server.store.location import parse_location
from server.store.repository import Store
from server.tournament.ratings import standings
from server.tournament.report import entrant_names, standing_rows, statistics_json


def timed(work: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``repeat`` runs, after one run to warm the caches."""
    work()
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", required=True, help="a tournament database (SQLite file or PostgreSQL URL)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    store = Store.open(parse_location(args.db))
    try:
        tournament = store.tournament(None)
        assert tournament is not None and tournament.id is not None, "no tournament in the database"
        tid = tournament.id
        matches = len(store.finished_match_ids(tid))
        work: dict[str, Callable[[], Any]] = {
            "ratings": lambda: standings(entrant_names(store, tid), store.results(tid)),
            "standings_json": lambda: standing_rows(store, tid),
            "stats_json": lambda: statistics_json(store, tid),
        }
        results = {}
        for name, job in work.items():
            wall, cpu = timed(job, args.repeat)
            results[name] = {
                "ms": 1e3 * wall,
                "cpu_ms": 1e3 * cpu,
                "ms_per_match": 1e3 * wall / max(matches, 1),
            }
    finally:
        store.close()
    if args.json:
        print(json.dumps({"tournament": tournament.name, "matches": matches, "results": results}))
        return
    print(f"{tournament.name}: {matches} matches, median of {args.repeat} runs")
    print(f"{'what':<16} {'ms':>9} {'cpu ms':>9} {'ms/match':>9}")
    for name, r in results.items():
        print(f"{name:<16} {r['ms']:>9.1f} {r['cpu_ms']:>9.1f} {r['ms_per_match']:>9.2f}")


if __name__ == "__main__":
    main()
