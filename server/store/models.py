"""The tables. JSON columns hold game-specific data, so the schema is game-agnostic."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Dialect, String, UniqueConstraint
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

#: Bump with a migration in :mod:`server.store.database` whenever a table changes.
SCHEMA_VERSION = 3
APPLICATION_ID = "smtourney"


class BotText(TypeDecorator[str]):
    """Text a bot chose (its name, its error messages): PostgreSQL cannot store a NUL character in
    text, so there a NUL becomes U+FFFD; SQLite keeps it. Everything else is stored as given."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if isinstance(value, str) and dialect.name == "postgresql":
            return value.replace("\0", "\ufffd")
        return value


def _seed() -> Any:
    """A 63-bit seed: wider than PostgreSQL's INTEGER (SQLite's INTEGER holds it either way)."""
    return Field(sa_type=BigInteger)


class SchemaInfo(SQLModel, table=True):
    """One row: which program and schema version wrote this database."""

    __tablename__ = "schema_info"
    id: int = Field(default=1, primary_key=True)
    application: str = APPLICATION_ID
    version: int = SCHEMA_VERSION


class Tournament(SQLModel, table=True):
    __tablename__ = "tournament"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    game: str
    fingerprint: str  # hash of everything that decides the schedule and matches
    bracket_json: str  # the bracket as it was when the tournament was created
    seed: int = _seed()
    created_at: datetime


class Entrant(SQLModel, table=True):
    __tablename__ = "entrant"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    position: int  # index in the bracket's entrant list
    name: str
    spec_json: str  # how it is launched or reached


class Match(SQLModel, table=True):
    """A finished match. Rows are only written whole, in one transaction."""

    __tablename__ = "match"
    __table_args__ = (
        UniqueConstraint("tournament_id", "match_id"),
        UniqueConstraint("tournament_id", "index"),
    )
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    match_id: str
    index: int  # position in schedule order
    round: int
    table_no: int
    rotation: int
    seed: int = _seed()
    status: str = "done"
    players: int
    params_json: str
    time_control_json: str
    end_reason: str
    summary_json: str
    duration_s: float
    finished_at: datetime


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("match_pk", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    match_pk: int = Field(foreign_key="match.id", index=True)
    seat: int
    entrant_id: int = Field(foreign_key="entrant.id", index=True)
    bot: str = Field(sa_type=BotText)
    score: int
    rank: int
    strikes: int
    forfeited: bool
    forfeit_reason: str | None = Field(default=None, sa_type=BotText)
    faults_json: str
    time_used_ms: float


class Event(SQLModel, table=True):
    """One step of a replay: a chance outcome or a seat's decision."""

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("match_pk", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    match_pk: int = Field(foreign_key="match.id", index=True)
    seq: int
    kind: str
    seat: int | None = None
    decision_id: int | None = None  # the seat's own decision count (schema 1: every seat's)
    source: str
    step_json: str
    reply_json: str | None = None
    latency_us: int | None = Field(default=None, sa_type=BigInteger)
    strike: str | None = Field(default=None, sa_type=BotText)
    asked_at: int | None = None  # seq of the first step of its group of simultaneous decisions (schema 3)


class RatingSnapshot(SQLModel, table=True):
    """An entrant's rating right after a match, in schedule order (the rating history)."""

    __tablename__ = "rating_snapshot"
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    match_index: int
    entrant_id: int = Field(foreign_key="entrant.id", index=True)
    mu: float
    sigma: float
