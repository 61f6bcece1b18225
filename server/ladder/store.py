"""The ladder's participants and bots in the store: short transactions, one change each.

One ladder per database. Every change is checked before anything is written, and refused as a
:class:`LadderError` with one line, so a wrong name changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select as select_columns
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from server.intervals import Z95
from server.seeds import derive_seed
from server.steps_block import PackedRecord
from server.store.live_rows import clear_match
from server.store.models import (
    Entrant,
    LadderBot,
    LadderMatch,
    LadderParticipant,
    LadderRefusedUpload,
    LadderSeat,
    Match,
    Seat,
    Tournament,
)
from server.store.outage import translated
from server.store.repository import MatchResult, Placement, Store, insert_match
from server.tournament.bracket_checks import name_problem
from server.tournament.ratings import ENVIRONMENT, rate

from .config import Suspension
from .matchmaking import Rated, Table, form_table
from .seating import entrant_name
from .tokens import new_token, token_hash

__all__ = [
    "ACTIVE",
    "DONE",
    "ERROR",
    "FAILED",
    "IN_FLIGHT",
    "PLAYING",
    "RETIRED",
    "SCHEDULED",
    "STATUSES",
    "SUSPENDED",
    "VALIDATING",
    "BotRow",
    "LadderError",
    "LadderStore",
    "LimitError",
    "SeatedBot",
    "Seating",
    "SubmissionLimits",
    "ranked",
]

VALIDATING = "validating"
ACTIVE = "active"
FAILED = "failed"
SUSPENDED = "suspended"
RETIRED = "retired"
STATUSES = (VALIDATING, ACTIVE, FAILED, SUSPENDED, RETIRED)
"""A bot's life: validating, then active or failed; an active bot may be suspended; any is retired."""

SCHEDULED = "scheduled"
PLAYING = "playing"
DONE = "done"
ERROR = "error"
"""A ladder match: decided (``scheduled``), handed to a worker (``playing``), stored (``done``); or
``error`` when the referee itself failed on it (its traceback is in the log folder)."""
IN_FLIGHT = (SCHEDULED, PLAYING)
"""A ladder match in these states has no public replay yet: only its spectator view may be shown."""

LADDER_FINGERPRINT = "ladder"
"""The fingerprint of the tournament row that stands for the ladder (one per database)."""


class LadderError(ValueError):
    """A change the ladder refuses; the message is one line."""


class LimitError(LadderError):
    """A submission beyond one of the participant's limits; ``retry_after_s`` when waiting helps."""

    def __init__(self, message: str, *, retry_after_s: int | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


SUBMISSION_WINDOW = timedelta(hours=1)
"""The window ``submissions_per_hour`` counts in."""


@dataclass(frozen=True, slots=True)
class SubmissionLimits:
    """What a participant may have submitted when a new bot is added: at most ``validating`` bots
    validating at once, and ``per_hour`` submissions in the last hour (bots added, and archives
    refused)."""

    validating: int
    per_hour: int


@dataclass(frozen=True)
class BotRow:
    """A bot as the leaderboard and its owner see it."""

    id: int
    name: str
    participant: str
    status: str
    reason: str | None
    games: int
    mu: float
    sigma: float
    submitted_at: datetime
    last_game_at: datetime | None = None

    @property
    def interval(self) -> tuple[float, float]:
        """95 % interval of the bot's skill under its rating's normal belief: mu -/+ 1.96 sigma."""
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "participant": self.participant,
            "status": self.status,
            "reason": self.reason,
            "games": self.games,
            "mu": self.mu,
            "sigma": self.sigma,
            "submitted_at": self.submitted_at.isoformat(),
            "interval": list(self.interval),
            "last_game_at": None if self.last_game_at is None else self.last_game_at.isoformat(),
        }


def ranked(bots: list[BotRow]) -> list[BotRow]:
    """The leaderboard of ``bots``: those that play or have played, active first, by conservative
    rating (mu - 3 sigma)."""
    rows = [row for row in bots if row.status in (ACTIVE, SUSPENDED) or row.games > 0]
    return sorted(rows, key=lambda row: (row.status != ACTIVE, -(row.mu - 3 * row.sigma), row.id))


