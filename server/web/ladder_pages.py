"""The ladder's public pages: the leaderboard, every bot, a page per bot, and the matches in progress
with the newest results.

Each page carries its data as JSON and draws it with ``ladder.js``, which polls the same data under
``/api/ladder/public/`` and marks what changed, so the pages follow the ladder without a reload. A
match in flight is only ever linked to its live spectator view (through ``/ladder/matches/N/watch``),
never to a replay.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from .deps import LadderCatalogDep, RowId
from .ladder_catalog import RESULTS_SHOWN, LadderCatalog
from .plot import rating_plot
from .templating import render, script_json

router = APIRouter()

POLL_MS = 2000
"""How often a page asks for fresh data."""
HISTORY_AXIS = "matchmaking decisions, then now"
"""What the horizontal axis of a bot's rating history counts."""


def _page(template: str, source: str, data: Any, **context: Any) -> HTMLResponse:
    return HTMLResponse(
        render(template, source=source, data_json=script_json(data), poll_ms=POLL_MS, **context)
    )


@router.get("/ladder", response_class=HTMLResponse)
def leaderboard_page(catalog: LadderCatalogDep) -> HTMLResponse:
    rows = [row.to_json() for row in catalog.leaderboard()]
    return _page("ladder_leaderboard.html", "/api/ladder/public/leaderboard", rows, section="leaderboard")


def _match_board(catalog: LadderCatalog) -> dict[str, Any]:
    return {
        "in_progress": [row.to_json() for row in catalog.in_progress()],
        "recent": [row.to_json() for row in catalog.recent()],
    }


@router.get("/ladder/matches", response_class=HTMLResponse)
def matches_page(catalog: LadderCatalogDep) -> HTMLResponse:
    return _page(
        "ladder_matches.html",
        "/api/ladder/public/matches/board",
        _match_board(catalog),
        section="matches",
        results_shown=RESULTS_SHOWN,
    )


@router.get("/ladder/bots", response_class=HTMLResponse)
def bots_page(catalog: LadderCatalogDep) -> HTMLResponse:
    rows = [row.to_json() for row in catalog.bots()]
    return _page("ladder_bots.html", "/api/ladder/public/bots", rows, section="bots")


@router.get("/ladder/bots/{bot_id}", response_class=HTMLResponse)
def bot_page(bot_id: RowId, catalog: LadderCatalogDep) -> HTMLResponse:
    story = catalog.bot(bot_id)
    return _page(
        "ladder_bot.html",
        f"/api/ladder/public/bots/{bot_id}",
        story.to_json(),
        section="bot",
        bot=story.bot,
        plot=rating_plot({story.bot.name: story.history}),
        x_label=HISTORY_AXIS,
    )


@router.get("/ladder/bots/{bot_id}/chart", response_class=HTMLResponse)
def bot_chart(bot_id: RowId, catalog: LadderCatalogDep) -> HTMLResponse:
    """The rating-history chart alone, for the bot's page to redraw it when a match is counted."""
    story = catalog.bot(bot_id)
    plot = rating_plot({story.bot.name: story.history})
    return HTMLResponse(render("rating_plot.html", plot=plot, x_label=HISTORY_AXIS))


@router.get("/ladder/matches/{ladder_match}/watch")
def watch(ladder_match: RowId, catalog: LadderCatalogDep) -> RedirectResponse:
    """To the match's live spectator view while it is in flight, to its replay once it is done."""
    return RedirectResponse(catalog.watch_target(ladder_match), status_code=307)


# The JSON is encoded directly (plain dicts and lists already): FastAPI's generic encoder would
# take longer than the queries for a board of a thousand bots, asked for by every open page.


@router.get("/api/ladder/public/leaderboard")
def leaderboard_json(catalog: LadderCatalogDep) -> JSONResponse:
    """Every bot that plays or has played, best first, with its 95 % rank interval and last game."""
    return JSONResponse([row.to_json() for row in catalog.leaderboard()])


@router.get("/api/ladder/public/matches")
def matches_json(catalog: LadderCatalogDep) -> JSONResponse:
    """The matches decided and not yet done: seats, ratings used, and where to watch them live."""
    return JSONResponse([row.to_json() for row in catalog.in_progress()])


@router.get("/api/ladder/public/matches/board")
def match_board_json(catalog: LadderCatalogDep) -> JSONResponse:
    """What the matches page shows: the matches in progress, and the newest results."""
    return JSONResponse(_match_board(catalog))


@router.get("/api/ladder/public/bots")
def bots_json(catalog: LadderCatalogDep) -> JSONResponse:
    """Every bot ever submitted, newest first, with its status (and why, if failed or suspended)."""
    return JSONResponse([row.to_json() for row in catalog.bots()])


@router.get("/api/ladder/public/bots/{bot_id}")
def bot_json(bot_id: RowId, catalog: LadderCatalogDep) -> JSONResponse:
    """One bot: status, rating history, matches (newest first) and faults."""
    return JSONResponse(catalog.bot(bot_id).to_json())
