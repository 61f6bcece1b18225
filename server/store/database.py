"""Opening a database: WAL mode, and a schema version that is checked, migrated or refused.

A file that is not ours, or written by a newer version, is refused with a clear
message before anything is written to it.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, text
from sqlmodel import Session, SQLModel, create_engine, select

from .models import APPLICATION_ID, SCHEMA_VERSION, SchemaInfo


def _decision_ids_per_seat(session: Session) -> None:
    """Schema 2: a decision id counts its seat's decisions only, as bots now see it."""
    session.execute(
        text(
            "UPDATE event SET decision_id = (SELECT n FROM (SELECT id, ROW_NUMBER() OVER "
            "(PARTITION BY match_pk, seat ORDER BY seq) AS n FROM event WHERE seat IS NOT NULL) AS numbered "
            "WHERE numbered.id = event.id) WHERE seat IS NOT NULL"
        )
    )


#: ``MIGRATIONS[v]`` upgrades a database at schema version ``v`` to ``v + 1``.
MIGRATIONS: dict[int, Callable[[Session], None]] = {1: _decision_ids_per_seat}


class StoreError(Exception):
    """The database cannot be used: missing, not ours, or from another schema version."""


def _pragmas(dbapi_connection: sqlite3.Connection, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def open_database(path: Path, *, create: bool) -> Engine:
    """An engine on ``path``; creates the schema if ``create`` and the file is new."""
    if not path.exists():
        if not create:
            raise StoreError(f"{path}: no such database")
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not _is_sqlite(path):
        raise StoreError(f"{path}: not a SQLite database")
    tables = _tables(path) if path.exists() else set()
    if tables:
        if "schema_info" not in tables:
            raise StoreError(f"{path}: not a smtourney database (it has no schema_info table)")
        _check_version(path)
    engine = create_engine(f"sqlite:///{path}")
    event.listen(engine, "connect", _pragmas)
    if not tables:
        if not create:
            raise StoreError(f"{path}: the database is empty")
        SQLModel.metadata.create_all(engine)
        with Session(engine) as session:
            session.add(SchemaInfo())
            session.commit()
    return engine


def _is_sqlite(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00" or path.stat().st_size == 0


def _tables(path: Path) -> set[str]:
    """Table names, read without changing the file (no pragmas, read-only)."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        try:
            return {
                row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a SQLite database ({exc})") from exc


def _check_version(path: Path) -> None:
    """Refuse a database that is not ours or is newer; migrate an older one."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        row = connection.execute("SELECT application, version FROM schema_info WHERE id = 1").fetchone()
    if row is None or row[0] != APPLICATION_ID:
        raise StoreError(f"{path}: not a smtourney database")
    if row[1] > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer smtourney (schema {row[1]}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade smtourney to use it"
        )
    if row[1] < SCHEMA_VERSION:
        _migrate(path)


def _migrate(path: Path) -> None:
    engine = create_engine(f"sqlite:///{path}")
    with Session(engine) as session:
        info = session.exec(select(SchemaInfo)).one()
        while info.version < SCHEMA_VERSION:
            migrate = MIGRATIONS.get(info.version)
            if migrate is None:
                raise StoreError(f"{path}: schema {info.version} is too old to migrate; nothing was changed")
            migrate(session)
            info.version += 1
            session.add(info)
        session.commit()
    engine.dispose()