class LadderStore:
    """Participants and bots of the ladder in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A session whose database failures are StoreErrors (DatabaseUnavailable in an outage)."""
        with translated(self.store.path), Session(self.store.engine, expire_on_commit=False) as session:
            yield session

    # --- participants ----------------------------------------------------------------------------

    def add_participant(self, name: str) -> str:
        """Register ``name``; returns its token, which is not kept and cannot be shown again."""
        if not name.strip():
            raise LadderError("a participant name must not be empty")
        if not name.isprintable():
            raise LadderError("a participant name cannot hold a newline, tab or other control character")
        problem = name_problem(name)
        if problem is not None:
            raise LadderError(problem.replace("an entrant name", "a participant name"))
        token = new_token()
        with self._session() as session:
            if session.exec(select(LadderParticipant).where(LadderParticipant.name == name)).first():
                raise LadderError(f"there is already a participant named {name!r}")
            session.add(
                LadderParticipant(name=name, token_hash=token_hash(token), created_at=datetime.now(UTC))
            )
            try:
                session.commit()
            except IntegrityError:  # added by another process meanwhile
                raise LadderError(f"there is already a participant named {name!r}") from None
        return token

    def remove_participant(self, name: str) -> int:
        """Remove ``name``: its token stops working and its bots are retired; returns how many."""
        with self._session() as session:
            participant = self._participant(session, name)
            participant.removed = True
            session.add(participant)
            retired = self._retire_all(session, participant)
            session.commit()
        return retired

    def rotate_token(self, name: str) -> str:
        """Give ``name`` a new token, returned (and, like the first, kept only as its hash): the old
        one stops working at once, the participant keeps their name, bots and history."""
        token = new_token()
        with self._session() as session:
            participant = self._participant(session, name)
            participant.token_hash = token_hash(token)
            session.add(participant)
            session.commit()
        return token

    def set_paused(self, name: str, paused: bool) -> None:
        """A paused participant's bots are not scheduled, and it cannot submit."""
        with self._session() as session:
            participant = self._participant(session, name)
            participant.paused = paused
            session.add(participant)
            session.commit()

    def add_refused_upload(self, participant_id: int) -> None:
        """Count a refused archive against the participant's hour; their refusals older than the
        hour are forgotten now, so the table holds at most an hour of them."""
        now = datetime.now(UTC)
        with self._session() as session:
            for row in session.exec(
                select(LadderRefusedUpload).where(LadderRefusedUpload.participant_id == participant_id)
            ):
                if _aware(row.refused_at) <= now - SUBMISSION_WINDOW:
                    session.delete(row)
            session.add(LadderRefusedUpload(participant_id=participant_id, refused_at=now))
            session.commit()

    def participant_for_token(self, token: str) -> LadderParticipant | None:
        """The participant holding ``token``, unless removed."""
        with self._session() as session:
            participant = session.exec(
                select(LadderParticipant).where(LadderParticipant.token_hash == token_hash(token))
            ).first()
        return None if participant is None or participant.removed else participant

    def participants(self) -> list[LadderParticipant]:
        with self._session() as session:
            return list(session.exec(select(LadderParticipant).order_by(col(LadderParticipant.id))))

    def _participant(self, session: Session, name: str) -> LadderParticipant:
        participant = session.exec(select(LadderParticipant).where(LadderParticipant.name == name)).first()
        if participant is None or participant.removed:
            raise LadderError(f"no participant named {name!r}")
        return participant

    # --- bots --------------------------------------------------------------------------------------

    def add_bot(
        self,
        participant_id: int,
        name: str,
        spec: dict[str, Any],
        *,
        mu: float,
        sigma: float,
        limits: SubmissionLimits | None = None,
    ) -> BotRow:
        """A new bot of the participant, ``validating``; a name is used once per participant.

        With ``limits``, they are checked and the bot inserted in one transaction that first locks
        the participant's row (a write: SQLite's write lock, PostgreSQL's row lock), so parallel
        submissions of one participant are counted one after the other and never pass a limit."""
        with self._session() as session:
            session.execute(
                update(LadderParticipant)
                .where(col(LadderParticipant.id) == participant_id)
                .values(paused=LadderParticipant.paused)
            )
            participant = session.get(LadderParticipant, participant_id)
            if participant is None or participant.removed:
                raise LadderError("no such participant")
            if limits is not None:
                _within(session, participant_id, limits)
            taken = select(LadderBot).where(
                LadderBot.participant_id == participant_id, LadderBot.name == name
            )
            if session.exec(taken).first() is not None:
                raise LadderError(f"you already have a bot named {name!r}; give the new one another name")
            bot = LadderBot(
                participant_id=participant_id,
                name=name,
                status=VALIDATING,
                spec_json=json.dumps(spec, sort_keys=True),
                mu=mu,
                sigma=sigma,
                submitted_at=datetime.now(UTC),
            )
            session.add(bot)
            try:
                session.commit()
            except IntegrityError:
                raise LadderError(
                    f"you already have a bot named {name!r}; give the new one another name"
                ) from None
            return _row(bot, participant.name)

    def check_limits(self, participant_id: int, limits: SubmissionLimits) -> None:
        """Refuse early (as :class:`LimitError`) a submission :meth:`add_bot` would refuse, before an
        upload is read; :meth:`add_bot` checks again, atomically."""
        with self._session() as session:
            _within(session, participant_id, limits)

    def retire(self, bot_name: str, participant_id: int | None = None) -> BotRow:
        """Retire a bot, named ``PARTICIPANT/BOT`` or, with ``participant_id``, among that one's own."""
        with self._session() as session:
            bot, owner = self._bot(session, bot_name, participant_id)
            bot.status = RETIRED
            session.add(bot)
            session.commit()
            return _row(bot, owner.name)

    def bots(self, participant_id: int | None = None) -> list[BotRow]:
        """Bots in submission order, of one participant or of all.

        Read as plain columns, not ORM objects: the leaderboard reads every bot on every request, and
        building two ORM objects per bot cost ten times the query."""
        columns = (
            col(LadderBot.id),
            col(LadderBot.name),
            col(LadderParticipant.name),
            col(LadderBot.status),
            col(LadderBot.reason),
            col(LadderBot.games),
            col(LadderBot.mu),
            col(LadderBot.sigma),
            col(LadderBot.submitted_at),
            col(LadderBot.last_game_at),
        )
        query = select_columns(*columns).join(LadderParticipant).order_by(col(LadderBot.id))
        if participant_id is not None:
            query = query.where(col(LadderBot.participant_id) == participant_id)
        with translated(self.store.path), self.store.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            BotRow(bot_id or 0, name, owner, status, reason, games, mu, sigma, submitted, last)
            for bot_id, name, owner, status, reason, games, mu, sigma, submitted, last in rows
        ]

    def leaderboard(self) -> list[BotRow]:
        """Every bot that plays or has played: active first, by conservative rating (mu - 3 sigma)."""
        return ranked(self.bots())

    # --- validation ----------------------------------------------------------------------------------

    def next_validating(self) -> tuple[int, str] | None:
        """The oldest bot waiting for validation: its id and how it is reached."""
        with self._session() as session:
            bot = session.exec(
                select(LadderBot).where(LadderBot.status == VALIDATING).order_by(col(LadderBot.id))
            ).first()
        return None if bot is None or bot.id is None else (bot.id, bot.spec_json)

    def pending_validations(self) -> list[tuple[int, int, str]]:
        """Every bot waiting for validation, oldest first: its id, its participant's and its spec."""
        query = (
            select_columns(col(LadderBot.id), col(LadderBot.participant_id), col(LadderBot.spec_json))
            .where(col(LadderBot.status) == VALIDATING)
            .order_by(col(LadderBot.id))
        )
        with translated(self.store.path), self.store.engine.connect() as connection:
            return [(bot_id or 0, owner, spec) for bot_id, owner, spec in connection.execute(query).all()]

    def discarded_programs(self) -> list[str]:
        """The ``spec_json`` of every failed or retired bot: their program folders are no longer run."""
        query = select_columns(col(LadderBot.spec_json)).where(col(LadderBot.status).in_((FAILED, RETIRED)))
        with translated(self.store.path), self.store.engine.connect() as connection:
            return [spec for (spec,) in connection.execute(query).all()]

    def finish_validation(self, bot_id: int, *, passed: bool, reason: str | None, max_active: int) -> None:
        """``active`` (retiring the owner's oldest active bots beyond ``max_active``) or ``failed`` with
        ``reason``; a bot retired meanwhile stays retired."""
        with self._session() as session:
            bot = session.get(LadderBot, bot_id)
            if bot is None or bot.status != VALIDATING:
                return
            bot.status, bot.reason = (ACTIVE, None) if passed else (FAILED, reason)
            session.add(bot)
            if passed:
                active = session.exec(
                    select(LadderBot)
                    .where(LadderBot.participant_id == bot.participant_id, LadderBot.status == ACTIVE)
                    .order_by(col(LadderBot.id).desc())
                ).all()
                for older in [b for b in active if b.id != bot_id][max_active - 1 :]:
                    older.status, older.reason = RETIRED, "retired: a newer bot took its place"
                    session.add(older)
            session.commit()

    # --- matchmaking ---------------------------------------------------------------------------------

    def decide(
        self,
        players: int,
        *,
        candidates: int,
        min_quality: float,
        seed: int,
        busy: Collection[int] = (),
    ) -> tuple[int, Table] | None:
        """Form the next table among the active bots of participants who are not paused, around one
        that is not ``busy`` (playing a match now), and store the decision (its seats with the ratings it
        used) as a ``scheduled`` ladder match, in one transaction; its id and table, or None when no
        table can be formed."""
        with self._session() as session:
            number = session.exec(select(func.count()).select_from(LadderMatch)).one()
            active = session.exec(
                select(LadderBot)
                .join(LadderParticipant)
                .where(LadderBot.status == ACTIVE, col(LadderParticipant.paused).is_(False))
                .order_by(col(LadderBot.id))
            ).all()
            rated = [Rated(bot.id, bot.mu, bot.sigma, bot.games) for bot in active if bot.id is not None]
            table = form_table(
                rated, players, candidates=candidates, min_quality=min_quality, number=number, busy=busy
            )
            if table is None:
                return None
            match = LadderMatch(
                focus_bot_id=table.focus.id,
                quality=table.quality,
                seed=derive_seed(seed, "ladder match", number),
                decided_at=datetime.now(UTC),
            )
            session.add(match)
            session.flush()
            assert match.id is not None
            for seat, bot in enumerate(table.seats):
                session.add(
                    LadderSeat(ladder_match_id=match.id, seat=seat, bot_id=bot.id, mu=bot.mu, sigma=bot.sigma)
                )
            session.commit()
            return match.id, table

    def decisions(self) -> list[tuple[LadderMatch, list[LadderSeat]]]:
        """Every matchmaking decision in order, with its seats and the ratings it used."""
        with self._session() as session:
            matches = session.exec(select(LadderMatch).order_by(col(LadderMatch.id))).all()
            seats = session.exec(
                select(LadderSeat).order_by(col(LadderSeat.ladder_match_id), col(LadderSeat.seat))
            ).all()
        by_match: dict[int, list[LadderSeat]] = {}
        for seat in seats:
            by_match.setdefault(seat.ladder_match_id, []).append(seat)
        return [(match, by_match.get(match.id or 0, [])) for match in matches]

    def _bot(
        self, session: Session, bot_name: str, participant_id: int | None
    ) -> tuple[LadderBot, LadderParticipant]:
        if participant_id is None:
            owner_name, slash, name = bot_name.partition("/")
            if not slash:
                raise LadderError(f"name the bot as PARTICIPANT/BOT, got {bot_name!r}")
            owner = self._participant(session, owner_name)
        else:
            found = session.get(LadderParticipant, participant_id)
            if found is None:
                raise LadderError("no such participant")
            owner, name = found, bot_name
        bot = session.exec(
            select(LadderBot).where(LadderBot.participant_id == owner.id, LadderBot.name == name)
        ).first()
        if bot is None:
            raise LadderError(f"{owner.name} has no bot named {name!r}")
        return bot, owner

    def _retire_all(self, session: Session, participant: LadderParticipant) -> int:
        bots = session.exec(
            select(LadderBot).where(LadderBot.participant_id == participant.id, LadderBot.status != RETIRED)
        ).all()
        for bot in bots:
            bot.status = RETIRED
            session.add(bot)
        return len(bots)

    # --- playing -------------------------------------------------------------------------------------

    def tournament_id(self, name: str, game: str, seed: int, settings: dict[str, Any]) -> int:
        """The tournament row standing for the ladder, created the first time; its matches are the
        ladder's, stored like a bracket's so that replay, verify and the viewer read them unchanged."""
        found = self.existing_tournament_id()
        if found is not None:
            return found
        created = self.store.create_tournament(
            name=name, game=game, fingerprint=LADDER_FINGERPRINT, bracket=settings, seed=seed, entrants=()
        )
        assert created.id is not None
        return created.id

    def existing_tournament_id(self) -> int | None:
        """The tournament row standing for the ladder, if a match was ever played."""
        with self._session() as session:
            return session.exec(
                select(Tournament.id).where(Tournament.fingerprint == LADDER_FINGERPRINT)
            ).first()

    def played(self) -> int:
        """How many ladder matches are stored."""
        with self._session() as session:
            return session.exec(
                select(func.count()).select_from(LadderMatch).where(LadderMatch.status == DONE)
            ).one()

    def entrants_in_play(self) -> frozenset[str]:
        """The entrant names of the active bots: the only ones whose processes workers may keep."""
        with self._session() as session:
            found = session.exec(
                select(LadderBot.name, LadderParticipant.name)
                .join(LadderParticipant)
                .where(LadderBot.status == ACTIVE)
            ).all()
        return frozenset(entrant_name(owner, bot) for bot, owner in found)

    def unfinished(self) -> list[int]:
        """Ladder matches decided but not stored (``scheduled`` or ``playing``), oldest first."""
        with self._session() as session:
            return [
                match_id
                for match_id in session.exec(
                    select(LadderMatch.id)
                    .where(col(LadderMatch.status).in_((SCHEDULED, PLAYING)))
                    .order_by(col(LadderMatch.id))
                )
                if match_id is not None
            ]

    def seats_of(self, bot_id: int) -> frozenset[tuple[int, int]]:
        """Every ladder match the bot was seated at, with its seat: what names its match logs."""
        with self._session() as session:
            rows = session.exec(
                select(LadderSeat.ladder_match_id, LadderSeat.seat).where(LadderSeat.bot_id == bot_id)
            ).all()
        return frozenset((match_id, seat) for match_id, seat in rows)

    def seating(self, ladder_match_id: int) -> Seating:
        """What playing a decided match needs: its seed, and each seat's bot and how it is reached."""
        with self._session() as session:
            return _seating(session, ladder_match_id)

    def set_match_status(self, ladder_match_id: int, status: str) -> None:
        """Mark a ladder match ``playing`` (handed to a worker) or ``error``; a stored one stays ``done``."""
        with self._session() as session:
            match = session.get(LadderMatch, ladder_match_id)
            if match is not None and match.status != DONE:
                match.status = status
                session.add(match)
                session.commit()

    def finish_match(
        self,
        tournament_id: int,
        ladder_match_id: int,
        packed: PackedRecord,
        suspension: Suspension | None = None,
    ) -> bool:
        """Store a played ladder match in one transaction: the match, its seats and steps, the bots'
        new ratings (TrueSkill, as a bracket rates), games and last game, a
        suspension for a bot that has now forfeited ``suspension.forfeits`` of its last ``suspension.matches``
        matches (default: 3 of 5, so forfeiting every other match is caught too), and the ladder match
        ``done``. False, changing nothing, if it was stored already: a match is never counted twice.

        The stored match's ``index`` is the order in which results were applied to the ratings, so
        replaying the matches in index order from the initial rating gives the same ratings."""
        head = packed.record
        with self._session() as session:
            match = session.get(LadderMatch, ladder_match_id)
            if match is None or match.status == DONE:
                return False
            seated = _seating(session, ladder_match_id).bots
            bots = {
                bot.id: bot
                for bot in session.exec(
                    select(LadderBot).where(col(LadderBot.id).in_([seat.bot_id for seat in seated]))
                )
            }
            entrant_ids = _entrants(session, tournament_id, seated)
            last = session.exec(
                select(func.max(Match.index)).where(Match.tournament_id == tournament_id)
            ).one()
            index = 1 if last is None else last + 1
            placement = Placement(index, round=1, table=1, rotation=0)
            match_pk = insert_match(
                session.connection(),
                tournament_id,
                placement,
                packed,
                [entrant_ids[seat.bot_id] for seat in seated],
            )
            clear_match(session.connection(), tournament_id, head.match_id)  # no longer in flight
            before = [bots[seat.bot_id] for seat in seated]
            result = MatchResult(
                index,
                head.match_id,
                tuple(range(len(seated))),
                tuple(seat.score for seat in head.seats),
                tuple(seat.rank for seat in head.seats),
                tuple(seat.strikes for seat in head.seats),
                tuple(seat.forfeited for seat in head.seats),
            )
            ratings, _ = rate(
                len(seated), [result], [ENVIRONMENT.create_rating(bot.mu, bot.sigma) for bot in before]
            )
            now = datetime.now(UTC)
            rule = suspension or Suspension()
            for bot, rating, seat in zip(before, ratings, head.seats, strict=True):
                bot.mu, bot.sigma = rating.mu, rating.sigma
                bot.games += 1
                bot.last_game_at = now
                if seat.forfeited and bot.status == ACTIVE:
                    forfeits = _forfeits(session, entrant_ids[bot.id or 0], rule.matches)
                    if forfeits >= rule.forfeits:
                        bot.status = SUSPENDED
                        bot.reason = (
                            f"forfeited {forfeits} of its last {rule.matches} matches, "
                            f"the last: {seat.forfeit_reason}"
                        )
                session.add(bot)
            match.status, match.match_pk, match.finished_at = DONE, match_pk, now
            session.add(match)
            session.commit()
        return True


