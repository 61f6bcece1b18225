"""A ladder match's life after its decision: ``scheduled`` -> ``playing`` -> ``done``.

The played match itself is stored as an ordinary match (``Store.save_match``) of the tournament row
that stands for the ladder; :func:`finish_match` then points the decision at it and moves the
seated bots' ratings, reading the ranks and forfeits from the stored seats, so the stored match is
the one source of the result. Each change is one transaction and happens once: finishing a match
twice counts it once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Session, col, select

from server.store.models import LadderBot, LadderMatch, LadderSeat, Seat
from server.store.repository import MatchResult, Store
from server.tournament.ratings import ENVIRONMENT, rate

from .store import LadderError

__all__ = [
    "DONE",
    "IN_FLIGHT",
    "PLAYING",
    "SCHEDULED",
    "finish_match",
    "ladder_match_of",
    "start_match",
    "stored_match_id",
]

SCHEDULED = "scheduled"
PLAYING = "playing"
DONE = "done"
IN_FLIGHT = (SCHEDULED, PLAYING)
"""A match in these states has no public replay yet: only its spectator view may be shown."""

MATCH_ID_PREFIX = "ladder-"


def stored_match_id(ladder_match: int) -> str:
    """The match id ladder match ``ladder_match`` is stored (and watched live) under, in the
    ladder's tournament."""
    return f"{MATCH_ID_PREFIX}{ladder_match}"


def ladder_match_of(match_id: str) -> int | None:
    """The ladder match a stored match id names, if it names one."""
    number = match_id.removeprefix(MATCH_ID_PREFIX)
    return int(number) if number != match_id and number.isascii() and number.isdigit() else None


def start_match(store: Store, ladder_match_id: int) -> None:
    """Mark a scheduled match ``playing``; any other state is left as it is."""
    with Session(store.engine) as session:
        match = session.get(LadderMatch, ladder_match_id)
        if match is None:
            raise LadderError(f"there is no ladder match {ladder_match_id}")
        if match.status == SCHEDULED:
            match.status = PLAYING
            session.add(match)
            session.commit()


def finish_match(store: Store, ladder_match_id: int, match_pk: int) -> bool:
    """Record that ladder match ``ladder_match_id`` was played as stored match ``match_pk``: the
    decision becomes ``done``, and each seated bot gets one more game, its last-game time and the
    TrueSkill update of the stored ranks (a forfeit being a loss to every seat that played on, a
    match every seat forfeited rating nobody). False if it was recorded already."""
    now = datetime.now(UTC)
    with Session(store.engine) as session:
        match = session.get(LadderMatch, ladder_match_id)
        if match is None:
            raise LadderError(f"there is no ladder match {ladder_match_id}")
        if match.status == DONE:
            return False
        seats = session.exec(
            select(LadderSeat)
            .where(LadderSeat.ladder_match_id == ladder_match_id)
            .order_by(col(LadderSeat.seat))
        ).all()
        stored = {row.seat: row for row in session.exec(select(Seat).where(Seat.match_pk == match_pk)).all()}
        if sorted(stored) != [seat.seat for seat in seats]:
            raise LadderError(
                f"stored match {match_pk} does not have the seats of ladder match {ladder_match_id}"
            )
        bots = [session.get(LadderBot, seat.bot_id) for seat in seats]
        result = MatchResult(
            index=ladder_match_id,
            match_id=str(match_pk),
            entrants=tuple(range(len(seats))),
            scores=tuple(stored[seat.seat].score for seat in seats),
            ranks=tuple(stored[seat.seat].rank for seat in seats),
            strikes=tuple(stored[seat.seat].strikes for seat in seats),
            forfeited=tuple(stored[seat.seat].forfeited for seat in seats),
        )
        before = [ENVIRONMENT.create_rating(bot.mu, bot.sigma) for bot in bots if bot is not None]
        if len(before) != len(seats):
            raise LadderError(f"a bot of ladder match {ladder_match_id} is missing")
        after, _ = rate(len(seats), [result], before)
        for bot, rating in zip(bots, after, strict=True):
            assert bot is not None
            bot.mu, bot.sigma = rating.mu, rating.sigma
            bot.games += 1
            bot.last_game_at = now
            session.add(bot)
        match.status, match.match_pk, match.finished_at = DONE, match_pk, now
        session.add(match)
        session.commit()
    return True
