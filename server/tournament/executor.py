"""Where matches are played: the interface the runner drives, and the choice of executor.

Two executors exist: local worker processes (:class:`~.pool.WorkerPool`, the default) and Ray
actors (:class:`~.ray_executor.RayExecutor`), on this machine or on a cluster. Both take
:class:`~.jobs.MatchJob` objects and hand back :class:`~.jobs.JobResult` objects in completion
order; the runner stores them and rates in schedule order, so the executor never changes a result.
:func:`~.executors.start_executor` starts the chosen one; this module imports neither.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from .jobs import JobResult, MatchJob

__all__ = [
    "EXECUTORS",
    "Executor",
    "ExecutorChoice",
    "ExecutorError",
    "ExecutorLostError",
    "NoticeCallback",
    "ReplayCallback",
]

ExecutorName = Literal["local", "ray"]
EXECUTORS: tuple[ExecutorName, ...] = ("local", "ray")

ReplayCallback = Callable[[str, str], None]
"""Told ``(match_id, why)`` when a match is played again because its worker was lost."""
NoticeCallback = Callable[[str], None]
"""Told one line when the executor goes on with fewer workers than it started."""


class ExecutorError(RuntimeError):
    """The executor cannot go on (it cannot start, or a worker died in a way it does not recover from)."""


class ExecutorLostError(ExecutorError):
    """The executor's own process died (not a refusal): the same command may well work again."""


class Executor(Protocol):
    """Plays submitted jobs on its workers, each worker one match at a time."""

    def submit(self, job: MatchJob) -> None:
        """Queue ``job``; it goes to the next idle worker."""

    def next_result(self) -> JobResult:
        """Wait for the next finished job (some job must be queued or playing)."""

    def ready(self, timeout_s: float) -> bool:
        """Whether :meth:`next_result` would return (or raise) at once, waiting up to ``timeout_s``."""

    def keep_only(self, entrants: frozenset[str]) -> None:
        """Have every worker stop at once the bot processes it keeps for entrants not named."""

    def close(self, *, graceful: bool) -> None:
        """Stop every worker: after a complete run if ``graceful``, at once (killing bots) otherwise."""


@dataclass(frozen=True, slots=True)
class ExecutorChoice:
    """Which executor, and for Ray which cluster (None: a Ray instance of this run's own)."""

    name: ExecutorName = "local"
    ray_address: str | None = None
