"""The statistics every bot-strength benchmark reports: win rates with Wilson intervals, means with
normal intervals, sole-first outcomes and decision-time percentiles, computed one way for all."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from server.intervals import Z95
from server.intervals import wilson as wilson_interval


class Timed:
    """A seat's policy whose every decision is timed: wall-clock and processor milliseconds."""

    def __init__(self, policy: Callable[[Any], Any]) -> None:
        self.policy = policy
        self.times_ms: list[float] = []
        self.cpu_ms: list[float] = []

    def __call__(self, state: Any) -> Any:
        start, start_cpu = time.perf_counter(), time.process_time()
        action = self.policy(state)
        self.cpu_ms.append((time.process_time() - start_cpu) * 1000)
        self.times_ms.append((time.perf_counter() - start) * 1000)
        return action


def wilson(successes: int, trials: int) -> tuple[float, float, float]:
    """Rate and 95 % Wilson score interval."""
    if not trials:
        return (math.nan, math.nan, math.nan)
    return (successes / trials, *wilson_interval(successes / trials, trials))


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95 % normal interval."""
    if len(values) < 2:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def outcome(ranks: Sequence[int], seat: int) -> str:
    """``win`` (sole first), ``draw`` (first place shared) or ``loss``, for ``seat``."""
    if ranks[seat] != 1:
        return "loss"
    return "win" if ranks.count(1) == 1 else "draw"


def decision_times(times_ms: Iterable[float]) -> dict[str, float]:
    """How many decisions, and their median, 90th and 99th percentile and longest time in ms."""
    times = sorted(times_ms)
    if not times:
        return {}
    return {
        "decisions": len(times),
        "median_ms": statistics.median(times),
        "p90_ms": times[min(len(times) - 1, int(0.9 * len(times)))],
        "p99_ms": times[min(len(times) - 1, int(0.99 * len(times)))],
        "max_ms": times[-1],
    }
