"""The competition API on a real server on 127.0.0.1 (uvicorn on a port it picks, a real SQLite
file): bearer tokens, submissions by address, retiring, the public leaderboard, and refusals that
are one clear 4xx and change nothing."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from server.ladder.api import MAX_JSON_BODY_BYTES, create_app
from server.ladder.config import load_ladder
from server.ladder.store import LadderStore
from server.store.repository import Store

from .conftest import cli
from .test_organiser import add, rows

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "addresses: {allow: [127.0.0.0/8]}\n"
"""Lets the ladder reach the tests' own bots on 127.0.0.1 (denied by default)."""
LADDER = "name: test ladder\ngame: saint_malo\nplayers: 2\nmax_active_bots: 2\n" + LOOPBACK


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any


@dataclass
class Api:
    host: str
    port: int
    db: Path
    process: subprocess.Popen[str] | None = None
    """The ``ladder serve`` process, when the API is served by one."""

    def request(
        self, method: str, path: str, token: str | None = None, body: Any = None, raw: bytes | None = None
    ) -> Reply:
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        with closing(http.client.HTTPConnection(self.host, self.port, timeout=30)) as connection:
            connection.request(method, f"/api/ladder{path}", body=data, headers=headers)
            response = connection.getresponse()
            return Reply(response.status, json.loads(response.read() or b"null"))


@contextmanager
def serving(tmp_path: Path, ladder_text: str = LADDER) -> Iterator[Api]:
    """The ladder API on 127.0.0.1, on a port of its own; always stopped."""
    path = tmp_path / "ladder.yaml"
    path.write_text(ladder_text)
    ladder = load_ladder(path)
    store = Store.open(ladder.database_path, create=True)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(ladder, LadderStore(store)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the API did not start"
            time.sleep(0.01)
        yield Api("127.0.0.1", sock.getsockname()[1], ladder.database_path)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        store.close()


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    with serving(tmp_path) as running:
        yield running


def bots(api: Api) -> list[tuple[object, ...]]:
    return rows(api.db, "SELECT participant_id, name, status, spec_json FROM ladder_bot ORDER BY id")


def test_a_participant_submits_lists_and_retires_their_bot(api: Api) -> None:
    token = add(api.db, "ada")
    reply = api.request(
        "POST", "/bots", token, {"name": "greedy", "address": "127.0.0.1:50051", "token": "t"}
    )
    assert reply.status == 201, reply.body
    assert {key: reply.body[key] for key in ("name", "participant", "status", "games", "mu")} == {
        "name": "greedy",
        "participant": "ada",
        "status": "validating",
        "games": 0,
        "mu": 25.0,
    }
    mine = api.request("GET", "/bots", token)
    assert mine.status == 200 and [b["name"] for b in mine.body] == ["greedy"]
    spec = json.loads(str(bots(api)[0][3]))
    assert spec == {"address": "127.0.0.1:50051", "tls": False, "server_name": None, "token": "t"}
    retired = api.request("POST", "/bots/greedy/retire", token)
    assert retired.status == 200 and retired.body["status"] == "retired"


def test_the_leaderboard_is_public_and_ranks_active_bots(api: Api) -> None:
    token = add(api.db, "ada")
    for name in ("strong", "weak"):
        assert api.request("POST", "/bots", token, {"name": name, "address": "127.0.0.1:1"}).status == 201
    with closing(sqlite3.connect(api.db)) as connection:  # as validation and matches will leave them
        connection.execute(
            "UPDATE ladder_bot SET status = 'active', mu = 30, sigma = 1, games = 12 WHERE name = 'strong'"
        )
        connection.execute(
            "UPDATE ladder_bot SET status = 'active', mu = 20, sigma = 1, games = 12 WHERE name = 'weak'"
        )
        connection.commit()
    assert api.request("POST", "/bots", token, {"name": "new", "address": "127.0.0.1:1"}).status == 201
    board = api.request("GET", "/leaderboard")
    assert board.status == 200
    assert [
        (b["name"], b["participant"], b["status"], b["games"], b["mu"], b["sigma"]) for b in board.body
    ] == [
        ("strong", "ada", "active", 12, 30.0, 1.0),
        ("weak", "ada", "active", 12, 20.0, 1.0),
    ]


def test_missing_wrong_and_revoked_tokens_get_401_and_change_nothing(api: Api) -> None:
    token = add(api.db, "ada")
    body = {"name": "x", "address": "127.0.0.1:1"}
    for bad in (None, "smt_nothing", "x" * 5000, ""):
        reply = api.request("POST", "/bots", bad, body)
        assert reply.status in (401, 403) and isinstance(reply.body["detail"], str), (bad, reply)
    assert api.request("GET", "/bots", "smt_wrong").body == {"detail": "unknown or revoked token"}
    assert bots(api) == []
    add(api.db, "grace")
    assert cli("ladder", "remove-participant", "ada", "--db", str(api.db))[0] == 0
    assert api.request("POST", "/bots", token, body).status == 401
    assert bots(api) == []


def test_one_participant_cannot_see_or_retire_another_s_bots(api: Api) -> None:
    ada, grace = add(api.db, "ada"), add(api.db, "grace")
    assert api.request("POST", "/bots", ada, {"name": "mine", "address": "127.0.0.1:1"}).status == 201
    assert api.request("GET", "/bots", grace).body == []
    reply = api.request("POST", "/bots/mine/retire", grace)
    assert reply.status == 404 and reply.body == {"detail": "grace has no bot named 'mine'"}
    assert [row[2] for row in bots(api)] == ["validating"]


def test_bad_submissions_get_one_line_4xx_and_change_nothing(api: Api) -> None:
    token = add(api.db, "ada")
    assert api.request("POST", "/bots", token, {"name": "a", "address": "127.0.0.1:1"}).status == 201
    before = bots(api)
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"name": "b", "address": "no port"}, 422, "address: "),
        (
            {"name": "b", "address": "unix:/run/referee.sock"},
            422,
            "address: a submitted bot is reached over the network",
        ),
        ({"name": "", "address": "127.0.0.1:1"}, 422, "name: "),
        ({"name": "a/b", "address": "127.0.0.1:1"}, 422, "name: a bot name cannot contain /"),
        ({"name": "..", "address": "127.0.0.1:1"}, 422, "name: a bot name cannot contain /"),
        ({"name": "b", "address": "127.0.0.1:1", "token": "bad\nvalue"}, 422, "token: "),
        ({"name": "b", "address": "127.0.0.1:1", "extra": 1}, 422, "extra: "),
        ({"name": "a", "address": "127.0.0.1:2"}, 409, "you already have a bot named 'a'"),
    ]
    for body, status, detail in cases:
        reply = api.request("POST", "/bots", token, body)
        assert (
            reply.status == status and detail in reply.body["detail"] and "\n" not in reply.body["detail"]
        ), (
            body,
            reply,
        )
    assert api.request("POST", "/bots", token, raw=b"{not json").status == 422
    assert bots(api) == before


