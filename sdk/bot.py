"""The base every bot derives from: who it is, and hooks around each match.

A game adds one method per decision in its own base class (for Saint Malo,
:class:`sdk.games.saint_malo.bot.SaintMaloBot`).
"""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match the bot is about to play."""

    match_id: str
    game: str
    seat: int
    players: int
    params: dict[str, Any]
    decision_ms: int
    bank_ms: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match the bot played ended."""

    match_id: str
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str  # "completed" or "aborted"
    forfeited: tuple[bool, ...]


class Bot(ABC):  # noqa: B024 - the abstract decision methods live in each game's subclass
    """Identity and lifecycle hooks; override the class attributes."""

    name: ClassVar[str] = "unnamed"
    version: ClassVar[str] = "0"
    author: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = ()

    def start_match(self, match: MatchInfo) -> None:  # noqa: B027 - optional hook
        """Called before a match; a stateless bot ignores it."""

    def end_match(self, result: MatchResult) -> None:  # noqa: B027 - optional hook
        """Called after a match; a stateless bot ignores it."""
