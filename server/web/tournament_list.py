"""The tournaments the front page lists, each with whether a run is playing it and who won it."""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Catalog, TournamentSummary
from .live import Live


@dataclass(frozen=True, slots=True)
class ListedTournament:
    summary: TournamentSummary
    running: bool
    winner: str | None  # first in the standings once no run plays it (None: no match stored yet)


def listed_tournaments(catalog: Catalog, live: Live) -> list[ListedTournament]:
    """Every tournament of the database; a tournament's standings are worked out once per newly
    stored match (the live view's cache), not on every visit."""
    listed = []
    for summary in catalog.tournaments():
        running = live.running(summary.id)
        standings = [] if running or not summary.matches else live.standings(summary.id, summary.matches)
        listed.append(ListedTournament(summary, running, standings[0]["name"] if standings else None))
    return listed
