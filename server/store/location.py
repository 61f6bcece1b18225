"""Where a database is: a SQLite file (a path) or a PostgreSQL server (a URL).

``--db`` takes either. Only a value that starts with ``postgresql://`` or ``postgres://`` is read
as a URL; anything else is a file name, never parsed, so ``?`` and ``#`` in it are just characters
(a file whose name really starts that way is reached as ``./postgresql:/...``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["URL_SCHEMES", "DatabaseUrl", "Location", "LocationError", "parse_location"]

URL_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
DRIVER = "postgresql+psycopg"
"""psycopg 3, whatever scheme the user wrote."""


class LocationError(ValueError):
    """A ``--db`` value that looks like a URL but is not one we can use."""


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A PostgreSQL database; shown (``str()``) without its password."""

    url: URL
    shown: str
    """As the user wrote it, or re-rendered with the password hidden if it has one."""

    def __str__(self) -> str:
        return self.shown

    @property
    def name(self) -> str:
        """The database name, for folders named after it (bot logs)."""
        return self.url.database or "postgres"


Location = Path | DatabaseUrl


def parse_location(value: str | Path | DatabaseUrl) -> Location:
    """``value`` as a file path or a PostgreSQL URL (see the module's note)."""
    if isinstance(value, Path | DatabaseUrl):
        return value
    if not value.lower().startswith(URL_SCHEMES):
        return Path(value)
    try:
        url = make_url(value)
    except (ArgumentError, ValueError) as exc:
        raise LocationError(f"not a database URL: {exc}") from None
    shown = value if url.password is None else url.render_as_string(hide_password=True)
    if not url.database:
        raise LocationError(f"{shown}: the URL names no database (postgresql://USER@HOST/DBNAME)")
    return DatabaseUrl(url.set(drivername=DRIVER), shown)
