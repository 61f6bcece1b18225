"""The live feed: runs and matches in progress, for the live pages (schema 5).

Whoever plays a match writes it here as it goes, a batch of steps at a time; the transaction that
stores the finished match removes it (:meth:`Store.save_match`). None of it is part of a match's
record, and a run that was killed leaves rows that the next run of the tournament clears.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlmodel import col

from .live_rows import clear_match, clear_tournament
from .models import LiveMatch, LiveRun, LiveSteps
from .repository import Store
from .repository import _guarded as guarded

__all__ = ["LiveFeed", "LiveMatchRow"]


@dataclass(frozen=True, slots=True)
class LiveMatchRow:
    """A match in flight as the live pages list it."""

    match_id: str
    players: int
    params: dict[str, Any]
    seats: list[str]
    started_at: datetime
    updated_at: datetime
    steps: int


class LiveFeed(Store):
    """A store's live tables: written by the run and by whoever plays its matches, read by the web
    viewer."""

    # --- the run -------------------------------------------------------------------------------------
    @guarded
    def begin_run(self, tournament_id: int, total: int, stored: int) -> None:
        """A run of the tournament starts: matches left in flight by an earlier run are cleared."""
        now = datetime.now(UTC)
        with self.engine.begin() as connection:
            clear_tournament(connection, tournament_id)
            connection.execute(delete(LiveRun).where(col(LiveRun.tournament_id) == tournament_id))
            connection.execute(
                insert(LiveRun),
                {
                    "tournament_id": tournament_id,
                    "total": total,
                    "stored_at_start": stored,
                    "started_at": now,
                    "updated_at": now,
                },
            )

    @guarded
    def scheduled(self, tournament_id: int, total: int) -> None:
        """More matches were scheduled (a round formed from results)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(LiveRun)
                .where(col(LiveRun.tournament_id) == tournament_id)
                .values(total=total, updated_at=datetime.now(UTC))
            )

    @guarded
    def end_run(self, tournament_id: int) -> None:
        """The run ended (finished or interrupted): nothing of it is in flight any more."""
        with self.engine.begin() as connection:
            clear_tournament(connection, tournament_id)
            connection.execute(delete(LiveRun).where(col(LiveRun.tournament_id) == tournament_id))

    @guarded
    def run(self, tournament_id: int) -> LiveRun | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(LiveRun).where(col(LiveRun.tournament_id) == tournament_id)
            ).first()
        return None if row is None else LiveRun.model_validate(row._mapping)

    # --- matches in flight ---------------------------------------------------------------------------
    @guarded
    def start_match(
        self,
        tournament_id: int,
        match_id: str,
        *,
        params: dict[str, Any],
        seats: Sequence[str],
        started_at: datetime,
    ) -> int:
        """A match is being played: its row (replacing one a killed run left); returns its id."""
        with self.engine.begin() as connection:
            clear_match(connection, tournament_id, match_id)
            key = connection.execute(
                insert(LiveMatch),
                {
                    "tournament_id": tournament_id,
                    "match_id": match_id,
                    "players": len(seats),
                    "params_json": json.dumps(params, sort_keys=True),
                    "seats_json": json.dumps(list(seats)),
                    "started_at": started_at,
                    "updated_at": datetime.now(UTC),
                    "steps": 0,
                },
            ).inserted_primary_key
        assert key is not None
        live_id: int = key[0]
        return live_id

    @guarded
    def append_steps(self, live_id: int, first_seq: int, rows: Sequence[Sequence[Any]]) -> None:
        """The next batch of a match's steps, ``[seq, kind, seat, source, step]`` each, from ``first_seq``."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(LiveSteps),
                {"live_match_id": live_id, "first_seq": first_seq, "steps_json": json.dumps(list(rows))},
            )
            connection.execute(
                update(LiveMatch)
                .where(col(LiveMatch.id) == live_id)
                .values(steps=first_seq + len(rows), updated_at=datetime.now(UTC))
            )

    @guarded
    def in_flight(self, tournament_id: int) -> list[LiveMatchRow]:
        """The matches in flight, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(LiveMatch)
                .where(col(LiveMatch.tournament_id) == tournament_id)
                .order_by(col(LiveMatch.started_at), col(LiveMatch.match_id))
            ).all()
        return [_row(LiveMatch.model_validate(row._mapping)) for row in rows]

    @guarded
    def in_flight_match(self, tournament_id: int, match_id: str) -> LiveMatchRow | None:
        """A match in flight, or None."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(LiveMatch).where(
                    col(LiveMatch.tournament_id) == tournament_id, col(LiveMatch.match_id) == match_id
                )
            ).first()
        return None if found is None else _row(LiveMatch.model_validate(found._mapping))

    @guarded
    def steps(self, tournament_id: int, match_id: str, after: int = 0) -> list[list[Any]]:
        """A match in flight's steps from number ``after`` on, as far as they run unbroken."""
        with self.engine.connect() as connection:
            batches = connection.execute(
                select(LiveSteps.first_seq, LiveSteps.steps_json)  # type: ignore[call-overload]
                .join(LiveMatch, col(LiveMatch.id) == col(LiveSteps.live_match_id))
                .where(col(LiveMatch.tournament_id) == tournament_id, col(LiveMatch.match_id) == match_id)
                .order_by(col(LiveSteps.first_seq))
            ).all()
        steps: list[list[Any]] = []
        for first_seq, text in batches:
            if first_seq > after + len(steps):
                break  # a batch that was not written: the steps after it cannot be placed
            rows = json.loads(text)
            steps.extend(rows[max(0, after + len(steps) - first_seq) :])
        return steps


def _row(live: LiveMatch) -> LiveMatchRow:
    return LiveMatchRow(
        match_id=live.match_id,
        players=live.players,
        params=json.loads(live.params_json),
        seats=json.loads(live.seats_json),
        started_at=live.started_at,
        updated_at=live.updated_at,
        steps=live.steps,
    )
