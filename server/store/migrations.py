"""Schema versions, whatever the database: refusing what is not ours or is newer, and
upgrading an older schema step by step. The SQL here is standard, for SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from sqlalchemy import insert, text
from sqlalchemy.exc import NoResultFound
from sqlmodel import Session, SQLModel, select

from server.clock_use import clock_uses
from server.record import StepRecord
from server.steps_block import BlockError, decode_steps, encode_steps

from .models import (
    APPLICATION_ID,
    CLOCK_TABLES,
    LADDER_TABLES,
    LIVE_TABLES,
    REFUSED_UPLOAD_TABLES,
    SCHEMA_VERSION,
    MatchSteps,
    SchemaInfo,
    SeatClock,
)
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


_EVENT_COLUMNS = "seq, kind, step_json, seat, decision_id, source, reply_json, latency_us, strike"


def _steps_in_blocks(session: Session) -> None:
    """Schema 3: a match's steps are one compressed block (``match_steps``), not a row each (``event``).

    Match by match, so memory holds one match's steps; a step that cannot be decoded stops the
    migration with its place named, and the transaction leaves the database as it was.
    """
    connection = session.connection()
    MatchSteps.__table__.create(connection)  # type: ignore[attr-defined]
    matches = connection.execute(text("SELECT id, match_id FROM match ORDER BY id")).all()
    for match_pk, match_id in matches:
        rows = connection.execute(
            text(f"SELECT {_EVENT_COLUMNS} FROM event WHERE match_pk = :match_pk ORDER BY seq"),
            {"match_pk": match_pk},
        ).all()
        steps = [_step(row, match_id) for row in rows]
        connection.execute(insert(MatchSteps), [{"match_pk": match_pk, "block": encode_steps(steps)}])
    connection.execute(text("DROP TABLE event"))


def _step(row: Sequence[Any], match_id: str) -> StepRecord:
    seq, kind, step_json, seat, decision_id, source, reply_json, latency_us, strike = row
    try:
        step = json.loads(step_json)
        reply = None if reply_json is None else json.loads(reply_json)
    except (TypeError, json.JSONDecodeError) as exc:
        raise SchemaError(
            f"cannot migrate to schema 3: corrupted replay data in event {seq} of match {match_id} ({exc}); "
            "nothing was changed"
        ) from None
    return StepRecord(seq, kind, step, seat, decision_id, source, reply, latency_us, strike)


def _create_tables(session: Session, tables: tuple[type[SQLModel], ...]) -> None:
    connection = session.connection()
    for table in tables:
        table.__table__.create(connection, checkfirst=True)  # type: ignore[attr-defined]


def _ladder_tables(session: Session) -> None:
    """Schema 4: the ladder's participants, bots and matches; nothing existing changes."""
    _create_tables(session, LADDER_TABLES)


def _live_tables(session: Session) -> None:
    """Schema 5: the live feed of runs and matches in progress; nothing existing changes."""
    _create_tables(session, LIVE_TABLES)


def _no_rating_snapshot(session: Session) -> None:
    """Schema 6: no ``rating_snapshot``; rating histories are computed from the stored results, which
    are their one source of truth (the table was written and never read)."""
    session.connection().execute(text("DROP TABLE IF EXISTS rating_snapshot"))


def _refused_uploads(session: Session) -> None:
    """Schema 7: refused archive uploads, counted against the hour across restarts; nothing existing
    changes."""
    _create_tables(session, REFUSED_UPLOAD_TABLES)


def _seat_clocks(session: Session) -> None:
    """Schema 8: each seat's clock use (``seat_clock``), worked out once from the stored steps, so
    that the standings read it rather than decoding every replay.

    Match by match, so memory holds one match's steps; a block that cannot be decoded stops the
    migration with its match named, and the transaction leaves the database as it was.
    """
    _create_tables(session, CLOCK_TABLES)
    connection = session.connection()
    matches = connection.execute(text("SELECT id, match_id, time_control_json FROM match ORDER BY id")).all()
    for match_pk, match_id, time_control_json in matches:
        where = {"match_pk": match_pk}
        block = connection.execute(text("SELECT block FROM match_steps WHERE match_pk = :match_pk"), where)
        try:
            steps = decode_steps(block.scalar_one())
            time_control = json.loads(time_control_json)
            seats = (
                connection.execute(
                    text("SELECT seat FROM seat WHERE match_pk = :match_pk ORDER BY seat"), where
                )
                .scalars()
                .all()
            )
            clocks = clock_uses(steps, seats, time_control)
        except (BlockError, NoResultFound, TypeError, KeyError, json.JSONDecodeError) as exc:
            raise SchemaError(
                f"cannot migrate to schema 8: corrupted replay data in match {match_id} ({exc!r}); "
                "nothing was changed"
            ) from None
        rows = [
            {"match_pk": match_pk, "seat": seat, **asdict(clock)}
            for seat, clock in zip(seats, clocks, strict=True)
        ]
        if rows:
            connection.execute(insert(SeatClock), rows)


def _fractional_scores(session: Session) -> None:
    """Schema 9: a seat's score may be a fraction (some games' results are), so the column holds
    floats. PostgreSQL's INTEGER column would round a fraction on the way in, so it changes type;
    SQLite's INTEGER column already keeps a fraction as a REAL (column affinity converts only what
    converts losslessly), so there nothing changes."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("ALTER TABLE seat ALTER COLUMN score TYPE DOUBLE PRECISION"))


#: ``MIGRATIONS[v]`` upgrades a database at schema version ``v`` to ``v + 1``.
MIGRATIONS: dict[int, Callable[[Session], None]] = {
    1: _decision_ids_per_seat,
    2: _steps_in_blocks,
    3: _ladder_tables,
    4: _live_tables,
    5: _no_rating_snapshot,
    6: _refused_uploads,
    7: _seat_clocks,
    8: _fractional_scores,
}


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
        try:
            step(session)
        except SchemaError:
            session.rollback()
            raise
        info.version += 1
        session.add(info)
    session.commit()
