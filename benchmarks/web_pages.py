"""How the web viewer's pages scale: a tournament page's time by the tournament's size, and each game's
replay page's size, raw and gzipped.

    python benchmarks/web_pages.py [--sizes 12 200 2000] [--requests 10] [--cache DIR] [--json]

Each tournament is real matches of Saint Malo between two random bots called in process, stored
through ``smtourney run`` (a bracket's rounds give twice as many matches); one two-seat match of every
built-in game gives its replay page (an adapted game, ``family:name``, needs an optional extra).
The databases are kept in ``--cache`` (a temporary folder by default), so a second run measures at
once. Every database is served by ``smtourney web --port 0`` on
127.0.0.1 in a process of its own, and its tournament page asked over HTTP: once by the fresh server,
which works the page's figures out, then ``--requests`` times more, served from what it keeps until
another match is stored.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.web_server import served
from sdk.games.registry import listed_games

TIMED_GAME = "saint_malo"

BRACKET = """\
name: web-pages
game: {game}
players: 2
rounds: {rounds}
seed: 7
time_control: {{decision_ms: 5000, bank_ms: 20000}}
workers: 2
entrants:
  - {{name: random-1, transport: inprocess, bot: "bots.random:RandomBot"}}
  - {{name: random-2, transport: inprocess, bot: "bots.random:RandomBot"}}
"""


def stored(cache: Path, game: str, matches: int) -> Path:
    """A database of ``matches`` played matches of ``game`` (an even number), made once per cache."""
    db = cache / f"{game}-{matches}.db"
    if not db.exists():
        bracket = cache / f"{game}-{matches}.yaml"
        bracket.write_text(BRACKET.format(game=game, rounds=max(matches // 2, 1)))
        partial = db.with_suffix(".partial.db")
        partial.unlink(missing_ok=True)
        subprocess.run(
            [sys.executable, "-m", "server", "run", str(bracket), "--db", str(partial)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        partial.rename(db)
        logs = partial.with_name(f"{partial.stem}-logs")
        if logs.exists():
            logs.rename(db.with_name(f"{db.stem}-logs"))
    return db


def get(url: str, gzipped: bool = False) -> bytes:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip" if gzipped else "identity"})
    with urllib.request.urlopen(request, timeout=300) as reply:
        body: bytes = reply.read()
        assert gzipped == (reply.headers["Content-Encoding"] == "gzip"), url
        return body


def only_tournament(base: str) -> int:
    (tournament,) = json.loads(get(f"{base}/api/tournaments"))
    return int(tournament["id"])


def timed_ms(url: str) -> float:
    start = time.perf_counter()
    get(url)
    return (time.perf_counter() - start) * 1000


def tournament_page_ms(db: Path, requests: int) -> tuple[float, float]:
    """A fresh server's first request (which works the page's figures out and keeps them) and the
    median of the ``requests`` after it (served from what is kept until another match is stored)."""
    with served(db) as base:
        url = f"{base}/tournaments/{only_tournament(base)}"
        first = timed_ms(url)
        return first, statistics.median(timed_ms(url) for _ in range(requests))


def replay_page_bytes(db: Path) -> dict[str, int]:
    with served(db) as base:
        tid = only_tournament(base)
        first = json.loads(get(f"{base}/api/tournaments/{tid}/matches"))[0]["match_id"]
        url = f"{base}/tournaments/{tid}/matches/{first}"
        raw = get(url)
        compressed = get(url, gzipped=True)
        assert gzip.decompress(compressed) == raw
    return {"raw_bytes": len(raw), "gzip_bytes": len(compressed)}


def measure(sizes: list[int], requests: int, cache: Path) -> dict[str, object]:
    timed = {str(n): tournament_page_ms(stored(cache, TIMED_GAME, n), requests) for n in sizes}
    replays = {
        game: replay_page_bytes(stored(cache, game, 2)) for game in sorted(listed_games()) if ":" not in game
    }
    return {
        "game": TIMED_GAME,
        "requests": requests,
        "tournament_page_first_ms": {size: first for size, (first, _) in timed.items()},
        "tournament_page_median_ms": {size: median for size, (_, median) in timed.items()},
        "replay_page": replays,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[12, 200, 2000], help="matches per tournament"
    )
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--cache", type=Path, help="keep the databases here (default: a temporary folder)")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    if args.cache is None:
        with tempfile.TemporaryDirectory() as folder:
            figures = measure(args.sizes, args.requests, Path(folder))
    else:
        args.cache.mkdir(parents=True, exist_ok=True)
        figures = measure(args.sizes, args.requests, args.cache)
    if args.json:
        print(json.dumps(figures))
        return
    firsts, pages = figures["tournament_page_first_ms"], figures["tournament_page_median_ms"]
    replays = figures["replay_page"]
    assert isinstance(firsts, dict) and isinstance(pages, dict) and isinstance(replays, dict)
    smallest, smallest_first = pages[str(min(args.sizes))], firsts[str(min(args.sizes))]
    print(f"tournament page ({TIMED_GAME}, random bots): a fresh server's first request, then the median")
    print(f"of the {args.requests} after it:")
    for size, ms in pages.items():
        first = firsts[size]
        print(
            f"  {int(size):>6,} matches  first {first:9.1f} ms {first / smallest_first:6.1f}x"
            f"  then {ms:9.1f} ms {ms / smallest:6.1f}x the smallest"
        )
    print("replay page of a two-seat match:")
    for game, size in replays.items():
        print(f"  {game:<12} {size['raw_bytes']:>10,} bytes raw  {size['gzip_bytes']:>9,} bytes gzipped")


if __name__ == "__main__":
    main()
