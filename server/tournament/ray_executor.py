"""The Ray executor as the run sees it: a process of its own (:mod:`.ray_driver`) holds the Ray
side, and this object hands it jobs and reads back results.

Ray ends the process it connected from when that process loses its raylet at the wrong moment
(with a C++ log line, no exception to catch). Here that is the driver process: the run lives on,
meets the death as a lost executor (:class:`ExecutorLostError`, with the fatal line of Ray's that
the driver's log holds) and ends with its own line on what is stored and how to resume. Ray's
output stays in that log (``ray-driver.log`` in the run's log folder), off the run's terminal, and
this process never imports Ray.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

from .child_process import wait_or_kill
from .executor import ExecutorError, ExecutorLostError, NoticeCallback, ReplayCallback
from .jobs import JobResult, KeepOnly, MatchJob
from .ray_messages import Failed, Finished, Noticed, Replayed, Started

__all__ = ["RayExecutor", "end_processes_using", "last_ray_error"]

START_TIMEOUT_S = 180.0
"""How long the driver has to start Ray (or join a cluster) and ask for its actors."""
CLOSE_TIMEOUT_S = 60.0
"""How long a graceful close may take (the actors close their bots in up to 30 s, then Ray stops)."""
STOP_GRACE_S = 10.0
"""How long the driver has to stop its actors after SIGTERM before it is killed."""
LOG_TAIL_BYTES = 64 * 1024
"""How much of the end of the driver's log is read for the line Ray ended it with."""
_RAY_LOG_LINE = re.compile(r"^\[[\d-]+ [\d:,]+ (?P<level>[A-Z]) \d+ \d+\] (?:\S+:\d+: )?(?P<text>.+)$")
"""Ray's C++ log lines: ``[2026-11-28 07:06:36,149 C 12606 12606] core_worker.cc:300: text``."""


class RayExecutor:
    """``workers`` Ray actors (at most one per CPU the cluster has), each one match at a time, driven
    from a process of their own whose output goes to ``log``."""

    def __init__(
        self,
        workers: int,
        address: str | None,
        log: Path,
        on_replay: ReplayCallback | None = None,
        on_notice: NoticeCallback | None = None,
    ) -> None:
        if importlib.util.find_spec("ray") is None:
            raise ExecutorError("Ray is not installed; install it with: pip install 'smtourney[ray]'")
        self._on_replay = on_replay
        self._on_notice = on_notice
        self._log_path = log
        self._results: list[JobResult | ExecutorError] = []
        self._closed = False
        #: The run's own Ray instance's folder (None on a cluster), short: Ray's sockets are in it.
        self._own_folder = (
            None if address is not None else Path(tempfile.mkdtemp(prefix="smtourney-ray-", dir="/tmp"))
        )
        where = ["--address", address] if address is not None else ["--own-folder", str(self._own_folder)]
        log.parent.mkdir(parents=True, exist_ok=True)
        ours, theirs = socket.socketpair()
        with theirs, log.open("ab") as output:
            self._process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "server.tournament.ray_driver",
                    str(os.getpid()),
                    str(theirs.fileno()),
                    str(workers),
                    *where,
                ],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=output,
            )
        self._connection = Connection(ours.detach())
        try:
            self._await_start()
        except BaseException:
            self._stop()
            raise

    def _await_start(self) -> None:
        if not self._connection.poll(START_TIMEOUT_S):
            raise ExecutorError(
                f"Ray did not start within {START_TIMEOUT_S:.0f} s (its output: {self._log_path})"
            )
        message = self._receive()
        if isinstance(message, ExecutorError):  # it died starting
            raise message
        if isinstance(message, Failed):
            raise ExecutorError(message.why)
        assert isinstance(message, Started), message

    @property
    def own_folder(self) -> Path | None:
        """The folder of the run's own Ray instance; None when the run joined a cluster."""
        return self._own_folder

    def submit(self, job: MatchJob) -> None:
        self._send(job)

    def keep_only(self, entrants: frozenset[str]) -> None:
        self._send(KeepOnly(entrants))

    def _send(self, message: MatchJob | KeepOnly | None) -> None:
        if self._closed:
            raise ExecutorError("the Ray workers were stopped")
        with contextlib.suppress(OSError):  # a dead driver is reported by the next read
            self._connection.send(message)

    def ready(self, timeout_s: float) -> bool:
        """Whether a result (or the end of the Ray side) is waiting, telling notices meanwhile."""
        while not self._results and self._connection.poll(timeout_s):
            self._take(self._receive())
            timeout_s = 0.0
        return bool(self._results)

    def next_result(self) -> JobResult:
        while not self._results:
            self._take(self._receive())
        result = self._results.pop(0)
        if isinstance(result, ExecutorError):
            self._results.insert(0, result)  # the Ray side is gone: every later call says so too
            raise result
        return result

    def _take(self, message: object) -> None:
        if isinstance(message, Finished):
            self._results.append(message.result)
        elif isinstance(message, Replayed):
            if self._on_replay is not None:
                self._on_replay(message.match_id, message.why)
        elif isinstance(message, Noticed):
            if self._on_notice is not None:
                self._on_notice(message.line)
        else:
            assert isinstance(message, (Failed, ExecutorError)), message
            self._results.append(ExecutorError(message.why) if isinstance(message, Failed) else message)

    def _receive(self) -> object:
        """The driver's next message; its death becomes an ExecutorLostError naming why."""
        try:
            return self._connection.recv()
        except (EOFError, OSError):
            if self._closed:
                return ExecutorError("the Ray workers were stopped")
            return ExecutorLostError(self._death())

    def _death(self) -> str:
        status = wait_or_kill(self._process, STOP_GRACE_S)
        how = f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"
        cause = last_ray_error(self._log_path)
        cause = f": {cause.rstrip('.')}" if cause else ""
        return f"the Ray driver process died ({how}{cause}; its output: {self._log_path})"

    def close(self, *, graceful: bool) -> None:
        """Stop the actors (a killed actor's bots die with it), then Ray: after a complete run if
        ``graceful``, else at once."""
        if self._closed:
            return
        if graceful:
            self._send(None)
            self._closed = True
            with contextlib.suppress(subprocess.TimeoutExpired):  # then it is stopped
                self._process.wait(CLOSE_TIMEOUT_S)
        self._stop()

    def _stop(self) -> None:
        """End the driver (SIGTERM, then SIGKILL), then what its Ray instance left: processes and folder."""
        self._closed = True
        if self._process.poll() is None:
            self._process.terminate()
            wait_or_kill(self._process, STOP_GRACE_S)
        self._connection.close()
        if self._own_folder is not None:
            end_processes_using(self._own_folder)
            shutil.rmtree(self._own_folder, ignore_errors=True)


