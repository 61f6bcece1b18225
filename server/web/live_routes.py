"""The live routes: a running tournament's progress as JSON, and a match in flight watched as a
spectator sees it (its page and its JSON), which turns into the full replay once the match is stored."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from .deps import MAX_ROW_ID, CatalogDep, RowId
from .live import Live, match_url
from .templating import render_viewer

router = APIRouter()


def _live(request: Request) -> Live:
    live: Live = request.app.state.live
    return live


LiveDep = Annotated[Live, Depends(_live)]
AfterMoment = Annotated[int, Query(ge=0, le=MAX_ROW_ID, description="Moments from this number on.")]


@router.get("/api/tournaments/{tournament_id}/live")
def progress(tournament_id: RowId, live: LiveDep) -> dict[str, Any]:
    """Stored of scheduled matches, matches in flight, time left, standings (provisional while running)."""
    return live.progress(tournament_id)


@router.get("/api/tournaments/{tournament_id}/matches/{match_id}/live")
def live_match(
    tournament_id: RowId, match_id: str, live: LiveDep, after: Annotated[int, Query(ge=0, le=MAX_ROW_ID)] = 0
) -> dict[str, Any]:
    """A match in flight as a spectator sees it: its moments from number ``after`` on."""
    return live.match(tournament_id, match_id, after)


@router.get("/tournaments/{tournament_id}/matches/{match_id}/live", response_class=HTMLResponse)
def live_match_page(tournament_id: RowId, match_id: str, live: LiveDep, catalog: CatalogDep) -> Response:
    """Watch a match in flight move by move; once it is stored, its replay."""
    found = live.match(tournament_id, match_id)
    if found["status"] == "done":
        return RedirectResponse(found["replay_url"], status_code=303)
    replay = {**found["replay"], "moments": found["moments"]}
    url = match_url(tournament_id, match_id)
    tournament = catalog.tournament(tournament_id)
    return HTMLResponse(
        render_viewer("live_match.html", replay, tournament=tournament, live_url=f"/api{url}/live")
    )
