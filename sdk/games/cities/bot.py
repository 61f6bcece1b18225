"""Write a Cities bot: subclass :class:`CitiesBot`, one method per decision.

Each method receives the deciding seat's :class:`Observation`, decoded from the request
(everything the seat may know: the table, the public history, its own hand, and in
``observation.pending`` the decision's options), and the :class:`DecisionContext`, and
returns a typed action. The methods are named after the decision kinds of
:data:`~sdk.games.cities.decisions.DECISIONS`, which routes every RPC to them.

A forward model for search: ``cities.determinize(observation, rng)`` deals the cards the
seat cannot see at random and returns a full :class:`~sdk.games.cities.State` consistent
with the observation. Its ``legal_actions()`` are exactly the seat's legal actions now
(playability depends only on public facts and the seat's own hand), and it can be
``clone()``-d and ``apply()``-ed to the end of the game::

    import random
    from sdk.games import cities

    class Sampler(CitiesBot):
        def play(self, observation, context):
            rng = random.Random(f"{context.match_id}/{context.seat}/{context.decision_id}")
            return cities.determinize(observation, rng).sample_action(rng)
        ...
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext

from .actions import Draw, Exchange, GiveCity, GiveEvent, Pass, Play, React
from .observation import Observation

__all__ = ["CitiesBot"]


class CitiesBot(Bot):
    """Base class of Cities bots."""

    games: ClassVar[tuple[str, ...]] = ("cities",)

    @abstractmethod
    def draw(self, observation: Observation, context: DecisionContext) -> Draw:
        """A cursed turn: ``Draw(Deck.CITY)`` takes the top city, ``Draw(Deck.EVENT)`` the top event."""

    @abstractmethod
    def play(self, observation: Observation, context: DecisionContext) -> Pass | Play:
        """``Pass()``, or ``Play(event, ...)`` with every choice the event takes.

        ``observation.pending.playable`` lists the event kinds that can be played now.
        """

    @abstractmethod
    def react(self, observation: Observation, context: DecisionContext) -> React:
        """``React(card)`` reveals one of ``observation.pending.protections``; ``React(None)`` none.

        ``observation.resolving`` is the event announced.
        """

    @abstractmethod
    def exchange(self, observation: Observation, context: DecisionContext) -> Exchange:
        """Accept (``Exchange(True)``) or decline ``observation.pending.offer``."""

    @abstractmethod
    def give_city(self, observation: Observation, context: DecisionContext) -> GiveCity:
        """One of the cities in the mask ``observation.pending.cities``."""

    @abstractmethod
    def give_event(self, observation: Observation, context: DecisionContext) -> GiveEvent:
        """Any event of your hand (``observation.hand`` counts copies per ``EventType``)."""
