"""What the ladder's public pages show, read from the store: the leaderboard, one bot's story, the
matches in progress. Never writes. Pages and their JSON read through :class:`LadderCatalog`, so they
always agree.

Nothing here reads a match in flight beyond its decision (who sits where, at what rating): its
moves are for the live spectator view only, and its replay opens when it is done.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from sqlmodel import Session, col, select

from server.ladder.seating import match_id_of
from server.ladder.store import ACTIVE, DONE, IN_FLIGHT, BotRow, LadderStore, ranked
from server.store.models import LadderBot, LadderMatch, LadderParticipant, LadderSeat, Match, Seat
from server.store.repository import Store
from server.tournament.statistics import rank_intervals

from .catalog import NotFoundError, RatingPoint, watch_path

__all__ = ["MATCHES_SHOWN", "RESULTS_SHOWN", "BotStory", "LadderCatalog", "LadderMatchRow", "LeaderRow"]

MATCHES_SHOWN = 100
RESULTS_SHOWN = 20
"""How many of the newest results the matches page lists below the matches in progress."""
"""A bot's page lists its newest matches only: a bot plays thousands over a ladder's life."""


def _utc(moment: datetime) -> str:
    """A stored time in ISO 8601, in UTC (SQLite gives it back without its zone)."""
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).isoformat()


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else _utc(moment)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """A bot on the leaderboard: its rating, its conservative rating mu - 3 sigma (the order of the
    board) and, for an active bot, the 95 % interval of its rank among the active bots under the
    rating model (the standings' rank interval, docs/statistics.md)."""

    rank: int
    id: int
    name: str
    participant: str
    status: str
    reason: str | None
    mu: float
    sigma: float
    conservative: float
    rank_interval: tuple[int, int] | None
    games: int
    last_game_at: str | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SeatOf:
    """Who sits at a seat of a ladder match, and the rating its decision saw."""

    seat: int
    bot_id: int
    name: str
    participant: str
    mu: float
    sigma: float
    score: float | None  # the stored result, once done
    rank: int | None
    strikes: int | None
    forfeited: bool | None


@dataclass(frozen=True, slots=True)
class LadderMatchRow:
    """A matchmaking decision and where to watch it: live while in flight, its replay once done."""

    id: int
    status: str
    quality: float
    decided_at: str
    finished_at: str | None
    seats: list[SeatOf]
    url: str  # the live view while in flight, the replay once done

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Fault:
    """A strike or forfeit of the bot in one finished match, as the stored seat holds it."""

    ladder_match: int
    url: str
    strikes: int
    forfeited: bool
    forfeit_reason: str | None
    faults: list[str]


@dataclass(frozen=True, slots=True)
class BotStory:
    """Everything the bot's page shows."""

    bot: LeaderRow
    submitted_at: str
    history: list[RatingPoint]
    match_count: int
    matches: list[LadderMatchRow]
    faults: list[Fault]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class LadderCatalog:
    """Read-only queries over the ladder in one smtourney database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ladder = LadderStore(store)
        self._intervals: tuple[tuple[tuple[float, float], ...], list[tuple[int, int]]] | None = None

    def holds_ladder(self) -> bool:
        """Whether the database holds a ladder: at least one participant was ever registered."""
        with Session(self.store.engine) as session:
            return session.exec(select(LadderParticipant.id).limit(1)).first() is not None

    def leaderboard(self) -> list[LeaderRow]:
        """The bots that play or have played, in the order of ``smtourney ladder leaderboard``."""
        return self._board(self.ladder.bots())

    def bots(self) -> list[LeaderRow]:
        """Every bot ever submitted, newest first, whatever its status; ``rank`` 0 when it is not on
        the leaderboard (validating, or failed or retired without a game)."""
        rows = self.ladder.bots()
        board = {row.id: row for row in self._board(rows)}
        return [board.get(row.id) or _leader_row(0, row, None) for row in reversed(rows)]

    def _board(self, bots: list[BotRow]) -> list[LeaderRow]:
        """``bots`` on the leaderboard, ranked, the active ones with their rank intervals."""
        rows = ranked(bots)
        active = [row for row in rows if row.status == ACTIVE]
        intervals = dict(zip((row.id for row in active), self._rank_intervals(active), strict=True))
        return [_leader_row(place, row, intervals.get(row.id)) for place, row in enumerate(rows, start=1)]

    def _rank_intervals(self, active: list[BotRow]) -> list[tuple[int, int]]:
        """The active bots' rank intervals, computed again only when a rating has changed: they take
        thousands of draws, and every open leaderboard asks for them every few seconds."""
        key = tuple((row.mu, row.sigma) for row in active)
        cached = self._intervals
        if cached is None or cached[0] != key:
            cached = (key, rank_intervals([row.mu for row in active], [row.sigma for row in active]))
            self._intervals = cached
        return cached[1]

    def bot(self, bot_id: int) -> BotStory:
        """The bot's status, its rating at each matchmaking decision that seated it and now, its newest
        :data:`MATCHES_SHOWN` matches (newest first) and its faults (newest first)."""
        with Session(self.store.engine) as session:
            bot = session.get(LadderBot, bot_id)
            if bot is None:
                raise NotFoundError(f"there is no bot {bot_id} in this ladder")
            seen = session.exec(
                select(LadderSeat.ladder_match_id, LadderSeat.mu, LadderSeat.sigma)
                .where(LadderSeat.bot_id == bot_id)
                .order_by(col(LadderSeat.ladder_match_id))
            ).all()
            newest = [ladder_match for ladder_match, _, _ in seen[-MATCHES_SHOWN:]]
            matches = self._matches(session, select(LadderMatch).where(col(LadderMatch.id).in_(newest)))
        row = next((row for row in self.leaderboard() if row.id == bot_id), None) or next(
            _leader_row(0, row, None) for row in self.ladder.bots(bot.participant_id) if row.id == bot_id
        )
        history = [RatingPoint(number, match, mu, sigma) for number, (match, mu, sigma) in enumerate(seen)]
        history.append(RatingPoint(len(history), None, row.mu, row.sigma))
        return BotStory(
            row, _utc(bot.submitted_at), history, len(seen), matches[::-1], self._faults(bot_id)[::-1]
        )

    def in_progress(self) -> list[LadderMatchRow]:
        """The matches decided and not yet done, oldest first."""
        with Session(self.store.engine) as session:
            return self._matches(session, select(LadderMatch).where(col(LadderMatch.status).in_(IN_FLIGHT)))

    def recent(self) -> list[LadderMatchRow]:
        """The :data:`RESULTS_SHOWN` matches done last, the newest first."""
        with Session(self.store.engine) as session:
            newest = session.exec(
                select(LadderMatch.id)
                .where(LadderMatch.status == DONE)
                .order_by(col(LadderMatch.finished_at).desc(), col(LadderMatch.id).desc())
                .limit(RESULTS_SHOWN)
            ).all()
            rows = self._matches(session, select(LadderMatch).where(col(LadderMatch.id).in_(newest)))
        return sorted(rows, key=lambda row: (row.finished_at or "", row.id), reverse=True)

    def watch_target(self, ladder_match: int) -> str:
        """The page to watch ladder match ``ladder_match`` on now: its replay once done, else its live
        spectator view."""
        with Session(self.store.engine) as session:
            match = session.get(LadderMatch, ladder_match)
            if match is None:
                raise NotFoundError(f"there is no ladder match {ladder_match}")
            stored = session.get(Match, match.match_pk) if match.match_pk is not None else None
            if match.status == DONE and stored is not None:
                return _match_path(stored.tournament_id, stored.match_id)
        tournament = self.ladder.existing_tournament_id()
        if tournament is None:
            raise NotFoundError(
                f"ladder match {ladder_match} has no live view yet: it opens once the ladder plays"
            )
        return _match_path(tournament, match_id_of(ladder_match)) + "/live"

    # --- reading ------------------------------------------------------------------------------------

    def _matches(self, session: Session, query: Any) -> list[LadderMatchRow]:
        """``query``'s ladder matches in decision order, with their seats and, once done, results."""
        matches = session.exec(query.order_by(col(LadderMatch.id))).all()
        ids = [match.id for match in matches]
        seat_rows = session.exec(
            select(LadderSeat, LadderBot, LadderParticipant)
            .join(LadderBot, col(LadderBot.id) == col(LadderSeat.bot_id))
            .join(LadderParticipant, col(LadderParticipant.id) == col(LadderBot.participant_id))
            .where(col(LadderSeat.ladder_match_id).in_(ids))
            .order_by(col(LadderSeat.ladder_match_id), col(LadderSeat.seat))
        ).all()
        done_pks = [
            match.match_pk for match in matches if match.status == DONE and match.match_pk is not None
        ]
        stored = {
            (seat.match_pk, seat.seat): seat
            for seat in session.exec(select(Seat).where(col(Seat.match_pk).in_(done_pks))).all()
        }
        stored_matches = {
            match.id: match for match in session.exec(select(Match).where(col(Match.id).in_(done_pks))).all()
        }
        seats: dict[int, list[SeatOf]] = {}
        pk_of = {match.id: match.match_pk if match.status == DONE else None for match in matches}
        for seat, bot, owner in seat_rows:
            pk = pk_of.get(seat.ladder_match_id)
            result = None if pk is None else stored.get((pk, seat.seat))
            seats.setdefault(seat.ladder_match_id, []).append(
                SeatOf(
                    seat.seat,
                    seat.bot_id,
                    bot.name,
                    owner.name,
                    seat.mu,
                    seat.sigma,
                    None if result is None else result.score,
                    None if result is None else result.rank,
                    None if result is None else result.strikes,
                    None if result is None else result.forfeited,
                )
            )
        rows = []
        for match in matches:
            assert match.id is not None
            stored_match = stored_matches.get(match.match_pk) if match.status == DONE else None
            url = (
                watch_path(match.id)
                if stored_match is None
                else _match_path(stored_match.tournament_id, stored_match.match_id)
            )
            rows.append(
                LadderMatchRow(
                    match.id,
                    match.status,
                    match.quality,
                    _utc(match.decided_at),
                    _iso(match.finished_at),
                    seats.get(match.id, []),
                    url,
                )
            )
        return rows

    def _faults(self, bot_id: int) -> list[Fault]:
        """The bot's strikes, forfeits and other faults (output over the cap) in its finished matches,
        from the stored seats, in order."""
        with Session(self.store.engine) as session:
            rows = session.exec(
                select(LadderMatch.id, Seat, Match.tournament_id, Match.match_id)
                .join(Match, col(Match.id) == col(LadderMatch.match_pk))
                .join(Seat, col(Seat.match_pk) == col(Match.id))
                .join(LadderSeat, col(LadderSeat.ladder_match_id) == col(LadderMatch.id))
                .where(
                    LadderSeat.bot_id == bot_id,
                    col(LadderSeat.seat) == col(Seat.seat),
                    LadderMatch.status == DONE,
                    (col(Seat.strikes) > 0) | col(Seat.forfeited) | (col(Seat.faults_json) != "[]"),
                )
                .order_by(col(LadderMatch.id))
            ).all()
        return [
            Fault(
                match,
                _match_path(tournament, match_id),
                seat.strikes,
                seat.forfeited,
                seat.forfeit_reason,
                json.loads(seat.faults_json),
            )
            for match, seat, tournament, match_id in rows
            if match is not None
        ]


def _match_path(tournament_id: int, match_id: str) -> str:
    return f"/tournaments/{tournament_id}/matches/{quote(match_id, safe='')}"


def _leader_row(rank: int, row: BotRow, rank_interval: tuple[int, int] | None) -> LeaderRow:
    return LeaderRow(
        rank,
        row.id,
        row.name,
        row.participant,
        row.status,
        row.reason,
        row.mu,
        row.sigma,
        row.mu - 3 * row.sigma,
        rank_interval,
        row.games,
        _iso(row.last_game_at),
    )
