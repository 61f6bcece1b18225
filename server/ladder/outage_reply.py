"""The API's answer while the database is down: 503 with one line and when to try again.

A submission cannot be taken without the database (its row is what the validator picks up), so it
is refused rather than lost; the client tries again once the ladder says the database is back."""

from __future__ import annotations

from fastapi import FastAPI, Request, status
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from server.store.outage import DatabaseUnavailableError, is_outage

__all__ = ["RETRY_AFTER_S", "answer_outages"]

RETRY_AFTER_S = 10
"""What the 503's ``Retry-After`` asks a client to wait."""


def answer_outages(app: FastAPI) -> None:
    """Answer 503 for any request that met a database outage, in the store or in a raw query."""
    app.add_exception_handler(DatabaseUnavailableError, _unavailable)
    app.add_exception_handler(SQLAlchemyError, _unavailable)


async def _unavailable(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, SQLAlchemyError) and not is_outage(exc):
        raise exc  # not an outage: the server's own error, as before
    return JSONResponse(
        {"detail": f"the ladder's database is unavailable; try again in {RETRY_AFTER_S} s"},
        status_code=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )
