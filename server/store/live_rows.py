"""Removing live rows inside a caller's transaction: when a match is stored, and when a run of its
tournament starts or ends (:mod:`server.store.live`)."""

from __future__ import annotations

from sqlalchemy import Connection, delete, select
from sqlmodel import col

from .models import LiveMatch, LiveSteps

__all__ = ["clear_match", "clear_tournament"]


def clear_match(connection: Connection, tournament_id: int, match_id: str) -> None:
    """Remove a match's live rows (inside the caller's transaction)."""
    found = select(LiveMatch.id).where(  # type: ignore[call-overload]
        col(LiveMatch.tournament_id) == tournament_id, col(LiveMatch.match_id) == match_id
    )
    connection.execute(delete(LiveSteps).where(col(LiveSteps.live_match_id).in_(found)))
    connection.execute(
        delete(LiveMatch).where(
            col(LiveMatch.tournament_id) == tournament_id, col(LiveMatch.match_id) == match_id
        )
    )


def clear_tournament(connection: Connection, tournament_id: int) -> None:
    """Remove every live match of a tournament."""
    found = select(LiveMatch.id).where(col(LiveMatch.tournament_id) == tournament_id)  # type: ignore[call-overload]
    connection.execute(delete(LiveSteps).where(col(LiveSteps.live_match_id).in_(found)))
    connection.execute(delete(LiveMatch).where(col(LiveMatch.tournament_id) == tournament_id))
