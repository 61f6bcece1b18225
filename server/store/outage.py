"""Telling a database that is down for a while from one that cannot be used.

A PostgreSQL server that restarts, is stopped for maintenance or cannot be reached for a moment
answers with connection errors; what the database refuses (a constraint, a damaged file, a newer
schema) is another matter. The first kind becomes :class:`DatabaseUnavailableError`, which whoever holds
work in progress may wait out (:mod:`.retry`); every other failure stays a plain :class:`StoreError`.
SQLite's errors are all of the second kind: its file does not come and go.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, DisconnectionError, SQLAlchemyError

from .errors import StoreError
from .location import Location

__all__ = ["DatabaseUnavailableError", "is_outage", "one_line", "store_error", "translated"]

OUTAGE_SQLSTATE_CLASSES = ("08", "53", "57")
"""PostgreSQL's classes of errors that pass: connection exceptions, insufficient resources (too many
connections) and operator intervention (shutting down, starting up, terminated by an administrator)."""


class DatabaseUnavailableError(StoreError):
    """The database server cannot be reached or does not accept connections now; it may come back."""


def one_line(exc: BaseException) -> str:
    """The driver's own message, without SQLAlchemy's statement and link, on one line."""
    cause = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(cause).splitlines() if line.strip()]
    return "; ".join(lines) or type(cause).__name__


def is_outage(exc: SQLAlchemyError) -> bool:
    """Whether ``exc`` says the PostgreSQL server is out of reach, rather than refusing what was asked."""
    if isinstance(exc, DisconnectionError):
        return True
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    cause = exc.orig
    if cause is None or not type(cause).__module__.startswith("psycopg"):
        return False
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate is None:  # no answer from a server at all: refused, reset, timed out, closed
        return type(cause).__name__ in ("OperationalError", "InterfaceError")
    return isinstance(sqlstate, str) and sqlstate[:2] in OUTAGE_SQLSTATE_CLASSES


def store_error(location: Location, exc: SQLAlchemyError, doing: str) -> StoreError:
    """``exc`` as one line naming ``location``: :class:`DatabaseUnavailableError` if it may pass."""
    kind = DatabaseUnavailableError if is_outage(exc) else StoreError
    return kind(location, f"{doing}: {one_line(exc)}")


@contextmanager
def translated(location: Location, doing: str = "the database cannot be used") -> Iterator[None]:
    """Any SQLAlchemy error inside the block raised as a StoreError (see :func:`store_error`)."""
    try:
        yield
    except SQLAlchemyError as exc:
        raise store_error(location, exc, doing) from None
