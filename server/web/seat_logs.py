"""Each seat's bot output for one match (``<db>-logs/``), for the organiser only.

Only the app ``smtourney web`` runs (:func:`server.web.app.create_app`) includes this router: the
ladder's service mounts the viewer without it, so a participant or the public never reaches a log.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse

from server.seats import file_safe_name

from .catalog import NotFoundError
from .deps import CatalogDep, RowId

router = APIRouter()


def seat_log_url(tournament_id: int, match_id: str, seat: int) -> str:
    return f"/tournaments/{tournament_id}/matches/{match_id}/seats/{seat}/log"


@router.get("/tournaments/{tournament_id}/matches/{match_id}/seats/{seat}/log")
def seat_log(
    tournament_id: RowId, match_id: str, seat: int, request: Request, catalog: CatalogDep
) -> PlainTextResponse:
    """The seat's log as plain text; 404 for a match, seat or log that does not exist."""
    catalog.tournament(tournament_id)
    found = [m for m in catalog.matches(tournament_id) if m.match_id == match_id]
    names = {s.seat: s.name for m in found for s in m.seats}
    if seat not in names:
        raise NotFoundError(f"there is no seat {seat} in a match {match_id!r} of this tournament")
    log_dir: Path = request.app.state.log_dir
    path = log_dir / f"{match_id}.seat{seat}.{file_safe_name(names[seat])}.log"
    if not path.is_file():
        raise NotFoundError(f"no log was kept for seat {seat} of match {match_id!r}")
    return PlainTextResponse(path.read_text(encoding="utf-8", errors="replace"))
