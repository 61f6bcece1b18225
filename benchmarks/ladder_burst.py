"""Matches per minute of a playing ladder, quiet and under a burst of authenticated API requests.

    python benchmarks/ladder_burst.py [--seconds 20] [--clients 32] [--workers 2] [--json]

Four random bots (gRPC server processes reached by address) play on a real ``ladder serve``; the
matches stored are counted over ``--seconds`` with no request, then over as long again while
``--clients`` threads keep sending authenticated requests (``GET /api/ladder/bots`` and
``/api/ladder/matches``), as a participant's script polling its bots would.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import threading
import time
from contextlib import closing, suppress
from pathlib import Path

from benchmarks.ladder import _random_bots, _served
from server.ladder.client import ClientError, get_json
from server.ladder.store import LadderStore
from server.store.repository import Store

LADDER = (
    "name: burst\ngame: saint_malo\nplayers: 2\nmatchmaking: {{workers: {workers}}}\n"
    "addresses: {{allow: [127.0.0.0/8]}}\n"
)


def _done(db: Path) -> int:
    with closing(sqlite3.connect(db)) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM ladder_match WHERE status = 'done'").fetchone()
    return int(count)


def _rate(db: Path, seconds: float) -> float:
    """Matches stored per minute over ``seconds``."""
    start, first = time.perf_counter(), _done(db)
    time.sleep(seconds)
    return (_done(db) - first) * 60 / (time.perf_counter() - start)


def _activated(folder: Path, workers: int, addresses: list[str]) -> tuple[Path, str]:
    """The ladder file, its bots active, and a participant's token."""
    path = folder / "ladder.yaml"
    path.write_text(LADDER.format(workers=workers))
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


def measure(seconds: float, clients: int, workers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ladder-burst-") as name:
        folder = Path(name)
        with _random_bots(4, folder) as addresses:
            path, token = _activated(folder, workers, addresses)
            db = folder / "ladder.db"
            with _served(path) as server:
                while _done(db) < 2:  # workers started and playing
                    time.sleep(0.2)
                quiet = _rate(db, seconds)
                stop, sent = threading.Event(), [0] * clients

                def poll(client: int) -> None:
                    while not stop.is_set():
                        for route in ("bots", "matches"):
                            with suppress(ClientError):
                                get_json(server, route, token)
                            sent[client] += 1

                threads = [threading.Thread(target=poll, args=(n,)) for n in range(clients)]
                for thread in threads:
                    thread.start()
                started = time.perf_counter()
                busy = _rate(db, seconds)
                stop.set()
                for thread in threads:
                    thread.join()
                requests_per_s = sum(sent) / (time.perf_counter() - started)
    return {
        "workers": workers,
        "clients": clients,
        "quiet_matches_per_min": quiet,
        "burst_matches_per_min": busy,
        "burst_requests_per_s": requests_per_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = measure(args.seconds, args.clients, args.workers)
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(
        f"{figures['quiet_matches_per_min']:.0f} matches/min quiet, {figures['burst_matches_per_min']:.0f} "
        f"under {figures['burst_requests_per_s']:.0f} authenticated requests/s from {args.clients} clients "
        f"({args.workers} workers)"
    )


if __name__ == "__main__":
    main()
