"""Ray's overhead on one machine: matches per minute with local worker processes and with Ray
actors, in the same run, on the same schedule.

    python benchmarks/ray_throughput.py [--entrants 4] [--players 2] [--rounds 1] [--workers 2]
                                        [--ray-address HOST:PORT] [--json]

Plays one round-robin of trivial bots (benchmarks/trivial_bot.py, which answer at once) into fresh
SQLite databases, first with local worker processes, then with Ray actors (a Ray instance the run
starts for itself, or the cluster at --ray-address), timing each whole run: start-up of the
workers (and of Ray), bots, play and storage. Both runs must give the same standings; the
benchmark says so and stops if they do not.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from server.store.repository import Store
from server.tournament.bracket import load_bracket
from server.tournament.executor import ExecutorChoice
from server.tournament.ratings import standings
from server.tournament.runner import run_tournament, schedule_of


def _bracket(folder: Path, entrants: int, players: int, rounds: int) -> Path:
    lines = [
        "name: ray-throughput",
        f"players: {players}",
        f"rounds: {rounds}",
        "seed: 1",
        "time_control: {decision_ms: 5000, bank_ms: 20000}",
        "entrants:",
        *(f"  - {{name: bot-{i}, command: python -m benchmarks.trivial_bot}}" for i in range(entrants)),
    ]
    path = folder / "ray-throughput.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def timed_run(choice: ExecutorChoice, workers: int, bracket_file: Path, db: Path) -> tuple[float, int, str]:
    """Matches per minute of a whole run, the match count, and the standings as JSON."""
    bracket = load_bracket(bracket_file)
    count = len(schedule_of(bracket))
    started = time.perf_counter()
    tournament = run_tournament(bracket, db, workers=workers, executor=choice)
    rate = 60 * count / (time.perf_counter() - started)
    store = Store.open(db)
    try:
        assert tournament.id is not None
        names = [e.name for e in store.entrants(tournament.id)]
        rows = standings(names, store.results(tournament.id))
    finally:
        store.close()
    return rate, count, json.dumps([row.to_json() for row in rows])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--ray-address", default=None, help="a Ray cluster (default: a Ray instance of its own)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bracket = _bracket(Path(tmp), args.entrants, args.players, args.rounds)
        local, count, local_standings = timed_run(
            ExecutorChoice("local"), args.workers, bracket, Path(tmp) / "local.db"
        )
        ray, _, ray_standings = timed_run(
            ExecutorChoice("ray", args.ray_address), args.workers, bracket, Path(tmp) / "ray.db"
        )
    if ray_standings != local_standings:
        raise SystemExit("the Ray run's standings differ from the local run's")
    figures = {
        "matches": count,
        "workers": args.workers,
        "matches_per_min_local": local,
        "matches_per_min_ray": ray,
        "ray_over_local": ray / local,
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{count} matches of {args.players} trivial bots per run, {args.workers} workers, same standings")
    print(f"local workers {local:8.1f} matches/min")
    print(f"Ray actors    {ray:8.1f} matches/min")
    print(f"Ray / local   {100 * figures['ray_over_local']:8.1f} %")


if __name__ == "__main__":
    main()
