"""The greedy Masons bot served over gRPC: every decision goes to :func:`policy.decide`.

python -m bots.masons --port 50051
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games import masons as ms
from sdk.games.decisions import DecisionContext
from sdk.serve import run

from .policy import decide


class MasonsGreedyBot(Bot):
    """Answers every Masons decision from the observation alone; stateless between decisions.

    Its RNG (for the cards it cannot see) is seeded from public facts of the decision, so a
    match replays identically.
    """

    name = "masons-greedy"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = ("masons",)

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if not isinstance(observation, ms.Observation):
            raise TypeError(f"expected a Masons observation, not {type(observation).__name__}")
        rng = random.Random(f"{context.match_id}/{context.seat}/{context.decision_id}")
        return decide(observation, rng)


def main() -> None:
    run(MasonsGreedyBot())
