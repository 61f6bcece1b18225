"""Each participant's authenticated API requests, limited to a rate with a burst (a token bucket).

The API shares the server's processors, and its interpreter, with the ladder's loop: a participant's
script polling without pause would take them from the matches. Past their burst, a participant's
requests are refused with 429 and the seconds until the next one is allowed, at the cost of the
token check alone.
"""

from __future__ import annotations

import threading
import time

__all__ = ["RequestRate"]


class RequestRate:
    """Up to ``burst`` requests at once per participant, refilled at ``per_s`` a second."""

    def __init__(self, per_s: float, burst: int) -> None:
        self._per_s, self._burst = per_s, burst
        self._lock = threading.Lock()
        self._buckets: dict[int, tuple[float, float]] = {}  # participant: tokens left, when counted

    def wait_s(self, participant_id: int) -> float:
        """0 if the participant may make a request now (counted), else the seconds until they may."""
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(participant_id, (float(self._burst), now))
            tokens = min(float(self._burst), tokens + (now - then) * self._per_s)
            if tokens >= 1:
                self._buckets[participant_id] = (tokens - 1, now)
                return 0.0
            self._buckets[participant_id] = (tokens, now)
            return (1 - tokens) / self._per_s
