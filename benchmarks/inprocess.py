"""In-process bots against the same bots over gRPC: matches per minute of one bracket played both ways.

    python benchmarks/inprocess.py [--entrants 4] [--players 4] [--rounds 3] [--workers 1] [--json]

Plays one round-robin of trivial Saint Malo bots (``benchmarks.trivial_bot``, which answer every
decision with the safe default at once) twice, each into a fresh database, timing each whole run
(workers, bot start-up, play, storage):

* ``grpc`` -- every entrant a launched bot process (sandboxed, on a Unix socket, kept between
  matches: the defaults), called over gRPC;
* ``inprocess`` -- every entrant ``transport: inprocess`` with ``bot: benchmarks.trivial_bot:TrivialBot``:
  the same class called in the worker's process, requests and replies still encoded and decoded.

``ratio`` is in-process matches/min over gRPC matches/min (target: at least 20). ``same_standings``
says whether both runs ended with identical standings (ratings, wins, scores), as they must: the
transport changes nothing a bot sees. ``play_ms_per_match`` is the matches' own recorded durations
(StartMatch to EndMatch) averaged: what is left once start-up and storage are set aside.
"""

from __future__ import annotations

import argparse
import json

from benchmarks.tournament_throughput import OVER_GRPC, Run, play

IN_PROCESS = "transport: inprocess, bot: 'benchmarks.trivial_bot:TrivialBot'"


def _figures(run: Run) -> dict[str, float]:
    return {
        "matches": run.matches,
        "matches_per_min": run.matches_per_min,
        "wall_s": run.wall_s,
        "play_ms_per_match": run.play_s / run.matches * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    size = {
        "entrants": args.entrants,
        "players": args.players,
        "rounds": args.rounds,
        "workers": args.workers,
    }
    over_grpc = play(fresh=False, entrant=OVER_GRPC, **size)
    in_process = play(fresh=False, entrant=IN_PROCESS, **size)
    same = [s.to_json() for s in over_grpc.standings] == [s.to_json() for s in in_process.standings]
    figures = {
        "grpc": _figures(over_grpc),
        "inprocess": _figures(in_process),
        "ratio": in_process.matches_per_min / over_grpc.matches_per_min,
        "play_ratio": over_grpc.play_s / in_process.play_s,
        "same_standings": same,
    }
    if args.json:
        print(json.dumps(figures))
        return
    seats = f"{args.players} trivial Saint Malo bots"
    print(f"{over_grpc.matches} matches of {seats} per run, {args.workers} worker(s)")
    print("                 matches/min   wall s   play ms/match")
    for label, run in (("gRPC (sandboxed)", over_grpc), ("in-process", in_process)):
        play_ms = run.play_s / run.matches * 1000
        print(f"{label:16} {run.matches_per_min:11.1f} {run.wall_s:8.2f} {play_ms:15.1f}")
    print(
        f"ratio            {figures['ratio']:11.2f} x   (in-process / gRPC matches per minute; target >= 20)"
    )
    print(f"  play time      {figures['play_ratio']:11.2f} x   (gRPC / in-process recorded match durations)")
    print(f"identical standings: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
