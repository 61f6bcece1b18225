"""The web application: pages, JSON API and static assets over one database, with readable errors,
compressed for clients that accept gzip.

Every failure is answered with a message, never a traceback: an HTML page for the
pages and ``{"error": ...}`` for the API, with the status that fits.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from server.store.database import StoreError
from server.store.location import Location
from server.store.repository import Store
from server.tournament.runner import log_dir_of

from . import api, games, ladder_pages, live_routes, pages, seat_logs
from .catalog import Catalog, MatchInFlightError, NotFoundError, UnreadableReplayError
from .filters import FilterError
from .ladder_catalog import LadderCatalog
from .live import Live
from .templating import render
from .tournament_page import TournamentPage

TITLES = {
    400: "Bad request",
    403: "Not shown yet",
    404: "Not found",
    405: "Method not allowed",
    500: "Cannot show this",
}


def _error(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    title = TITLES.get(status, "Error")
    return HTMLResponse(render("error.html", status=status, title=title, message=message), status_code=status)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error(request, 404, str(exc))


async def _no_such_page(request: Request, exc: Exception) -> Response:
    """Unknown paths, and paths whose parts have the wrong form (``/tournaments/abc``)."""
    if isinstance(exc, HTTPException) and exc.status_code != 404:
        return _error(request, exc.status_code, str(exc.detail))
    return _error(request, 404, f"there is no page at {request.url.path}")


async def _bad_filter(request: Request, exc: Exception) -> Response:
    return _error(request, 400, str(exc))


async def _unreadable(request: Request, exc: Exception) -> Response:
    # A visitor is told what is wrong, not where the server keeps its files.
    return _error(request, 500, exc.message if isinstance(exc, StoreError) else str(exc))


async def _in_flight(request: Request, exc: Exception) -> Response:
    return _error(request, 403, str(exc))


async def _unexpected(request: Request, exc: Exception) -> Response:
    """A bug: the visitor gets its gist, the server's log the traceback."""
    return _error(request, 500, f"unexpected error: {type(exc).__name__}: {exc}")


def create_app(db_path: Location) -> FastAPI:
    """The app serving ``db_path`` (a SQLite file or a PostgreSQL URL); raises StoreError now if it
    is missing or not a smtourney database."""
    store = Store.open(db_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = viewer_app(store, lifespan)
    app.state.log_dir = log_dir_of(db_path)  # the organiser's viewer: seat logs too
    app.include_router(seat_logs.router)
    return app


def viewer_app(
    store: Store, lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]] | None = None
) -> FastAPI:
    """The viewer over an open ``store``, which the caller closes (unless ``lifespan`` does): the
    ladder's service mounts it beside its API."""
    app = FastAPI(title="smtourney", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.catalog = Catalog(store)
    app.state.ladder_catalog = LadderCatalog(store)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(games.router)
    app.include_router(ladder_pages.router)
    app.state.live = Live(app.state.catalog)
    app.state.tournament_page = TournamentPage(app.state.catalog, app.state.live)
    app.include_router(live_routes.router)
    app.mount("/static", StaticFiles(packages=[("server.web", "static")]), name="static")
    app.add_exception_handler(NotFoundError, _not_found)
    app.add_exception_handler(HTTPException, _no_such_page)
    app.add_exception_handler(RequestValidationError, _no_such_page)
    app.add_exception_handler(FilterError, _bad_filter)
    app.add_exception_handler(UnreadableReplayError, _unreadable)
    app.add_exception_handler(MatchInFlightError, _in_flight)
    app.add_exception_handler(StoreError, _unreadable)
    app.add_exception_handler(Exception, _unexpected)
    # Replay pages are megabytes of repetitive JSON: gzip shrinks them many times over. Starlette's
    # middleware compresses only for clients that ask, and leaves event streams alone.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    return app
