"""Where matches are played: the interface the runner drives, and how one is chosen.

Two executors exist: local worker processes (:class:`~.pool.WorkerPool`, the default) and Ray
actors (:class:`~.ray_executor.RayExecutor`), on this machine or on a cluster. Both take
:class:`~.jobs.MatchJob` objects and hand back :class:`~.jobs.JobResult` objects in completion
order; the runner stores them and rates in schedule order, so the executor never changes a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from .jobs import JobResult, MatchJob

__all__ = ["EXECUTORS", "Executor", "ExecutorChoice", "ExecutorError", "ReplayCallback", "start_executor"]

ExecutorName = Literal["local", "ray"]
EXECUTORS: tuple[ExecutorName, ...] = ("local", "ray")

ReplayCallback = Callable[[str, str], None]
"""Told ``(match_id, why)`` when a match is played again because its worker was lost."""


class ExecutorError(RuntimeError):
    """The executor cannot go on (it cannot start, or a worker died in a way it does not recover from)."""


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


def start_executor(
    choice: ExecutorChoice, workers: int, log_dir: Path, on_replay: ReplayCallback | None = None
) -> Executor:
    """Start ``workers`` workers of the chosen kind; raises ExecutorError with one line if it cannot."""
    if choice.name == "ray":
        try:
            from .ray_executor import RayExecutor
        except ImportError:
            raise ExecutorError(
                "Ray is not installed; install it with: pip install 'smtourney[ray]'"
            ) from None
        return RayExecutor(workers, choice.ray_address, on_replay)
    from .pool import WorkerPool

    try:
        return WorkerPool(workers, log_dir / "workers.log")
    except OSError as exc:
        raise ExecutorError(f"cannot start the worker processes: {exc}") from None
