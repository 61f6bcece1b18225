"""A database written by the previous release (schema 2: one ``event`` row per step) is migrated when it
is opened, on SQLite and on PostgreSQL: every replay reads back exactly as that release read it, the
standings keep their values, ``verify`` re-simulates every match, and the database takes new matches.

``fixtures/schema2.db.gz`` is a tournament stored by that release (Saint Malo, a greedy bot against one
that answers illegally from its third Keep, so the replays hold strikes, replies and forfeits);
``fixtures/schema2.json`` holds what that release read from it: a SHA-256 of each match record's JSON
and the standings.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Boolean, DateTime, MetaData, Table, create_engine, insert
from sqlalchemy.engine import Connection

from server.record import MatchRecord
from server.store.location import Location, parse_location
from server.store.models import SCHEMA_VERSION
from server.store.repository import Placement, Store

from ..servers.postgres import PostgresServer
from ..tournament.test_run import cli

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "schema2.json").read_text())
TABLES = ("schema_info", "tournament", "entrant", "match", "seat", "event", "rating_snapshot")

# The ``event`` and ``rating_snapshot`` tables as the previous release made them on PostgreSQL; every
# other table is unchanged.
EVENT_TABLE = """
CREATE TABLE rating_snapshot (
    id SERIAL NOT NULL, tournament_id INTEGER NOT NULL, match_index INTEGER NOT NULL,
    entrant_id INTEGER NOT NULL, mu FLOAT NOT NULL, sigma FLOAT NOT NULL,
    PRIMARY KEY (id), FOREIGN KEY(tournament_id) REFERENCES tournament (id),
    FOREIGN KEY(entrant_id) REFERENCES entrant (id)
);
CREATE INDEX ix_rating_snapshot_tournament_id ON rating_snapshot (tournament_id);
CREATE INDEX ix_rating_snapshot_entrant_id ON rating_snapshot (entrant_id);
CREATE TABLE event (
    id SERIAL NOT NULL, match_pk INTEGER NOT NULL, seq INTEGER NOT NULL, kind VARCHAR NOT NULL,
    seat INTEGER, decision_id INTEGER, source VARCHAR NOT NULL, step_json VARCHAR NOT NULL,
    reply_json VARCHAR, latency_us BIGINT, strike VARCHAR,
    PRIMARY KEY (id), UNIQUE (match_pk, seq), FOREIGN KEY(match_pk) REFERENCES match (id)
);
CREATE INDEX ix_event_match_pk ON event (match_pk);
"""


def sqlite_copy(folder: Path) -> Path:
    path = folder / "previous.db"
    path.write_bytes(gzip.decompress((FIXTURES / "schema2.db.gz").read_bytes()))
    return path


def postgres_copy(postgres: PostgresServer, folder: Path) -> str:
    """The fixture's tables and rows in a new PostgreSQL database, as the previous release made them."""
    url = postgres.new_database()
    Store.open(parse_location(url), create=True).close()
    postgres.execute(f"DROP TABLE match_steps; {EVENT_TABLE}", url)
    engine = create_engine(postgres.location(url).url)
    try:
        with closing(sqlite3.connect(sqlite_copy(folder))) as source, engine.begin() as target:
            target.exec_driver_sql("DELETE FROM schema_info")
            for name in TABLES:
                _copy_rows(source, target, name)
    finally:
        engine.dispose()
    return url


def _copy_rows(source: sqlite3.Connection, target: Connection, name: str) -> None:
    table = Table(name, MetaData(), autoload_with=target)
    cursor = source.execute(f"SELECT * FROM {name}")
    columns = [column[0] for column in cursor.description]
    rows = [dict(zip(columns, row, strict=True)) for row in cursor]
    for column in table.columns:
        for row in rows:
            if isinstance(column.type, Boolean):
                row[column.name] = bool(row[column.name])
            elif isinstance(column.type, DateTime):
                row[column.name] = datetime.fromisoformat(row[column.name])
    target.execute(insert(table), rows)
    if "id" in table.columns and name != "schema_info":
        target.exec_driver_sql(
            f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT MAX(id) FROM {name}))"
        )


