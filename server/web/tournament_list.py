"""The tournaments the front page lists, each with whether a run is playing it and who won it."""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Catalog, TournamentSummary
from .ladder_catalog import LadderCatalog
from .live import Live


@dataclass(frozen=True, slots=True)
class ListedTournament:
    summary: TournamentSummary
    status: str  # "in progress" (a run plays it), "finished", or "ladder" (the ladder's own matches)
    winner: str | None  # first in the standings once finished (None: none yet, or the ladder)


def listed_tournaments(catalog: Catalog, ladder_catalog: LadderCatalog, live: Live) -> list[ListedTournament]:
    """Every tournament of the database; a tournament's standings are worked out once per newly
    stored match (the live view's cache), not on every visit."""
    ladder = ladder_catalog.ladder.existing_tournament_id()
    listed = []
    for summary in catalog.tournaments():
        if summary.id == ladder:
            listed.append(ListedTournament(summary, "ladder", None))
        elif live.running(summary.id):
            listed.append(ListedTournament(summary, "in progress", None))
        else:
            standings = live.standings(summary.id, summary.matches) if summary.matches else []
            listed.append(ListedTournament(summary, "finished", standings[0]["name"] if standings else None))
    return listed
