"""A ladder worker that dies costs only the match it was playing, in process on real parts: real worker
processes, real bots reached by address, a real SQLite file."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bots.random import RandomBot
from sdk.serve import BotServer, serve
from server.ladder.loop import LadderLoop
from server.tournament.executor import ExecutorChoice
from server.tournament.pool import WorkerPool

from .test_api import LOOPBACK
from .test_loop_kinds import ladder_with
from .test_organiser import rows


@pytest.fixture
def random_bots() -> Iterator[list[BotServer]]:
    running = [serve(RandomBot(), 0, max_workers=16) for _ in range(4)]
    try:
        yield running
    finally:
        for bot in running:
            bot.stop(grace=0)


def test_a_worker_that_dies_costs_only_its_match_and_the_other_worker_plays_on(
    tmp_path: Path, random_bots: list[BotServer]
) -> None:
    ladder, store, ladders = ladder_with(
        tmp_path,
        "name: w\ngame: saint_malo\nplayers: 2\nsandbox: false\n" + LOOPBACK,
        {f"r{i}": {"address": f"127.0.0.1:{bot.port}"} for i, bot in enumerate(random_bots)},
    )
    reports: list[str] = []
    logs = tmp_path / "logs"
    local = ExecutorChoice()
    loop = LadderLoop(ladder, ladders, workers=2, executor=local, log_dir=logs, report=reports.append)
    with closing(store):
        loop.start()
        try:
            deadline = time.monotonic() + 120
            while ladders.played() < 4:
                assert time.monotonic() < deadline, reports
                time.sleep(0.05)
            pool = loop._executor
            assert isinstance(pool, WorkerPool)
            first, second = (worker.process for worker in pool._workers)
            os.kill(first.pid, signal.SIGKILL)
            played = ladders.played()
            while ladders.played() < played + 6:
                assert time.monotonic() < deadline, reports
                time.sleep(0.05)
            assert second.poll() is None, "the other worker was stopped"
            assert second in [worker.process for worker in pool._workers]
            assert first not in [worker.process for worker in pool._workers]
        finally:
            loop.stop()
    (report,) = reports
    died = f"worker process {first.pid} died (killed by SIGKILL) while playing match ladder-"
    assert report.startswith(died)
    assert report.endswith("; a fresh worker plays it again")
    # every decision stored once, none lost
    assert (
        rows(ladder.database_path, "SELECT COUNT(*), COUNT(DISTINCT match_id) FROM match")[0][0]
        == (rows(ladder.database_path, "SELECT COUNT(*) FROM ladder_match WHERE status = 'done'")[0][0])
    )
