"""The live feed from Ray actors into PostgreSQL: while a run plays on a real Ray cluster, the
matches in flight and their steps are in the database, written by the actors that play them; when
the run ends nothing is left in flight."""

from __future__ import annotations

import time
from pathlib import Path

from server.store.errors import StoreError
from server.store.live import LiveFeed
from server.store.location import parse_location

from ..servers.postgres import PostgresServer
from .helpers import run_args, start_run

BRACKET = """\
name: live-ray
game: bruges
players: 2
rounds: 1
seed: 3
workers: 2
entrants:
""" + "".join(
    f"  - {{name: slow-{letter}, command: python -m benchmarks.sleepy_bot, sandbox: false,"
    " env: {SMTOURNEY_THINK_MS: '30'}}\n"
    for letter in "abc"
)


def test_ray_actors_feed_the_matches_they_play(
    tmp_path: Path, ray_address: str, postgres: PostgresServer
) -> None:
    bracket = tmp_path / "live.yaml"
    bracket.write_text(BRACKET)
    url = postgres.new_database()
    run = start_run(run_args(bracket, url, "ray", ray_address))
    seen: dict[str, int] = {}
    try:
        deadline = time.monotonic() + 240
        while run.poll() is None and time.monotonic() < deadline:
            try:
                feed = LiveFeed.open(parse_location(url))
            except StoreError:  # not created yet
                time.sleep(0.2)
                continue
            try:
                tournament = feed.tournament("live-ray")
                if tournament is not None and tournament.id is not None:
                    for row in feed.in_flight(tournament.id):
                        steps = feed.steps(tournament.id, row.match_id)
                        assert [step[0] for step in steps] == list(range(len(steps)))
                        seen[row.match_id] = max(seen.get(row.match_id, 0), len(steps))
            finally:
                feed.close()
            time.sleep(0.3)
        output, _ = run.communicate(timeout=240)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 0, output
    assert seen and max(seen.values()) > 0, "no match in flight was seen with its steps"
    feed = LiveFeed.open(parse_location(url))
    try:
        tournament = feed.tournament("live-ray")
        assert tournament is not None and tournament.id is not None
        assert feed.in_flight(tournament.id) == [] and feed.run(tournament.id) is None
        assert len(feed.finished_match_ids(tournament.id)) == 6
    finally:
        feed.close()
