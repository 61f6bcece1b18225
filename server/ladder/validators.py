"""Validating submissions while the service runs: several at once, each participant in turn, each
in a worker process of its own ended after the ladder's ``validation.timeout_s``.

One validator taking submissions in order let one participant hold everyone's: a bot answering
slowly (legally) held it for minutes, and submissions to an address that never answers queued up
behind each other. Here at most ``validation.workers`` validations run at once, at most
``validation.per_participant`` of them for one participant, and a free worker goes to the
participant who has waited longest since their last validation started (round-robin), so another
participant's bot waits at most for one validation to end or time out. The pool also deletes the
program folders of failed and retired bots: they are never run again.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from pathlib import Path

from server.bot_check import Check
from server.display import print_error
from server.store.retry import OutageNotice, Retry, patient

from .checking import report_folder, save_report
from .config import Ladder
from .programs import Programs
from .store import LadderStore
from .validation import record_validation

__all__ = ["ValidationPool", "next_turn"]

POLL_S = 0.5
"""How often the pool looks for new submissions when it has none to start."""
SWEEP_S = 5.0
"""How often the program folders of failed and retired bots are looked for."""
FAILURE_PAUSE_S = 10.0
"""How long the pool rests after an unexpected failure before it tries again."""
MAX_TRIES = 3
"""A bot whose validation fails this many times (not through an outage, which is waited out) fails."""
STOP_GRACE_S = 5.0
"""How long a worker has after SIGTERM to stop its bots before it is killed."""
WORKER_LOG = "validation-worker.log"

Pending = tuple[int, int, str]
"""A bot waiting for validation: its id, its participant's, its spec."""


def next_turn(
    pending: Sequence[Pending], running: Mapping[int, int], started: Mapping[int, int], per_participant: int
) -> Pending | None:
    """The next bot to validate: the oldest of the participant whose last validation started
    longest ago (never: first), among those with fewer than ``per_participant`` running.

    ``running`` maps the bots being validated to their participants, ``started`` each participant to
    the number of the turn their last validation started at."""
    busy = Counter(running.values())
    waiting = [item for item in pending if item[0] not in running and busy[item[1]] < per_participant]
    if not waiting:
        return None
    return min(waiting, key=lambda item: (started.get(item[1], -1), item[0]))


