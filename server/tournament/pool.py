"""Worker processes that play matches, one at a time each.

Workers are spawned (not forked: the parent may hold gRPC threads), ignore
Ctrl-C (the parent decides), turn SIGTERM into a clean unwind that kills their
bots, and die with the parent (parent-death signal), so no worker and no bot
outlives an interrupted or killed tournament.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import traceback
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import FrameType
from typing import Any

from sdk.games.registry import get_game
from server.guard import die_with_parent
from server.referee import RefereeConfig, run_match
from server.seats import SeatSpec


@dataclass(frozen=True, slots=True)
class MatchJob:
    """Everything a worker needs to play one match (picklable)."""

    index: int
    game: str
    match_id: str
    seed: int
    specs: tuple[SeatSpec, ...]
    params: dict[str, Any]
    config: RefereeConfig
    log_dir: Path


@dataclass(frozen=True, slots=True)
class JobResult:
    index: int
    record: dict[str, Any] | None = None  # the match record's JSON form
    error: str | None = None  # a traceback, if the referee itself failed


class WorkerCrashError(RuntimeError):
    """A worker process died without reporting (e.g. killed by the system)."""


def _unwind(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _worker_main(
    jobs: multiprocessing.Queue[MatchJob | None], results: multiprocessing.Queue[JobResult], parent: int
) -> None:
    if not die_with_parent(parent):  # the parent died while this worker was starting
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _unwind)
    try:
        while (job := jobs.get()) is not None:
            try:
                record = run_match(
                    get_game(job.game),
                    job.specs,
                    match_id=job.match_id,
                    seed=job.seed,
                    params=job.params,
                    config=job.config,
                    log_dir=job.log_dir,
                )
                results.put(JobResult(job.index, record=record.to_json()))
            except Exception:  # reported to the parent, which stops the run
                results.put(JobResult(job.index, error=traceback.format_exc()))
    except KeyboardInterrupt:
        return


@dataclass
class WorkerPool:
    """``size`` worker processes fed from one job queue."""

    size: int
    _context: Any = field(default_factory=lambda: multiprocessing.get_context("spawn"))
    _workers: list[BaseProcess] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.jobs: multiprocessing.Queue[MatchJob | None] = self._context.Queue()
        self.results: multiprocessing.Queue[JobResult] = self._context.Queue()
        for _ in range(self.size):
            worker = self._context.Process(
                target=_worker_main, args=(self.jobs, self.results, os.getpid()), daemon=True
            )
            worker.start()
            self._workers.append(worker)

    def submit(self, job: MatchJob) -> None:
        self.jobs.put(job)

    def next_result(self, poll_s: float = 0.5) -> JobResult:
        """The next finished job; raises WorkerCrashError if a worker died silently."""
        while True:
            try:
                result: JobResult = self.results.get(timeout=poll_s)
                return result
            except queue.Empty:
                crashed = [w for w in self._workers if w.exitcode not in (None, 0)]
                if crashed:
                    raise WorkerCrashError(
                        f"a worker process died (exit status {crashed[0].exitcode})"
                    ) from None

    def close(self, *, graceful: bool) -> None:
        """Stop the workers: after their current job if ``graceful``, else at once (SIGTERM)."""
        if graceful:
            for _ in self._workers:
                self.jobs.put(None)
        else:
            for worker in self._workers:
                if worker.is_alive():
                    worker.terminate()
        for worker in self._workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.kill()
                worker.join()
        self.jobs.cancel_join_thread()
        self.jobs.close()
        self.results.close()
