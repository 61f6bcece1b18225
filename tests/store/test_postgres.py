"""PostgreSQL as a store, on a real server: the same refusals, creation, version checks, unique
constraints and round trips as a SQLite file, and every reading command on it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from server.record import MatchRecord, SeatRecord, StepRecord
from server.store.database import StoreError
from server.store.location import DatabaseUrl, LocationError, parse_location
from server.store.models import SCHEMA_VERSION, Match
from server.store.repository import Placement, Store

from ..servers.postgres import PostgresServer
from ..tournament.test_run import cli

SEED = 2**63 - 1  # the largest seed a bracket allows: wider than PostgreSQL's INTEGER


def record(match_id: str = "r1-t000-s0", bot: str = "greedy 1.0") -> MatchRecord:
    return MatchRecord(
        match_id=match_id,
        game="saint_malo",
        seed=SEED,
        players=2,
        params={},
        time_control={"decision_ms": 1000, "bank_ms": 0},
        seats=[
            SeatRecord(0, "a", bot=bot, score=3, rank=1, strikes=1, faults=["late\0"], time_used_ms=1.5),
            SeatRecord(1, "b", bot="b", score=1, rank=2, forfeited=True, forfeit_reason="gone\0"),
        ],
        steps=[
            StepRecord(0, "chance", {"roll": [1, 2]}),
            StepRecord(
                1, "place", {"x": 1}, seat=0, decision_id=1, source="default", strike="bad\0", latency_us=7
            ),
        ],
        scores=[3, 1],
        ranks=[1, 2],
        duration_s=0.25,
    )


def new_store(postgres: PostgresServer) -> tuple[Store, int]:
    store = Store.open(parse_location(postgres.new_database()), create=True)
    tournament = store.create_tournament(
        name="t", game="saint_malo", fingerprint="f", bracket={}, seed=SEED, entrants=[("a", {}), ("b", {})]
    )
    assert tournament.id is not None
    return store, tournament.id


def test_a_match_round_trips_with_a_63_bit_seed(postgres: PostgresServer) -> None:
    store, tournament = new_store(postgres)
    try:
        assert store.save_match(tournament, Placement(0, 1, 0, 0), record(), [0, 1])
        loaded = store.load_record(tournament, "r1-t000-s0")
        assert loaded is not None and loaded.seed == SEED
        expected = record()
        # PostgreSQL text cannot hold NUL: a bot's own words keep everything else (JSON columns keep NUL).
        expected.seats[1].forfeit_reason = "gone\ufffd"
        expected.steps[1].strike = "bad\ufffd"
        expected.seats[0].name, expected.seats[1].name = "a", "b"
        assert loaded.to_json() == expected.to_json()
        assert [r.scores for r in store.results(tournament)] == [(3, 1)]
    finally:
        store.close()


def test_a_match_is_stored_once_and_constraints_refuse_duplicates(postgres: PostgresServer) -> None:
    store, tournament = new_store(postgres)
    try:
        assert store.save_match(tournament, Placement(0, 1, 0, 0), record(), [0, 1])
        assert not store.save_match(tournament, Placement(0, 1, 0, 0), record(), [0, 1])
        assert not store.save_match(tournament, Placement(1, 1, 0, 1), record(), [0, 1])  # same match id
        assert store.finished_match_ids(tournament) == {"r1-t000-s0"}
        row = {
            "tournament_id": tournament, "match_id": "other", "index": 0, "round": 1, "table_no": 0,
            "rotation": 1, "seed": 1, "status": "done", "players": 2, "params_json": "{}",
            "time_control_json": "{}", "end_reason": "completed", "summary_json": "{}", "duration_s": 0.0,
            "finished_at": datetime.now(UTC),
        }  # fmt: skip
        with store.engine.begin() as connection, pytest.raises(IntegrityError):
            connection.execute(insert(Match), [row])  # same schedule index
    finally:
        store.close()


def test_foreign_newer_and_empty_databases_are_refused(postgres: PostgresServer) -> None:
    foreign = postgres.new_database()
    postgres.execute("CREATE TABLE notes (text TEXT)", foreign)
    with pytest.raises(StoreError, match="not a smtourney database"):
        Store.open(parse_location(foreign), create=True)

    other = postgres.new_database()
    postgres.execute(
        "CREATE TABLE schema_info (id INTEGER PRIMARY KEY, application TEXT, version INTEGER)", other
    )
    postgres.execute("INSERT INTO schema_info VALUES (1, 'someone-else', 1)", other)
    with pytest.raises(StoreError, match=r"not a smtourney database$"):
        Store.open(parse_location(other), create=True)

    newer = postgres.new_database()
    Store.open(parse_location(newer), create=True).close()
    postgres.execute("UPDATE schema_info SET version = version + 1", newer)
    with pytest.raises(StoreError, match="written by a newer smtourney"):
        Store.open(parse_location(newer), create=True)

    empty = postgres.new_database()
    code, output = cli("standings", "--db", empty)
    assert (code, output) == (1, f"error: {empty}: the database is empty\n")
    assert postgres_tables(postgres, empty) == set()  # reading created nothing


def postgres_tables(postgres: PostgresServer, url: str) -> set[object]:
    return {
        row[0] for row in postgres.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", url)
    }


def test_an_older_schema_is_migrated(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    Store.open(parse_location(url), create=True).close()
    postgres.execute("ALTER TABLE event DROP COLUMN asked_at", url)  # as schema 1 and 2 had it
    postgres.execute("UPDATE schema_info SET version = 1", url)
    code, output = cli("standings", "--db", url)
    assert code == 1 and "no tournament" in output  # opened: migrated, not refused
    assert postgres.execute("SELECT version FROM schema_info", url) == [(SCHEMA_VERSION,)]


def test_two_runs_creating_one_database_at_once_both_succeed(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    failures: list[BaseException] = []

    def create() -> None:
        try:
            Store.open(parse_location(url), create=True).close()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert "schema_info" in postgres_tables(postgres, url)


def test_unreachable_servers_and_bad_urls_are_one_line(postgres: PostgresServer, tmp_path: Path) -> None:
    missing = postgres.url("no_such_db")
    code, output = cli("matches", "--db", missing)
    assert code == 1 and output.count("\n") == 1
    assert output.startswith(f"error: {missing}: cannot use the database") and "does not exist" in output

    nowhere = f"postgresql://someone:secret@/db?host={tmp_path}"
    code, output = cli("standings", "--db", nowhere)
    assert code == 1 and output.count("\n") == 1 and "secret" not in output and "***" in output

    code, output = cli("standings", "--db", "postgresql://host-only/")
    assert code == 2 and "names no database" in output
    with pytest.raises(LocationError):
        parse_location("postgresql://[::1")


def test_only_urls_are_parsed(tmp_path: Path) -> None:
    assert parse_location("results/x.db?#") == Path("results/x.db?#")
    assert parse_location("./postgresql:/x") == Path("postgresql:/x")
    location = parse_location("postgres://me@db.example.org:5433/league")
    assert isinstance(location, DatabaseUrl)
    assert location.url.drivername == "postgresql+psycopg" and location.name == "league"
