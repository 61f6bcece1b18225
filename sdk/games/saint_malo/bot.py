"""Write a Saint Malo bot: subclass :class:`SaintMaloBot`, one method per decision.

Each method receives the engine's own :class:`State` rebuilt from the request
(a full forward model: ``legal_actions()``, ``clone()``, ``apply()``) and the
:class:`DecisionContext`, and returns a typed action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, TypeVar

import grpc

from sdk.bot import Bot
from sdk.games.plugin import DecisionContext
from sdk.protocol.saint_malo.v1 import saint_malo_pb2 as pb
from sdk.protocol.saint_malo.v1 import saint_malo_pb2_grpc as pb_grpc
from sdk.protocol.v1 import bot_pb2

from .actions import Action, Choose, Keep, Place, PlacePerson, Rotate
from .defaults import default_action
from .pieces import Decision
from .state import State
from .wire import decode_observation, encode_person, encode_placement

_A = TypeVar("_A")


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
    (:func:`~sdk.games.saint_malo.play.play_game`) and self-play; :class:`PolicyBot`
    serves the same policy over gRPC.
    """

    def __call__(self, state: State) -> Action:
        decision = state.decision
        if decision is Decision.KEEP:
            return self.keep(state)
        if decision is Decision.CHOOSE:
            return self.choose(state)
        if decision is Decision.ROTATE:
            return self.rotate(state)
        if decision is Decision.PLACE:
            return self.place(state)
        return self.bonus_person(state)

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


class PolicyBot(SaintMaloBot):
    """A bot that answers every decision with its :class:`DecisionPolicy`."""

    def __init__(self, policy: DecisionPolicy) -> None:
        self.policy = policy

    def keep(self, state: State, context: DecisionContext) -> Keep:
        return self.policy.keep(state)

    def choose(self, state: State, context: DecisionContext) -> Choose:
        return self.policy.choose(state)

    def rotate(self, state: State, context: DecisionContext) -> Rotate:
        return self.policy.rotate(state)

    def place(self, state: State, context: DecisionContext) -> Place:
        return self.policy.place(state)

    def bonus_person(self, state: State, context: DecisionContext) -> PlacePerson:
        return self.policy.bonus_person(state)


class DefaultBot(SaintMaloBot):
    """Plays the referee's safe default for every decision: instant, legal, deterministic.

    A baseline, and a base for bots that only override some decisions.
    """

    name = "default"
    version = "1.0"

    def keep(self, state: State, context: DecisionContext) -> Keep:
        return Keep(0)

    def choose(self, state: State, context: DecisionContext) -> Choose:
        return Choose(state.available_symbols()[0])

    def rotate(self, state: State, context: DecisionContext) -> Rotate:
        return _default(state, Rotate)

    def place(self, state: State, context: DecisionContext) -> Place:
        action = default_action(state)
        assert not isinstance(action, Keep | Choose | Rotate)
        return action

    def bonus_person(self, state: State, context: DecisionContext) -> PlacePerson:
        return _default(state, PlacePerson)


def _default(state: State, kind: type[_A]) -> _A:
    action = default_action(state)
    assert isinstance(action, kind)
    return action


def _context(message: bot_pb2.DecisionContext) -> DecisionContext:
    return DecisionContext(
        match_id=message.match_id,
        decision_id=message.decision_id,
        seat=message.seat,
        decision_ms=message.decision_ms,
        time_bank_ms=message.time_bank_ms,
    )


class SaintMaloServicer(pb_grpc.SaintMaloServicer):
    """Turns each RPC into a call of the bot's method for that decision."""

    def __init__(self, bot: SaintMaloBot) -> None:
        self.bot = bot

    def Keep(self, request: pb.KeepRequest, context: grpc.ServicerContext) -> pb.KeepReply:
        state = decode_observation(request.observation, Decision.KEEP)
        action = self.bot.keep(state, _context(request.context))
        return pb.KeepReply(decision_id=request.context.decision_id, reroll=action.reroll)

    def Choose(self, request: pb.ChooseRequest, context: grpc.ServicerContext) -> pb.ChooseReply:
        state = decode_observation(request.observation, Decision.CHOOSE)
        action = self.bot.choose(state, _context(request.context))
        return pb.ChooseReply(
            decision_id=request.context.decision_id,
            symbol=pb.Symbol.ValueType(action.symbol + 1),
        )

    def Rotate(self, request: pb.RotateRequest, context: grpc.ServicerContext) -> pb.RotateReply:
        state = decode_observation(request.observation, Decision.ROTATE)
        action = self.bot.rotate(state, _context(request.context))
        return pb.RotateReply(decision_id=request.context.decision_id, dice=action.dice)

    def Place(self, request: pb.PlaceRequest, context: grpc.ServicerContext) -> pb.PlaceReply:
        state = decode_observation(request.observation, Decision.PLACE)
        action = self.bot.place(state, _context(request.context))
        return pb.PlaceReply(decision_id=request.context.decision_id, **encode_placement(action))

    def PlaceBonusPerson(
        self, request: pb.PlaceBonusPersonRequest, context: grpc.ServicerContext
    ) -> pb.PlaceBonusPersonReply:
        state = decode_observation(request.observation, Decision.BONUS_PERSON)
        action = self.bot.bonus_person(state, _context(request.context))
        return pb.PlaceBonusPersonReply(decision_id=request.context.decision_id, person=encode_person(action))
