"""Matches played by Ray actors, on this machine or across a Ray cluster.

Each actor is one worker: it holds a :class:`~.jobs.MatchPlayer` and plays one match at a time,
launching that match's bots on its own node (bots reached by address are reached from there).
Records come back to the driver, which stores them as with local workers. An actor that dies
(its process killed, its node lost) loses only the match it was playing: a fresh actor takes its
place and the match is played again from the start, with the same seed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
from collections import Counter, deque
from typing import Any

import ray
from ray.exceptions import RayActorError

from .executor import ExecutorError, ReplayCallback
from .jobs import JobResult, MatchJob, MatchPlayer

__all__ = ["MAX_REPLAYS", "MatchActor", "RayExecutor"]

MAX_REPLAYS = 3
"""A match whose worker dies this many times stops the run: it is the match, not bad luck."""
REACH_TIMEOUT_S = 10.0
"""How long the head of a Ray cluster has to accept a connection."""
LOCAL_OBJECT_STORE_BYTES = 100 * 1024 * 1024
"""A run's own Ray instance carries only match records: Ray's smallest object store is plenty."""


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


class RayExecutor:
    """``workers`` actors (at most one per CPU the cluster has), each one match at a time."""

    def __init__(self, workers: int, address: str | None, on_replay: ReplayCallback | None = None) -> None:
        self._on_replay = on_replay
        self._pending: deque[MatchJob] = deque()
        self._playing: dict[ray.ObjectRef[JobResult], tuple[Any, MatchJob]] = {}
        self._lost: Counter[int] = Counter()
        #: Set before leaving the cluster: a thread still returning from ``next_result`` must not
        #: call an actor then, which would make Ray connect this process to a cluster again.
        self._closed = False
        _connect(workers, address)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 0))  # type: ignore[no-untyped-call]
            if cpus < 1:
                raise ExecutorError("the Ray cluster has no CPU to run a worker on")
            # Handles are typed loosely: Ray's stubs do not follow ``.remote`` through a class.
            actors: Any = ray.remote(num_cpus=1, max_restarts=0)(MatchActor)
            # Two threads: keep_only runs while the actor plays a match.
            self._actor_class: Any = actors.options(max_concurrency=2)
            self._idle: list[Any] = [self._actor_class.remote() for _ in range(min(workers, cpus))]
        except BaseException:
            ray.shutdown()
            raise

    def submit(self, job: MatchJob) -> None:
        self._pending.append(job)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._idle and self._pending and not self._closed:
            actor, job = self._idle.pop(), self._pending.popleft()
            self._playing[actor.play.remote(job)] = (actor, job)

    def next_result(self) -> JobResult:
        """The next finished job; a job whose actor died is played again by a fresh actor."""
        while True:
            assert self._playing, "no job is being played"
            self._check_open()
            ready, _ = ray.wait(list(self._playing), num_returns=1)
            self._check_open()
            actor, job = self._playing.pop(ready[0])
            try:
                result: JobResult = ray.get(ready[0])
            except RayActorError as exc:
                self._replace(actor, job, exc)
                continue
            self._idle.append(actor)
            self._dispatch()
            return result

    def ready(self, timeout_s: float) -> bool:
        self._check_open()
        ready, _ = ray.wait(list(self._playing), num_returns=1, timeout=timeout_s)
        return bool(ready)

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
        self._idle.append(self._actor_class.remote())
        self._pending.appendleft(job)
        self._dispatch()

    def close(self, *, graceful: bool) -> None:
        """Stop the actors (a killed actor's bots die with it), then leave the cluster."""
        self._closed = True
        actors = self._idle + [actor for actor, _ in self._playing.values()]
        try:
            if graceful:
                with contextlib.suppress(Exception):
                    ray.get([actor.close.remote() for actor in actors], timeout=30)
            for actor in actors:
                with contextlib.suppress(Exception):
                    ray.kill(actor, no_restart=True)
        finally:
            ray.shutdown()


def _connect(workers: int, address: str | None) -> None:
    """Join the cluster at ``address``, or start a small Ray instance of this run's own.

    Ray answers SIGTERM with an exit of its own; the handler in place before (the command line's,
    which stops the run like Ctrl-C) is put back.
    """
    if address is not None:
        _reachable(address)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        if address is None:
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(
                address="local",  # never an instance someone else started
                num_cpus=workers,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                log_to_driver=False,
                logging_level=logging.ERROR,  # not its notices on the run's terminal
            )
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = "a local Ray instance" if address is None else f"the Ray cluster at {address}"
        raise ExecutorError(f"cannot start or reach {where}: {_first_line(exc)}") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _reachable(address: str) -> None:
    """Refuse at once a head that does not answer: Ray itself would retry for minutes."""
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S).close()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or "timed out"
        raise ExecutorError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