class ValidationPool:
    """Validates the ladder's submissions on worker processes until stopped.

    It outlives whatever goes wrong: its store calls wait out a database outage (told through
    ``outage``, shared with the ladder's loop), and any other failure is reported, then validation
    goes on after a pause."""

    def __init__(
        self,
        store: LadderStore,
        ladder: Ladder,
        log_dir: Path,
        programs: Programs,
        *,
        report: Callable[[str], None] = print_error,
        outage: OutageNotice | None = None,
    ) -> None:
        self._stop = threading.Event()
        self._report = report
        retry = Retry(outage or OutageNotice(report, "validations wait for it"), self._stop)
        self._store = patient(store, retry)
        self._ladder = ladder
        self._log_dir = log_dir
        self._programs = programs
        self._lock = threading.Lock()
        self._running: dict[int, int] = {}
        self._started: dict[int, int] = {}
        self._turn = 0
        self._tries: Counter[int] = Counter()
        #: Bots whose failure could not even be recorded: not taken again until the service restarts.
        self._set_aside: set[int] = set()
        self._workers: set[subprocess.Popen[bytes]] = set()
        self._threads: list[threading.Thread] = []
        self._thread = threading.Thread(target=self._run, name="ladder-validations", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop at once: validations under way are abandoned (their bots stay ``validating`` and are
        validated again by the next start), their workers and bots stopped."""
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()
        with self._lock:
            workers = list(self._workers)
        for worker in workers:
            _end(worker)
        for thread in self._threads:
            thread.join()

    def _run(self) -> None:
        next_sweep = 0.0
        while not self._stop.is_set():
            try:
                if time.monotonic() >= next_sweep:
                    self._sweep()
                    next_sweep = time.monotonic() + SWEEP_S
                if self._start_next():
                    continue
            except Exception as exc:
                if self._stop.is_set():
                    return
                self._failed(exc)
                continue
            self._stop.wait(POLL_S)

    def _failed(self, exc: Exception) -> None:
        """Report a failure that is not an outage in one line, then rest before trying again."""
        why = f"{type(exc).__name__}: {exc}"
        self._report(f"validation failed, tried again in {FAILURE_PAUSE_S:.0f} s: {why}")
        self._stop.wait(FAILURE_PAUSE_S)

    def _start_next(self) -> bool:
        """Start one validation if a worker is free and a bot waits; whether one was started."""
        settings = self._ladder.validation
        with self._lock:
            if len(self._running) >= settings.workers:
                return False
            running, started = dict(self._running), dict(self._started)
        pending = [item for item in self._store.pending_validations() if item[0] not in self._set_aside]
        chosen = next_turn(pending, running, started, settings.per_participant)
        if chosen is None:
            return False
        bot_id, participant, spec_json = chosen
        with self._lock:
            self._running[bot_id] = participant
            self._started[participant] = self._turn
            self._turn += 1
        thread = threading.Thread(
            target=self._validate, args=(bot_id, spec_json), name=f"ladder-validation-{bot_id}", daemon=True
        )
        self._threads = [alive for alive in self._threads if alive.is_alive()] + [thread]
        thread.start()
        return True

    def _validate(self, bot_id: int, spec_json: str) -> None:
        """Validate one bot in a worker process (this thread is its parent: it dies with it) and
        record the outcome, unless the pool was stopped meanwhile."""
        try:
            lines = self._in_worker(bot_id, spec_json)
            if not self._stop.is_set():
                record_validation(self._store, self._ladder, self._log_dir, bot_id, lines)
        except Exception as exc:
            if not self._stop.is_set():
                self._tries[bot_id] += 1
                if self._tries[bot_id] < MAX_TRIES:  # the bot stays validating and is taken again
                    self._failed(exc)
                else:
                    self._give_up(bot_id, f"{type(exc).__name__}: {exc}")
        finally:
            with self._lock:
                self._running.pop(bot_id, None)

    def _give_up(self, bot_id: int, why: str) -> None:
        """End the bot ``failed`` with ``why``; if even that fails, set it aside until the next start."""
        self._report(f"validation of bot {bot_id} given up: {why}")
        check = Check("validation", False, f"could not be run ({MAX_TRIES} tries): {why}")
        with contextlib.suppress(OSError):  # the report's folder may be what fails
            save_report(report_folder(self._log_dir, bot_id), [check])
        try:
            self._store.finish_validation(
                bot_id, passed=False, reason=check.line(), max_active=self._ladder.max_active_bots
            )
        except Exception as exc:
            self._set_aside.add(bot_id)
            cause = f"{type(exc).__name__}: {exc}"
            self._report(f"bot {bot_id} stays validating until the service restarts: {cause}")

    def _in_worker(self, bot_id: int, spec_json: str) -> list[Check]:
        timeout_s = self._ladder.validation.timeout_s
        folder = report_folder(self._log_dir, bot_id)
        folder.mkdir(parents=True, exist_ok=True)
        ours, theirs = socket.socketpair()
        with ours, theirs, (folder / WORKER_LOG).open("ab") as log:
            worker = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "server.ladder.validation_worker",
                    str(os.getpid()),
                    str(theirs.fileno()),
                ],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
            with self._lock:
                self._workers.add(worker)
            connection = Connection(ours.detach())
            try:
                connection.send((bot_id, spec_json, self._ladder, self._log_dir))
                if connection.poll(timeout_s):
                    lines: list[Check] = connection.recv()
                    return lines
                return [Check("validation", False, f"took longer than {timeout_s:g} s, this ladder's most")]
            except (EOFError, OSError):
                return [Check("validation", False, "the validation stopped before its end")]
            finally:
                connection.close()
                _end(worker)
                with self._lock:
                    self._workers.discard(worker)

    def _sweep(self) -> None:
        """Delete the program folders of failed and retired bots."""
        for spec_json in self._store.discarded_programs():
            folder = json.loads(spec_json).get("dir")
            if folder is not None and Path(folder).exists():
                with contextlib.suppress(ValueError):  # a folder outside the ladder's: not ours to delete
                    self._programs.discard(Path(folder))


def _end(worker: subprocess.Popen[bytes]) -> None:
    """Stop a worker: SIGTERM (it stops its bots), then SIGKILL after a grace period."""
    if worker.poll() is None:
        worker.terminate()
    try:
        worker.wait(STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
