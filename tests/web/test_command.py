"""``smtourney web``: refuses what it cannot serve before serving, and serves on the port it prints."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from typer.testing import CliRunner

from server.cli import app as cli_app

from .conftest import fetch

ROOT = Path(__file__).resolve().parents[2]


def web(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli_app, ["web", *args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def test_a_missing_database_is_refused(tmp_path: Path) -> None:
    code, output = web("--db", str(tmp_path / "none.db"))
    assert code == 1 and "none.db: no such database" in output
    assert "Traceback" not in output and not (tmp_path / "none.db").exists()


def test_a_database_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.db"
    with closing(sqlite3.connect(foreign)) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    text = tmp_path / "notes.db"
    text.write_text("not a database")
    assert web("--db", str(foreign)) == (
        1,
        f"error: {foreign}: not a smtourney database (it has no schema_info table)\n",
    )
    code, output = web("--db", str(text))
    assert code == 1 and "not a SQLite database" in output


def test_a_taken_port_is_refused(tournament_db: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, output = web("--db", str(tournament_db), "--port", str(taken.getsockname()[1]))
    assert code == 1 and "cannot listen on 127.0.0.1 port" in output


def test_port_0_serves_on_a_free_port_until_interrupted(tournament_db: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "web", "--db", str(tournament_db), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert found, line
        assert fetch(found.group(1)).status == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 130  # interrupted, as Ctrl-C ends the other commands
        assert process.stderr is not None and process.stderr.read() == ""
    finally:
        process.kill()
        process.wait()
