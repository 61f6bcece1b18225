"""Write a Masons bot: subclass :class:`MasonsBot`, one method per decision.

Each method receives the deciding seat's :class:`Observation` (the board, supplies, scores,
hand sizes, the discard pile and its own hand) and the :class:`DecisionContext`, and returns
a typed action. The methods are named after the decision kinds of
:data:`~sdk.games.masons.decisions.DECISIONS`, which routes every RPC to them.

A forward model: ``masons.determinize(observation, rng)`` deals the cards the seat cannot see
at random and returns a full :class:`~sdk.games.masons.State` whose ``legal_actions()`` are the
seat's options now; it can be cloned and played to the end::

    import random
    from sdk.games import masons

    class Sampler(MasonsBot):
        def wall(self, observation, context):
            rng = random.Random(f"{context.match_id}/{context.seat}/{context.decision_id}")
            return masons.determinize(observation, rng).sample_action(rng)
        ...
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext

from .actions import Connect, FinalScore, Houses, Score, Swap, Towers, Wall
from .observation import Observation

__all__ = ["MasonsBot"]


class MasonsBot(Bot):
    """Base class of Masons bots."""

    games: ClassVar[tuple[str, ...]] = ("masons",)

    @abstractmethod
    def wall(self, observation: Observation, context: DecisionContext) -> Wall:
        """An empty line outside every completed city (``observation.walls``, ``observation.closed``)."""

    @abstractmethod
    def towers(self, observation: Observation, context: DecisionContext) -> Towers:
        """Tower colours for the two ends of ``observation.wall`` (the die: ``observation.roll[0]``)."""

    @abstractmethod
    def houses(self, observation: Observation, context: DecisionContext) -> Houses:
        """House colours for the spaces beside ``observation.wall`` (the dice: ``observation.roll[1:]``)."""

    @abstractmethod
    def connect_city(self, observation: Observation, context: DecisionContext) -> Connect:
        """Join the city of ``observation.new_city`` to a bordering completed city, or ``Connect(None)``."""

    @abstractmethod
    def score_cards(self, observation: Observation, context: DecisionContext) -> Score:
        """Play 1-2 cards for city ``observation.scored_city``, or ``Score((card,), discard=True)``."""

    @abstractmethod
    def swap(self, observation: Observation, context: DecisionContext) -> Swap:
        """The cards to replace (``Swap(())`` keeps the hand)."""

    @abstractmethod
    def final_score(self, observation: Observation, context: DecisionContext) -> FinalScore:
        """``FinalScore(city, cards)``, or ``FinalScore(None, ())`` to pass."""
