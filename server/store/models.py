"""The tables. JSON columns hold game-specific data, so the schema is game-agnostic."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Dialect, Float, LargeBinary, String, UniqueConstraint
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from sdk.games.scores import plain_score

#: Bump with a migration in :mod:`server.store.migrations` whenever a table changes.
SCHEMA_VERSION = 9
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


class Score(TypeDecorator[float]):
    """A seat's score: a float column, read back as the contract keeps scores (a whole number as an
    int, :func:`sdk.games.scores.plain_score`), so that SQLite and PostgreSQL give the same values."""

    impl = Float
    cache_ok = True

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else plain_score(value)


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
    score: float = Field(sa_type=Score)
    rank: int
    strikes: int
    forfeited: bool
    forfeit_reason: str | None = Field(default=None, sa_type=BotText)
    faults_json: str
    time_used_ms: float


class MatchSteps(SQLModel, table=True):
    """A match's replay: all its steps in one compressed block (:mod:`server.steps_block`). Kept apart
    from ``match`` so that listing matches and standings never read replays."""

    __tablename__ = "match_steps"
    match_pk: int = Field(foreign_key="match.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    block: bytes = Field(sa_type=LargeBinary)


class SeatClock(SQLModel, table=True):
    """How a seat used its clock in a match (:class:`server.clock_use.ClockUse`), written with the
    match (schema 8): the standings' decision times and bank read these, never the replays."""

    __tablename__ = "seat_clock"
    match_pk: int = Field(foreign_key="match.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    bank_used_ms: float
    latencies: bytes = Field(sa_type=LargeBinary)


CLOCK_TABLES = (SeatClock,)
"""Created by schema 8."""


# --- the ladder (schema 4): one ladder per database ---------------------------------------------


class LadderParticipant(SQLModel, table=True):
    """Someone who submits bots. Only a hash of the token is kept: a stolen database gives no token."""

    __tablename__ = "ladder_participant"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    token_hash: str = Field(index=True, unique=True)
    paused: bool = False
    removed: bool = False
    created_at: datetime


class LadderBot(SQLModel, table=True):
    """A submitted bot; ``status`` is one of :data:`server.ladder.bots.STATUSES`, ``reason`` why it is
    failed or suspended. Its rating is the one after its last counted match."""

    __tablename__ = "ladder_bot"
    __table_args__ = (UniqueConstraint("participant_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    participant_id: int = Field(foreign_key="ladder_participant.id", index=True)
    name: str
    status: str = Field(index=True)
    reason: str | None = Field(default=None, sa_type=BotText)
    spec_json: str  # how it is reached or launched
    mu: float
    sigma: float
    games: int = 0
    submitted_at: datetime
    last_game_at: datetime | None = None


class LadderMatch(SQLModel, table=True):
    """A matchmaking decision and the match it asked for: ``scheduled`` until played, then ``done``
    with the stored match. Its seats hold the ratings the decision used."""

    __tablename__ = "ladder_match"
    id: int | None = Field(default=None, primary_key=True)
    focus_bot_id: int = Field(foreign_key="ladder_bot.id", index=True)
    quality: float
    seed: int = _seed()
    status: str = Field(default="scheduled", index=True)
    match_pk: int | None = Field(default=None, foreign_key="match.id")
    decided_at: datetime
    finished_at: datetime | None = None


class LadderSeat(SQLModel, table=True):
    """Who sits where in a ladder match, and the rating matchmaking saw for them."""

    __tablename__ = "ladder_seat"
    __table_args__ = (
        UniqueConstraint("ladder_match_id", "seat"),
        UniqueConstraint("ladder_match_id", "bot_id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    ladder_match_id: int = Field(foreign_key="ladder_match.id", index=True)
    seat: int
    bot_id: int = Field(foreign_key="ladder_bot.id", index=True)
    mu: float
    sigma: float


LADDER_TABLES = (LadderParticipant, LadderBot, LadderMatch, LadderSeat)
"""Created by schema 4, in this order (each refers only to those before it)."""


class LadderRefusedUpload(SQLModel, table=True):
    """An archive upload refused: it leaves no bot, yet counts against its participant's submissions
    for an hour, across restarts (kept until a later refusal of theirs finds it older)."""

    __tablename__ = "ladder_refused_upload"
    id: int | None = Field(default=None, primary_key=True)
    participant_id: int = Field(foreign_key="ladder_participant.id", index=True)
    refused_at: datetime


REFUSED_UPLOAD_TABLES = (LadderRefusedUpload,)
"""Created by schema 7."""


# --- the live feed (schema 5): matches being played, shown while a run goes -----------------------


class LiveRun(SQLModel, table=True):
    """A tournament being run: its progress for the live pages, removed when the run ends."""

    __tablename__ = "live_run"
    tournament_id: int = Field(
        foreign_key="tournament.id", primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    total: int  # matches scheduled so far (it grows as rounds that depend on results are formed)
    stored_at_start: int  # matches already stored when this run began (its pace counts the others)
    started_at: datetime
    updated_at: datetime


class LiveMatch(SQLModel, table=True):
    """A match being played, written by whoever plays it; removed in the transaction that stores it.
    Not part of the match record: a killed run leaves rows the next run clears."""

    __tablename__ = "live_match"
    __table_args__ = (UniqueConstraint("tournament_id", "match_id"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    match_id: str
    players: int
    params_json: str
    seats_json: str  # the entrants' names, by seat
    started_at: datetime
    updated_at: datetime
    steps: int = 0  # steps written so far


class LiveSteps(SQLModel, table=True):
    """A batch of a live match's steps, in order from ``first_seq``: ``[seq, kind, seat, source, step]``
    rows as JSON (the steps hold secrets: only the spectator's view of them is ever shown)."""

    __tablename__ = "live_steps"
    id: int | None = Field(default=None, primary_key=True)
    live_match_id: int = Field(foreign_key="live_match.id", index=True)
    first_seq: int
    steps_json: str


LIVE_TABLES = (LiveRun, LiveMatch, LiveSteps)
"""Created by schema 5, in this order (each refers only to those before it)."""
