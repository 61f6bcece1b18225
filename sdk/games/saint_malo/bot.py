"""Write a Saint Malo bot: subclass :class:`SaintMaloBot`, one method per decision.

Each method receives the engine's own :class:`State` rebuilt from the request
(a full forward model: ``legal_actions()``, ``clone()``, ``apply()``) and the
:class:`DecisionContext`, and returns a typed action. The methods are named
after the decision kinds of :data:`~sdk.games.saint_malo.decisions.DECISIONS`,
which routes every RPC to them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext, dispatch

from .actions import Action, Choose, Keep, Place, PlacePerson, Rotate
from .defaults import default_action
from .state import State


class SaintMaloBot(Bot):
    """Base class of Saint Malo bots."""

    games: ClassVar[tuple[str, ...]] = ("saint_malo",)

    @abstractmethod
    def keep(self, state: State, context: DecisionContext) -> Keep:
        """After roll 1 or 2: which dice to roll again (``Keep(0)`` stops)."""

    @abstractmethod
    def choose(self, state: State, context: DecisionContext) -> Choose:
        """The symbol to score (``state.available_symbols()`` lists the legal ones)."""

    @abstractmethod
    def rotate(self, state: State, context: DecisionContext) -> Rotate:
        """Dice to turn to the chosen symbol, 2 coins each."""

    @abstractmethod
    def place(self, state: State, context: DecisionContext) -> Place:
        """How many dice to use and where everything goes."""

    @abstractmethod
    def bonus_person(self, state: State, context: DecisionContext) -> PlacePerson:
        """Where the bonus person of a completed top side goes (level 1-3)."""


class DecisionPolicy(ABC):
    """A bot's decisions on bare engine states, without the wire.

    Calling it dispatches on the pending decision, so it plays in-process games
    (:func:`~sdk.games.saint_malo.play_game`) and self-play; :class:`PolicyBot`
    serves the same policy over gRPC.
    """

    def __call__(self, state: State) -> Action:
        decision = state.decision
        if decision is None:
            raise ValueError("no decision is pending")
        action: Action = dispatch(self, decision.value, state)
        return action

    @abstractmethod
    def keep(self, state: State) -> Keep: ...

    @abstractmethod
    def choose(self, state: State) -> Choose: ...

    @abstractmethod
    def rotate(self, state: State) -> Rotate: ...

    @abstractmethod
    def place(self, state: State) -> Place: ...

    @abstractmethod
    def bonus_person(self, state: State) -> PlacePerson: ...


class PolicyBot(Bot):
    """A Saint Malo bot that answers every decision with its :class:`DecisionPolicy`."""

    games: ClassVar[tuple[str, ...]] = ("saint_malo",)

    def __init__(self, policy: DecisionPolicy) -> None:
        self.policy = policy

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        return dispatch(self.policy, kind, observation)


class DefaultBot(Bot):
    """Plays the referee's safe default for every decision: instant, legal, deterministic.

    A baseline, and a base for bots that only change some decisions (override
    :meth:`decide` and fall back to ``super().decide``).
    """

    games: ClassVar[tuple[str, ...]] = ("saint_malo",)
    name = "default"
    version = "1.0"

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        return default_action(observation)
