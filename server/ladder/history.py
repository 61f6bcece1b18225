"""A participant's matches on the ladder, and where an ended match's replay is stored.

Ladder matches are ordinary stored matches (``ladder_match.match_pk``), so a match's scores and ranks
are its ``seat`` rows, and its replay is built by the web viewer's :class:`server.web.catalog.Catalog`
exactly as the viewer exports it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from server.store.models import LadderBot, LadderMatch, LadderParticipant, LadderSeat, Match, Seat
from server.store.repository import Store

from .store import DONE, LadderError

__all__ = ["LadderMatchRow", "MatchInProgressError", "ended_match", "matches_of"]


class MatchInProgressError(LadderError):
    """A ladder match that has not ended: its replay is not open yet."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    bot: str
    participant: str
    mine: bool
    score: float | None
    rank: int | None
    forfeited: bool | None
    faults: list[str] | None
    """What the referee held against the seat's bot, once the match has ended; of your own bots only."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "participant": self.participant,
            "mine": self.mine,
            "score": self.score,
            "rank": self.rank,
            "forfeited": self.forfeited,
            "faults": None if self.faults is None else list(self.faults),
        }


@dataclass(frozen=True)
class LadderMatchRow:
    """One ladder match as a participant sees it: its seats, with results once it has ended."""

    id: int
    status: str
    match_id: str | None
    decided_at: datetime
    finished_at: datetime | None
    seats: list[SeatResult]

    def to_json(self) -> dict[str, Any]:
        """Built field by field: ``asdict`` deep-copies every seat, which cost as much as the query."""
        return {
            "id": self.id,
            "status": self.status,
            "match_id": self.match_id,
            "decided_at": self.decided_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "seats": [seat.to_json() for seat in self.seats],
        }


def matches_of(
    store: Store, participant_id: int, *, bot: str | None = None, limit: int = 100, before: int | None = None
) -> list[LadderMatchRow]:
    """The ladder matches of the participant's bots (or of its bot ``bot``), newest first: at most
    ``limit`` of them, with ids below ``before`` if given.

    Read as plain columns, not ORM objects: a participant's script may poll this, and building a
    few ORM objects per seat of 100 matches took most of the server's time under such polling."""
    mine = select(LadderBot.id).where(LadderBot.participant_id == participant_id)
    if bot is not None:
        mine = mine.where(LadderBot.name == bot)
    with store.engine.connect() as connection:
        seated = select_columns(col(LadderSeat.ladder_match_id)).where(col(LadderSeat.bot_id).in_(mine))
        query = select_columns(
            col(LadderMatch.id),
            col(LadderMatch.status),
            col(LadderMatch.match_pk),
            col(LadderMatch.decided_at),
            col(LadderMatch.finished_at),
        ).where(col(LadderMatch.id).in_(seated))
        if before is not None:
            query = query.where(col(LadderMatch.id) < before)
        matches = [
            (match_id or 0, status, pk, decided_at, finished_at)
            for match_id, status, pk, decided_at, finished_at in connection.execute(
                query.order_by(col(LadderMatch.id).desc()).limit(limit)
            )
        ]
        seats = connection.execute(
            select_columns(
                col(LadderSeat.ladder_match_id),
                col(LadderSeat.seat),
                col(LadderBot.name),
                col(LadderBot.participant_id),
                col(LadderParticipant.name),
            )
            .join(LadderBot, col(LadderSeat.bot_id) == col(LadderBot.id))
            .join(LadderParticipant, col(LadderBot.participant_id) == col(LadderParticipant.id))
            .where(col(LadderSeat.ladder_match_id).in_([match_id for match_id, *_ in matches]))
            .order_by(col(LadderSeat.ladder_match_id), col(LadderSeat.seat))
        ).all()
        ended: dict[int, int] = {
            match_id: pk for match_id, status, pk, *_ in matches if status == DONE and pk is not None
        }
        pks = list(ended.values())
        named = select_columns(col(Match.id), col(Match.match_id)).where(col(Match.id).in_(pks))
        stored = {pk or 0: match_id for pk, match_id in connection.execute(named)}
        results = {
            (pk, seat): (score, rank, forfeited, faults)
            for pk, seat, score, rank, forfeited, faults in connection.execute(
                select_columns(
                    col(Seat.match_pk),
                    col(Seat.seat),
                    col(Seat.score),
                    col(Seat.rank),
                    col(Seat.forfeited),
                    col(Seat.faults_json),
                ).where(col(Seat.match_pk).in_(pks))
            )
        }
    by_match: dict[int, list[SeatResult]] = {}
    for match_id, seat, bot_name, owner_id, owner in seats:
        result = results.get((ended.get(match_id, 0), seat))
        own = owner_id == participant_id
        by_match.setdefault(match_id, []).append(
            SeatResult(
                seat=seat,
                bot=bot_name,
                participant=owner,
                mine=own,
                score=None if result is None else result[0],
                rank=None if result is None else result[1],
                forfeited=None if result is None else result[2],
                faults=json.loads(result[3]) if result is not None and own else None,
            )
        )
    return [
        LadderMatchRow(
            id=match_id,
            status=status,
            match_id=stored.get(ended[match_id]) if match_id in ended else None,
            decided_at=decided_at,
            finished_at=finished_at,
            seats=by_match.get(match_id, []),
        )
        for match_id, status, _, decided_at, finished_at in matches
    ]


def ended_match(store: Store, ladder_match_id: int) -> tuple[int, str]:
    """The tournament and match id of an ended ladder match; :class:`LadderError` if there is no such
    match, :class:`MatchInProgressError` while it is not over."""
    with Session(store.engine) as session:
        match = session.get(LadderMatch, ladder_match_id)
        if match is None:
            raise LadderError(f"there is no ladder match {ladder_match_id}")
        stored = None if match.match_pk is None else session.get(Match, match.match_pk)
    if match.status != DONE or stored is None:
        raise MatchInProgressError(
            f"ladder match {ladder_match_id} is {match.status}: its replay opens once it has ended"
        )
    return stored.tournament_id, stored.match_id
