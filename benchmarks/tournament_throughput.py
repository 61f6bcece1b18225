"""Tournament throughput: matches per minute with a new bot process for every match, and with bots
kept up between matches, in one run; and the tournament process's own CPU per stored match.

    python benchmarks/tournament_throughput.py [--entrants 4] [--players 4] [--rounds 10] [--workers 1]
                                               [--json]

Plays the same round-robin of trivial bots (benchmarks/trivial_bot.py, which answer at
once) twice into fresh databases: once with ``fresh_process: true`` and once with the
bots kept between matches (the default), timing each whole run (worker and bot start-up,
play, storage). Play fraction = the matches' own durations (from StartMatch to EndMatch,
as recorded) summed, divided by wall time x workers: the share of the run spent playing.
Tournament CPU per match = the CPU time of this process alone (``time.process_time``: its
threads, not the worker processes or bots) over the whole run (opening the database,
scheduling, storing, ratings, progress), divided by the matches played.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from server.store.repository import Store
from server.tournament.bracket import load_bracket
from server.tournament.ratings import Standing, standings
from server.tournament.report import entrant_names
from server.tournament.runner import Progress, run_tournament, schedule_of


@dataclass(frozen=True, slots=True)
class Run:
    matches: int
    wall_s: float
    play_s: float  # the matches' recorded durations, summed
    workers: int
    cpu_s: float  # this process's own CPU time over the run
    standings: list[Standing]

    @property
    def cpu_ms_per_match(self) -> float:
        return 1000 * self.cpu_s / self.matches

    @property
    def matches_per_min(self) -> float:
        return 60 * self.matches / self.wall_s

    @property
    def play_fraction(self) -> float:
        return self.play_s / (self.wall_s * self.workers)


OVER_GRPC = "command: python -m benchmarks.trivial_bot"
"""How each entrant is written: a trivial bot launched as a process (kept or fresh) and called over gRPC."""


def _bracket(
    folder: Path, entrants: int, players: int, rounds: int, fresh: bool, entrant: str, game: str | None
) -> Path:
    lines = [
        "name: throughput",
        *([f"game: {game!r}"] if game else []),
        f"players: {players}",
        f"rounds: {rounds}",
        "seed: 1",
        "time_control: {decision_ms: 5000, bank_ms: 20000}",
        f"fresh_process: {'true' if fresh else 'false'}",
        "entrants:",
        *(f"  - {{name: bot-{i}, {entrant}}}" for i in range(entrants)),
    ]
    path = folder / "throughput.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def play(
    *,
    fresh: bool,
    workers: int,
    entrants: int,
    players: int,
    rounds: int,
    entrant: str = OVER_GRPC,
    game: str | None = None,
) -> Run:
    """One whole tournament of ``entrants`` bots written as ``entrant`` into a new database, timed;
    at ``game`` (the bracket's default game when None)."""
    with tempfile.TemporaryDirectory() as tmp:
        bracket = load_bracket(_bracket(Path(tmp), entrants, players, rounds, fresh, entrant, game))
        count = len(schedule_of(bracket))
        durations: list[float] = []

        def on_progress(progress: Progress) -> None:
            durations.append(progress.record.duration_s)

        started, cpu = time.perf_counter(), time.process_time()
        tournament = run_tournament(
            bracket, Path(tmp) / "throughput.db", workers=workers, on_progress=on_progress
        )
        wall_s, cpu_s = time.perf_counter() - started, time.process_time() - cpu
        store = Store.open(Path(tmp) / "throughput.db")
        try:
            assert tournament.id is not None
            rows = standings(entrant_names(store, tournament.id), store.results(tournament.id))
        finally:
            store.close()
        return Run(count, wall_s, sum(durations), workers, cpu_s, rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    size = {"entrants": args.entrants, "players": args.players, "rounds": args.rounds}
    fresh = play(fresh=True, workers=args.workers, **size)
    reuse = play(fresh=False, workers=args.workers, **size)
    figures = {
        "matches_per_min_fresh": fresh.matches_per_min,
        "matches_per_min_reuse": reuse.matches_per_min,
        "play_fraction": reuse.play_fraction,
        "play_fraction_fresh": fresh.play_fraction,
        "speedup": reuse.matches_per_min / fresh.matches_per_min,
        "tournament_cpu_ms_per_match": reuse.cpu_ms_per_match,
        "tournament_cpu_ms_per_match_fresh": fresh.cpu_ms_per_match,
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{reuse.matches} matches of {args.players} trivial bots per run, {args.workers} worker(s)")
    print("                 matches/min   wall s   play s   play fraction   tournament CPU ms/match")
    for label, run in (("fresh process", fresh), ("kept processes", reuse)):
        print(
            f"{label:16} {run.matches_per_min:11.1f} {run.wall_s:8.2f} {run.play_s:8.2f} "
            f"{run.play_fraction:15.2f} {run.cpu_ms_per_match:25.1f}"
        )
    print(f"speed-up         {figures['speedup']:11.2f} x")


if __name__ == "__main__":
    main()
