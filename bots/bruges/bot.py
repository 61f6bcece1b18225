"""The Bruges heuristic bot served over gRPC: every decision goes to :class:`BrugesPolicy`.

python -m bots.bruges --port 50051
"""

from __future__ import annotations

from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games import bruges as bg
from sdk.games.decisions import DecisionContext
from sdk.serve import run

from .policy import BrugesPolicy


def asked(kind: str, observation: Any) -> bg.Observation:
    """``observation`` as a Bruges observation of a ``kind`` decision this seat is asked, else an error."""
    if not isinstance(observation, bg.Observation):
        raise TypeError(f"expected a Bruges observation, not {type(observation).__name__}")
    if observation.decision != kind or not observation.options:
        raise ValueError(f"asked for a {kind} decision, but the observation shows {observation.decision!r}")
    return observation


class BrugesHeuristicBot(Bot):
    """Answers from the observation alone; stateless, so it serves concurrent matches safely."""

    name = "bruges-heuristic"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = ("bruges",)

    def __init__(self) -> None:
        self.policy = BrugesPolicy()

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        return self.policy.decide(asked(kind, observation))


def main() -> None:
    run(BrugesHeuristicBot())
