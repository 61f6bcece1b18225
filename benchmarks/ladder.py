"""Ladder speed: matchmaking per table, the leaderboard API's latency, and matches per minute.

    python benchmarks/ladder.py [--bots 1000] [--players 4] [--candidates 32] [--tables 500]
                                [--stored 100000] [--requests 200] [--matches 60] [--workers 2]
                                [--only matchmaking|leaderboard|throughput] [--json]

- matchmaking: ``--bots`` active bots get seeded random ratings and game counts; ``--tables`` tables are
  formed one after another (each with its own decision number); mean and 95th-percentile time per table
  (bar: <= 5 ms with 1,000 active bots).
- leaderboard: a SQLite ladder holding ``--stored`` played matches (each a real match's seats and replay,
  stored by bulk inserts together with its decision, seats and rating snapshots, among 200 bots of 20
  participants, paused so that nothing is played meanwhile), served by ``smtourney ladder serve`` on
  127.0.0.1; ``--requests`` GETs of
  ``/api/ladder/leaderboard`` one after another, each as ``smtourney ladder leaderboard`` makes it (a
  connection of its own); the 95th-percentile latency (bar: <= 50 ms).
- throughput: four random bots, each a gRPC server process reached by address, play ``--matches``
  two-player matches on ``--workers`` local workers, once as a round-robin bracket and once as a ladder
  (``ladder serve``'s loop); matches per minute of each, worker start-up included, and the ladder's as a
  share of the bracket's (bar: >= 90 %).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert

from server.ladder.client import get_json
from server.ladder.config import Ladder, load_ladder
from server.ladder.loop import LadderLoop
from server.ladder.matchmaking import Rated, form_table
from server.ladder.seating import match_id_of
from server.ladder.store import ACTIVE, DONE, LadderStore
from server.seats import SeatSpec
from server.steps_block import PackedRecord
from server.store.models import (
    Entrant,
    LadderBot,
    LadderMatch,
    LadderSeat,
    Match,
    MatchSteps,
    Seat,
)
from server.store.repository import Placement, Store, match_row, seat_rows
from server.tournament.bracket import load_bracket
from server.tournament.executor import ExecutorChoice
from server.tournament.jobs import MatchJob, MatchPlayer
from server.tournament.runner import run_tournament, schedule_of

BAR_MS = 5.0
LEADERBOARD_BAR_MS = 50.0
THROUGHPUT_BAR = 0.90
ROOT = Path(__file__).resolve().parent.parent


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
        "p95_ms": _p95(times),
        "bar_ms": BAR_MS,
    }


def _p95(sorted_values: list[float]) -> float:
    return sorted_values[math.ceil(0.95 * len(sorted_values)) - 1]


# --- the leaderboard with many stored matches ------------------------------------------------------


def _ladder(folder: Path, text: str) -> Ladder:
    path = folder / "ladder.yaml"
    path.write_text(text)
    return load_ladder(path)


def _one_match(ladder: Ladder, folder: Path) -> PackedRecord:
    """A real two-player match of random bots, as a worker sends it back."""
    spec = SeatSpec("random", bot_class="bots.random:RandomBot")
    job = MatchJob(0, ladder.game, "m", 1, (spec, spec), ladder.params, ladder.referee_config(), folder)
    player = MatchPlayer()
    try:
        packed = player.play(job).record
    finally:
        player.close()
    assert packed is not None
    return packed


def build_stored_ladder(folder: Path, stored: int, bots: int = 200, participants: int = 20) -> Path:
    """A ladder database holding ``stored`` played matches, written by bulk inserts."""
    ladder = _ladder(folder, "name: bench\ngame: saint_malo\nplayers: 2\n")
    packed = _one_match(ladder, folder)
    rng = random.Random(7)
    now = datetime.now(UTC)
    store = Store.open(ladder.database_path, create=True)
    try:
        ladders = LadderStore(store)
        for number in range(participants):
            ladders.add_participant(f"p{number}")
            ladders.set_paused(f"p{number}", True)  # their bots are listed, but none is scheduled
        owners = [p.id for p in ladders.participants()]
        tournament_id = ladders.tournament_id(ladder.name, ladder.game, ladder.seed, {})
        with store.engine.begin() as connection:
            connection.execute(
                insert(LadderBot),
                [
                    {
                        "id": bot + 1,
                        "participant_id": owners[bot % participants],
                        "name": f"bot{bot}",
                        "status": ACTIVE,
                        "spec_json": json.dumps({"address": f"127.0.0.1:{10000 + bot}"}),
                        "mu": rng.uniform(10, 40),
                        "sigma": rng.uniform(0.8, 3),
                        "games": 2 * stored // bots,
                        "submitted_at": now,
                        "last_game_at": now,
                    }
                    for bot in range(bots)
                ],
            )
            connection.execute(
                insert(Entrant),
                [
                    {
                        "id": bot,
                        "tournament_id": tournament_id,
                        "position": bot,
                        "name": f"bot{bot}",
                        "spec_json": "{}",
                    }
                    for bot in range(1, bots + 1)
                ],
            )
            pairs = [rng.sample(range(1, bots + 1), 2) for _ in range(stored)]
            connection.execute(
                insert(Match),
                [
                    {
                        **match_row(tournament_id, Placement(i, 1, 1, 0), packed.record),
                        "id": i,
                        "match_id": match_id_of(i),
                        "seed": i,
                    }
                    for i in range(1, stored + 1)
                ],
            )
            connection.execute(
                insert(Seat),
                [row for i in range(1, stored + 1) for row in seat_rows(packed.record, i, pairs[i - 1])],
            )
            connection.execute(
                insert(MatchSteps), [{"match_pk": i, "block": packed.steps} for i in range(1, stored + 1)]
            )
            connection.execute(
                insert(LadderMatch),
                [
                    {
                        "id": i,
                        "focus_bot_id": pairs[i - 1][0],
                        "quality": 0.5,
                        "seed": i,
                        "status": DONE,
                        "match_pk": i,
                        "decided_at": now,
                        "finished_at": now,
                    }
                    for i in range(1, stored + 1)
                ],
            )
            connection.execute(
                insert(LadderSeat),
                [
                    {
                        "ladder_match_id": i,
                        "seat": seat,
                        "bot_id": pairs[i - 1][seat],
                        "mu": 25.0,
                        "sigma": 2.0,
                    }
                    for i in range(1, stored + 1)
                    for seat in range(2)
                ],
            )
    finally:
        store.close()
    return folder / "ladder.yaml"


@contextmanager
def _served(ladder_file: Path) -> Iterator[str]:
    """``smtourney ladder serve`` in a process of its own on 127.0.0.1; its URL; always stopped."""
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "ladder", "serve", ladder_file.name, "--port", "0"],
        cwd=ladder_file.parent,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = re.search(r"at (http://127\.0\.0\.1:\d+)/api/ladder/", process.stdout.readline())
        assert found is not None, "the ladder did not start"
        yield found.group(1)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def measure_leaderboard(stored: int, requests: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ladder-bench-") as folder:
        start = time.perf_counter()
        ladder_file = build_stored_ladder(Path(folder), stored)
        built_s = time.perf_counter() - start
        times: list[float] = []
        with _served(ladder_file) as server:
            for _ in range(requests):
                start = time.perf_counter()
                rows = get_json(server, "leaderboard")
                times.append((time.perf_counter() - start) * 1000)
                assert len(rows) == 200
    times.sort()
    return {
        "stored_matches": stored,
        "bots": 200,
        "requests": requests,
        "fixture_s": built_s,
        "mean_ms": statistics.fmean(times),
        "p95_ms": _p95(times),
        "bar_ms": LEADERBOARD_BAR_MS,
    }


# --- matches per minute: a ladder against a bracket ------------------------------------------------


@contextmanager
def _random_bots(count: int, folder: Path) -> Iterator[list[str]]:
    """``count`` random bots as gRPC server processes; their addresses."""
    with ExitStack() as stack:
        addresses = []
        for number in range(count):
            log = folder / f"bot{number}.log"
            output = stack.enter_context(log.open("wb"))
            process = subprocess.Popen(
                [sys.executable, "-m", "bots.random", "--port", "0"], cwd=ROOT, stdout=output, stderr=output
            )
            stack.callback(process.wait)
            stack.callback(process.kill)
            while (found := re.search(r"serving on (127\.0\.0\.1:\d+)", log.read_text())) is None:
                if process.poll() is not None:
                    raise RuntimeError(log.read_text())
                time.sleep(0.05)
            addresses.append(found.group(1))
        yield addresses


def _bracket_rate(folder: Path, addresses: list[str], matches: int, workers: int) -> tuple[int, float]:
    entrants = "".join(f"  - {{name: r{i}, address: '{address}'}}\n" for i, address in enumerate(addresses))
    pairings = len(addresses) * (len(addresses) - 1) // 2
    rounds = max(1, math.ceil(matches / (2 * pairings)))
    path = folder / "bracket.yaml"
    path.write_text(
        f"name: bench\ngame: saint_malo\nplayers: 2\nrounds: {rounds}\nworkers: {workers}\n"
        f"entrants:\n{entrants}"
    )
    bracket = load_bracket(path)
    played = len(schedule_of(bracket))
    start = time.perf_counter()
    run_tournament(bracket, folder / "bracket.db", workers=workers)
    return played, time.perf_counter() - start


def _ladder_rate(folder: Path, addresses: list[str], matches: int, workers: int) -> tuple[int, float]:
    ladder = _ladder(
        folder,
        f"name: bench\ngame: saint_malo\nplayers: 2\nmatchmaking: {{workers: {workers}}}\n"
        "addresses: {allow: [127.0.0.0/8]}\n",
    )
    store = Store.open(ladder.database_path, create=True)
    try:
        ladders = LadderStore(store)
        ladders.add_participant("bench")
        (owner,) = ladders.participants()
        assert owner.id is not None
        for number, address in enumerate(addresses):
            row = ladders.add_bot(owner.id, f"r{number}", {"address": address}, mu=25, sigma=25 / 3)
            ladders.finish_validation(row.id, passed=True, reason=None, max_active=len(addresses))
        loop = LadderLoop(
            ladder, ladders, workers=workers, executor=ExecutorChoice(), log_dir=folder / "logs", report=print
        )
        start = time.perf_counter()
        loop.start()
        try:
            while (done := ladders.played()) < matches:
                time.sleep(0.1)  # seldom: the loop runs in this process, and shares its interpreter
            elapsed = time.perf_counter() - start
        finally:
            loop.stop()
    finally:
        store.close()
    return done, elapsed


def measure_throughput(matches: int, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ladder-bench-") as name:
        folder = Path(name)
        with _random_bots(4, folder) as addresses:
            (folder / "bracket").mkdir()
            (folder / "ladder").mkdir()
            bracket_matches, bracket_s = _bracket_rate(folder / "bracket", addresses, matches, workers)
            ladder_matches, ladder_s = _ladder_rate(folder / "ladder", addresses, bracket_matches, workers)
    bracket_rate = 60 * bracket_matches / bracket_s
    ladder_rate = 60 * ladder_matches / ladder_s
    return {
        "workers": workers,
        "bracket_matches": bracket_matches,
        "bracket_per_min": bracket_rate,
        "ladder_matches": ladder_matches,
        "ladder_per_min": ladder_rate,
        "ladder_share": ladder_rate / bracket_rate,
        "bar_share": THROUGHPUT_BAR,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--candidates", type=int, default=32)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("matchmaking", "leaderboard", "throughput"))
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    figures: dict[str, dict[str, float]] = {}
    if args.only in (None, "matchmaking"):
        figures["matchmaking"] = measure(args.bots, args.players, args.candidates, args.tables)
    if args.only in (None, "leaderboard"):
        figures["leaderboard"] = measure_leaderboard(args.stored, args.requests)
    if args.only in (None, "throughput"):
        figures["throughput"] = measure_throughput(args.matches, args.workers)
    if args.json:
        print(json.dumps(figures))
        return
    if "matchmaking" in figures:
        m = figures["matchmaking"]
        print(
            f"matchmaking with {m['bots']:,} active bots, {m['players']} players, {m['candidates']} "
            f"candidates: mean {m['mean_ms']:.2f} ms, p95 {m['p95_ms']:.2f} ms per table "
            f"(bar: <= {BAR_MS:.0f} ms)"
        )
    if "leaderboard" in figures:
        b = figures["leaderboard"]
        print(
            f"leaderboard API with {b['stored_matches']:,} stored matches ({b['bots']} bots, SQLite, fixture "
            f"built in {b['fixture_s']:.1f} s): mean {b['mean_ms']:.2f} ms, p95 {b['p95_ms']:.2f} ms over "
            f"{b['requests']} requests (bar: <= {LEADERBOARD_BAR_MS:.0f} ms)"
        )
    if "throughput" in figures:
        t = figures["throughput"]
        print(
            f"matches per minute on {t['workers']} local workers, 4 random bots by address: bracket "
            f"{t['bracket_per_min']:.1f} ({t['bracket_matches']} matches), ladder {t['ladder_per_min']:.1f} "
            f"({t['ladder_matches']} matches): {100 * t['ladder_share']:.0f} % "
            f"(bar: >= {100 * THROUGHPUT_BAR:.0f} %)"
        )


if __name__ == "__main__":
    main()
