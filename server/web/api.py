"""The JSON API: what the pages show, for scripts (the replay in the documented replay format)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .deps import CatalogDep, RowId
from .filters import SeatFilter, viewer_seat

router = APIRouter(prefix="/api")


@router.get("/tournaments")
def tournaments(catalog: CatalogDep) -> list[dict[str, Any]]:
    return [asdict(t) for t in catalog.tournaments()]


@router.get("/tournaments/{tournament_id}")
def tournament(tournament_id: RowId, catalog: CatalogDep) -> dict[str, Any]:
    """Standings as ``smtourney standings --json``, statistics as ``smtourney stats --json``, and
    every entrant's rating history."""
    found = catalog.tournament(tournament_id)
    return {
        "id": found.id,
        "name": found.name,
        "game": found.game,
        "created_at": found.created_at,
        "standings": catalog.standings(tournament_id),
        "statistics": catalog.statistics(tournament_id),
        "rating_history": {
            name: [asdict(point) for point in points]
            for name, points in catalog.rating_history(tournament_id).items()
        },
    }


@router.get("/tournaments/{tournament_id}/matches")
def matches(tournament_id: RowId, request: Request, catalog: CatalogDep) -> list[dict[str, Any]]:
    """Finished matches in schedule order; the same filters as the matches page."""
    catalog.tournament(tournament_id)
    seat_filter = SeatFilter.from_query(request.query_params)
    return [m.to_json() for m in catalog.matches(tournament_id, seat_filter)]


@router.get("/tournaments/{tournament_id}/matches/{match_id}")
def replay(tournament_id: RowId, match_id: str, request: Request, catalog: CatalogDep) -> JSONResponse:
    """The replay (docs/replay-format.md), ``?seat=N`` as seat N saw it; encoded directly, as it can
    be megabytes."""
    seat = viewer_seat(request.query_params)
    return JSONResponse(catalog.replay(tournament_id, match_id, seat))
