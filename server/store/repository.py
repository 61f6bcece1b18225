"""Reading and writing tournaments and matches. Short-lived sessions, one
transaction per finished match, so a match is stored whole or not at all."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Self, TypeVar

from sqlalchemy import Connection, Engine, func, insert
from sqlalchemy import select as sql_select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlmodel import Session, col, select

from server.clock_use import ClockBlockError, ClockUse
from server.record import MatchRecord, SeatRecord
from server.steps_block import BlockError, PackedRecord, decode_steps

from .database import StoreError, open_database
from .live_rows import clear_match
from .location import Location
from .models import Entrant, Match, MatchSteps, Seat, SeatClock, Tournament
from .outage import store_error

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S", bound="Store")


class _CorruptedError(Exception):
    """A stored value that cannot be decoded; the store adds which file."""


def _loads(text: str | None, where: str) -> Any:
    """Decode a stored JSON column; a corrupted one is an error naming its row."""
    if text is None:
        raise _CorruptedError(f"corrupted replay data in {where}: the value is missing")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _CorruptedError(f"corrupted replay data in {where}: {exc}") from None


def _latencies(clock: ClockUse, where: str) -> npt.NDArray[np.int64]:
    """A stored clock's answer times; a corrupted one is an error naming its seat."""
    try:
        return clock.latencies_us()
    except ClockBlockError as exc:
        raise _CorruptedError(f"corrupted decision times in {where}: {exc}") from None