def test_an_oversized_body_gets_413_declared_or_streamed(api: Api) -> None:
    token = add(api.db, "ada")
    huge = json.dumps({"name": "x", "address": "127.0.0.1:1", "token": "a" * MAX_JSON_BODY_BYTES}).encode()
    reply = api.request("POST", "/bots", token, raw=huge)
    assert reply.status == 413 and "larger than 65,536 bytes" in reply.body["detail"]
    with closing(http.client.HTTPConnection(api.host, api.port, timeout=30)) as connection:
        connection.putrequest("POST", "/api/ladder/bots")
        connection.putheader("Authorization", f"Bearer {token}")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders()
        for start in range(0, len(huge), 8192):
            chunk = huge[start : start + 8192]
            connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        connection.send(b"0\r\n\r\n")
        response = connection.getresponse()
        assert response.status == 413
    assert bots(api) == []


def test_a_paused_participant_and_a_flood_are_refused(api: Api) -> None:
    token = add(api.db, "ada")
    for name in ("a", "b"):
        assert api.request("POST", "/bots", token, {"name": name, "address": "127.0.0.1:1"}).status == 201
    flood = api.request("POST", "/bots", token, {"name": "c", "address": "127.0.0.1:1"})
    assert flood.status == 429 and "2 of your bots are still validating" in flood.body["detail"]
    assert cli("ladder", "pause", "ada", "--db", str(api.db))[0] == 0
    paused = api.request("POST", "/bots", token, {"name": "d", "address": "127.0.0.1:1"})
    assert paused.status == 403 and paused.body == {"detail": "your participation is paused by the organiser"}
    assert [row[1] for row in bots(api)] == ["a", "b"]


@contextmanager
def served(ladder_file: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[Api]:
    """``smtourney ladder serve`` in a process of its own on a free port; interrupted and always ended."""
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "ladder", "serve", str(ladder_file), "--port", "0", *options],
        cwd=ROOT,
        env=None if env is None else {**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"at http://127\.0\.0\.1:(\d+)/api/ladder/", line)
        assert found, line
        yield Api("127.0.0.1", int(found.group(1)), ladder_file.with_suffix(".db"), process)
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
    finally:
        process.kill()
        process.wait()


