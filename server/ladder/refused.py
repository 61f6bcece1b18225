"""Refused archive uploads, counted against the participant's hourly submissions.

A refused archive leaves no bot row, yet unpacking one with 10,000 entries costs seconds of the
server's time: each refusal counts as a submission for an hour, so it cannot be replayed for
free. Kept in memory by the serving process (a restart forgets them).
"""

from __future__ import annotations

import threading
import time
from collections import deque

__all__ = ["RefusedUploads"]

WINDOW_S = 3600.0


class RefusedUploads:
    """When each participant's archives were refused, within the last hour."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._times: dict[int, deque[float]] = {}

    def add(self, participant_id: int) -> None:
        with self._lock:
            self._times.setdefault(participant_id, deque()).append(time.monotonic())

    def recent(self, participant_id: int) -> int:
        """How many of the participant's uploads were refused in the last hour."""
        with self._lock:
            times = self._times.get(participant_id)
            if times is None:
                return 0
            while times and times[0] < time.monotonic() - WINDOW_S:
                times.popleft()
            return len(times)
