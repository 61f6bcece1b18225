"""Opening a database (a SQLite file here, a PostgreSQL URL in :mod:`.postgres`): checked before
anything is written, created in one transaction, migrated or refused.

What cannot be ours (a folder, a device, a file that is not SQLite or is another
program's, a newer schema) is refused with one line, before anything is written to
it or beside it. A new database gets its tables and its version row in a single
transaction, so a process killed while creating one leaves either a complete
database or the remains of an unfinished one: a file that is empty, or holds only
some of our tables and no rows. Those remains are recognised and completed by the
next run.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, QueuePool, create_engine, event
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import Session, SQLModel

from .errors import StoreError
from .location import DatabaseUrl, Location
from .migrations import MIGRATIONS, SchemaError, check_schema, migrate
from .models import APPLICATION_ID, SCHEMA_VERSION
from .postgres import open_postgres
from .probe import Contents, ProbeError, probe

__all__ = ["MIGRATIONS", "StoreError", "open_database"]


BUSY_TIMEOUT_S = 10.0
"""How long a statement waits for another process's write lock."""

_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def open_database(location: Location, *, create: bool) -> Engine:
    """An engine on ``location``; with ``create``, a new or unfinished database is (completed and)
    created."""
    if isinstance(location, DatabaseUrl):
        return open_postgres(location, create=create)
    path = location
    contents = _contents(path)
    if contents is None or _unfinished(contents):
        if not create:
            raise StoreError(path, "no such database" if contents is None else "the database is empty")
        _create(path, new_file=contents is None)
    else:
        _check_schema(path, contents)
    return _engine(path)


def _contents(path: Path) -> Contents | None:
    """What the file at ``path`` holds, or None if there is none; refuses what is not a database file."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise StoreError(path, f"cannot read it: {exc.strerror}") from None
    except ValueError:
        raise StoreError(path, "a path cannot contain a NUL character") from None
    if stat.S_ISDIR(info.st_mode):
        raise StoreError(path, "is a folder, not a database file")
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(path, f"not a database file ({_KINDS.get(stat.S_IFMT(info.st_mode), 'not a file')})")
    try:
        return probe(path)
    except ProbeError as exc:
        raise StoreError(path, str(exc)) from None
    except OSError as exc:
        raise StoreError(path, f"cannot read it: {exc.strerror}") from None


def _unfinished(contents: Contents) -> bool:
    """The remains of a creation that was interrupted: nothing but (some of) our tables, all empty."""
    return contents.schema is None and contents.empty and contents.tables <= SQLModel.metadata.tables.keys()


def _check_schema(path: Path, contents: Contents) -> None:
    """Refuse a database that is not ours or is newer; migrate an older one."""
    try:
        if check_schema(contents):
            _migrate(path)
    except SchemaError as exc:
        raise StoreError(path, str(exc)) from None


def _create(path: Path, *, new_file: bool) -> None:
    """Every table and the version row, in one transaction (a file this made is removed again
    if that fails)."""
    made = False
    if new_file:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(path, f"cannot create the folder {path.parent}: {exc.strerror}") from None
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
            made = True
        except FileExistsError:
            pass  # created by another process meanwhile: the transaction below settles who fills it
        except OSError as exc:
            raise StoreError(path, f"cannot create the database: {exc.strerror}") from None
    try:
        with contextlib.closing(_connect(path)) as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("BEGIN IMMEDIATE")
            for statement in _schema():
                connection.execute(statement)
            connection.execute(
                "INSERT OR IGNORE INTO schema_info (id, application, version) VALUES (1, ?, ?)",
                (APPLICATION_ID, SCHEMA_VERSION),
            )
            connection.execute("COMMIT")
    except sqlite3.Error as exc:
        if made:
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                with contextlib.suppress(OSError):
                    leftover.unlink(missing_ok=True)
        raise StoreError(path, f"cannot create the database: {exc}") from None


def _schema() -> list[str]:
    """``CREATE TABLE`` and ``CREATE INDEX`` statements of every table, each skipped if it exists."""
    dialect = sqlite_dialect.dialect()
    statements = []
    for table in SQLModel.metadata.sorted_tables:
        statements.append(str(CreateTable(table, if_not_exists=True).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda index: str(index.name)):
            statements.append(str(CreateIndex(index, if_not_exists=True).compile(dialect=dialect)))
    return statements


def _connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode: transactions are begun and ended explicitly."""
    return sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)


def _pragmas(dbapi_connection: sqlite3.Connection, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _engine(path: Path) -> Engine:
    """An engine on the file ``path`` as given (a URL would read ``?`` or ``#`` in it as syntax)."""
    engine = create_engine(
        "sqlite://",
        creator=lambda: sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, check_same_thread=False),
        poolclass=QueuePool,
    )
    event.listen(engine, "connect", _pragmas)
    return engine


def _migrate(path: Path) -> None:
    """Migrate in one transaction that holds the write lock from its start: the driver would
    otherwise run a migration's ``CREATE`` or ``DROP`` outside it, leaving half a migration."""
    engine = create_engine("sqlite://", creator=lambda: _connect(path), poolclass=QueuePool)
    event.listen(engine, "connect", _pragmas)
    event.listen(engine, "begin", lambda connection: connection.exec_driver_sql("BEGIN IMMEDIATE"))
    try:
        with Session(engine) as session:
            migrate(session)
    finally:
        engine.dispose()
