"""Rating histories have one source of truth, the stored results: no table holds a copy (schema 6),
and a schema 5 database, which had one (``rating_snapshot``), loses it and keeps its matches."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from server.store.location import Location, parse_location
from server.store.models import SCHEMA_VERSION
from server.store.repository import Placement, Store

from ..servers.postgres import PostgresServer
from .test_postgres import SEED, record

SCHEMA_5_TABLE = (
    "CREATE TABLE rating_snapshot (id INTEGER PRIMARY KEY, tournament_id INTEGER NOT NULL "
    "REFERENCES tournament (id), match_index INTEGER NOT NULL, entrant_id INTEGER NOT NULL "
    "REFERENCES entrant (id), mu FLOAT NOT NULL, sigma FLOAT NOT NULL)"
)
SNAPSHOT_ROW = (
    "INSERT INTO rating_snapshot (id, tournament_id, match_index, entrant_id, mu, sigma) "
    "VALUES (1, 1, 0, 1, 26.0, 7.0)"
)


def stored_match(location: Location) -> None:
    """A database of today's schema holding one tournament and its one match."""
    store = Store.open(location, create=True)
    tournament = store.create_tournament(
        name="t", game="saint_malo", fingerprint="f", bracket={}, seed=SEED, entrants=[("a", {}), ("b", {})]
    )
    assert tournament.id == 1 and store.save_match(tournament.id, Placement(0, 1, 0, 0), record(), [0, 1])
    store.close()


def results_after_reopening(location: Location) -> list[str]:
    store = Store.open(location)
    try:
        return [result.match_id for result in store.results(1)]
    finally:
        store.close()


def test_a_new_sqlite_database_has_no_rating_table_and_a_schema_5_one_loses_it(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    stored_match(db)
    with closing(sqlite3.connect(db)) as connection:
        assert (
            connection.execute("SELECT name FROM sqlite_master WHERE name = 'rating_snapshot'").fetchall()
            == []
        )
        connection.execute("DROP TABLE seat_clock")  # of schema 8
        connection.execute(SCHEMA_5_TABLE)
        connection.execute(SNAPSHOT_ROW)
        connection.execute("UPDATE schema_info SET version = 5")
        connection.commit()
    assert results_after_reopening(db) == ["r1-t000-s0"]
    with closing(sqlite3.connect(db)) as connection:
        assert (
            connection.execute("SELECT version FROM schema_info").fetchall() == [(SCHEMA_VERSION,)] == [(9,)]
        )
        assert (
            connection.execute("SELECT name FROM sqlite_master WHERE name = 'rating_snapshot'").fetchall()
            == []
        )


def test_a_schema_5_postgres_database_loses_its_rating_table(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    stored_match(parse_location(url))
    postgres.execute(
        f"DROP TABLE seat_clock; {SCHEMA_5_TABLE}; {SNAPSHOT_ROW}; UPDATE schema_info SET version = 5", url
    )
    assert results_after_reopening(parse_location(url)) == ["r1-t000-s0"]
    assert postgres.execute("SELECT version FROM schema_info", url) == [(SCHEMA_VERSION,)]
    tables = {
        row[0] for row in postgres.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", url)
    }
    assert "rating_snapshot" not in tables and "match" in tables
