"""The Cities heuristic bot served over gRPC: every decision kind goes to :class:`CitiesPolicy`.

python -m bots.cities --port 50051
"""

from __future__ import annotations

from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games import cities as ci
from sdk.games.decisions import DecisionContext
from sdk.serve import run

from .evaluation import Weights
from .policy import CitiesPolicy, PositionValue


class CitiesHeuristicBot(Bot):
    """Answers every Cities decision from the observation alone (the context is not used).

    Stateless between decisions, so it serves concurrent matches safely.
    """

    name = "cities-heuristic"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = ("cities",)

    def __init__(self, weights: Weights | None = None, value: PositionValue | None = None) -> None:
        self.policy = CitiesPolicy(weights, value=value)

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if not isinstance(observation, ci.Observation):
            raise TypeError(f"expected a Cities observation, not {type(observation).__name__}")
        pending = observation.pending
        if pending is None or pending.kind != kind:
            raise ValueError(
                f"asked for a {kind} decision, but the observation shows {pending and pending.kind}"
            )
        return self.answer(observation, context)

    def answer(self, observation: ci.Observation, context: DecisionContext) -> ci.Action:
        """The answer to the observation's pending decision, already checked to be the one asked for."""
        return self.policy.decide(observation)


def main() -> None:
    run(CitiesHeuristicBot())
