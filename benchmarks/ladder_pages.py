"""Latency of the ladder's live pages' JSON, which every open page asks for every 2 seconds.

    python benchmarks/ladder_pages.py [--bots 1000] [--decisions 100000] [--requests 50] [--json]

A SQLite ladder with ``--bots`` active bots (seeded random ratings) and ``--decisions`` done two-seat
matchmaking decisions is served by ``smtourney web --port 0`` on 127.0.0.1, in a process of its own; each
endpoint is asked ``--requests`` times over HTTP and the median and 95th-percentile times printed:

- the leaderboard while no rating changes (its rank intervals are cached), and right after a rating
  changed (they are drawn again: 4,000 draws of every active bot's skill);
- the list of every bot, the matches in progress, and the page of a bot with many matches.

For scale, the competition API's leaderboard has a bar of 50 ms (p95) with 100,000 stored matches.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert, update

from benchmarks.web_server import served
from server.ladder.store import LadderStore
from server.store.models import LadderBot, LadderMatch, LadderSeat
from server.store.repository import Store

REFERENCE_MS = 50.0


def fill(db: Path, bots: int, decisions: int, seed: int) -> list[int]:
    """The ladder: bots through the store's methods, decisions as rows in bulk. Returns bot ids."""
    rng = random.Random(seed)
    store = Store.open(db, create=True)
    ladder = LadderStore(store)
    ladder.add_participant("bench")
    (participant,) = ladder.participants()
    assert participant.id is not None
    ids = []
    for number in range(bots):
        row = ladder.add_bot(participant.id, f"bot{number}", {"address": "127.0.0.1:1"}, mu=25, sigma=25 / 3)
        ladder.finish_validation(row.id, passed=True, reason=None, max_active=bots)
        ids.append(row.id)
    now = datetime.now(UTC)
    with store.engine.begin() as connection:
        for bot in ids:
            connection.execute(
                update(LadderBot)
                .where(LadderBot.id == bot)  # type: ignore[arg-type]
                .values(mu=rng.uniform(10, 40), sigma=rng.uniform(1, 8.4), games=rng.randrange(300))
            )
        matches = [
            {"id": n + 1, "focus_bot_id": ids[0], "quality": 0.5, "seed": n, "status": "done",
             "decided_at": now, "finished_at": now}
            for n in range(decisions)
        ]  # fmt: skip
        connection.execute(insert(LadderMatch), matches)
        seats = []
        for n in range(decisions):
            pair = (ids[0], rng.choice(ids[1:])) if n % 10 == 0 else tuple(rng.sample(ids, 2))
            seats += [
                {"ladder_match_id": n + 1, "seat": seat, "bot_id": bot, "mu": 25.0, "sigma": 5.0}
                for seat, bot in enumerate(pair)
            ]
        connection.execute(insert(LadderSeat), seats)
    store.close()
    return ids


def timed(url: str, requests: int, before: Callable[[], None] | None = None) -> list[float]:
    times = []
    for _ in range(requests):
        if before is not None:
            before()
        start = time.perf_counter()
        with urllib.request.urlopen(url, timeout=60) as reply:
            reply.read()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)


def measure(bots: int, decisions: int, requests: int, seed: int = 1) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "ladder.db"
        ids = fill(db, bots, decisions, seed)
        with served(db) as root:
            base = f"{root}/api/ladder/public"
            writer = Store.open(db)
            rng = random.Random(seed)

            def rating_changes() -> None:
                with writer.engine.begin() as connection:
                    connection.execute(
                        update(LadderBot).where(LadderBot.id == ids[1]).values(mu=rng.uniform(10, 40))  # type: ignore[arg-type]
                    )

            timed(f"{base}/leaderboard", 1)  # the first intervals
            samples = {
                "leaderboard": timed(f"{base}/leaderboard", requests),
                "leaderboard_after_a_rating_change": timed(f"{base}/leaderboard", requests, rating_changes),
                "bots": timed(f"{base}/bots", requests),
                "matches": timed(f"{base}/matches", requests),
                "busiest_bot": timed(f"{base}/bots/{ids[0]}", requests),
            }
            writer.close()
    return {
        "bots": bots,
        "decisions": decisions,
        "requests": requests,
        "endpoints": {
            name: {"median_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))]}
            for name, times in samples.items()
        },
        "reference_ms": REFERENCE_MS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    figures = measure(args.bots, args.decisions, args.requests)
    if args.json:
        print(json.dumps(figures))
        return
    sizes = f"{args.bots:,} active bots, {args.decisions:,} decisions"
    print(f"ladder pages' JSON, {sizes}, {args.requests} requests each:")
    endpoints = figures["endpoints"]
    assert isinstance(endpoints, dict)
    for name, times in endpoints.items():
        print(f"  {name:<36} median {times['median_ms']:8.1f} ms   p95 {times['p95_ms']:8.1f} ms")
    print(f"  (for scale: the competition API's leaderboard bar is p95 <= {REFERENCE_MS:.0f} ms)")


if __name__ == "__main__":
    main()
