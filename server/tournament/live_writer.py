"""Feeding the matches a worker plays into the store while they go, for the live pages.

The referee hands every step to the match's feed (``run_match``'s ``on_step``), which only keeps it;
at most every :data:`FLUSH_SECONDS` the steps kept so far are written as one batch. The first write
comes when a match has run that long, so a short match costs the store nothing and a long one a
write twice a second. A write that fails (a busy or unreachable database) keeps its steps for the
next, tried after a pause that doubles while writes fail (up to :data:`LONGEST_PAUSE_S`), so that a
database out of reach slows no match: the feed is for watching, never part of a match's record, and
never stops a match. A worker that cannot open the database feeds nothing (a SQLite file on another
machine, a PostgreSQL server it may not reach); one that meets an outage tries again at its next match.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from server.record import StepRecord
from server.store.errors import StoreError
from server.store.live import LiveFeed
from server.store.location import Location
from server.store.outage import DatabaseUnavailableError
from server.store.retry import LONGEST_PAUSE_S

__all__ = ["FLUSH_SECONDS", "LiveTarget", "LiveWriter", "MatchFeed"]

#: The longest a step waits before it is written.
FLUSH_SECONDS = 0.5


@dataclass(frozen=True, slots=True)
class LiveTarget:
    """Where a run's matches are fed while they are played."""

    location: Location
    tournament_id: int


class MatchFeed:
    """One match's steps on their way to the store."""

    def __init__(
        self, feed: LiveFeed, target: LiveTarget, match_id: str, seats: tuple[str, ...], params: Any
    ) -> None:
        self.feed, self.target, self.match_id, self.seats, self.params = feed, target, match_id, seats, params
        self.started_at = datetime.now(UTC)
        self.pause = FLUSH_SECONDS
        self.due = time.monotonic() + self.pause
        self.kept: list[list[Any]] = []
        self.written = 0
        self.live_id: int | None = None

    def on_step(self, state: object, step: StepRecord) -> None:
        """The referee's step callback: keep the step, and write what is kept once it is due."""
        self.kept.append([step.seq, step.kind, step.seat, step.source, step.step])
        if time.monotonic() >= self.due:
            self.flush()

    def flush(self) -> None:
        try:
            if self.live_id is None:
                self.live_id = self.feed.start_match(
                    self.target.tournament_id,
                    self.match_id,
                    params=dict(self.params),
                    seats=self.seats,
                    started_at=self.started_at,
                )
            self.feed.append_steps(self.live_id, self.written, self.kept)
        except StoreError:  # kept for the next write, tried less often while writes fail
            self.pause = min(2 * self.pause, LONGEST_PAUSE_S)
        else:
            self.written += len(self.kept)
            self.kept = []
            self.pause = FLUSH_SECONDS
        self.due = time.monotonic() + self.pause


class LiveWriter:
    """The feeds of one worker's matches, over one connection per database kept between matches."""

    def __init__(self) -> None:
        self._feeds: dict[Location, LiveFeed | None] = {}

    def match(
        self, target: LiveTarget, match_id: str, seats: tuple[str, ...], params: Any
    ) -> MatchFeed | None:
        """A feed for the match, or None when this worker cannot reach the database (a SQLite
        file on another machine): the match is played all the same."""
        if target.location not in self._feeds:
            try:
                self._feeds[target.location] = LiveFeed.open(target.location)
            except DatabaseUnavailableError:
                return None  # down for now: this match is not fed, the next tries again
            except StoreError:
                self._feeds[target.location] = None
        feed = self._feeds[target.location]
        return None if feed is None else MatchFeed(feed, target, match_id, seats, params)

    def close(self) -> None:
        for feed in self._feeds.values():
            if feed is not None:
                feed.close()
        self._feeds.clear()
