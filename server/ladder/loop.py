"""The ladder at play: a thread of ``ladder serve`` that keeps forming tables and playing them.

Each table is decided by :meth:`LadderStore.decide` (stored, with its seed, before it is played),
handed to an executor (local worker processes or Ray actors, which keep launched bots between
matches as they do for a bracket) and, once played, stored with the bots' new ratings in one
transaction by :meth:`LadderStore.finish_match`. The database is the source of truth: a restart
plays again every match left ``scheduled`` or ``playing``, with its stored seats and seed, and a
match already stored is never stored twice. Bots fail inside their matches (strikes, forfeits),
never in this loop: a referee that fails on a match marks that match ``error`` and play goes on; a
worker that dies is replaced and the match it was playing is played again (the others play on).
Every ``RECONCILE_S`` the loop tells the workers which bots may keep their processes (the active
ones, and those of matches in flight), so the processes of a bot that was retired, suspended or
replaced end within seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from server.store.database import StoreError
from server.store.live import LiveFeed
from server.store.retry import OutageNotice, Retry, patient
from server.tournament.executor import Executor, ExecutorChoice, ExecutorError
from server.tournament.executors import start_executor
from server.tournament.jobs import JobResult, MatchJob
from server.tournament.live_writer import LiveTarget
from server.tournament.pool import WorkerCrashError, WorkerPool
from server.tournament.runner import referee_failure

from .config import Ladder
from .log_budget import LogPruner
from .seating import match_id_of, seat_spec
from .store import ERROR, PLAYING, LadderStore

__all__ = ["WAITING", "LadderLoop"]

POLL_S = 0.5
"""How often the loop looks again for a table when none could be formed."""
AHEAD = 1
"""Tables decided beyond one per worker, so that a worker that finishes starts its next match at once
rather than after storing a result and deciding a table (tens of milliseconds per match)."""
RECONCILE_S = 2.0
"""How often the workers are told which bots may keep their processes, when that changed."""
MAX_RESTARTS = 5
"""Executor failures in a row (no match finishing in between) after which the loop stops playing."""

Report = Callable[[str], None]
WAITING = "matches and validations wait for it and go on by themselves"
"""What the ladder does while its database is down."""


class LadderLoop:
    """Plays the ladder on ``workers`` workers of the chosen executor until stopped."""

    def __init__(
        self,
        ladder: Ladder,
        store: LadderStore,
        *,
        workers: int,
        executor: ExecutorChoice,
        log_dir: Path,
        report: Report,
        outage: OutageNotice | None = None,
    ) -> None:
        """``outage``: shared with the validator, so that an outage is reported once."""
        self._ladder = ladder
        self._stop = threading.Event()
        # Every store call of the loop can be repeated (a match is stored once; a table decided twice
        # is played later), so each waits out an outage.
        self._retry = Retry(outage or OutageNotice(report, WAITING), self._stop)
        self._store = patient(store, self._retry)
        self._workers = workers
        self._choice = executor
        self._log_dir = log_dir
        self._report = report
        self._pruner = LogPruner(log_dir, ladder.logs.budget(), report)
        self._lock = threading.Lock()
        self._executor: Executor | None = None
        self._in_flight: dict[int, tuple[MatchJob, frozenset[int]]] = {}
        self._keeping: frozenset[str] | None = None  # the entrants the workers were last told to keep
        self._live: LiveTarget | None = None
        self._thread = threading.Thread(target=self._run, name="ladder-loop", daemon=True)

    def start(self) -> None:
        """Start the workers, then play; raises ExecutorError with one line if they cannot start.

        The executor is started here, in the caller's thread: Ray must be initialised from the main
        thread (it installs signal handlers)."""
        self._start_executor()
        self._pruner.start()
        self._thread.start()

    def stop(self) -> None:
        """Stop at once: matches in flight are abandoned (they stay ``playing``, and are played
        again by the next start), every bot is stopped."""
        self._stop.set()
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.close(graceful=False)
        if self._thread.ident is not None:  # started
            self._thread.join()
        self._pruner.stop()

    def _run(self) -> None:
        try:
            self._play()
        # The service keeps serving its API and the organiser is told why. Stopping closes the
        # executor under the loop's feet: what that raises (Ray's wait raises SystemExit) is expected.
        except (Exception, SystemExit) as exc:
            if not self._stop.is_set():
                self._report(f"matches stopped: {type(exc).__name__}: {exc}")

    def _play(self) -> None:
        ladder = self._ladder
        settings = ladder.model_dump(mode="json", exclude={"database"})
        tournament_id = self._store.tournament_id(ladder.name, ladder.game, ladder.seed, settings)
        self._live = self._live_target(tournament_id)
        with self._lock:
            executor = self._executor
        if executor is None:  # stopped before it began
            return
        for ladder_match_id in self._store.unfinished():
            self._submit(executor, ladder_match_id)
        restarts = 0
        reconciled = 0.0
        while not self._stop.is_set():
            self._fill(executor)
            if time.monotonic() - reconciled >= RECONCILE_S:
                self._reconcile(executor)
                reconciled = time.monotonic()
            if not self._in_flight:
                self._stop.wait(POLL_S)
                continue
            try:
                if not executor.ready(RECONCILE_S):
                    continue
                result = executor.next_result()
            except ExecutorError as exc:
                if self._stop.is_set():
                    return
                restarts += 1
                if restarts > MAX_RESTARTS:
                    raise
                if isinstance(exc, WorkerCrashError) and isinstance(executor, WorkerPool):
                    self._report(f"{exc}; a fresh worker plays it again")
                    executor.recover(exc)
                else:
                    self._report(f"{exc}; the workers are restarted and their matches played again")
                    executor = self._restart(executor)
                continue
            restarts = 0
            self._finish(tournament_id, result)

    def _reconcile(self, executor: Executor) -> None:
        """Tell the workers, if it changed, which bots may keep their processes: the active ones and
        those of the matches in flight (a retired bot still plays the matches decided for it)."""
        keep = self._store.entrants_in_play().union(
            *(frozenset(spec.name for spec in job.specs) for job, _ in self._in_flight.values())
        )
        if keep != self._keeping:
            executor.keep_only(keep)
            self._keeping = keep

    def _live_target(self, tournament_id: int) -> LiveTarget:
        """Where the workers feed the matches they play, for the public's spectator view; whatever a
        previous run left there is cleared, as none of its matches is in flight any more."""
        store = self._store.store
        self._retry(lambda: LiveFeed(store.engine, store.path).end_run(tournament_id))
        # A worker or Ray actor may run in another folder: it is given the file by its absolute path.
        where = store.path.absolute() if isinstance(store.path, Path) else store.path
        return LiveTarget(where, tournament_id)

    def _start_executor(self) -> Executor:
        executor = start_executor(self._choice, self._workers, self._log_dir, on_notice=self._report)
        with self._lock:
            if self._stop.is_set():
                executor.close(graceful=False)
                raise ExecutorError("stopped")
            self._executor = executor
        return executor

    def _restart(self, executor: Executor) -> Executor:
        """A fresh executor, given again every match that was in flight (same seats, same seed)."""
        with self._lock:
            self._executor = None
        executor.close(graceful=False)
        fresh = self._start_executor()
        self._keeping = None
        jobs = [job for job, _ in self._in_flight.values()]
        for job in jobs:
            fresh.submit(job)
        return fresh

    def _fill(self, executor: Executor) -> None:
        """Decide and hand out tables until every worker has one and ``AHEAD`` more wait their turn,
        each formed around a bot not playing already."""
        matchmaking = self._ladder.matchmaking
        while len(self._in_flight) < self._workers + AHEAD and not self._stop.is_set():
            busy = frozenset().union(*(bots for _, bots in self._in_flight.values()))
            decided = self._store.decide(
                self._ladder.players,
                candidates=matchmaking.candidates,
                min_quality=matchmaking.min_quality,
                seed=self._ladder.seed,
                busy=busy,
            )
            if decided is None:
                return
            self._submit(executor, decided[0])

    def _submit(self, executor: Executor, ladder_match_id: int) -> None:
        seating = self._store.seating(ladder_match_id)
        sandbox = self._ladder.sandbox
        addresses = self._ladder.addresses.policy()
        specs = tuple(
            seat_spec(bot.name, bot.spec_json, sandbox=sandbox, addresses=addresses) for bot in seating.bots
        )
        job = MatchJob(
            index=ladder_match_id,
            game=self._ladder.game,
            match_id=match_id_of(ladder_match_id),
            seed=seating.seed,
            specs=specs,
            params=self._ladder.params,
            config=self._ladder.referee_config(),
            log_dir=self._log_dir,
            live=self._live,
        )
        self._store.set_match_status(ladder_match_id, PLAYING)
        self._in_flight[ladder_match_id] = (job, frozenset(bot.bot_id for bot in seating.bots))
        executor.submit(job)

    def _finish(self, tournament_id: int, result: JobResult) -> None:
        job, _ = self._in_flight.pop(result.index)
        self._pruner.wake()  # its logs are written: the folder is brought back within its budget
        if result.record is None:
            self._store.set_match_status(result.index, ERROR)
            self._report(referee_failure(result, job.match_id, self._log_dir))
            return
        try:
            self._store.finish_match(tournament_id, result.index, result.record, self._ladder.suspension)
        except StoreError as exc:  # left ``playing``: the next start plays it again
            self._report(f"match {job.match_id} could not be stored: {exc}")
