"""A match to play in a worker, what comes back (both cross a socket or Ray, pickled), and the
player that plays one job after another, keeping launched bots up between them."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdk.games.registry import get_game
from server.bot_host import BotHost
from server.referee import RefereeConfig, run_match
from server.seats import SeatSpec
from server.steps_block import PackedRecord

from .live_writer import LiveTarget, LiveWriter


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
    live: LiveTarget | None = None
    """Where the match is fed while it is played (None: nowhere)."""


@dataclass(frozen=True, slots=True)
class JobResult:
    """A played match's record, or why the referee could not play it."""

    index: int
    record: PackedRecord | None = None
    """The match record, its steps packed here rather than in the tournament process."""
    error: str | None = None
    """One line: the exception that stopped the referee."""
    details: str = field(default="", repr=False)
    """Its traceback, for the log."""
    fed: bool = False
    """Whether the match was written to the live feed while it was played (its rows to remove)."""


@dataclass(frozen=True, slots=True)
class KeepOnly:
    """Sent to a worker at any time: stop the kept bot processes of every entrant not named."""

    entrants: frozenset[str]


class MatchPlayer:
    """Plays jobs one after another; owns what lives across matches (reused bot processes, the
    live feed's connection)."""

    def __init__(self) -> None:
        self._host = BotHost()
        self._live = LiveWriter()

    def play(self, job: MatchJob) -> JobResult:
        """Play ``job``; a failure of the referee is reported, not raised."""
        feed = None
        if job.live is not None:
            feed = self._live.match(
                job.live, job.match_id, tuple(spec.name for spec in job.specs), job.params
            )
        try:
            record = run_match(
                get_game(job.game),
                job.specs,
                match_id=job.match_id,
                seed=job.seed,
                params=job.params,
                config=job.config,
                log_dir=job.log_dir,
                host=self._host,
                on_step=None if feed is None else feed.on_step,
            )
        except Exception as exc:  # reported to the parent, which stops the run
            return JobResult(job.index, error=f"{type(exc).__name__}: {exc}", details=traceback.format_exc())
        fed = feed is not None and feed.live_id is not None
        return JobResult(job.index, record=PackedRecord.pack(record), fed=fed)

    def keep_only(self, entrants: frozenset[str]) -> None:
        """Stop the kept processes of every entrant not named; safe while a match is played."""
        self._host.keep_only(entrants)

    def close(self) -> None:
        """Stop every kept bot."""
        try:
            self._host.close()
        finally:
            self._live.close()
