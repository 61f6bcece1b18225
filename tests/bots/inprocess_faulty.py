"""Saint Malo bot classes that misbehave on purpose from their second Keep decision on, for the
in-process transport's fault tests (``transport: inprocess``, ``bot: tests.bots.inprocess_faulty:X``).
"""

from __future__ import annotations

import threading
from typing import Any

from sdk.games.decisions import DecisionContext
from sdk.games.saint_malo.actions import Keep
from sdk.games.saint_malo.bot import DefaultBot

RELEASE = threading.Event()
"""Set by a test to let every :class:`HangingBot` decision still waiting return."""


class _FaultyFromSecondKeep(DefaultBot):
    """Plays the safe default until its second Keep decision, then calls :meth:`misbehave`."""

    name = "faulty"

    def __init__(self) -> None:
        self.keeps = 0

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if kind == "keep":
            self.keeps += 1
            if self.keeps >= 2:
                return self.misbehave(observation, context)
        return super().decide(kind, observation, context)

    def misbehave(self, observation: Any, context: DecisionContext) -> Any:
        raise NotImplementedError


class RaisingBot(_FaultyFromSecondKeep):
    def misbehave(self, observation: Any, context: DecisionContext) -> Any:
        raise RuntimeError("the bot's own bug")


class GarbageBot(_FaultyFromSecondKeep):
    def misbehave(self, observation: Any, context: DecisionContext) -> Any:
        return "not an action"


class IllegalBot(_FaultyFromSecondKeep):
    def misbehave(self, observation: Any, context: DecisionContext) -> Any:
        return Keep(99)


class HangingBot(_FaultyFromSecondKeep):
    def misbehave(self, observation: Any, context: DecisionContext) -> Any:
        RELEASE.wait(60)
        return super().decide("keep", observation, context)


class ExitingBot(_FaultyFromSecondKeep):
    def misbehave(self, observation: Any, context: DecisionContext) -> Any:
        raise SystemExit(3)


class BrokenConstructorBot(DefaultBot):
    def __init__(self) -> None:
        raise RuntimeError("cannot start")