def _guarded(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """Any database failure of ``method`` (a damaged, locked or read-only file, a server out of
    reach) as one StoreError."""

    @functools.wraps(method)
    def guarded(store: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(store, *args, **kwargs)
        except _CorruptedError as exc:
            raise StoreError(store.path, str(exc)) from None
        except SQLAlchemyError as exc:
            raise store_error(store.path, exc, "the database cannot be used") from None

    return guarded


def _seat_row(seat: SeatRecord, match_pk: int, entrant_id: int) -> dict[str, Any]:
    """A seat's row: the fields of its record, but the entrant by id and the faults as JSON."""
    row = {name: value for name, value in vars(seat).items() if name not in ("name", "faults")}
    return {**row, "match_pk": match_pk, "entrant_id": entrant_id, "faults_json": json.dumps(seat.faults)}


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What ratings and standings need from one finished match."""

    index: int
    match_id: str
    entrants: tuple[int, ...]  # entrant position (bracket order) of each seat
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    strikes: tuple[int, ...]
    forfeited: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class StoredState:
    """A tournament's stored matches as a whole: their number and the newest one's row id."""

    matches: int
    last: int | None


@dataclass(frozen=True, slots=True)
class SeatConduct:
    """How one seat's bot behaved in one finished match: what the standings' conduct columns need."""

    match_id: str
    entrant: int  # entrant position (bracket order)
    latencies_us: npt.NDArray[np.int64]  # every answer's time, shortest first
    bank_used_ms: float
    faults: list[str]  # in order: strikes, forfeit, failed EndMatch


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a match sits in its tournament's schedule."""

    index: int
    round: int
    table: int
    rotation: int


def match_row(tournament_id: int, placement: Placement, head: MatchRecord) -> dict[str, Any]:
    """The ``match`` row of a finished match (its record, steps aside), finished now."""
    return {
        "tournament_id": tournament_id,
        "match_id": head.match_id,
        "index": placement.index,
        "round": placement.round,
        "table_no": placement.table,
        "rotation": placement.rotation,
        "seed": head.seed,
        "status": "done",
        "players": head.players,
        "params_json": json.dumps(head.params, sort_keys=True),
        "time_control_json": json.dumps(head.time_control, sort_keys=True),
        "end_reason": head.end_reason,
        "summary_json": json.dumps(head.summary, sort_keys=True),
        "duration_s": head.duration_s,
        "finished_at": datetime.now(UTC),
    }


def seat_rows(head: MatchRecord, match_pk: int, seat_entrant_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The ``seat`` rows of a finished match, given each seat's entrant id."""
    return [
        _seat_row(seat, match_pk, entrant_id)
        for seat, entrant_id in zip(head.seats, seat_entrant_ids, strict=True)
    ]


def insert_match(
    connection: Connection,
    tournament_id: int,
    placement: Placement,
    packed: PackedRecord,
    seat_entrant_ids: Sequence[int],
) -> int:
    """Insert a finished match, its seats (entrant ids in seat order) and its steps within the
    caller's transaction; its primary key. Raises IntegrityError if its id or index is taken."""
    head = packed.record
    key = connection.execute(insert(Match), match_row(tournament_id, placement, head)).inserted_primary_key
    assert key is not None
    match_pk: int = key[0]
    connection.execute(insert(Seat), seat_rows(head, match_pk, seat_entrant_ids))
    connection.execute(insert(MatchSteps), {"match_pk": match_pk, "block": packed.steps})
    connection.execute(insert(SeatClock), clock_rows(head, match_pk, packed.clocks))
    return match_pk


def clock_rows(head: MatchRecord, match_pk: int, clocks: Sequence[ClockUse]) -> list[dict[str, Any]]:
    """The ``seat_clock`` rows of a finished match, given each seat's clock use in seat order."""
    return [
        {"match_pk": match_pk, "seat": seat.seat, **asdict(clock)}
        for seat, clock in zip(head.seats, clocks, strict=True)
    ]


class Store:
    """A smtourney database: a SQLite file or a PostgreSQL database, used the same way."""

    def __init__(self, engine: Engine, path: Location) -> None:
        self.engine = engine
        self.path = path
        self._entrant_id_cache: dict[int, dict[int, int]] = {}

    @classmethod
    def open(cls, path: Location, *, create: bool = False) -> Self:
        return cls(open_database(path, create=create), path)

    def close(self) -> None:
        self.engine.dispose()

    # --- tournaments -----------------------------------------------------------------
    @_guarded
    def tournaments(self) -> list[Tournament]:
        with Session(self.engine) as session:
            return list(session.exec(select(Tournament).order_by(col(Tournament.id))))

    @_guarded
    def tournament(self, name: str | None = None) -> Tournament | None:
        """The tournament called ``name``; without a name, the only (or latest) one."""
        with Session(self.engine) as session:
            query = select(Tournament)
            if name is not None:
                query = query.where(Tournament.name == name)
            return session.exec(query.order_by(col(Tournament.id).desc())).first()

    @_guarded
    def create_tournament(
        self,
        *,
        name: str,
        game: str,
        fingerprint: str,
        bracket: dict[str, Any],
        seed: int,
        entrants: Sequence[tuple[str, dict[str, Any]]],
    ) -> Tournament:
        with Session(self.engine) as session:
            tournament = Tournament(
                name=name,
                game=game,
                fingerprint=fingerprint,
                bracket_json=json.dumps(bracket, sort_keys=True),
                seed=seed,
                created_at=datetime.now(UTC),
            )
            session.add(tournament)
            session.flush()
            assert tournament.id is not None
            for position, (entrant_name, spec) in enumerate(entrants):
                session.add(
                    Entrant(
                        tournament_id=tournament.id,
                        position=position,
                        name=entrant_name,
                        spec_json=json.dumps(spec, sort_keys=True),
                    )
                )
            session.commit()
            session.refresh(tournament)
            return tournament

    @_guarded
    def entrants(self, tournament_id: int) -> list[Entrant]:
        with Session(self.engine) as session:
            query = (
                select(Entrant).where(Entrant.tournament_id == tournament_id).order_by(col(Entrant.position))
            )
            return list(session.exec(query))

    # --- matches ---------------------------------------------------------------------
    @_guarded
    def finished_match_ids(self, tournament_id: int) -> set[str]:
        with Session(self.engine) as session:
            return set(session.exec(select(Match.match_id).where(Match.tournament_id == tournament_id)))

    @_guarded
    def save_match(
        self,
        tournament_id: int,
        placement: Placement,
        record: MatchRecord | PackedRecord,
        seat_entrants: Sequence[int],
        *,
        in_flight: bool = True,
    ) -> bool:
        """Store a finished match in one transaction; False if it was stored already.

        ``in_flight``: the match may have rows in the live feed, removed in the same transaction (a
        run knows which of its matches were fed, and spares the others the deletes).

        Plain inserts, not ORM objects, and the entrants' ids read once per store: this runs in the
        tournament process once per match, so what it costs is paid by every match of a run.
        """
        packed = record if isinstance(record, PackedRecord) else PackedRecord.pack(record)
        entrant_ids = self._entrant_ids(tournament_id)
        try:
            with self.engine.begin() as connection:
                insert_match(
                    connection,
                    tournament_id,
                    placement,
                    packed,
                    [entrant_ids[position] for position in seat_entrants],
                )
                if in_flight:
                    clear_match(connection, tournament_id, packed.record.match_id)
        except IntegrityError:  # the match id or schedule index is taken: the transaction was rolled back
            return False
        return True

    def _entrant_ids(self, tournament_id: int) -> dict[int, int]:
        """Entrant id by bracket position: read once, as entrants never change once created."""
        if tournament_id not in self._entrant_id_cache:
            self._entrant_id_cache[tournament_id] = {
                e.position: e.id for e in self.entrants(tournament_id) if e.id is not None
            }
        return self._entrant_id_cache[tournament_id]

    @_guarded
    def load_record(self, tournament_id: int, match_id: str) -> MatchRecord | None:
        """The full record of a stored match (its replay), or None."""
        with Session(self.engine) as session:
            match = session.exec(
                select(Match).where(Match.tournament_id == tournament_id, Match.match_id == match_id)
            ).first()
            if match is None:
                return None
            names = {e.id: e.name for e in self.entrants(tournament_id)}
            seat_rows = session.exec(
                select(Seat).where(Seat.match_pk == match.id).order_by(col(Seat.seat))
            ).all()
            seats = [
                SeatRecord(
                    seat=row.seat,
                    name=names[row.entrant_id],
                    bot=row.bot,
                    strikes=row.strikes,
                    forfeited=row.forfeited,
                    forfeit_reason=row.forfeit_reason,
                    faults=_loads(row.faults_json, f"seat {row.seat} of match {match_id}"),
                    time_used_ms=row.time_used_ms,
                    score=row.score,
                    rank=row.rank,
                )
                for row in seat_rows
            ]
            steps = session.get(MatchSteps, match.id)
            if steps is None:
                raise _CorruptedError(f"corrupted replay data in match {match_id}: its steps are missing")
            try:
                step_records = decode_steps(steps.block)
            except BlockError as exc:
                raise _CorruptedError(
                    f"corrupted replay data in the steps of match {match_id}: {exc}"
                ) from None
            tournament = session.get(Tournament, tournament_id)
            assert tournament is not None
            return MatchRecord(
                match_id=match.match_id,
                game=tournament.game,
                seed=match.seed,
                players=match.players,
                params=_loads(match.params_json, f"match {match_id}"),
                time_control=_loads(match.time_control_json, f"match {match_id}"),
                seats=seats,
                steps=step_records,
                scores=[s.score for s in seats],
                ranks=[s.rank for s in seats],
                end_reason=match.end_reason,
                summary=_loads(match.summary_json, f"match {match_id}"),
                duration_s=match.duration_s,
            )

    @_guarded
    def matches(self, tournament_id: int) -> list[tuple[Match, list[Seat]]]:
        """Finished matches with their seats, in schedule order."""
        with Session(self.engine) as session:
            rows = session.exec(
                select(Match, Seat)
                .join(Seat, col(Seat.match_pk) == col(Match.id))
                .where(Match.tournament_id == tournament_id)
                .order_by(col(Match.index), col(Seat.seat))
            ).all()
        grouped: dict[int, tuple[Match, list[Seat]]] = {}
        for match, seat in rows:
            grouped.setdefault(match.index, (match, []))[1].append(seat)
        return list(grouped.values())

    @_guarded
    def faults(self, seat: Seat, match_id: str) -> list[str]:
        """A stored seat's faults, in order: strikes, forfeit, failed EndMatch."""
        faults: list[str] = _loads(seat.faults_json, f"seat {seat.seat} of match {match_id}")
        return faults

    @_guarded
    def conduct(self, tournament_id: int) -> list[SeatConduct]:
        """Every finished match's seats as their bots behaved, in schedule order, then seat order;
        read from the seats' rows and clocks, never from the replays."""
        positions = {e.id: e.position for e in self.entrants(tournament_id)}
        query = (
            sql_select(
                col(Match.match_id),
                col(Seat.seat),
                col(Seat.entrant_id),
                col(Seat.faults_json),
                col(SeatClock.bank_used_ms),
                col(SeatClock.latencies),
            )
            .join(Seat, col(Seat.match_pk) == col(Match.id))
            .join(
                SeatClock,
                (col(SeatClock.match_pk) == col(Match.id)) & (col(SeatClock.seat) == col(Seat.seat)),
            )
            .where(col(Match.tournament_id) == tournament_id)
            .order_by(col(Match.index), col(Seat.seat))
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            SeatConduct(
                match_id,
                positions[entrant_id],
                _latencies(ClockUse(bank_used_ms, latencies), f"seat {seat} of match {match_id}"),
                bank_used_ms,
                _loads(faults_json, f"seat {seat} of match {match_id}"),
            )
            for match_id, seat, entrant_id, faults_json, bank_used_ms, latencies in rows
        ]

    @_guarded
    def results(self, tournament_id: int) -> list[MatchResult]:
        """Every finished match's outcome, in schedule order (plain rows: no ORM objects are made,
        as the standings read every match)."""
        positions = {e.id: e.position for e in self.entrants(tournament_id)}
        query = (
            sql_select(
                col(Match.index),
                col(Match.match_id),
                col(Seat.entrant_id),
                col(Seat.score),
                col(Seat.rank),
                col(Seat.strikes),
                col(Seat.forfeited),
            )
            .join(Seat, col(Seat.match_pk) == col(Match.id))
            .where(col(Match.tournament_id) == tournament_id)
            .order_by(col(Match.index), col(Seat.seat))
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        by_match: dict[int, tuple[str, list[Sequence[Any]]]] = {}
        for index, match_id, *seat in rows:
            by_match.setdefault(index, (match_id, []))[1].append(seat)
        results = []
        for index, (match_id, seats) in by_match.items():
            entrant_ids, scores, ranks, strikes, forfeited = zip(*seats, strict=True)
            entrants = tuple(positions[entrant_id] for entrant_id in entrant_ids)
            results.append(MatchResult(index, match_id, entrants, scores, ranks, strikes, forfeited))
        return results

    @_guarded
    def stored_state(self, tournament_id: int) -> StoredState:
        """How many matches of the tournament are stored, and the newest one's row: matches are only
        ever added, so this changes exactly when anything computed from them may."""
        query = sql_select(func.count(), func.max(col(Match.id))).where(
            col(Match.tournament_id) == tournament_id
        )
        with self.engine.connect() as connection:
            count, last = connection.execute(query).one()
        return StoredState(count, last)
