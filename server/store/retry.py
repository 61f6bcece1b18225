"""Waiting out a database outage: retry with growing pauses, and say so once per outage.

Whoever holds work that must reach the database (a played match, a finished validation) keeps it
and tries again while the server is down (:class:`~.outage.DatabaseUnavailableError`), a pause of
:data:`FIRST_PAUSE_S` doubling up to :data:`LONGEST_PAUSE_S`. Only calls that may be repeated are
retried: a write that may have been committed before its connection broke must be one that a second
attempt recognises (a match stored twice is refused by its unique id). One :class:`OutageNotice`
is shared by every thread of a service, so an outage is reported once, and its end once.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from .outage import DatabaseUnavailableError

__all__ = ["FIRST_PAUSE_S", "LONGEST_PAUSE_S", "OutageNotice", "Retry", "patient"]

FIRST_PAUSE_S = 0.5
LONGEST_PAUSE_S = 5.0
"""At most this long between two attempts: a server back is noticed within it."""

_T = TypeVar("_T")


class OutageNotice:
    """Says when an outage begins (the first failure) and when it ends (the first success after it)."""

    def __init__(self, report: Callable[[str], None], waiting: str) -> None:
        """``waiting``: what the service does meanwhile, ending the first line."""
        self._report = report
        self._waiting = waiting
        self._lock = threading.Lock()
        self._since: float | None = None

    @property
    def ongoing(self) -> bool:
        return self._since is not None

    def down(self, exc: DatabaseUnavailableError) -> None:
        with self._lock:
            if self._since is not None:
                return
            self._since = time.monotonic()
        self._report(f"database unavailable: {exc}; {self._waiting}")

    def up(self) -> None:
        if self._since is None:  # the usual case, without taking the lock
            return
        with self._lock:
            if self._since is None:
                return
            lasted, self._since = time.monotonic() - self._since, None
        self._report(f"the database is back after {lasted:.0f} s; work goes on")


class Retry:
    """Calls that wait out outages, told through ``notice``, until ``stop`` is set or ``limit_s``
    has passed since the first failure (then the last DatabaseUnavailableError is raised)."""

    def __init__(self, notice: OutageNotice, stop: threading.Event, limit_s: float | None = None) -> None:
        self.notice = notice
        self._stop = stop
        self._limit_s = limit_s

    def __call__(self, call: Callable[[], _T]) -> _T:
        pause = FIRST_PAUSE_S
        first_failure: float | None = None
        while True:
            try:
                result = call()
            except DatabaseUnavailableError as exc:
                now = time.monotonic()
                first_failure = now if first_failure is None else first_failure
                if self._limit_s is not None and now - first_failure >= self._limit_s:
                    raise
                self.notice.down(exc)
                if self._stop.wait(pause):
                    raise
                pause = min(2 * pause, LONGEST_PAUSE_S)
                continue
            self.notice.up()
            return result


class _Patient(Generic[_T]):
    """``target`` with each of its methods called through ``retry``; other attributes as they are."""

    def __init__(self, target: _T, retry: Retry) -> None:
        self._target = target
        self._retry = retry

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value

        @functools.wraps(value)
        def patiently(*args: Any, **kwargs: Any) -> Any:
            return self._retry(lambda: value(*args, **kwargs))

        return patiently


def patient(target: _T, retry: Retry) -> _T:
    """``target`` whose every method waits out outages: for an object whose methods may all be
    repeated (reads, and writes that recognise their own second attempt)."""
    return cast(_T, _Patient(target, retry))
