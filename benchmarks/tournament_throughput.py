"""Tournament throughput: matches per minute with 1 and with 2 workers.

    python benchmarks/tournament_throughput.py [--entrants 4] [--players 2] [--rounds 1] [--json]

Plays the same round-robin of trivial bots (benchmarks/trivial_bot.py, which
answer at once) twice into fresh databases, with 1 worker and with 2, timing
the whole run (bot start-up, play, storage). Parallel efficiency is
matches/min with 2 workers divided by twice matches/min with 1.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from server.tournament.bracket import load_bracket
from server.tournament.runner import run_tournament, schedule_of


def _bracket(folder: Path, entrants: int, players: int, rounds: int) -> Path:
    lines = [
        "name: throughput",
        f"players: {players}",
        f"rounds: {rounds}",
        "seed: 1",
        "time_control: {decision_ms: 5000, bank_ms: 20000}",
        "entrants:",
        *(f"  - {{name: bot-{i}, command: python -m benchmarks.trivial_bot}}" for i in range(entrants)),
    ]
    path = folder / "throughput.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def matches_per_min(workers: int, entrants: int, players: int, rounds: int) -> tuple[float, int]:
    """Matches per minute of a whole run with ``workers`` workers, and the match count."""
    with tempfile.TemporaryDirectory() as tmp:
        bracket = load_bracket(_bracket(Path(tmp), entrants, players, rounds))
        count = len(schedule_of(bracket))
        started = time.perf_counter()
        run_tournament(bracket, Path(tmp) / "throughput.db", workers=workers)
        return 60 * count / (time.perf_counter() - started), count


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    one, count = matches_per_min(1, args.entrants, args.players, args.rounds)
    two, _ = matches_per_min(2, args.entrants, args.players, args.rounds)
    figures = {"matches_per_min_1": one, "matches_per_min_2": two, "efficiency": two / (2 * one)}
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{count} matches of {args.players} trivial bots per run")
    print(f"1 worker    {one:8.1f} matches/min")
    print(f"2 workers   {two:8.1f} matches/min")
    print(f"efficiency  {100 * figures['efficiency']:8.1f} %")


if __name__ == "__main__":
    main()
