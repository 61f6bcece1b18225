"""A duel: many two-player games of one trusted Python bot class against another, in-process.

For a bot author's question "is my new version better than the old one?": each game calls both
classes directly (``transport: inprocess``, :mod:`server.inprocess`), so thousands of games take
minutes. Games come in pairs with the same chance outcomes, the first bot in seat 0, then in seat 1
(as chess-engine testers play each opening with both colours), so neither the seat nor the luck of
the draw favours one bot. Nothing is stored; the outcome is a :class:`~server.duel_score.DuelScore`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdk.games.plugin import GamePlugin

from .duel_score import DuelScore
from .record import MatchRecord
from .referee import RefereeConfig, run_match
from .seats import SeatSpec
from .seeds import derive_seed


@dataclass
class DuelTally:
    """Outcomes from the first bot's side, and each bot's strikes and forfeits."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    strikes: list[int] = field(default_factory=lambda: [0, 0])
    forfeits: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, record: MatchRecord, first_seat: int) -> None:
        mine, theirs = record.ranks[first_seat], record.ranks[1 - first_seat]
        if mine < theirs:
            self.wins += 1
        elif mine > theirs:
            self.losses += 1
        else:
            self.draws += 1
        for bot, seat in ((0, first_seat), (1, 1 - first_seat)):
            self.strikes[bot] += record.seats[seat].strikes
            self.forfeits[bot] += int(record.seats[seat].forfeited)

    @property
    def score(self) -> DuelScore:
        return DuelScore(self.wins, self.draws, self.losses)


def duel_game(seed: int, index: int) -> tuple[int, int]:
    """Game ``index``'s (from 0) match seed and the first bot's seat: pairs share a seed, seats swap."""
    return derive_seed(seed, "duel pair", index // 2), index % 2


def play_duel(
    plugin: GamePlugin,
    bots: tuple[str, str],
    *,
    games: int,
    seed: int,
    config: RefereeConfig,
    params: Mapping[str, Any] | None = None,
    on_game: Callable[[int, DuelTally], None] | None = None,
) -> DuelTally:
    """Play ``games`` games of ``bots`` (two ``module:Class``); ``on_game(played, tally)`` after each."""
    first, second = (SeatSpec(name=f"{target} #{n}", bot_class=target) for n, target in enumerate(bots, 1))
    tally = DuelTally()
    with tempfile.TemporaryDirectory(prefix="smtourney-duel-") as logs:  # in-process bots write none
        for index in range(games):
            match_seed, seat = duel_game(seed, index)
            record = run_match(
                plugin,
                [first, second] if seat == 0 else [second, first],
                match_id=f"duel-{index + 1}",
                seed=match_seed,
                params=params,
                config=config,
                log_dir=Path(logs),
            )
            tally.add(record, seat)
            if on_game is not None:
                on_game(index + 1, tally)
    return tally
