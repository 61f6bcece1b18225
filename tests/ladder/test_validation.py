"""Validation of bots submitted by address, against real bot servers on 127.0.0.1."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bots.random import RandomBot
from sdk.serve import BotServer, serve
from server.ladder.config import Ladder, load_ladder
from server.ladder.store import LadderStore
from server.ladder.validation import validate_next
from server.store.repository import Store

from .test_api import LOOPBACK, served
from .test_organiser import add, rows


@pytest.fixture
def bot_server() -> Iterator[BotServer]:
    running = serve(RandomBot(), 0)
    try:
        yield running
    finally:
        running.stop(grace=0)


def ladder_in(tmp_path: Path) -> Ladder:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 2\nmax_active_bots: 1\n" + LOOPBACK)
    return load_ladder(path)


def test_a_bot_that_passes_the_check_becomes_active_and_retires_its_owner_s_older_one(
    tmp_path: Path, bot_server: BotServer
) -> None:
    ladder = ladder_in(tmp_path)
    add(ladder.database_path, "ada")
    address = f"127.0.0.1:{bot_server.port}"
    with closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (ada,) = ladders.participants()
        assert ada.id is not None
        ladders.add_bot(ada.id, "first", {"address": address}, mu=25, sigma=8)
        assert validate_next(ladders, ladder, tmp_path / "logs")
        ladders.add_bot(ada.id, "second", {"address": address}, mu=25, sigma=8)
        assert validate_next(ladders, ladder, tmp_path / "logs")
        assert not validate_next(ladders, ladder, tmp_path / "logs")
    assert rows(ladder.database_path, "SELECT name, status, reason FROM ladder_bot ORDER BY id") == [
        ("first", "retired", "retired: a newer bot took its place"),
        ("second", "active", None),
    ]


def test_an_unreachable_bot_fails_with_the_check_s_line(tmp_path: Path) -> None:
    ladder = ladder_in(tmp_path)
    add(ladder.database_path, "ada")
    with closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (ada,) = ladders.participants()
        assert ada.id is not None
        ladders.add_bot(ada.id, "gone", {"address": "127.0.0.1:9"}, mu=25, sigma=8)
        ladders.add_bot(ada.id, "command", {"address": "python -m bots.random"}, mu=25, sigma=8)
        assert validate_next(ladders, ladder, tmp_path / "logs")
        assert validate_next(ladders, ladder, tmp_path / "logs")
    (gone, command) = rows(ladder.database_path, "SELECT status, reason FROM ladder_bot ORDER BY id")
    assert gone[0] == "failed" and str(gone[1]).startswith("FAIL ")
    assert command == ("failed", "FAIL reach: this ladder does not reach that address")
    with closing(sqlite3.connect(ladder.database_path)) as connection:
        assert connection.execute("SELECT COUNT(*) FROM ladder_bot WHERE status = 'active'").fetchone() == (
            0,
        )


def test_the_service_validates_a_submission_while_it_serves(tmp_path: Path, bot_server: BotServer) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: v\ngame: saint_malo\nplayers: 2\n" + LOOPBACK)
    token = add(tmp_path / "ladder.db", "ada")
    with served(path, "--log-dir", str(tmp_path)) as api:
        submitted = api.request(
            "POST", "/bots", token, {"name": "r", "address": f"127.0.0.1:{bot_server.port}"}
        )
        assert submitted.status == 201 and submitted.body["status"] == "validating"
        deadline = time.monotonic() + 60
        while (mine := api.request("GET", "/bots", token).body)[0]["status"] == "validating":
            assert time.monotonic() < deadline, "not validated within a minute"
            time.sleep(0.2)
        assert mine[0]["status"] == "active" and mine[0]["reason"] is None
        board = api.request("GET", "/leaderboard").body
        assert [(b["name"], b["status"], b["games"]) for b in board] == [("r", "active", 0)]
