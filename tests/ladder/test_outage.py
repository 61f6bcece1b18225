"""A ladder on a real PostgreSQL server that is stopped for 10 s while it plays: it says so once, its
API answers 503 meanwhile, and within 45 s of the restart it plays on and validates a bot submitted
after it, without being restarted."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bots.random import RandomBot
from sdk.serve import BotServer, serve

from ..servers.postgres import PostgresServer
from .test_api import LOOPBACK, Api, served
from .test_organiser import add

OUTAGE_S = 10
BACK_WITHIN_S = 45


@pytest.fixture
def bot_servers() -> Iterator[list[BotServer]]:
    running = [serve(RandomBot(), 0) for _ in range(3)]
    try:
        yield running
    finally:
        for server in running:
            server.stop(grace=0)


def wait_for(condition: Callable[[], bool], within_s: float, what: str) -> None:
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, f"{what} not within {within_s} s"
        time.sleep(0.2)


def played(postgres: PostgresServer, url: str) -> int:
    (count,) = postgres.execute("SELECT count(*) FROM ladder_match WHERE status = 'done'", url)[0]
    assert isinstance(count, int)
    return count


def status_of(api: Api, token: str, name: str) -> str:
    reply = api.request("GET", f"/bots/{name}", token)
    assert reply.status == 200, reply
    status: str = reply.body["status"]
    return status


def test_a_ladder_rides_out_a_postgres_outage_and_validates_a_bot_submitted_after_it(
    tmp_path: Path, own_postgres: PostgresServer, bot_servers: list[BotServer]
) -> None:
    url = own_postgres.new_database()
    ladder_file = tmp_path / "ladder.yaml"
    ladder_file.write_text("name: outage\ngame: saint_malo\nplayers: 2\n" + LOOPBACK)
    token = add(url, "ada")
    first, second, late = (f"127.0.0.1:{server.port}" for server in bot_servers)
    with served(ladder_file, "--db", url, "--log-dir", str(tmp_path / "logs")) as api:
        for name, address in (("one", first), ("two", second)):
            assert api.request("POST", "/bots", token, {"name": name, "address": address}).status == 201
        wait_for(lambda: played(own_postgres, url) >= 2, 120, "two matches played")

        own_postgres.stop()
        time.sleep(OUTAGE_S / 2)
        down = api.request("GET", "/leaderboard")
        assert down.status == 503 and "database is unavailable" in down.body["detail"], down
        time.sleep(OUTAGE_S / 2)
        own_postgres.start()
        back = time.monotonic()

        before = played(own_postgres, url)
        wait_for(lambda: played(own_postgres, url) > before, BACK_WITHIN_S, "a match after the restart")
        submitted = api.request("POST", "/bots", token, {"name": "late", "address": late})
        assert submitted.status == 201, submitted
        left = BACK_WITHIN_S - (time.monotonic() - back)
        wait_for(lambda: status_of(api, token, "late") == "active", left, "the late bot validated")
        assert api.process is not None and api.process.poll() is None
        api.process.terminate()
        _, errors = api.process.communicate(timeout=30)

    lines = errors.splitlines()
    down_lines = [line for line in lines if "database unavailable" in line]
    assert len(down_lines) == 1, errors
    assert "matches and validations wait for it and go on by themselves" in down_lines[0]
    assert len([line for line in lines if "the database is back after" in line]) == 1, errors
    assert "\\n" not in errors and "\\t" not in errors and "Traceback" not in errors, errors
    assert "matches stopped" not in errors and "validation failed" not in errors, errors
