"""The worker pool, with real worker processes: a referee failure comes back as one line plus a
traceback for the log, and a dead worker is reported with the match it was playing."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from sdk.games.registry import games
from server.referee import RefereeConfig
from server.seats import SeatSpec
from server.tournament.jobs import MatchJob
from server.tournament.pool import WorkerCrashError, WorkerPool
from server.tournament.runner import referee_failure

SPECS = (SeatSpec("a", address="127.0.0.1:1"), SeatSpec("b", address="127.0.0.1:1"))


def job(tmp_path: Path, index: int, game: str = "saint_malo") -> MatchJob:
    return MatchJob(index, game, f"m{index}", 1, SPECS, {}, RefereeConfig(), tmp_path)


def test_a_referee_failure_is_one_line_and_a_logged_traceback(tmp_path: Path) -> None:
    pool = WorkerPool(1, tmp_path / "workers.log")
    try:
        pool.submit(job(tmp_path, 0, game="nope"))
        pool.submit(job(tmp_path, 1))
        failed, played = pool.next_result(), pool.next_result()
    finally:
        pool.close(graceful=True)
    installed = ", ".join(sorted(games()))
    assert failed.error == f"KeyError: \"unknown game 'nope'; installed games: {installed}\""
    assert failed.record is None and failed.details.startswith("Traceback")
    assert played.record is not None and played.record.record.match_id == "m1"  # the worker played on

    line = referee_failure(failed, "m0", tmp_path)
    log = tmp_path / "m0.referee-error.log"
    assert line == f"the referee failed in match m0: {failed.error} (traceback in {log})"
    assert log.read_text() == failed.details


def test_a_worker_that_dies_is_reported_with_its_match(tmp_path: Path) -> None:
    pool = WorkerPool(1, tmp_path / "workers.log")
    try:
        worker = pool._workers[0].process
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()  # dead before it is given the match
        pool.submit(job(tmp_path, 0))
        with pytest.raises(WorkerCrashError) as caught:
            pool.next_result()
    finally:
        pool.close(graceful=False)
    assert str(caught.value) == f"worker process {worker.pid} died (killed by SIGKILL) while playing match m0"
