"""The base every bot derives from: who it is, how it decides, and hooks around each match.

A game's own base class (in that game's package, e.g. ``sdk.games.<game>.bot``)
adds one typed method per decision kind, named after the kind; :meth:`Bot.decide`
dispatches to it. A bot that plays any game overrides :meth:`Bot.decide` instead.
"""

from __future__ import annotations

from abc import ABC
from dataclasses import dataclass
from typing import Any, ClassVar

from sdk.games.decisions import DecisionContext, dispatch


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
    scores: tuple[float, ...]  # whole numbers as ints; fractions only in games that end in them
    ranks: tuple[int, ...]
    reason: str  # "completed" or "aborted"
    forfeited: tuple[bool, ...]


class Bot(ABC):  # noqa: B024 - the abstract decision methods live in each game's subclass
    """Identity, decisions and lifecycle hooks; override the class attributes."""

    name: ClassVar[str] = "unnamed"
    version: ClassVar[str] = "0"
    author: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = ()

    def start_match(self, match: MatchInfo) -> None:  # noqa: B027 - optional hook
        """Called before a match; a stateless bot ignores it."""

    def end_match(self, result: MatchResult) -> None:  # noqa: B027 - optional hook
        """Called after a match; a stateless bot ignores it."""

    @classmethod
    def plays(cls, game: str) -> bool:
        """Whether the bot plays ``game``: by default, whether ``games`` names it."""
        return game in cls.games

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        """Answer one decision: by default the method named after ``kind``."""
        return dispatch(self, kind, observation, context)

    @classmethod
    def answers_every_kind(cls, kinds: tuple[str, ...]) -> bool:
        """Whether a decision of every kind in ``kinds`` reaches an answer."""
        return cls.decide is not Bot.decide or all(callable(getattr(cls, kind, None)) for kind in kinds)
