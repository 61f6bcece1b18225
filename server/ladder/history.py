"""A participant's matches on the ladder, and where an ended match's replay is stored.

Ladder matches are ordinary stored matches (``ladder_match.match_pk``), so a match's scores and ranks
are its ``seat`` rows, and its replay is built by the web viewer's :class:`server.web.catalog.Catalog`
exactly as the viewer exports it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

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
    score: int | None
    rank: int | None
    forfeited: bool | None
    faults: list[str] | None
    """What the referee held against the seat's bot, once the match has ended; of your own bots only."""


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
        found = asdict(self)
        found["decided_at"] = self.decided_at.isoformat()
        found["finished_at"] = None if self.finished_at is None else self.finished_at.isoformat()
        return found


def matches_of(
    store: Store, participant_id: int, *, bot: str | None = None, limit: int = 100, before: int | None = None
) -> list[LadderMatchRow]:
    """The ladder matches of the participant's bots (or of its bot ``bot``), newest first: at most
    ``limit`` of them, with ids below ``before`` if given."""
    mine = select(LadderBot.id).where(LadderBot.participant_id == participant_id)
    if bot is not None:
        mine = mine.where(LadderBot.name == bot)
    with Session(store.engine) as session:
        seated = select(LadderSeat.ladder_match_id).where(col(LadderSeat.bot_id).in_(mine))
        query = select(LadderMatch).where(col(LadderMatch.id).in_(seated))
        if before is not None:
            query = query.where(col(LadderMatch.id) < before)
        matches = session.exec(query.order_by(col(LadderMatch.id).desc()).limit(limit)).all()
        ids = [match.id for match in matches]
        seats = session.exec(
            select(LadderSeat, LadderBot, LadderParticipant)
            .join(LadderBot, col(LadderSeat.bot_id) == LadderBot.id)
            .join(LadderParticipant, col(LadderBot.participant_id) == LadderParticipant.id)
            .where(col(LadderSeat.ladder_match_id).in_(ids))
            .order_by(col(LadderSeat.ladder_match_id), col(LadderSeat.seat))
        ).all()
        pks = [match.match_pk for match in matches if match.match_pk is not None]
        stored = {row.id: row for row in session.exec(select(Match).where(col(Match.id).in_(pks)))}
        results: dict[tuple[int | None, int], Seat] = {
            (row.match_pk, row.seat): row
            for row in session.exec(select(Seat).where(col(Seat.match_pk).in_(pks)))
        }
    ended = {match.id: match.match_pk for match in matches if match.status == DONE}  # results shown
    by_match: dict[int, list[SeatResult]] = {}
    for seat, seated_bot, owner in seats:
        result = results.get((ended.get(seat.ladder_match_id), seat.seat))
        own = seated_bot.participant_id == participant_id
        by_match.setdefault(seat.ladder_match_id, []).append(
            SeatResult(
                seat=seat.seat,
                bot=seated_bot.name,
                participant=owner.name,
                mine=own,
                score=None if result is None else result.score,
                rank=None if result is None else result.rank,
                forfeited=None if result is None else result.forfeited,
                faults=json.loads(result.faults_json) if result is not None and own else None,
            )
        )
    rows = []
    for match in matches:
        assert match.id is not None
        played = stored.get(match.match_pk) if match.status == DONE else None
        rows.append(
            LadderMatchRow(
                id=match.id,
                status=match.status,
                match_id=None if played is None else played.match_id,
                decided_at=match.decided_at,
                finished_at=match.finished_at,
                seats=by_match.get(match.id, []),
            )
        )
    return rows


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
