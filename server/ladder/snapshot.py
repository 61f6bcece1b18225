"""The ladder's database as it was at one moment, for reading many tables that must agree.

``smtourney ladder recompute`` reads the bots, the stored results and the decisions; on a running
ladder, a match stored between two of those reads made them disagree (a bot with one game fewer
than its results). So they are read from one snapshot: on SQLite, a copy made by SQLite's own
backup (one read transaction, so consistent; WAL lets the ladder go on writing meanwhile); on
PostgreSQL, one exported snapshot (``pg_export_snapshot``) that every transaction of the reading
engine starts from, held by a repeatable-read transaction until the reading ends.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, create_engine, event

from server.store.repository import Store

__all__ = ["snapshot"]


@contextmanager
def snapshot(store: Store) -> Iterator[Store]:
    """A store reading ``store``'s database as it was when this was entered; closed on the way out."""
    if isinstance(store.path, Path):
        with tempfile.TemporaryDirectory(prefix="smtourney-snapshot-") as folder:
            copy = Path(folder) / "snapshot.db"
            with closing(sqlite3.connect(store.path)) as source, closing(sqlite3.connect(copy)) as target:
                source.backup(target)
            frozen = Store.open(copy)
            try:
                yield frozen
            finally:
                frozen.close()
        return
    with store.engine.connect() as holder:
        holder.execution_options(isolation_level="REPEATABLE READ")
        exported = holder.exec_driver_sql("SELECT pg_export_snapshot()").scalar_one()
        engine = create_engine(store.engine.url, isolation_level="REPEATABLE READ")

        def _from_snapshot(connection: Connection, *_: Any) -> None:
            connection.exec_driver_sql(f"SET TRANSACTION SNAPSHOT '{exported}'")

        event.listen(engine, "begin", _from_snapshot)
        frozen = Store(engine, store.path)
        try:
            yield frozen
        finally:
            frozen.close()
