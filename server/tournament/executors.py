"""Starting the executor a run chose: local worker processes or Ray actors.

Kept apart from the interface (:mod:`.executor`), which both implementations import: the
factory is the one module that imports them. Ray is optional; :mod:`.ray_executor` imports it
only when a Ray executor starts, so choosing local workers never pays for loading it.
"""

from __future__ import annotations

from pathlib import Path

from .executor import Executor, ExecutorChoice, ExecutorError, NoticeCallback, ReplayCallback
from .pool import WorkerPool
from .ray_executor import RayExecutor

__all__ = ["EXECUTOR_LOGS", "start_executor"]

EXECUTOR_LOGS = {"local": "workers.log", "ray": "ray-driver.log"}
"""The file in the run's log folder each executor's processes write to, kept open while it runs."""


def start_executor(
    choice: ExecutorChoice,
    workers: int,
    log_dir: Path,
    on_replay: ReplayCallback | None = None,
    on_notice: NoticeCallback | None = None,
) -> Executor:
    """Start ``workers`` workers of the chosen kind; raises ExecutorError with one line if it cannot."""
    if choice.name == "ray":
        return RayExecutor(workers, choice.ray_address, log_dir / EXECUTOR_LOGS["ray"], on_replay, on_notice)
    try:
        return WorkerPool(workers, log_dir / EXECUTOR_LOGS["local"])
    except OSError as exc:
        raise ExecutorError(f"cannot start the worker processes: {exc}") from None
