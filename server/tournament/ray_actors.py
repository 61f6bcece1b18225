"""Matches played by Ray actors, on this machine or across a Ray cluster: the Ray side of a run,
in the process of its own that :class:`~.ray_executor.RayExecutor` starts (:mod:`.ray_driver`).

Each actor is one worker: it holds a :class:`~.jobs.MatchPlayer` and plays one match at a time,
launching that match's bots on its own node (bots reached by address are reached from there).
Records come back to the driver, which stores them as with local workers. An actor that dies
(its process killed, its node lost) loses only the match it was playing: the match is played again
from the start, with the same seed, by a fresh actor if the cluster still has a CPU for one, else by
the actors left (the user is told in one line).

Nothing is awaited without a deadline: the driver waits in ticks of :data:`TICK_S`, and between two
it checks that the cluster's head still answers and that every actor it started was placed on a
node. An actor that cannot be placed within :data:`PLACE_TIMEOUT_S` is given up (the run goes on with
the others); with no actor left, or a head silent for :data:`HEAD_SILENT_S`, the run stops with one
line, before Ray's own reconnection gives up with a log line of its own.

A run's own Ray instance (no address) keeps its session, logs included, in a temporary folder of
the run's (not Ray's shared ``/tmp/ray``), its log files rotated at :data:`LOG_ROTATE_BYTES`: a node
that is lost and started again under a run, whose processes log every failed reconnection, cannot
fill the disk. The run deletes the folder (:class:`~.ray_executor.RayExecutor`).

Ray's own output (its cluster's errors, a lost raylet's last log lines) goes to the driver
process's log, never the run's terminal. Ray is imported only in that process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import time
from collections import Counter, deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .executor import ExecutorError, NoticeCallback, ReplayCallback
from .jobs import JobResult, MatchJob, MatchPlayer

if TYPE_CHECKING:
    import ray
    from ray.exceptions import RayActorError

__all__ = ["MAX_REPLAYS", "MatchActor", "RayActors"]

MAX_REPLAYS = 3
"""A match whose worker dies this many times stops the run: it is the match, not bad luck."""
REACH_TIMEOUT_S = 10.0
"""How long the head of a Ray cluster has to accept a connection."""
LOCAL_OBJECT_STORE_BYTES = 100 * 1024 * 1024
"""A run's own Ray instance carries only match records: Ray's smallest object store is plenty."""
LOG_ROTATE_BYTES = 10 * 1024 * 1024
"""Each of Ray's log files is rotated at this size, one old file kept (Ray's own default is 512 MB
and five old files, per process), unless ``RAY_ROTATION_MAX_BYTES`` says otherwise."""
LOG_BACKUPS = 1
"""Rotated Ray log files kept beside each live one, unless ``RAY_ROTATION_BACKUP_COUNT`` says otherwise."""
LOCAL_HEALTH_CHECKS = {"health_check_period_ms": 1000, "health_check_failure_threshold": 2}
"""A run's own instance has one node, on this machine: its raylet's death is noticed after two
missed checks a second apart (Ray's own 5 of 3 s leave the actors playing on as orphans meanwhile),
so the run stops at once with its own line."""
TICK_S = 2.0
"""The longest the driver waits for a result before it looks at the cluster again."""
PLACE_TIMEOUT_S = 60.0
"""An actor not running this long after it was asked for has no node with a free CPU to run on."""
HEAD_SILENT_S = 15.0
"""A head that refuses connections this long is gone (Ray itself would wait 60 s, then end the
process with a log line of its own)."""


class MatchActor:
    """A Ray actor playing the matches it is given with its own :class:`MatchPlayer`."""

    def __init__(self) -> None:
        self._player = MatchPlayer()

    def play(self, job: MatchJob) -> JobResult:
        return self._player.play(job)

    def keep_only(self, entrants: frozenset[str]) -> None:
        self._player.keep_only(entrants)

    def pid(self) -> int:
        """Its process, for whoever must find it on its node."""
        return os.getpid()

    def close(self) -> None:
        self._player.close()


class RayActors:
    """``workers`` actors (at most one per CPU the cluster has), each one match at a time, on the
    cluster at ``address`` or, with none, on a Ray instance of their own in ``own_folder``."""

    def __init__(
        self,
        workers: int,
        address: str | None,
        own_folder: Path | None = None,
        on_replay: ReplayCallback | None = None,
        on_notice: NoticeCallback | None = None,
    ) -> None:
        import ray

        self._on_replay = on_replay
        self._on_notice = on_notice
        self._pending: deque[MatchJob] = deque()
        self._playing: dict[ray.ObjectRef[JobResult], tuple[Any, MatchJob]] = {}
        #: Actors asked for and not known to run yet, by the reference their readiness arrives on.
        self._starting: dict[ray.ObjectRef[Any], tuple[Any, float]] = {}
        self._lost: Counter[int] = Counter()
        self._head_silent_since: float | None = None
        self._checked_at = time.monotonic()
        #: Set before leaving the cluster: a thread still returning from ``next_result`` must not
        #: call an actor then, which would make Ray connect this process to a cluster again.
        self._closed = False
        _connect(workers, address, own_folder)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 0))  # type: ignore[no-untyped-call]
            if cpus < 1:
                raise ExecutorError("the Ray cluster has no CPU to run a worker on")
            # Handles are typed loosely: Ray's stubs do not follow ``.remote`` through a class.
            actors: Any = ray.remote(num_cpus=1, max_restarts=0)(MatchActor)
            # Two threads: keep_only runs while the actor plays a match.
            self._actor_class: Any = actors.options(max_concurrency=2)
            self._workers = min(workers, cpus)
            self._idle: list[Any] = []
            for _ in range(self._workers):
                self._add_actor()
            self._head = ray.get_runtime_context().gcs_address
        except BaseException:
            with contextlib.suppress(Exception):  # what went wrong is the error, not the leaving
                self._leave()
            raise

    def submit(self, job: MatchJob) -> None:
        self._pending.append(job)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._idle and self._pending and not self._closed:
            actor, job = self._idle.pop(), self._pending.popleft()
            self._playing[actor.play.remote(job)] = (actor, job)

    def _add_actor(self) -> None:
        """Ask for one more actor; it is given jobs once it runs (one that is never placed would
        hold its job for ever)."""
        actor = self._actor_class.remote()
        self._starting[actor.__ray_ready__.remote()] = (actor, time.monotonic())

    def next_result(self) -> JobResult:
        """The next finished job; a job whose actor died is played again."""
        import ray
        from ray.exceptions import RayActorError

        while True:
            done = self._await_playing(None)
            assert done is not None
            actor, job = self._playing.pop(done)
            try:
                result: JobResult = ray.get(done)
            except RayActorError as exc:
                self._replace(actor, job, exc)
                continue
            self._idle.append(actor)
            self._dispatch()
            return result

    def _started(self, ready: ray.ObjectRef[Any]) -> None:
        import ray
        from ray.exceptions import RayActorError

        actor, _ = self._starting.pop(ready)
        try:
            ray.get(ready)
        except RayActorError as exc:  # died before it ran: its node was lost meanwhile
            self._give_up(actor, f"a new Ray worker died before it started ({_first_line(exc)})")
            return
        self._idle.append(actor)
        self._dispatch()

    def _check_cluster(self) -> None:
        """Between two ticks: a head that stopped answering ends the run; an actor never placed is
        given up."""
        now = self._checked_at = time.monotonic()
        try:
            _reachable(self._head, timeout_s=TICK_S)
            self._head_silent_since = None
        except ExecutorError as exc:
            self._head_silent_since = self._head_silent_since or now
            if now - self._head_silent_since >= HEAD_SILENT_S:
                raise ExecutorError(f"the Ray cluster's head stopped answering ({exc})") from None
        for ready, (actor, asked_at) in list(self._starting.items()):
            if now - asked_at >= PLACE_TIMEOUT_S:
                del self._starting[ready]
                self._give_up(actor, f"a Ray worker could not be placed within {PLACE_TIMEOUT_S:.0f} s")
        if self._starting:  # asked for when a node was lost, before the cluster counted its CPUs out
            cpus = _cluster_cpus()
            excess = len(self._idle) + len(self._playing) + len(self._starting) - cpus
            for ready in list(self._starting)[: max(0, excess)]:
                actor, _ = self._starting.pop(ready)
                self._give_up(actor, f"the Ray cluster has {cpus} CPU(s) left")

    def _give_up(self, actor: Any, why: str) -> None:
        """Do without ``actor``: the run goes on with the others, or stops if none is left."""
        import ray

        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)
        self._shrink(why)

    def _shrink(self, why: str) -> None:
        """One worker fewer from now on, said in one line; none left stops the run."""
        self._workers -= 1
        if self._workers < 1:
            raise ExecutorError(f"{why}; no Ray worker is left")
        if self._on_notice is not None:
            self._on_notice(f"{why}; the run goes on with {self._workers} worker(s)")

    def ready(self, timeout_s: float) -> bool:
        return self._await_playing(timeout_s) is not None

    def _await_playing(self, timeout_s: float | None) -> ray.ObjectRef[JobResult] | None:
        """A finished match's reference (left in place), or None after ``timeout_s`` (None: no limit).

        Meanwhile actors that come up are given work, and between ticks the cluster is checked: a
        head silent too long or no actor left raises ExecutorError, so nothing waits for ever."""
        import ray

        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while True:
            assert self._playing or self._pending, "no job is being played"
            self._check_open()
            if not self._playing and not self._starting:
                raise ExecutorError(f"no Ray worker is left to play the {len(self._pending)} matches waiting")
            tick = TICK_S if deadline is None else max(0.0, min(TICK_S, deadline - time.monotonic()))
            ready, _ = ray.wait([*self._playing, *self._starting], num_returns=1, timeout=tick)
            self._check_open()
            if not ready or time.monotonic() - self._checked_at >= TICK_S:
                self._check_cluster()
            if ready and ready[0] in self._starting:
                self._started(ready[0])
            elif ready:
                return ready[0]
            elif deadline is not None and time.monotonic() >= deadline:
                return None

    def keep_only(self, entrants: frozenset[str]) -> None:
        self._check_open()
        for actor in self._idle + [actor for actor, _ in self._playing.values()]:
            actor.keep_only.remote(entrants)

    def _check_open(self) -> None:
        """After close() (from another thread) any Ray call would connect this process again."""
        if self._closed:
            raise ExecutorError("the Ray workers were stopped")

    def _replace(self, actor: Any, job: MatchJob, exc: RayActorError) -> None:
        """Put a fresh actor in the place of a dead one and queue its match first, or give up."""
        import ray

        self._check_open()  # killed by close()
        self._lost[job.index] += 1
        why = _first_line(exc)
        if self._lost[job.index] >= MAX_REPLAYS:
            raise ExecutorError(
                f"the Ray worker playing match {job.match_id} died {MAX_REPLAYS} times ({why})"
            )
        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)
        if self._on_replay is not None:
            self._on_replay(job.match_id, f"its Ray worker died ({why})")
        self._pending.appendleft(job)
        cpus = _cluster_cpus()
        if len(self._idle) + len(self._playing) + len(self._starting) < min(self._workers, cpus):
            self._add_actor()
        else:  # its node is gone with its CPU, or what is left is taken: the others play its match
            self._shrink(f"the Ray cluster has {cpus} CPU(s) left")
        self._dispatch()

    def close(self, *, graceful: bool) -> None:
        """Stop the actors (a killed actor's bots die with it), then leave the cluster."""
        import ray

        self._closed = True
        actors = self._idle + [actor for actor, _ in [*self._playing.values(), *self._starting.values()]]
        try:
            if graceful:
                with contextlib.suppress(Exception):
                    ray.get([actor.close.remote() for actor in actors], timeout=30)
            for actor in actors:
                with contextlib.suppress(Exception):
                    ray.kill(actor, no_restart=True)
        finally:
            self._leave()

    def _leave(self) -> None:
        """Leave the cluster, stopping the run's own instance."""
        import ray

        ray.shutdown()


def _connect(workers: int, address: str | None, own_folder: Path | None) -> None:
    """Join the cluster at ``address``, or start a small Ray instance of this run's own in
    ``own_folder`` (its owner deletes it once every process of the instance is gone).

    Ray's log files are rotated at :data:`LOG_ROTATE_BYTES` (its processes, started here, read the
    setting from the environment; so does this process's own Ray log). Ray answers SIGTERM with an
    exit of its own; the handler in place before (the command line's, which stops the run like
    Ctrl-C) is put back.
    """
    import ray

    if address is not None:
        _reachable(address)
    os.environ.setdefault("RAY_ROTATION_MAX_BYTES", str(LOG_ROTATE_BYTES))
    os.environ.setdefault("RAY_ROTATION_BACKUP_COUNT", str(LOG_BACKUPS))
    previous = signal.getsignal(signal.SIGTERM)
    try:
        if address is None:
            assert own_folder is not None, "a run's own Ray instance needs its folder"
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(
                address="local",  # never an instance someone else started
                num_cpus=workers,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                log_to_driver=False,
                logging_level=logging.ERROR,  # not its notices on the run's terminal
                _temp_dir=str(own_folder),
                _system_config=LOCAL_HEALTH_CHECKS,
            )
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except BaseException as exc:
        if not isinstance(exc, (ConnectionError, RuntimeError, ValueError)):
            raise
        where = "a local Ray instance" if address is None else f"the Ray cluster at {address}"
        raise ExecutorError(f"cannot start or reach {where}: {_first_line(exc)}") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _cluster_cpus() -> int:
    """The CPUs of the cluster's live nodes (0 if the cluster cannot tell)."""
    import ray

    try:
        return int(ray.cluster_resources().get("CPU", 0))  # type: ignore[no-untyped-call]
    except Exception:  # a cluster that cannot answer has no CPU to offer
        return 0


def _reachable(address: str, timeout_s: float = REACH_TIMEOUT_S) -> None:
    """Refuse at once a head that does not answer: Ray itself would retry for minutes."""
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s).close()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or "timed out"
        raise ExecutorError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
