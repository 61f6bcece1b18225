"""The organiser's commands on real database files: tokens shown once and kept hashed, refusals
that change nothing, and schema 4 reached from schema 3 on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

from server.ladder.store import LadderStore
from server.store.location import parse_location
from server.store.models import SCHEMA_VERSION
from server.store.repository import Store

from ..servers.postgres import PostgresServer
from .conftest import cli

LADDER_TABLES = {"ladder_participant", "ladder_bot", "ladder_match", "ladder_seat"}


def add(db: Path | str, name: str) -> str:
    code, output = cli("ladder", "add-participant", name, "--db", str(db))
    assert code == 0, output
    return output.splitlines()[-1]


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute(sql).fetchall()


def test_a_new_participant_token_is_printed_once_alone_and_stored_hashed(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    token = add(db, "ada")
    other = add(db, "grâce")
    assert token.startswith("smt_") and len(token) > 40 and token != other
    stored = rows(db, "SELECT name, token_hash FROM ladder_participant ORDER BY id")
    assert stored == [
        ("ada", hashlib.sha256(token.encode()).hexdigest()),
        ("grâce", hashlib.sha256(other.encode()).hexdigest()),
    ]
    assert token.encode() not in db.read_bytes()


def test_a_taken_or_unknown_name_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    add(db, "ada")
    before = rows(db, "SELECT * FROM ladder_participant")
    for args, message in [
        (("add-participant", "ada"), "error: there is already a participant named 'ada'\n"),
        (("add-participant", "  "), "error: a participant name must not be empty\n"),
        (("add-participant", "x" * 65), "error: a participant name may have at most 64 characters, got 65\n"),
        (
            ("add-participant", "a\tb"),
            "error: a participant name cannot hold a newline, tab or other control character\n",
        ),
        (("remove-participant", "bob"), "error: no participant named 'bob'\n"),
        (("pause", "bob"), "error: no participant named 'bob'\n"),
        (("retire", "ada/none"), "error: ada has no bot named 'none'\n"),
        (("retire", "none"), "error: name the bot as PARTICIPANT/BOT, got 'none'\n"),
    ]:
        assert cli("ladder", *args, "--db", str(db)) == (1, message)
    assert rows(db, "SELECT * FROM ladder_participant") == before


def test_a_missing_database_is_not_created_by_a_change(tmp_path: Path) -> None:
    code, output = cli("ladder", "pause", "ada", "--db", str(tmp_path / "none.db"))
    assert code == 1 and "none.db: no such database" in output and not (tmp_path / "none.db").exists()


def test_pause_resume_retire_and_remove(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    add(db, "ada")
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        (ada,) = ladder.participants()
        assert ada.id is not None
        for name in ("one", "two"):
            ladder.add_bot(ada.id, name, {"address": "127.0.0.1:1"}, mu=25, sigma=8)
    assert cli("ladder", "pause", "ada", "--db", str(db)) == (0, "participant ada paused\n")
    assert rows(db, "SELECT paused FROM ladder_participant") == [(1,)]
    assert cli("ladder", "resume", "ada", "--db", str(db)) == (0, "participant ada resumed\n")
    assert rows(db, "SELECT paused FROM ladder_participant") == [(0,)]
    assert cli("ladder", "retire", "ada/one", "--db", str(db)) == (0, "bot ada/one retired\n")
    assert rows(db, "SELECT name, status FROM ladder_bot ORDER BY id") == [
        ("one", "retired"),
        ("two", "validating"),
    ]
    assert cli("ladder", "remove-participant", "ada", "--db", str(db)) == (
        0,
        "participant ada removed; 1 bot(s) retired\n",
    )
    assert rows(db, "SELECT status FROM ladder_bot") == [("retired",), ("retired",)]
    assert rows(db, "SELECT removed FROM ladder_participant") == [(1,)]


def test_a_schema_3_sqlite_database_gets_the_ladder_tables(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    Store.open(db, create=True).close()
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("DROP TABLE ladder_refused_upload")  # of schema 7
        for table in sorted(LADDER_TABLES, reverse=True):
            connection.execute(f"DROP TABLE {table}")
        connection.execute("UPDATE schema_info SET version = 3")
        connection.commit()
    add(db, "ada")
    assert rows(db, "SELECT version FROM schema_info") == [(SCHEMA_VERSION,)] and SCHEMA_VERSION == 9
    tables = {row[0] for row in rows(db, "SELECT name FROM sqlite_schema WHERE type = 'table'")}
    assert tables >= LADDER_TABLES
    assert rows(db, "SELECT name FROM ladder_participant") == [("ada",)]


def test_a_schema_3_postgres_database_gets_the_ladder_tables(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    Store.open(parse_location(url), create=True).close()
    for table in ("ladder_refused_upload", "ladder_seat", "ladder_match", "ladder_bot", "ladder_participant"):
        postgres.execute(f"DROP TABLE {table}", url)
    postgres.execute("UPDATE schema_info SET version = 3", url)
    token = add(url, "ada")
    assert postgres.execute("SELECT version FROM schema_info", url) == [(SCHEMA_VERSION,)]
    assert postgres.execute("SELECT name, token_hash FROM ladder_participant", url) == [
        ("ada", hashlib.sha256(token.encode()).hexdigest())
    ]
    assert cli("ladder", "retire", "ada/x", "--db", url) == (1, "error: ada has no bot named 'x'\n")


def test_each_matchmaking_decision_is_stored_with_the_ratings_it_used(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    add(db, "ada")
    add(db, "grace")
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        ada, grace = (p.id for p in ladder.participants())
        assert ada is not None and grace is not None
        for owner, name, mu in [
            (ada, "a1", 30.0),
            (ada, "a2", 20.0),
            (grace, "g1", 26.0),
            (grace, "g2", 25.0),
        ]:
            ladder.add_bot(owner, name, {"address": "127.0.0.1:1"}, mu=mu, sigma=5.0)
    with closing(sqlite3.connect(db)) as connection:  # as validation will leave them
        connection.execute("UPDATE ladder_bot SET status = 'active' WHERE name != 'a2'")
        connection.execute("UPDATE ladder_bot SET games = 3 WHERE name != 'g1'")
        connection.commit()
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        decided = ladder.decide(2, candidates=8, min_quality=0, seed=5)
        assert decided is not None
        match_id, table = decided
        assert table.focus.mu == 26.0  # g1: fewest games; a2 is not active
        ((match, seats),) = ladder.decisions()
        assert match.id == match_id and match.status == "scheduled" and match.quality == table.quality
        assert [(seat.seat, seat.mu, seat.sigma) for seat in seats] == [(0, 26.0, 5.0), (1, 25.0, 5.0)]
        assert match.seed != 5 and match.seed == ladder.decisions()[0][0].seed
    assert cli("ladder", "pause", "grace", "--db", str(db))[0] == 0
    with closing(Store.open(db)) as store:
        ladder = LadderStore(store)
        assert ladder.decide(2, candidates=8, min_quality=0, seed=5) is None  # only a1 is left
        assert len(ladder.decisions()) == 1
