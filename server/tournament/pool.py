"""Worker processes that play matches, one at a time each.

Each worker is a fresh Python process (:mod:`server.tournament.worker`), never a fork:
the parent may hold gRPC threads. It talks to the parent over a socket pair of its
own, so there is no shared queue: no named semaphore in ``/dev/shm`` and no helper
process that a SIGKILL of the whole process group could leave behind, and a worker
that dies is noticed at once (its socket closes) together with the match it was
playing. Workers ignore Ctrl-C (the parent decides), turn SIGTERM into a clean unwind
that kills their bots, and die with the parent (parent-death signal).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import IO

from .child_process import wait_or_kill
from .executor import ExecutorError
from .jobs import JobResult, KeepOnly, MatchJob

__all__ = ["WorkerCrashError", "WorkerPool"]

STOP_GRACE_S = 10.0
"""How long a worker has to stop its match and bots after SIGTERM before it is killed."""


class WorkerCrashError(ExecutorError):
    """A worker process died without reporting (killed, or out of memory)."""

    def __init__(self, pid: int, status: int, job: MatchJob) -> None:
        how = f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"
        super().__init__(f"worker process {pid} died ({how}) while playing match {job.match_id}")
        self.pid, self.job = pid, job


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    connection: Connection
    job: MatchJob | None = None


class WorkerPool:
    """``size`` worker processes; jobs go to whichever is idle. Its output goes to ``log``."""

    def __init__(self, size: int, log: Path) -> None:
        self._pending: deque[MatchJob] = deque()
        self._workers: list[_Worker] = []
        log.parent.mkdir(parents=True, exist_ok=True)
        self._log: IO[bytes] = log.open("ab")
        try:
            for _ in range(size):
                self._workers.append(self._start())
        except BaseException:
            self.close(graceful=False)
            raise

    def _start(self) -> _Worker:
        ours, theirs = socket.socketpair()
        with ours, theirs:
            process = subprocess.Popen(
                [sys.executable, "-m", "server.tournament.worker", str(os.getpid()), str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=self._log,
            )
            return _Worker(process, Connection(ours.detach()))

    def submit(self, job: MatchJob) -> None:
        self._pending.append(job)
        self._dispatch()

    def _dispatch(self) -> None:
        for worker in self._workers:
            if worker.job is None and self._pending:
                worker.job = self._pending.popleft()
                # A dead worker cannot take it; next_result reports the death with this job.
                with contextlib.suppress(OSError):
                    worker.connection.send(worker.job)

    def ready(self, timeout_s: float) -> bool:
        busy = [worker.connection for worker in self._workers if worker.job is not None]
        return bool(wait(busy, timeout_s))

    def keep_only(self, entrants: frozenset[str]) -> None:
        for worker in self._workers:
            with contextlib.suppress(OSError):  # a dead worker keeps nothing
                worker.connection.send(KeepOnly(entrants))

    def next_result(self) -> JobResult:
        """The next finished job; raises WorkerCrashError if a worker died with its job."""
        busy = [worker for worker in self._workers if worker.job is not None]
        assert busy, "no job is being played"
        ready = wait([worker.connection for worker in busy])[0]
        worker = next(worker for worker in busy if worker.connection is ready)
        assert worker.job is not None
        try:
            result: JobResult = worker.connection.recv()
        except (EOFError, OSError):
            raise WorkerCrashError(worker.process.pid, worker.process.wait(), worker.job) from None
        worker.job = None
        self._dispatch()
        return result

    def recover(self, crash: WorkerCrashError) -> None:
        """Put a fresh worker in the place of the one that died, and give it the match it lost first;
        the other workers play on."""
        dead = next(worker for worker in self._workers if worker.process.pid == crash.pid)
        dead.connection.close()
        self._workers[self._workers.index(dead)] = self._start()
        self._pending.appendleft(crash.job)
        self._dispatch()

    def close(self, *, graceful: bool) -> None:
        """Stop the workers: idle ones if ``graceful``, else at once (SIGTERM, then SIGKILL)."""
        for worker in self._workers:
            if graceful:
                with contextlib.suppress(OSError):
                    worker.connection.send(None)
            elif worker.process.poll() is None:
                worker.process.terminate()
        for worker in self._workers:
            wait_or_kill(worker.process, STOP_GRACE_S)
            worker.connection.close()
        self._log.close()