def record_hash(record: MatchRecord) -> str:
    """The hash of the record as the previous release wrote it: record format 2, whose steps had no
    ``asked_at`` (format 3 adds it, empty for every decision asked alone, as all of these were)."""
    data = record.to_json()
    assert data.pop("format") == 3 and all(step.pop("asked_at") is None for step in data["steps"])
    return hashlib.sha256(json.dumps({**data, "format": 2}, sort_keys=True).encode()).hexdigest()


def check_migrated(location: Location, db: str) -> None:
    store = Store.open(location)
    try:
        tournament = store.tournament()
        assert tournament is not None and tournament.id is not None
        assert tournament.name == EXPECTED["tournament"]
        records = {
            m.match_id: store.load_record(tournament.id, m.match_id) for m, _ in store.matches(tournament.id)
        }
        assert {match_id: record_hash(r) for match_id, r in records.items() if r is not None} == EXPECTED[
            "records"
        ]

        # New matches go in beside the migrated ones, and read back whole.
        record = records["r1-t000-s0"]
        assert record is not None
        record.match_id = "r2-t000-s0"
        assert store.save_match(tournament.id, Placement(2, 2, 0, 0), record, [0, 1])
        again = store.load_record(tournament.id, "r2-t000-s0")
        assert again is not None and again.to_json() == record.to_json()
    finally:
        store.close()
    code, output = cli("standings", "--db", db, "--json")
    assert code == 0
    two_more = {s["name"]: s["matches"] for s in json.loads(output)}
    assert two_more == {s["name"]: s["matches"] + 1 for s in EXPECTED["standings"]}
    code, output = cli("verify", "--db", db)
    assert code == 0, output
    assert "3 matches checked, 3 ok, 0 failed" in output


def previous_keys(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standings rows with only the keys the previous release printed (later releases add more)."""
    keys = EXPECTED["standings"][0].keys()
    return [{key: row[key] for key in keys} for row in rows]


def test_a_previous_sqlite_database_is_migrated_and_reads_as_before(tmp_path: Path) -> None:
    path = sqlite_copy(tmp_path)
    code, output = cli("standings", "--db", str(path), "--json")
    assert code == 0 and previous_keys(json.loads(output)) == EXPECTED["standings"]
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT version FROM schema_info").fetchall() == [(SCHEMA_VERSION,)]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    assert "event" not in tables and "rating_snapshot" not in tables and "match_steps" in tables
    check_migrated(path, str(path))


def test_a_previous_postgres_database_is_migrated_and_reads_as_before(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres_copy(postgres, tmp_path)
    assert postgres.execute("SELECT version FROM schema_info", url) == [(2,)]
    code, output = cli("standings", "--db", url, "--json")
    assert code == 0 and previous_keys(json.loads(output)) == EXPECTED["standings"]
    assert postgres.execute("SELECT version FROM schema_info", url) == [(SCHEMA_VERSION,)]
    assert postgres.execute("SELECT to_regclass('event'), to_regclass('rating_snapshot')", url) == [
        (None, None)
    ]
    check_migrated(parse_location(url), url)


def test_a_migration_that_meets_a_corrupted_step_changes_nothing(tmp_path: Path) -> None:
    path = sqlite_copy(tmp_path)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE event SET step_json = '{not json' WHERE seq = 7 AND match_pk = 2")
        connection.commit()
    before = path.read_bytes()
    code, output = cli("standings", "--db", str(path))
    assert code == 1 and output.count("\n") == 1
    assert "cannot migrate to schema 3: corrupted replay data in event 7 of match r1-t000-s1" in output
    assert path.read_bytes() == before


def test_the_fixture_is_the_previous_schema_with_every_kind_of_step(tmp_path: Path) -> None:
    with closing(sqlite3.connect(sqlite_copy(tmp_path))) as connection:
        assert connection.execute("SELECT application, version FROM schema_info").fetchall() == [
            ("smtourney", 2)
        ]
        sources = connection.execute(
            "SELECT source, COUNT(*), COUNT(reply_json), COUNT(strike) FROM event "
            "GROUP BY source ORDER BY source"
        ).fetchall()
    assert sources == [
        ("bot", 403, 0, 0),
        ("chance", 300, 0, 0),
        ("default", 6, 6, 6),
        ("fallback", 266, 0, 0),
    ]
