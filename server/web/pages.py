"""The HTML pages: tournaments, a tournament's standings and rating history, its matches, a replay."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from server.ladder.store import LADDER_FINGERPRINT
from server.tournament.conduct import FAULT_KINDS

from .deps import CatalogDep, LadderCatalogDep, RowId
from .export import export_html
from .filters import SeatFilter, viewer_seat
from .live_routes import LiveDep
from .seat_logs import seat_log_url
from .templating import render, render_viewer
from .timing_plot import timing_plot
from .tournament_list import listed_tournaments
from .tournament_page import TournamentPage

router = APIRouter(default_response_class=HTMLResponse)


@router.get("/")
def tournaments_page(catalog: CatalogDep, ladder: LadderCatalogDep, live: LiveDep) -> HTMLResponse:
    return HTMLResponse(
        render(
            "tournaments.html",
            tournaments=listed_tournaments(catalog, ladder, live),
            ladder=ladder.holds_ladder(),
        )
    )


def _tournament_page(request: Request) -> TournamentPage:
    page: TournamentPage = request.app.state.tournament_page
    return page


TournamentPageDep = Annotated[TournamentPage, Depends(_tournament_page)]


@router.get("/tournaments/{tournament_id}")
def tournament_page(tournament_id: RowId, page: TournamentPageDep, catalog: CatalogDep) -> Response:
    """The ladder's own tournament row has no standings of its own (its entrants are the ladder's
    bots): its page is the ladder's leaderboard."""
    if catalog.tournament(tournament_id).fingerprint == LADDER_FINGERPRINT:
        return RedirectResponse("/ladder", status_code=303)
    return HTMLResponse(page.page(tournament_id))


@router.get("/tournaments/{tournament_id}/sections")
def tournament_sections(tournament_id: RowId, page: TournamentPageDep) -> HTMLResponse:
    """The tournament page's sections alone, as they are now: its script swaps them in during a run."""
    return HTMLResponse(page.sections(tournament_id))


@router.get("/tournaments/{tournament_id}/matches")
def matches_page(tournament_id: RowId, request: Request, catalog: CatalogDep) -> HTMLResponse:
    tournament = catalog.tournament(tournament_id)
    seat_filter = SeatFilter.from_query(request.query_params)
    every = catalog.matches(tournament_id)
    return HTMLResponse(
        render(
            "matches.html",
            tournament=tournament,
            entrants=catalog.entrant_names(tournament_id),
            seats=range(max((len(m.seats) for m in every), default=0)),
            seat_filter=seat_filter,
            fault_kinds=FAULT_KINDS,
            matches=catalog.matches(tournament_id, seat_filter),
            total=len(every),
        )
    )


def _seat_query(seat: int | None) -> str:
    return "" if seat is None else f"?seat={seat}"


@router.get("/tournaments/{tournament_id}/matches/{match_id}")
def match_page(tournament_id: RowId, match_id: str, request: Request, catalog: CatalogDep) -> HTMLResponse:
    """The replay viewer; ``?seat=N`` shows the match as seat N saw it, ``#m=N`` opens it at moment N."""
    seat = viewer_seat(request.query_params)
    replay = catalog.replay(tournament_id, match_id, seat)
    match_url = f"/tournaments/{tournament_id}/matches/{quote(match_id, safe='')}"
    return HTMLResponse(
        render_viewer(
            "match.html",
            replay,
            tournament=catalog.tournament(tournament_id),
            replay_url="/api" + match_url,
            export_url=f"{match_url}/export{_seat_query(seat)}",
            timing=timing_plot(replay),
            seat_logs=_seat_logs(request, tournament_id, match_id, replay),
        )
    )


def _seat_logs(
    request: Request, tournament_id: int, match_id: str, replay: dict[str, Any]
) -> list[tuple[str, str]]:
    """Each seat's label and log link, where the app offers logs (the organiser's viewer) and the
    organiser's view of every seat is shown; none elsewhere."""
    if getattr(request.app.state, "log_dir", None) is None or replay["viewer_seat"] is not None:
        return []
    return [
        (f"seat {s['seat']}: {s['name']}", seat_log_url(tournament_id, quote(match_id, safe=""), s["seat"]))
        for s in replay["seats"]
    ]


@router.get("/tournaments/{tournament_id}/matches/{match_id}/export")
def match_export(tournament_id: RowId, match_id: str, request: Request, catalog: CatalogDep) -> Response:
    """The same viewer as one self-contained file, to keep or share (``?seat=N``: seat N's view)."""
    seat = viewer_seat(request.query_params)
    html = export_html(catalog.replay(tournament_id, match_id, seat))
    filename = match_id if seat is None else f"{match_id}-seat{seat}"
    return HTMLResponse(html, headers={"Content-Disposition": f'attachment; filename="{filename}.html"'})
