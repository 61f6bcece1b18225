"""What the web viewer shows, read from the store: never writes, and every failure has a message.

Pages and the JSON API both read through :class:`Catalog`, so they always agree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from sdk.games.registry import get_game
from server.ladder.seating import ladder_match_of
from server.ladder.store import DONE
from server.replay import build_replay
from server.resimulate import ReplayMismatchError
from server.store.database import StoreError
from server.store.models import LadderMatch, Match, Tournament
from server.store.repository import Store, StoredState
from server.tournament.ratings import ENVIRONMENT, rate
from server.tournament.report import knockout_json, standing_rows, statistics_json

from .filters import SeatFilter
from .kept import KeptFigure


class NotFoundError(LookupError):
    """No such tournament or match (the message says which)."""


class UnreadableReplayError(Exception):
    """A stored match that cannot be shown: corrupted rows, or a record the engine refuses."""


class MatchInFlightError(Exception):
    """A ladder match not done yet: the public sees it live as a spectator, its replay once it ends."""


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    id: int
    name: str
    game: str
    entrants: int
    matches: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    score: float
    rank: int
    strikes: int
    forfeited: bool
    forfeit_reason: str | None
    faults: list[str]


@dataclass(frozen=True, slots=True)
class MatchRow:
    match_id: str
    index: int
    round: int
    table: int
    rotation: int
    end_reason: str
    duration_s: float
    seats: list[SeatRow]

    @property
    def strikes(self) -> int:
        return sum(seat.strikes for seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """An entrant's rating after the ``number``-th finished match of the schedule (0: the start)."""

    number: int
    match_index: int | None
    mu: float
    sigma: float


