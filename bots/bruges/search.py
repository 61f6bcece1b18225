"""The Bruges search bot: sequential halving over the heuristic's best options, each played forward
on many deals of the hidden cards with the heuristic playing every seat (:mod:`bots.bruges.planner`).

python -m bots.bruges.search --port 50051
"""

from __future__ import annotations

from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.search.bot import decision_seed
from sdk.serve import run

from .bot import asked
from .planner import Planner, PlannerConfig


class BrugesSearchBot(Bot):
    """Answers from the observation alone (deals of what it cannot see); stateless between decisions."""

    name = "bruges-search"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = ("bruges",)
    #: Share of the referee's per-decision time the search may use (the rest is transport and slack).
    TIME_SHARE: ClassVar[float] = 0.5

    def __init__(self, config: PlannerConfig | None = None) -> None:
        self.planner = Planner(config)

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        allowed = context.decision_ms / 1000 * self.TIME_SHARE if context.decision_ms > 0 else None
        return self.planner.choose(asked(kind, observation), decision_seed(context), allowed).action


def main() -> None:
    run(BrugesSearchBot())


if __name__ == "__main__":
    main()
