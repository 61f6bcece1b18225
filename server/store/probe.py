"""Looking into a database file without changing it or leaving files beside it.

A refused file must be left exactly as it was: no ``-wal`` or ``-shm`` created beside
it, no journal mode changed. SQLite creates those files when it opens a database in
WAL mode, even read-only, so the file is read as *immutable* when nothing beside it
says a writer may be at work; otherwise it is opened the way that writer left it
(read-only with a ``-wal``; normally with a ``-journal``, which SQLite must roll back
before the file can be read at all).
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

__all__ = ["Contents", "ProbeError", "probe"]

SQLITE_HEADER = b"SQLite format 3\x00"


class ProbeError(Exception):
    """The file is not a SQLite database SQLite can read."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a database file holds."""

    tables: frozenset[str]
    """Names of its tables."""
    schema: tuple[str, int] | None
    """``(application, version)`` of its ``schema_info`` row, if it has one."""
    empty: bool
    """No table holds a row."""


def probe(path: Path) -> Contents:
    """The tables, schema row and emptiness of the database at ``path`` (a regular file)."""
    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if not header:
        return Contents(frozenset(), None, True)
    if header != SQLITE_HEADER:
        raise ProbeError("not a SQLite database")
    try:
        with contextlib.closing(sqlite3.connect(_uri(path), uri=True)) as connection:
            tables = frozenset(
                row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            )
            schema = None
            if "schema_info" in tables:
                query = "SELECT application, version FROM schema_info WHERE id = 1"
                row = connection.execute(query).fetchone()
                if row is not None and isinstance(row[0], str) and isinstance(row[1], int):
                    schema = (row[0], row[1])
            # In name order, so opening reads the same pages every time (a set's order varies by run).
            empty = not any(_has_rows(connection, table) for table in sorted(tables))
    except sqlite3.Error as exc:
        raise ProbeError(f"not a SQLite database ({exc})") from None
    return Contents(tables, schema, empty)


def _has_rows(connection: sqlite3.Connection, table: str) -> bool:
    quoted = table.replace('"', '""')
    return bool(connection.execute(f'SELECT EXISTS (SELECT 1 FROM "{quoted}")').fetchone()[0])


def _uri(path: Path) -> str:
    """How to open ``path`` so that nothing is written beside it that is not there already."""
    target = f"file:{quote(str(path.absolute()))}"
    if Path(f"{path}-journal").exists():  # a hot journal: only a writer can roll it back
        return f"{target}?mode=rw"
    if Path(f"{path}-wal").exists():  # committed pages may be there: read them like any reader
        return f"{target}?mode=ro"
    return f"{target}?mode=ro&immutable=1"