def test_serve_listens_on_the_port_it_prints_and_documents_the_api(tmp_path: Path) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text(LADDER)
    with served(path) as api:
        assert api.request("GET", "/leaderboard") == Reply(200, [])
        with closing(http.client.HTTPConnection(api.host, api.port, timeout=30)) as connection:
            connection.request("GET", "/openapi.json")
            paths = json.loads(connection.getresponse().read())["paths"]
        assert {"/api/ladder/leaderboard", "/api/ladder/bots", "/api/ladder/bots/{name}/retire"} <= set(paths)
    assert (tmp_path / "ladder.db").is_file()


def test_the_command_line_clients_show_the_leaderboard_and_my_bots(api: Api) -> None:
    token = add(api.db, "ada")
    assert api.request("POST", "/bots", token, {"name": "mine", "address": "127.0.0.1:1"}).status == 201
    with closing(sqlite3.connect(api.db)) as connection:
        connection.execute("UPDATE ladder_bot SET status = 'active', mu = 27.5, sigma = 2, games = 4")
        connection.commit()
    server = f"http://{api.host}:{api.port}"
    code, output = cli("ladder", "leaderboard", "--server", server, "--json")
    assert code == 0, output
    (row,) = json.loads(output)
    assert {key: row[key] for key in ("name", "participant", "status", "games", "mu", "sigma")} == {
        "name": "mine",
        "participant": "ada",
        "status": "active",
        "games": 4,
        "mu": 27.5,
        "sigma": 2.0,
    }
    code, output = cli("ladder", "leaderboard", "--server", server)
    assert code == 0 and "mine" in output and "27.50" in output
    code, output = cli("ladder", "status", "--server", server, "--token", token, "--json")
    assert code == 0 and [bot["name"] for bot in json.loads(output)] == ["mine"]
    assert cli("ladder", "status", "--server", server, "--token", "smt_wrong") == (
        1,
        f"error: {server}/api/ladder/bots: 401 unknown or revoked token\n",
    )


def test_the_clients_say_in_one_line_when_the_server_cannot_be_used(tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    code, output = cli("ladder", "leaderboard", "--server", f"http://127.0.0.1:{port}")
    assert (
        code == 1 and output.startswith("error: cannot reach http://127.0.0.1:") and output.count("\n") == 1
    )
    code, output = cli("ladder", "leaderboard", "--server", "127.0.0.1:80")
    assert code == 1 and "--server: expected a URL such as http://HOST:PORT" in output


def test_a_leaked_token_is_replaced_under_the_same_name(api: Api) -> None:
    old = add(api.db, "ada")
    assert api.request("POST", "/bots", old, {"name": "mine", "address": "127.0.0.1:1"}).status == 201
    code, output = cli("ladder", "rotate-token", "ada", "--db", str(api.db))
    new = output.splitlines()[-1]
    assert code == 0 and new.startswith("smt_") and new != old, output
    assert api.request("GET", "/bots", old).status == 401
    assert [bot["name"] for bot in api.request("GET", "/bots", new).body] == ["mine"]
    assert rows(api.db, "SELECT token_hash FROM ladder_participant") == [
        (hashlib.sha256(new.encode()).hexdigest(),)
    ]
    assert cli("ladder", "rotate-token", "bob", "--db", str(api.db)) == (
        1,
        "error: no participant named 'bob'\n",
    )


def test_the_leaderboard_never_cuts_two_names_to_the_same_text_at_80_columns(api: Api) -> None:
    token = add(api.db, "a-participant-with-a-long-name")
    names = ["greedy-with-a-long-name-one", "greedy-with-a-long-name-two"]
    for name in names:
        assert api.request("POST", "/bots", token, {"name": name, "address": "127.0.0.1:1"}).status == 201
    with closing(sqlite3.connect(api.db)) as connection:
        connection.execute("UPDATE ladder_bot SET status = 'active', games = 3, reason = 'x' || name || name")
        connection.commit()
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "server",
            "ladder",
            "leaderboard",
            "--server",
            f"http://{api.host}:{api.port}",
        ],
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "80"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert "…" not in shown
    cells = "".join(line.split("│")[2].strip() for line in shown.splitlines() if line.count("│") > 3)
    assert all(name in cells for name in names), shown
