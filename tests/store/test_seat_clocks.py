"""Each seat's clock use is stored with its match (schema 8), and a schema 7 database, which had only
the replays, gets it from them when it is opened: the same rows and the same standings, on SQLite and
on PostgreSQL; a replay that cannot be decoded stops the migration and changes nothing."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from server.record import MatchRecord, SeatRecord, StepRecord
from server.store.database import StoreError
from server.store.location import Location, parse_location
from server.store.models import SCHEMA_VERSION
from server.store.repository import Placement, Store
from server.tournament.report import standing_rows

from ..servers.postgres import PostgresServer
from ..tournament.test_run import cli

TIMEOUT = "timeout: no reply within 1200 ms"


def decision(seq: int, seat: int, latency_us: int, strike: str | None = None) -> StepRecord:
    return StepRecord(
        seq, "keep", {}, seat=seat, decision_id=seq, source="bot", latency_us=latency_us, strike=strike
    )


def record(number: int) -> MatchRecord:
    """A match whose first seat overruns its decisions (and, in odd matches, times out) while the
    second answers at once; the seats swap entrants from one match to the next."""
    overrun = [decision(1, 0, 1_100_000 + number), decision(3, 0, 300_123)]
    if number % 2:
        overrun.append(decision(5, 0, 1_200_000, TIMEOUT))
    quick = [decision(2, 1, 40 + number), decision(4, 1, 55), decision(6, 1, 61)]
    names = ["a", "b"] if number % 2 == 0 else ["b", "a"]
    return MatchRecord(
        match_id=f"r{number}-t000-s0",
        game="saint_malo",
        seed=number,
        players=2,
        params={},
        time_control={"decision_ms": 1000, "bank_ms": 500},
        seats=[
            SeatRecord(
                0, names[0], score=2, rank=2, faults=[f"decision 5 (keep): {TIMEOUT}"] if number % 2 else []
            ),
            SeatRecord(1, names[1], score=5, rank=1),
        ],
        steps=[StepRecord(0, "chance", {"roll": [1, 2]}), *sorted(overrun + quick, key=lambda s: s.seq)],
        scores=[2, 5],
        ranks=[2, 1],
    )


def stored(location: Location, matches: int = 4) -> None:
    store = Store.open(location, create=True)
    try:
        tournament = store.create_tournament(
            name="t", game="saint_malo", fingerprint="f", bracket={}, seed=1, entrants=[("a", {}), ("b", {})]
        )
        assert tournament.id is not None
        for number in range(matches):
            entrants = [0, 1] if number % 2 == 0 else [1, 0]
            assert store.save_match(
                tournament.id, Placement(number, number + 1, 0, 0), record(number), entrants
            )
    finally:
        store.close()


def clocks_and_standings(location: Location) -> tuple[list[Any], list[dict[str, Any]]]:
    store = Store.open(location)
    try:
        with store.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT match_pk, seat, bank_used_ms, latencies FROM seat_clock ORDER BY match_pk, seat")
            ).all()
        return [tuple(row) for row in rows], standing_rows(store, 1)
    finally:
        store.close()


def test_a_seat_clock_holds_the_answer_times_and_the_bank_the_referee_ran(tmp_path: Path) -> None:
    stored(tmp_path / "t.db", matches=2)
    store = Store.open(tmp_path / "t.db")
    try:
        overran, quick, timed_out, _ = store.conduct(1)
    finally:
        store.close()
    assert overran.entrant == 0 and list(overran.latencies_us) == [300_123, 1_100_000]
    assert overran.bank_used_ms == 100.0  # 1100 ms against 1000 ms a decision
    assert quick.entrant == 1 and list(quick.latencies_us) == [40, 55, 61]
    assert quick.bank_used_ms == 0.0 and quick.faults == []
    assert timed_out.match_id == "r1-t000-s0" and timed_out.entrant == 1
    assert timed_out.bank_used_ms == 500.0 and timed_out.faults == [f"decision 5 (keep): {TIMEOUT}"]


def as_schema_7_sqlite(db: Path) -> None:
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("DROP TABLE seat_clock")
        connection.execute("UPDATE schema_info SET version = 7")
        connection.commit()


def test_a_schema_7_sqlite_database_gets_its_seat_clocks_from_its_replays(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    stored(db)
    before = clocks_and_standings(db)
    as_schema_7_sqlite(db)
    assert clocks_and_standings(db) == before and len(before[0]) == 8
    with closing(sqlite3.connect(db)) as connection:
        assert (
            connection.execute("SELECT version FROM schema_info").fetchall() == [(SCHEMA_VERSION,)] == [(9,)]
        )


def test_a_replay_that_cannot_be_decoded_stops_the_migration_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    stored(db)
    as_schema_7_sqlite(db)
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("UPDATE match_steps SET block = x'00' WHERE match_pk = 3")
        connection.commit()
    with pytest.raises(StoreError) as refused:
        Store.open(db)
    assert "cannot migrate to schema 8: corrupted replay data in match r2-t000-s0" in str(refused.value)
    assert "nothing was changed" in str(refused.value)
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("SELECT version FROM schema_info").fetchall() == [(7,)]
        assert connection.execute("SELECT name FROM sqlite_master WHERE name = 'seat_clock'").fetchall() == []


def test_a_schema_7_postgres_database_gets_its_seat_clocks_from_its_replays(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    stored(parse_location(url))
    before = clocks_and_standings(parse_location(url))
    postgres.execute("DROP TABLE seat_clock; UPDATE schema_info SET version = 7", url)
    assert clocks_and_standings(parse_location(url)) == before and len(before[0]) == 8
    assert postgres.execute("SELECT version FROM schema_info", url) == [(SCHEMA_VERSION,)]


def test_a_damaged_seat_clock_is_one_line_naming_its_seat(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    stored(db, matches=2)
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("UPDATE seat_clock SET latencies = x'0102' WHERE match_pk = 2 AND seat = 1")
        connection.commit()
    code, output = cli("standings", "--db", str(db))
    assert code == 1 and "Traceback" not in output
    assert len(output.splitlines()) == 1
    assert "corrupted decision times in seat 1 of match r1-t000-s0" in output
