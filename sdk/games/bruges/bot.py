"""Write a Bruges bot: subclass :class:`BrugesBot`, one method per decision kind.

Each method receives the deciding seat's :class:`Observation` (everything the seat may know;
``observation.options`` lists every legal action of this decision) and the
:class:`DecisionContext`, and returns one of those options.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext

from .actions import (
    Activate,
    Advance,
    CancelPenalty,
    DrawPile,
    End,
    FireChoice,
    PenaltyOrder,
    PlagueDiscard,
    Play,
)
from .observation import Observation

__all__ = ["BrugesBot"]


class BrugesBot(Bot):
    """Base class of Bruges bots."""

    games: ClassVar[tuple[str, ...]] = ("bruges",)

    @abstractmethod
    def draw_pile(self, observation: Observation, context: DecisionContext) -> DrawPile:
        """Phase 1: ``DrawPile(0)`` or ``DrawPile(1)``; ``observation.pile_colours`` shows the tops."""

    @abstractmethod
    def penalty_order(self, observation: Observation, context: DecisionContext) -> PenaltyOrder:
        """One of ``observation.circles``: the penalty that resolves next."""

    @abstractmethod
    def cancel_penalty(self, observation: Observation, context: DecisionContext) -> CancelPenalty:
        """Knight: ``CancelPenalty(True)`` pays a worker of ``observation.penalty``'s colour to cancel it."""

    @abstractmethod
    def plague_discard(self, observation: Observation, context: DecisionContext) -> PlagueDiscard:
        """The person of your play area to lose."""

    @abstractmethod
    def fire_choice(self, observation: Observation, context: DecisionContext) -> FireChoice:
        """The house or canal token to lose."""

    @abstractmethod
    def advance_reputation(self, observation: Observation, context: DecisionContext) -> Advance:
        """Buy this round's reputation step (``Advance(True)``) or not."""

    @abstractmethod
    def take_turn(self, observation: Observation, context: DecisionContext) -> Activate | Play | End:
        """Activate a person, play the turn card, or end the turn (once the card is played)."""

    @abstractmethod
    def extra_play(self, observation: Observation, context: DecisionContext) -> Play:
        """The extra card a Coachman or a Servant lets you play."""
