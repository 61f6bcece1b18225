"""The live feed in the store (schema 5), on a SQLite file and on a real PostgreSQL server: a run's
progress, matches in flight and their steps in batches, removed in the transaction that stores the
match and cleared when a run starts or ends; a schema 4 database migrates and keeps its matches; the
writer batches steps and never stops a match over a database it cannot reach."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from server.record import StepRecord
from server.store.live import LiveFeed
from server.store.location import Location, parse_location
from server.store.models import LIVE_TABLES, SCHEMA_VERSION
from server.store.repository import Placement, Store
from server.tournament.live_writer import LiveTarget, LiveWriter

from ..servers.postgres import PostgresServer
from .test_postgres import SEED, record


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Location:
    if request.param == "sqlite":
        return tmp_path / "live.db"
    postgres: PostgresServer = request.getfixturevalue("postgres")
    return parse_location(postgres.new_database())


@pytest.fixture
def feed(location: Location) -> Iterator[tuple[LiveFeed, int]]:
    store = LiveFeed.open(location, create=True)
    tournament = store.create_tournament(
        name="t", game="saint_malo", fingerprint="f", bracket={}, seed=SEED, entrants=[("a", {}), ("b", {})]
    )
    assert tournament.id is not None
    try:
        yield store, tournament.id
    finally:
        store.close()


def _start(feed: LiveFeed, tournament: int, match_id: str = "r1-t000-s0") -> int:
    return feed.start_match(
        tournament, match_id, params={"x": 1}, seats=("a", "b"), started_at=datetime.now(UTC)
    )


def test_a_match_in_flight_is_listed_with_its_steps_until_it_is_stored(feed: tuple[LiveFeed, int]) -> None:
    store, tournament = feed
    store.begin_run(tournament, 6, 0)
    run = store.run(tournament)
    assert run is not None and (run.total, run.stored_at_start) == (6, 0)
    live = _start(store, tournament)
    store.append_steps(
        live, 0, [[0, "chance", None, "chance", {"roll": [1]}], [1, "keep", 0, "bot", {"k": 2}]]
    )
    store.append_steps(live, 2, [[2, "keep", 1, "default", {"k": 3}]])
    (row,) = store.in_flight(tournament)
    assert (row.match_id, row.seats, row.players, row.params, row.steps) == (
        "r1-t000-s0",
        ["a", "b"],
        2,
        {"x": 1},
        3,
    )
    assert [step[0] for step in store.steps(tournament, "r1-t000-s0")] == [0, 1, 2]
    assert store.steps(tournament, "r1-t000-s0", 1) == [
        [1, "keep", 0, "bot", {"k": 2}],
        [2, "keep", 1, "default", {"k": 3}],
    ]
    assert store.steps(tournament, "r1-t000-s0", 3) == []
    store.scheduled(tournament, 8)
    assert store.run(tournament).total == 8  # type: ignore[union-attr]

    assert store.save_match(tournament, Placement(0, 1, 0, 0), record(), [0, 1])
    assert store.in_flight(tournament) == [] and store.in_flight_match(tournament, "r1-t000-s0") is None
    assert store.steps(tournament, "r1-t000-s0") == []
    store.end_run(tournament)
    assert store.run(tournament) is None


def test_steps_after_a_batch_that_was_never_written_are_not_shown(feed: tuple[LiveFeed, int]) -> None:
    store, tournament = feed
    live = _start(store, tournament)
    store.append_steps(live, 0, [[0, "chance", None, "chance", {}]])
    store.append_steps(live, 5, [[5, "chance", None, "chance", {}]])  # steps 1 to 4 are missing
    assert [step[0] for step in store.steps(tournament, "r1-t000-s0")] == [0]


def test_a_new_run_clears_what_a_killed_one_left_in_flight(feed: tuple[LiveFeed, int]) -> None:
    store, tournament = feed
    store.begin_run(tournament, 6, 0)
    live = _start(store, tournament)
    store.append_steps(live, 0, [[0, "chance", None, "chance", {}]])
    store.begin_run(tournament, 6, 2)  # the next run: the match is played again from its start
    assert store.in_flight(tournament) == [] and store.run(tournament).stored_at_start == 2  # type: ignore[union-attr]
    again = _start(store, tournament)
    store.append_steps(again, 0, [[0, "chance", None, "chance", {"again": True}]])
    assert store.steps(tournament, "r1-t000-s0") == [[0, "chance", None, "chance", {"again": True}]]
    store.end_run(tournament)
    assert store.in_flight(tournament) == [] and store.run(tournament) is None


def test_the_writer_keeps_steps_until_a_batch_is_due(feed: tuple[LiveFeed, int], location: Location) -> None:
    store, tournament = feed
    writer = LiveWriter()
    try:
        match = writer.match(LiveTarget(location, tournament), "r1-t000-s0", ("a", "b"), {})
        assert match is not None
        for seq in range(10):
            match.on_step(None, StepRecord(seq, "chance", {"n": seq}))
        assert store.in_flight(tournament) == []  # a short match costs the store nothing
        match.due = 0.0  # the batch is due: the next step writes all of them at once
        match.on_step(None, StepRecord(10, "keep", {"n": 10}, seat=1, source="bot"))
        (row,) = store.in_flight(tournament)
        assert row.steps == 11 and row.seats == ["a", "b"]
        steps = store.steps(tournament, "r1-t000-s0")
        assert [s[0] for s in steps] == list(range(11)) and steps[10] == [10, "keep", 1, "bot", {"n": 10}]
    finally:
        writer.close()


def test_a_worker_that_cannot_reach_the_database_plays_without_a_feed(tmp_path: Path) -> None:
    writer = LiveWriter()
    assert writer.match(LiveTarget(tmp_path / "elsewhere.db", 1), "m", ("a",), {}) is None


def test_a_schema_4_sqlite_database_gets_the_live_tables(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    store = Store.open(db, create=True)
    tournament = store.create_tournament(
        name="t", game="saint_malo", fingerprint="f", bracket={}, seed=SEED, entrants=[("a", {}), ("b", {})]
    )
    assert tournament.id is not None and store.save_match(
        tournament.id, Placement(0, 1, 0, 0), record(), [0, 1]
    )
    store.close()
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("DROP TABLE seat_clock")  # of schema 8
        for table in reversed(LIVE_TABLES):
            connection.execute(f"DROP TABLE {table.__tablename__}")
        connection.execute("UPDATE schema_info SET version = 4")
        connection.commit()
    feed = LiveFeed.open(db)
    try:
        assert feed.in_flight(tournament.id) == [] and feed.finished_match_ids(tournament.id) == {
            "r1-t000-s0"
        }
        assert feed.load_record(tournament.id, "r1-t000-s0") is not None
    finally:
        feed.close()
    with closing(sqlite3.connect(db)) as connection:
        assert (
            connection.execute("SELECT version FROM schema_info").fetchall() == [(SCHEMA_VERSION,)] == [(9,)]
        )


def test_a_schema_4_postgres_database_gets_the_live_tables(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    Store.open(parse_location(url), create=True).close()
    postgres.execute("DROP TABLE live_steps; DROP TABLE live_match; DROP TABLE live_run", url)
    postgres.execute("UPDATE schema_info SET version = 4", url)
    feed = LiveFeed.open(parse_location(url))
    try:
        assert feed.tournaments() == []
    finally:
        feed.close()
    assert postgres.execute("SELECT version FROM schema_info", url) == [(SCHEMA_VERSION,)]
    tables = {
        row[0] for row in postgres.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", url)
    }
    assert {"live_run", "live_match", "live_steps"} <= tables
