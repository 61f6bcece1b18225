"""A score may be a fraction (schema 9): stored and read back exactly on SQLite and PostgreSQL, whole
scores still read back as ints, and a schema 8 database, whose score column held integers, takes
fractions once opened."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from server.record import MatchRecord, SeatRecord
from server.store.location import Location, parse_location
from server.store.repository import Placement, Store

from ..servers.postgres import PostgresServer
from ..tournament.test_run import cli
from .test_previous_release import sqlite_copy

#: A split pot's returns: not one of them is a binary fraction, so any rounding shows.
SPLIT = [-0.1, 1 / 3, -0.2333333333333333]


def record(number: int, scores: list[float]) -> MatchRecord:
    return MatchRecord(
        match_id=f"r{number}-t000-s0",
        game="saint_malo",
        seed=number,
        players=3,
        params={},
        time_control={"decision_ms": 1000, "bank_ms": 0},
        seats=[
            SeatRecord(seat, name, score=score, rank=1)
            for seat, (name, score) in enumerate(zip("abc", scores, strict=True))
        ],
        scores=scores,
        ranks=[1, 1, 1],
    )


def store_two(location: Location, create: bool = True) -> Store:
    """A new tournament holding one match of fractions and one of whole scores."""
    store = Store.open(location, create=create)
    tournament = store.create_tournament(
        name="fractions",
        game="saint_malo",
        fingerprint="f",
        bracket={},
        seed=1,
        entrants=[("a", {}), ("b", {}), ("c", {})],
    )
    assert tournament.id is not None
    matches: list[list[float]] = [SPLIT, [3, -2, 0]]
    for number, scores in enumerate(matches):
        assert store.save_match(
            tournament.id, Placement(number, number + 1, 0, 0), record(number, scores), [0, 1, 2]
        )
    return store


def check_exact(store: Store) -> None:
    tournament = next(t for t in store.tournaments() if t.name == "fractions")
    assert tournament.id is not None
    split = store.load_record(tournament.id, "r0-t000-s0")
    whole = store.load_record(tournament.id, "r1-t000-s0")
    assert split is not None and whole is not None
    assert split.scores == SPLIT and [seat.score for seat in split.seats] == SPLIT
    assert whole.scores == [3, -2, 0] and all(type(score) is int for score in whole.scores)
    assert [result.scores for result in store.results(tournament.id)] == [tuple(SPLIT), (3, -2, 0)]


def test_fractions_and_whole_scores_read_back_exactly_from_sqlite(tmp_path: Path) -> None:
    store = store_two(tmp_path / "t.db")
    try:
        check_exact(store)
    finally:
        store.close()
    code, output = cli("standings", "--db", str(tmp_path / "t.db"), "--json")
    assert code == 0, output
    means = {row["name"]: row["mean_score"] for row in json.loads(output)}
    assert means == {"a": 1.45, "b": -0.8333, "c": -0.1167}  # (-0.1 + 3) / 2, (1/3 - 2) / 2, ...
    code, output = cli("standings", "--db", str(tmp_path / "t.db"))
    assert code == 0 and all(f" {mean} " in output for mean in ("1.45", "-0.83", "-0.12")), output


def test_fractions_read_back_exactly_from_postgres(postgres: PostgresServer) -> None:
    store = store_two(parse_location(postgres.new_database()))
    try:
        check_exact(store)
    finally:
        store.close()


def test_a_schema_8_postgres_database_takes_fractions_once_opened(postgres: PostgresServer) -> None:
    url = postgres.new_database()
    Store.open(parse_location(url), create=True).close()
    postgres.execute(
        "ALTER TABLE seat ALTER COLUMN score TYPE INTEGER; UPDATE schema_info SET version = 8", url
    )
    store = store_two(parse_location(url), create=False)
    try:
        check_exact(store)
    finally:
        store.close()
    assert postgres.execute(
        "SELECT data_type FROM information_schema.columns "
        "WHERE table_name = 'seat' AND column_name = 'score'",
        url,
    ) == [("double precision",)]


def test_an_old_sqlite_database_keeps_fractions_in_its_integer_column(tmp_path: Path) -> None:
    """SQLite's INTEGER column (every database made before schema 9) stores a fraction as a REAL."""
    db = sqlite_copy(tmp_path)
    store = store_two(db, create=False)
    try:
        check_exact(store)
    finally:
        store.close()
    with closing(sqlite3.connect(db)) as connection:
        (declared,) = connection.execute(
            "SELECT type FROM pragma_table_info('seat') WHERE name = 'score'"
        ).fetchone()
        assert declared == "INTEGER"
