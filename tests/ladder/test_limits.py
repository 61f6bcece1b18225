"""Submission limits under concurrency, on a real server on 127.0.0.1 and a real SQLite file:
many parallel submissions of one participant, from real threads, never pass a limit."""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

from server.ladder.store import LadderStore, LimitError, SubmissionLimits
from server.store.repository import Store
from server.tournament.commands import db_location

from ..servers.postgres import PostgresServer
from .test_api import LADDER, Api, bots, serving
from .test_organiser import add


def _parallel(api: Api, token: str, count: int) -> list[int]:
    """The statuses of ``count`` submissions sent at once: each thread connects, then all send together."""
    start = threading.Barrier(count)

    def submit(number: int) -> int:
        body = json.dumps({"name": f"b{number}", "address": "127.0.0.1:1"})
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        with closing(http.client.HTTPConnection(api.host, api.port, timeout=30)) as connection:
            connection.connect()
            start.wait()
            connection.request("POST", "/api/ladder/bots", body=body, headers=headers)
            return connection.getresponse().status

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(submit, range(count)))


def test_parallel_submissions_never_pass_the_hourly_limit(tmp_path: Path) -> None:
    ladder = LADDER.replace("max_active_bots: 2", "max_active_bots: 100") + "submissions_per_hour: 3\n"
    with serving(tmp_path, ladder) as api:
        token = add(api.db, "ada")
        statuses = _parallel(api, token, 20)
        assert statuses.count(201) == 3 and statuses.count(429) == 17, statuses
        assert len(bots(api)) == 3


def test_parallel_submissions_never_pass_the_validating_limit(tmp_path: Path) -> None:
    ladder = LADDER.replace("max_active_bots: 2", "max_active_bots: 10") + "submissions_per_hour: 100\n"
    with serving(tmp_path, ladder) as api:
        token = add(api.db, "ada")
        statuses = _parallel(api, token, 30)
        assert statuses.count(201) == 10 and statuses.count(429) == 20, statuses
        assert len(bots(api)) == 10


def test_parallel_adds_never_pass_the_limits_on_postgresql(postgres: PostgresServer) -> None:
    store = Store.open(db_location(postgres.new_database()), create=True)
    try:
        ladders = LadderStore(store)
        ladders.add_participant("ada")
        (ada,) = ladders.participants()
        assert ada.id is not None
        owner = ada.id
        limits = SubmissionLimits(validating=10, per_hour=3)
        start = threading.Barrier(20)

        def add_one(number: int) -> bool:
            start.wait()
            try:
                ladders.add_bot(
                    owner, f"b{number}", {"address": "127.0.0.1:1"}, mu=25, sigma=8, limits=limits
                )
            except LimitError:
                return False
            return True

        with ThreadPoolExecutor(20) as pool:
            added = list(pool.map(add_one, range(20)))
        assert added.count(True) == 3 and len(ladders.bots(owner)) == 3
    finally:
        store.close()
