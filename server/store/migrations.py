"""Schema versions, whatever the database: refusing what is not ours or is newer, and
upgrading an older schema step by step. The SQL here is standard, for SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import text
from sqlmodel import Session, select

from .models import APPLICATION_ID, SCHEMA_VERSION, SchemaInfo
from .probe import Contents

__all__ = ["MIGRATIONS", "SchemaError", "check_schema", "migrate"]


class SchemaError(Exception):
    """The database is not ours, is newer, or is too old; the message is one line."""


def _decision_ids_per_seat(session: Session) -> None:
    """Schema 2: a decision id counts its seat's decisions only, as bots now see it."""
    session.execute(
        text(
            "UPDATE event SET decision_id = (SELECT n FROM (SELECT id, ROW_NUMBER() OVER "
            "(PARTITION BY match_pk, seat ORDER BY seq) AS n FROM event WHERE seat IS NOT NULL) AS numbered "
            "WHERE numbered.id = event.id) WHERE seat IS NOT NULL"
        )
    )


def _simultaneous_decisions(session: Session) -> None:
    """Schema 3: a decision asked together with others records where its group began."""
    session.execute(text("ALTER TABLE event ADD COLUMN asked_at INTEGER"))


#: ``MIGRATIONS[v]`` upgrades a database at schema version ``v`` to ``v + 1``.
MIGRATIONS: dict[int, Callable[[Session], None]] = {1: _decision_ids_per_seat, 2: _simultaneous_decisions}


def check_schema(contents: Contents) -> bool:
    """Refuse a database that is not ours or is newer; True if it is older and needs :func:`migrate`."""
    if "schema_info" not in contents.tables:
        raise SchemaError("not a smtourney database (it has no schema_info table)")
    if contents.schema is None or contents.schema[0] != APPLICATION_ID:
        raise SchemaError("not a smtourney database")
    version = contents.schema[1]
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"written by a newer smtourney (schema {version}; this one reads up to {SCHEMA_VERSION}); "
            "upgrade smtourney to use it"
        )
    return version < SCHEMA_VERSION


def migrate(session: Session) -> None:
    """Upgrade to :data:`SCHEMA_VERSION` in one transaction, or refuse and change nothing."""
    info = session.exec(select(SchemaInfo)).one()
    while info.version < SCHEMA_VERSION:
        step = MIGRATIONS.get(info.version)
        if step is None:
            session.rollback()
            raise SchemaError(f"schema {info.version} is too old to migrate; nothing was changed")
        step(session)
        info.version += 1
        session.add(info)
    session.commit()
