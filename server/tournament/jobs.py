"""A match to play in a worker, what comes back (both cross a socket or Ray, pickled), and the
player that plays them one after another."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdk.games.registry import get_game
from server.referee import RefereeConfig, run_match
from server.seats import SeatSpec


@dataclass(frozen=True, slots=True)
class MatchJob:
    """Everything a worker needs to play one match (sent pickled)."""

    index: int
    game: str
    match_id: str
    seed: int
    specs: tuple[SeatSpec, ...]
    params: dict[str, Any]
    config: RefereeConfig
    log_dir: Path


@dataclass(frozen=True, slots=True)
class JobResult:
    """A played match's record, or why the referee could not play it."""

    index: int
    record: dict[str, Any] | None = None
    """The match record's JSON form."""
    error: str | None = None
    """One line: the exception that stopped the referee."""
    details: str = field(default="", repr=False)
    """Its traceback, for the log."""


def play(job: MatchJob) -> JobResult:
    """Play ``job``; a failure of the referee is reported, not raised."""
    try:
        record = run_match(
            get_game(job.game),
            job.specs,
            match_id=job.match_id,
            seed=job.seed,
            params=job.params,
            config=job.config,
            log_dir=job.log_dir,
        )
    except Exception as exc:  # reported to the parent, which stops the run
        return JobResult(job.index, error=f"{type(exc).__name__}: {exc}", details=traceback.format_exc())
    return JobResult(job.index, record=record.to_json())


class MatchPlayer:
    """Plays jobs one after another; owns what lives across matches (reused bot processes).

    Every worker, a local worker process or a Ray actor, holds one. Today each match still
    launches and stops its own bots, so nothing outlives a match and :meth:`close` has nothing
    to release.
    """

    def play(self, job: MatchJob) -> JobResult:
        return play(job)

    def close(self) -> None:
        """Release what lives across matches (nothing yet)."""
