"""Matches per minute of a playing ladder, quiet and under a burst of authenticated API requests.

    python benchmarks/ladder_burst.py [--seconds 20] [--clients 32] [--workers 2] [--unlimited] [--json]

Four random bots (gRPC server processes reached by address) play on a real ``ladder serve``; the
matches stored are counted over ``--seconds`` with no request, then over as long again while
``--clients`` threads keep sending authenticated requests (``GET /api/ladder/bots`` and
``/api/ladder/matches``), as a participant's script polling its bots would, without waiting when
refused. The ladder limits each participant's requests (``api`` in the ladder file, by default 10 a
second after a burst of 60): requests answered and refused (429) are counted apart. ``--unlimited``
raises that limit out of reach, to see what unlimited requests cost.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

from benchmarks.ladder import _random_bots, _served
from server.ladder.client import ClientError, get_json
from server.ladder.store import LadderStore
from server.store.repository import Store

LADDER = (
    "name: burst\ngame: saint_malo\nplayers: 2\nmatchmaking: {{workers: {workers}}}\n"
    "addresses: {{allow: [127.0.0.0/8]}}\n"
)
UNLIMITED = "api: {requests_per_s: 10000, burst: 100000}\n"


def _done(db: Path) -> int:
    with closing(sqlite3.connect(db)) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM ladder_match WHERE status = 'done'").fetchone()
    return int(count)


def _rate(db: Path, seconds: float) -> float:
    """Matches stored per minute over ``seconds``."""
    start, first = time.perf_counter(), _done(db)
    time.sleep(seconds)
    return (_done(db) - first) * 60 / (time.perf_counter() - start)


def _activated(folder: Path, workers: int, addresses: list[str], unlimited: bool) -> tuple[Path, str]:
    """The ladder file, its bots active, and a participant's token."""
    path = folder / "ladder.yaml"
    path.write_text(LADDER.format(workers=workers) + (UNLIMITED if unlimited else ""))
    store = Store.open(folder / "ladder.db", create=True)
    try:
        ladders = LadderStore(store)
        token = ladders.add_participant("bench")
        (owner,) = ladders.participants()
        assert owner.id is not None
        for number, address in enumerate(addresses):
            row = ladders.add_bot(owner.id, f"r{number}", {"address": address}, mu=25, sigma=25 / 3)
            ladders.finish_validation(row.id, passed=True, reason=None, max_active=len(addresses))
    finally:
        store.close()
    return path, token


def measure(seconds: float, clients: int, workers: int, unlimited: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ladder-burst-") as name:
        folder = Path(name)
        with _random_bots(4, folder) as addresses:
            path, token = _activated(folder, workers, addresses, unlimited)
            db = folder / "ladder.db"
            with _served(path) as server:
                while _done(db) < 2:  # workers started and playing
                    time.sleep(0.2)
                quiet = _rate(db, seconds)
                stop, sent, refused = threading.Event(), [0] * clients, [0] * clients

                def poll(client: int) -> None:
                    while not stop.is_set():
                        for route in ("bots", "matches"):
                            try:
                                get_json(server, route, token)
                            except ClientError as exc:
                                refused[client] += " 429 " in str(exc)
                            sent[client] += 1

                threads = [threading.Thread(target=poll, args=(n,)) for n in range(clients)]
                for thread in threads:
                    thread.start()
                started = time.perf_counter()
                busy = _rate(db, seconds)
                stop.set()
                for thread in threads:
                    thread.join()
                elapsed = time.perf_counter() - started
    return {
        "workers": workers,
        "clients": clients,
        "quiet_matches_per_min": quiet,
        "burst_matches_per_min": busy,
        "burst_requests_per_s": sum(sent) / elapsed,
        "burst_refused_per_s": sum(refused) / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--unlimited", action="store_true", help="No limit on a participant's requests.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.seconds, args.clients, args.workers, args.unlimited)
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(
        f"{figures['quiet_matches_per_min']:.0f} matches/min quiet, {figures['burst_matches_per_min']:.0f} "
        f"under {figures['burst_requests_per_s']:.0f} authenticated requests/s from {args.clients} clients "
        f"({figures['burst_refused_per_s']:.0f}/s refused with 429; {args.workers} workers"
        f"{', requests unlimited' if args.unlimited else ''})"
    )


if __name__ == "__main__":
    main()
