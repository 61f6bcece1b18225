"""A real PostgreSQL server for tests: ``initdb`` into a temporary folder, listening only on a
Unix socket in that folder, run as the ``postgres`` user when the tests run as root (PostgreSQL
refuses root), always stopped."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server.store.location import DatabaseUrl, parse_location

__all__ = ["PostgresServer", "missing_reason", "postgres_server"]

SERVER_USER = "postgres"
"""Who runs the server when the tests run as root."""


def _binaries() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``: on PATH, or Debian's versioned folder."""
    found = shutil.which("pg_ctl")
    if found is not None:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), reverse=True)
    return versions[0].parent if versions else None


def missing_reason() -> str | None:
    """Why no PostgreSQL server can be started here, or None if one can."""
    if _binaries() is None:
        return "PostgreSQL server binaries (initdb, pg_ctl) are not installed"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root and there is no {SERVER_USER!r} user to run PostgreSQL as"
    return None


class PostgresServer:
    """A running server; :meth:`new_database` makes an empty database and returns its URL;
    :meth:`stop` and :meth:`start` take it down and bring it back, as an administrator would."""

    def __init__(self, socket_dir: Path, binaries: Path | None = None) -> None:
        self.socket_dir = socket_dir
        self._binaries = binaries

    def stop(self) -> None:
        """A fast shutdown: open connections are ended, the socket goes away."""
        subprocess.run(self._pg_ctl("-m", "fast", "-w", "stop"), check=True, capture_output=True)

    def start(self) -> None:
        subprocess.run(self._pg_ctl("-w", "-t", "60", "start"), check=True, capture_output=True)

    def _pg_ctl(self, *args: str) -> list[str]:
        assert self._binaries is not None, "a server started elsewhere"
        folder = self.socket_dir
        options = f"-c listen_addresses='' -k {folder} -c fsync=off -c max_connections=60"
        pg_ctl = str(self._binaries / "pg_ctl")
        data = str(folder / "data")
        return _as_server_user([pg_ctl, "-D", data, "-l", str(folder / "server.log"), "-o", options, *args])

    def url(self, database: str) -> str:
        return f"postgresql://{SERVER_USER}@/{database}?host={self.socket_dir}"

    def new_database(self) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        self.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def execute(self, sql: str, url: str | None = None) -> list[tuple[object, ...]]:
        """Run ``sql`` in the database ``url`` names (default: the server's own); the rows it returns."""
        import psycopg

        database = "postgres" if url is None else self.location(url).url.database
        with psycopg.connect(
            host=str(self.socket_dir), user=SERVER_USER, dbname=database, autocommit=True
        ) as connection:
            cursor = connection.execute(sql.encode())
            return cursor.fetchall() if cursor.description is not None else []

    def location(self, url: str) -> DatabaseUrl:
        location = parse_location(url)
        assert isinstance(location, DatabaseUrl)
        return location


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", SERVER_USER, "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """Start a server in a fresh temporary folder; stop it and remove the folder afterwards."""
    binaries = _binaries()
    assert binaries is not None, missing_reason()
    folder = Path(tempfile.mkdtemp(prefix="pg", dir="/tmp"))  # short: a socket path has ~100 bytes
    data = folder / "data"
    if os.geteuid() == 0:
        entry = pwd.getpwnam(SERVER_USER)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    try:
        subprocess.run(
            _as_server_user(
                [str(binaries / "initdb"), "-D", str(data), "-U", SERVER_USER, "--auth=trust", "-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
        )
        server = PostgresServer(folder, binaries)
        server.start()
        try:
            yield server
        finally:
            subprocess.run(
                _as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                check=False,
                capture_output=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
