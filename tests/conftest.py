"""Fixtures shared by every test package."""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from server.cli import app as cli_app

# The tests' Ray cluster lives on the loopback interface only. Ray rewrites a loopback address to
# the machine's outward address unless multi-machine clusters are switched off; the drivers the
# tests start (in this process or as children) inherit this.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from .servers.postgres import PostgresServer, postgres_server
from .servers.postgres import missing_reason as postgres_missing
from .servers.ray_cluster import missing_reason as ray_missing
from .servers.ray_cluster import ray_cluster


def processes_with(tag: str) -> list[int]:
    """PIDs of live processes whose command line or environment contains ``tag``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            text = Path(f"/proc/{entry}/cmdline").read_bytes() + Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().split()[2]
        except OSError:
            continue
        if tag.encode() in text and state != "Z":
            found.append(int(entry))
    return found


def processes_left(tag: str, within_s: float) -> list[int]:
    """:func:`processes_with` once they are all gone, or ``within_s`` has passed: parent-death
    signals, and Ray's actors' end with their driver, arrive asynchronously."""
    deadline = time.monotonic() + within_s
    while (left := processes_with(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def bots_with(tag: str) -> list[int]:
    """One PID per launched bot whose command line or environment contains ``tag``: the topmost of
    its processes (a sandboxed bot runs a few: the guard, bubblewrap, the bot)."""
    found = set(processes_with(tag))
    return [pid for pid in found if _parent(pid) not in found]


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.fixture
def tag() -> str:
    """A unique marker to put on bot command lines."""
    return f"tag-{uuid.uuid4().hex}"


TINY_BRACKET = """\
name: web-tiny
game: saint_malo
players: 2
rounds: 1
seed: 5
time_control: {decision_ms: 5000, bank_ms: 20000}
workers: 2
entrants:
  - {name: greedy, command: python -m bots.greedy}
  - {name: random, command: python -m bots.random}
  - {name: faulty, command: python -m tests.bots.faulty_bot --fault illegal --at 3}
"""


@pytest.fixture(scope="session")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six two-player matches, played for real through ``smtourney run``: a greedy bot, a random
    one, and one whose illegal replies earn strikes until it forfeits."""
    bracket = tmp_path_factory.mktemp("web") / "web-tiny.yaml"
    bracket.write_text(TINY_BRACKET)
    result = CliRunner().invoke(cli_app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    return bracket.with_suffix(".db")


@pytest.fixture
def db_copy(tournament_db: Path, tmp_path: Path) -> Path:
    """A copy of the shared tournament database that a test may change (SQLite's own backup)."""
    copy = tmp_path / "copy.db"
    with closing(sqlite3.connect(tournament_db)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)
    return copy


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the whole session (each test makes its own database)."""
    reason = postgres_missing()
    if reason is not None:
        pytest.skip(reason)
    with postgres_server() as server:
        yield server


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server of one test's own, for a test that stops it and starts it again."""
    reason = postgres_missing()
    if reason is not None:
        pytest.skip(reason)
    with postgres_server() as server:
        yield server


@pytest.fixture(scope="session")
def ray_address() -> Iterator[str]:
    """A real two-node Ray cluster on 127.0.0.1 for the whole session: its head's address."""
    reason = ray_missing()
    if reason is not None:
        pytest.skip(reason)
    with ray_cluster() as address:
        yield address