def end_processes_using(folder: Path) -> None:
    """SIGKILL every process with a file open in ``folder`` or started with it on its command line,
    and wait (up to :data:`STOP_GRACE_S`) until they are gone.

    A raylet lost under a run leaves its workers and agents behind (they notice only minutes later)
    writing their logs into the instance's folder; a driver ended by Ray itself leaves what it
    started. Their command lines no longer name the folder, but their open log files do."""
    inside = str(folder) + "/"
    killed = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            where = Path("/proc", entry)
            files = [os.readlink(link) for link in (where / "fd").iterdir()]
            command = (where / "cmdline").read_bytes().decode(errors="replace")
            if inside in command or f"={folder}" in command or any(f.startswith(inside) for f in files):
                os.kill(int(entry), signal.SIGKILL)
                killed.append(entry)
    deadline = time.monotonic() + STOP_GRACE_S
    while killed and time.monotonic() < deadline:
        killed = [pid for pid in killed if _alive(pid)]
        time.sleep(0.05)


def _alive(pid: str) -> bool:
    """Running, not only a zombie waiting for its parent (a zombie holds no file)."""
    try:
        return Path("/proc", pid, "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def last_ray_error(log: Path) -> str:
    """Why the driver died, from the end of its ``log``: the last fatal (else error) line of Ray's
    C++ core, without its prefix, else a Python traceback's last line; "" if neither is there."""
    try:
        with log.open("rb") as file:
            file.seek(max(0, file.seek(0, os.SEEK_END) - LOG_TAIL_BYTES))
            tail = file.read().decode(errors="replace")
    except OSError:
        return ""
    found: dict[str, str] = {}
    in_traceback = False
    for line in tail.splitlines():
        if (match := _RAY_LOG_LINE.match(line.strip())) is not None:
            found[match["level"]] = match["text"].strip()
        elif line.startswith("Traceback (most recent call last):"):
            in_traceback = True
        elif in_traceback and line.strip() and not line[0].isspace():
            found["traceback"], in_traceback = line.strip(), False
    return next((found[level] for level in ("F", "C", "traceback", "E") if level in found), "")
