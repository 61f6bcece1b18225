"""Opening a PostgreSQL database: the same checks, creation and migrations as a SQLite file.

A database that holds tables not ours, a ``schema_info`` of another program or a newer schema is
refused before anything is written. A new database gets every table and its version row in one
transaction (PostgreSQL's DDL is transactional), under an advisory lock so that two runs creating
it at once do not collide: the second finds it complete. The database itself is made by its
owner (``createdb``); smtourney only fills it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, create_engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, SQLModel

from .errors import StoreError
from .location import DatabaseUrl
from .migrations import SchemaError, check_schema, migrate
from .models import APPLICATION_ID, SCHEMA_VERSION
from .outage import store_error
from .probe import Contents

__all__ = ["open_postgres"]

CONNECT_TIMEOUT_S = 10
"""How long to wait for the server to answer before saying it cannot be reached."""
_CREATION_LOCK = 0x736D746F75726E  # any constant: all smtourney processes take the same one


def open_postgres(location: DatabaseUrl, *, create: bool) -> Engine:
    """An engine on ``location``; with ``create``, an empty database gets our tables."""
    engine = _engine(location)
    try:
        with engine.connect() as connection:
            contents = _contents(connection)
            if contents.schema is None and contents.empty and contents.tables <= _our_tables():
                if not create:
                    raise SchemaError("the database is empty")
                _create(connection)
            elif check_schema(contents):
                with Session(connection) as session:
                    migrate(session)
    except SchemaError as exc:
        engine.dispose()
        raise StoreError(location, str(exc)) from None
    except SQLAlchemyError as exc:
        engine.dispose()
        raise store_error(location, exc, "cannot use the database") from None
    return engine


def _engine(location: DatabaseUrl) -> Engine:
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in location.url.query:
        connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
    try:
        return create_engine(location.url, connect_args=connect_args, pool_pre_ping=True)
    except ImportError:
        missing = "PostgreSQL support is not installed; install it with: pip install 'smtourney[postgres]'"
        raise StoreError(location, missing) from None


def _our_tables() -> set[str]:
    return set(SQLModel.metadata.tables)


def _contents(connection: Connection) -> Contents:
    """The tables of the current schema, the ``schema_info`` row and whether any table has rows."""
    tables = frozenset(inspect(connection).get_table_names())
    schema = None
    if "schema_info" in tables:
        row = connection.execute(text("SELECT application, version FROM schema_info WHERE id = 1")).first()
        if row is not None and isinstance(row[0], str) and isinstance(row[1], int):
            schema = (row[0], row[1])
    empty = not any(
        connection.execute(text(f'SELECT EXISTS (SELECT 1 FROM "{_quoted(table)}")')).scalar()
        for table in tables
    )
    connection.rollback()  # end the reading transaction before anything is written
    return Contents(tables, schema, empty)


def _quoted(name: str) -> str:
    return name.replace('"', '""')


def _create(connection: Connection) -> None:
    """Every table and the version row in one transaction; a concurrent creator waits, then skips."""
    with connection.begin():
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _CREATION_LOCK})
        SQLModel.metadata.create_all(connection, checkfirst=True)
        connection.execute(
            text(
                "INSERT INTO schema_info (id, application, version) VALUES (1, :application, :version) "
                "ON CONFLICT (id) DO NOTHING"
            ),
            {"application": APPLICATION_ID, "version": SCHEMA_VERSION},
        )
