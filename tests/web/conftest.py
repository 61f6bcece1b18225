"""A real tournament database, and the web app served from it by uvicorn on a free local port."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from server.cli import app as cli_app
from server.web.app import create_app

BRACKET = """\
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


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: str

    def json(self) -> Any:
        return json.loads(self.body)


def fetch(url: str) -> Reply:
    """GET ``url``; error statuses are replies too, not exceptions."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return Reply(response.status, response.headers["content-type"], response.read().decode())
    except urllib.error.HTTPError as error:
        with error:
            return Reply(error.code, error.headers["content-type"], error.read().decode())


@contextmanager
def serve(db: Path) -> Iterator[str]:
    """Serve ``db`` on 127.0.0.1 on a free port; yields the base URL; always stops the server."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(db), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the web app did not start"
            time.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six two-player matches, played for real through ``smtourney run``: a greedy bot, a random
    one, and one whose illegal replies earn strikes until it forfeits."""
    bracket = tmp_path_factory.mktemp("web") / "web-tiny.yaml"
    bracket.write_text(BRACKET)
    result = CliRunner().invoke(cli_app, ["run", str(bracket)])
    assert result.exit_code == 0, result.output
    return bracket.with_suffix(".db")


@pytest.fixture(scope="session")
def base_url(tournament_db: Path) -> Iterator[str]:
    with serve(tournament_db) as url:
        yield url


@pytest.fixture(scope="session")
def tournament_id(base_url: str) -> int:
    (tournament,) = fetch(f"{base_url}/api/tournaments").json()
    return int(tournament["id"])


@pytest.fixture(scope="session")
def match_ids(base_url: str, tournament_id: int) -> list[str]:
    return [m["match_id"] for m in fetch(f"{base_url}/api/tournaments/{tournament_id}/matches").json()]
