"""Figures worked out from a tournament's stored matches, kept until another match is stored.

Standings, statistics and rating histories are pure functions of the stored matches, and matches are
only ever added: a figure worked out for one :class:`StoredState` holds until the state changes, so
a page asked again and again (a live run's polls, many readers) works each out once per stored match.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from server.store.repository import StoredState

T = TypeVar("T")


class KeptFigure(Generic[T]):
    """One figure of every tournament, each as of the stored state it was worked out for."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[StoredState, T]] = {}
        self._lock = threading.Lock()  # requests are served on several threads

    def get(self, tournament_id: int, state: StoredState, work_out: Callable[[], T]) -> T:
        """The figure as of ``state``, worked out (after ``state`` was read) unless it is kept.

        Worked out outside the lock: two requests may both work it out once, never wait on each other.
        """
        with self._lock:
            kept = self._kept.get(tournament_id)
        if kept is not None and kept[0] == state:
            return kept[1]
        figure = work_out()
        with self._lock:
            self._kept[tournament_id] = (state, figure)
        return figure