def _within(session: Session, participant_id: int, limits: SubmissionLimits) -> None:
    """Refuse a new bot beyond the participant's limits, counted within the caller's transaction."""
    since = datetime.now(UTC) - SUBMISSION_WINDOW
    mine = session.exec(
        select(LadderBot.status, LadderBot.submitted_at).where(LadderBot.participant_id == participant_id)
    ).all()
    waiting = sum(1 for status, _ in mine if status == VALIDATING)
    if waiting >= limits.validating:
        raise LimitError(f"{waiting} of your bots are still validating; submit again once they are done")
    refused = session.exec(
        select(LadderRefusedUpload.refused_at).where(LadderRefusedUpload.participant_id == participant_id)
    ).all()
    recent = sum(1 for submitted in [*refused, *(at for _, at in mine)] if _aware(submitted) > since)
    if recent >= limits.per_hour:
        raise LimitError(
            f"you made {recent} submissions in the last hour, this ladder's most; submit again later",
            retry_after_s=int(SUBMISSION_WINDOW.total_seconds()),
        )


def _aware(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _seating(session: Session, ladder_match_id: int) -> Seating:
    """:meth:`LadderStore.seating`, within the caller's session."""
    match = session.get(LadderMatch, ladder_match_id)
    if match is None:
        raise LadderError(f"no ladder match {ladder_match_id}")
    rows = session.exec(
        select(LadderSeat, LadderBot, LadderParticipant)
        .join(LadderBot, col(LadderSeat.bot_id) == col(LadderBot.id))
        .join(LadderParticipant, col(LadderBot.participant_id) == col(LadderParticipant.id))
        .where(LadderSeat.ladder_match_id == ladder_match_id)
        .order_by(col(LadderSeat.seat))
    ).all()
    return Seating(
        ladder_match_id,
        match.seed,
        tuple(
            SeatedBot(bot.id or 0, entrant_name(owner.name, bot.name), bot.spec_json)
            for _, bot, owner in rows
        ),
    )


def _row(bot: LadderBot, participant: str) -> BotRow:
    assert bot.id is not None
    return BotRow(
        bot.id,
        bot.name,
        participant,
        bot.status,
        bot.reason,
        bot.games,
        bot.mu,
        bot.sigma,
        bot.submitted_at,
        bot.last_game_at,
    )


@dataclass(frozen=True, slots=True)
class SeatedBot:
    """A bot at a decided table: its id, its name in stored matches, and how it is reached."""

    bot_id: int
    name: str
    spec_json: str


@dataclass(frozen=True, slots=True)
class Seating:
    """A decided ladder match as it is played: its seed and its bots in seat order."""

    ladder_match_id: int
    seed: int
    bots: tuple[SeatedBot, ...]


def _entrants(session: Session, tournament_id: int, seated: Sequence[SeatedBot]) -> dict[int, int]:
    """Entrant ids by bot id, adding the entrant rows of bots playing their first match: a ladder
    bot is the entrant at the position of its id."""
    ids = [seat.bot_id for seat in seated]
    found = {
        entrant.position: entrant.id
        for entrant in session.exec(
            select(Entrant).where(Entrant.tournament_id == tournament_id, col(Entrant.position).in_(ids))
        )
        if entrant.id is not None
    }
    for seat in seated:
        if seat.bot_id not in found:
            entrant = Entrant(
                tournament_id=tournament_id,
                position=seat.bot_id,
                name=seat.name,
                spec_json=json.dumps({"ladder_bot": seat.bot_id}),
            )
            session.add(entrant)
            session.flush()
            assert entrant.id is not None
            found[seat.bot_id] = entrant.id
    return found


def _forfeits(session: Session, entrant_id: int, matches: int) -> int:
    """How many of the entrant's last ``matches`` stored matches it forfeited."""
    last = session.exec(
        select(Seat.forfeited)
        .join(Match, col(Match.id) == col(Seat.match_pk))
        .where(Seat.entrant_id == entrant_id)
        .order_by(col(Match.index).desc())
        .limit(matches)
    ).all()
    return sum(1 for forfeited in last if forfeited)
