"""The ladder's participants and bots in the store: short transactions, one change each.

One ladder per database. Every change is checked before anything is written, and refused as a
:class:`LadderError` with one line, so a wrong name changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from server.seeds import derive_seed
from server.store.models import LadderBot, LadderMatch, LadderParticipant, LadderSeat
from server.store.repository import Store
from server.tournament.bracket_checks import name_problem

from .matchmaking import Rated, Table, form_table
from .tokens import new_token, token_hash

__all__ = [
    "ACTIVE",
    "FAILED",
    "RETIRED",
    "STATUSES",
    "SUSPENDED",
    "VALIDATING",
    "BotRow",
    "LadderError",
    "LadderStore",
]

VALIDATING = "validating"
ACTIVE = "active"
FAILED = "failed"
SUSPENDED = "suspended"
RETIRED = "retired"
STATUSES = (VALIDATING, ACTIVE, FAILED, SUSPENDED, RETIRED)
"""A bot's life: validating, then active or failed; an active bot may be suspended; any is retired."""


class LadderError(ValueError):
    """A change the ladder refuses; the message is one line."""


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
        }


class LadderStore:
    """Participants and bots of the ladder in ``store``'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.store.engine, expire_on_commit=False) as session:
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

    def set_paused(self, name: str, paused: bool) -> None:
        """A paused participant's bots are not scheduled, and it cannot submit."""
        with self._session() as session:
            participant = self._participant(session, name)
            participant.paused = paused
            session.add(participant)
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
        self, participant_id: int, name: str, spec: dict[str, Any], *, mu: float, sigma: float
    ) -> BotRow:
        """A new bot of the participant, ``validating``; a name is used once per participant."""
        with self._session() as session:
            participant = session.get(LadderParticipant, participant_id)
            if participant is None or participant.removed:
                raise LadderError("no such participant")
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

    def retire(self, bot_name: str, participant_id: int | None = None) -> BotRow:
        """Retire a bot, named ``PARTICIPANT/BOT`` or, with ``participant_id``, among that one's own."""
        with self._session() as session:
            bot, owner = self._bot(session, bot_name, participant_id)
            bot.status = RETIRED
            session.add(bot)
            session.commit()
            return _row(bot, owner.name)

    def bots(self, participant_id: int | None = None) -> list[BotRow]:
        """Bots in submission order, of one participant or of all."""
        query = select(LadderBot, LadderParticipant).join(LadderParticipant).order_by(col(LadderBot.id))
        if participant_id is not None:
            query = query.where(LadderBot.participant_id == participant_id)
        with self._session() as session:
            return [_row(bot, owner.name) for bot, owner in session.exec(query)]

    def leaderboard(self) -> list[BotRow]:
        """Every bot that plays or has played: active first, by conservative rating (mu - 3 sigma)."""
        rows = [row for row in self.bots() if row.status in (ACTIVE, SUSPENDED) or row.games > 0]
        return sorted(rows, key=lambda row: (row.status != ACTIVE, -(row.mu - 3 * row.sigma), row.id))

    # --- validation ----------------------------------------------------------------------------------

    def next_validating(self) -> tuple[int, str] | None:
        """The oldest bot waiting for validation: its id and how it is reached."""
        with self._session() as session:
            bot = session.exec(
                select(LadderBot).where(LadderBot.status == VALIDATING).order_by(col(LadderBot.id))
            ).first()
        return None if bot is None or bot.id is None else (bot.id, bot.spec_json)

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
        self, players: int, *, candidates: int, min_quality: float, seed: int
    ) -> tuple[int, Table] | None:
        """Form the next table among the active bots of participants who are not paused, and store the
        decision (its seats with the ratings it used) as a ``scheduled`` ladder match, in one
        transaction; its id and table, or None when no table can be formed."""
        with self._session() as session:
            number = session.exec(select(func.count()).select_from(LadderMatch)).one()
            active = session.exec(
                select(LadderBot)
                .join(LadderParticipant)
                .where(LadderBot.status == ACTIVE, col(LadderParticipant.paused).is_(False))
                .order_by(col(LadderBot.id))
            ).all()
            rated = [Rated(bot.id, bot.mu, bot.sigma, bot.games) for bot in active if bot.id is not None]
            table = form_table(rated, players, candidates=candidates, min_quality=min_quality, number=number)
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


def _row(bot: LadderBot, participant: str) -> BotRow:
    assert bot.id is not None
    return BotRow(
        bot.id, bot.name, participant, bot.status, bot.reason, bot.games, bot.mu, bot.sigma, bot.submitted_at
    )