class Catalog:
    """Read-only queries over one smtourney database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._standings = KeptFigure[list[dict[str, Any]]]()
        self._knockout = KeptFigure[dict[str, Any] | None]()
        self._statistics = KeptFigure[dict[str, Any]]()
        self._rating_history = KeptFigure[dict[str, list[RatingPoint]]]()

    def tournaments(self) -> list[TournamentSummary]:
        summaries = []
        for tournament in self.store.tournaments():
            assert tournament.id is not None
            summaries.append(
                TournamentSummary(
                    id=tournament.id,
                    name=tournament.name,
                    game=tournament.game,
                    entrants=len(self.store.entrants(tournament.id)),
                    matches=self.store.stored_state(tournament.id).matches,
                    created_at=tournament.created_at,
                )
            )
        return summaries

    def tournament(self, tournament_id: int) -> Tournament:
        for tournament in self.store.tournaments():
            if tournament.id == tournament_id:
                return tournament
        raise NotFoundError(f"there is no tournament {tournament_id} in this database")

    def entrant_names(self, tournament_id: int) -> list[str]:
        return [entrant.name for entrant in self.store.entrants(tournament_id)]

    def stored_state(self, tournament_id: int) -> StoredState:
        """The tournament's stored matches as a whole: what every figure of them is kept by."""
        return self.store.stored_state(tournament_id)

    def match_count(self, tournament_id: int) -> int:
        """How many of the tournament's matches are stored."""
        return self.stored_state(tournament_id).matches

    def standings(self, tournament_id: int) -> list[dict[str, Any]]:
        """As ``smtourney standings --json`` gives them."""
        state = self.stored_state(tournament_id)
        return self._standings.get(tournament_id, state, lambda: standing_rows(self.store, tournament_id))

    def knockout(self, tournament_id: int) -> dict[str, Any] | None:
        """A knockout's tree with its results, for drawing (None for other formats)."""
        state = self.stored_state(tournament_id)
        return self._knockout.get(tournament_id, state, lambda: knockout_json(self.store, tournament_id))

    def statistics(self, tournament_id: int) -> dict[str, Any]:
        """As ``smtourney stats --json`` gives them: head-to-head matrix and seat tables."""
        state = self.stored_state(tournament_id)
        return self._statistics.get(tournament_id, state, lambda: statistics_json(self.store, tournament_id))

    def rating_history(self, tournament_id: int) -> dict[str, list[RatingPoint]]:
        """Each entrant's rating from the start, after every match it played, in schedule order."""
        state = self.stored_state(tournament_id)
        return self._rating_history.get(tournament_id, state, lambda: self._history(tournament_id))

    def _history(self, tournament_id: int) -> dict[str, list[RatingPoint]]:
        names = self.entrant_names(tournament_id)
        results = sorted(self.store.results(tournament_id), key=lambda r: r.index)
        number = {result.index: n for n, result in enumerate(results, start=1)}
        start = ENVIRONMENT.create_rating()
        history = {name: [RatingPoint(0, None, start.mu, start.sigma)] for name in names}
        for snapshot in rate(len(names), results)[1]:
            history[names[snapshot.entrant]].append(
                RatingPoint(number[snapshot.match_index], snapshot.match_index, snapshot.mu, snapshot.sigma)
            )
        return history

    def matches(self, tournament_id: int, seat_filter: SeatFilter | None = None) -> list[MatchRow]:
        """Finished matches in schedule order, those with a seat that passes ``seat_filter``."""
        names = {e.id: e.name for e in self.store.entrants(tournament_id)}
        rows = []
        for match, seats in self.store.matches(tournament_id):
            seat_rows = [
                SeatRow(
                    s.seat,
                    names[s.entrant_id],
                    s.score,
                    s.rank,
                    s.strikes,
                    s.forfeited,
                    s.forfeit_reason,
                    self.store.faults(s, match.match_id),
                )
                for s in seats
            ]
            if seat_filter is None or any(
                seat_filter.passes(
                    entrant=s.name, seat=s.seat, strikes=s.strikes, score=s.score, faults=s.faults
                )
                for s in seat_rows
            ):
                rows.append(
                    MatchRow(
                        match_id=match.match_id,
                        index=match.index,
                        round=match.round,
                        table=match.table_no,
                        rotation=match.rotation,
                        end_reason=match.end_reason,
                        duration_s=match.duration_s,
                        seats=seat_rows,
                    )
                )
        return rows

    def replay(self, tournament_id: int, match_id: str, seat: int | None = None) -> dict[str, Any]:
        """The match in the replay format (docs/replay-format.md), re-simulated and checked.

        ``seat``: as that seat saw the match (None: everything, the organiser's view).
        """
        tournament = self.tournament(tournament_id)
        self._refuse_in_flight(tournament_id, match_id)
        try:
            record = self.store.load_record(tournament_id, match_id)
        except StoreError as exc:
            raise _unreadable(match_id, exc.message) from None
        if record is None:
            raise NotFoundError(f"there is no match {match_id!r} in tournament {tournament.name!r}")
        if seat is not None and not 0 <= seat < record.players:
            raise NotFoundError(
                f"match {match_id!r} has no seat {seat} (its seats are 0 to {record.players - 1})"
            )
        try:
            get_game(record.game)
        except KeyError as exc:
            raise _unreadable(match_id, exc.args[0]) from None
        try:
            return build_replay(record, tournament=tournament.name, seat=seat)
        except ReplayMismatchError as exc:
            raise _unreadable(match_id, str(exc)) from None

    def _refuse_in_flight(self, tournament_id: int, match_id: str) -> None:
        """No replay, whole or of one seat, of a ladder match before it is done: a participant could
        feed what it shows to their own bot while the match is played."""
        named = ladder_match_of(match_id)
        with Session(self.store.engine) as session:
            pointing = session.exec(
                select(LadderMatch)
                .join(Match, col(Match.id) == col(LadderMatch.match_pk))
                .where(Match.tournament_id == tournament_id, Match.match_id == match_id)
            ).first()
            ladder_match = pointing or (None if named is None else session.get(LadderMatch, named))
        if ladder_match is not None and ladder_match.id is not None and ladder_match.status != DONE:
            raise MatchInFlightError(
                f"match {match_id!r} is still being played: watch it live at "
                f"{watch_path(ladder_match.id)}; its replay opens when it ends"
            )


def watch_path(ladder_match: int) -> str:
    """Where the public watches a ladder match: the page redirects to its live spectator view while
    it is in flight, to its replay once it is done."""
    return f"/ladder/matches/{ladder_match}/watch"


def _unreadable(match_id: str, reason: str) -> UnreadableReplayError:
    return UnreadableReplayError(f"match {match_id!r} cannot be shown: {reason}")
