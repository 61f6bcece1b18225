"""The Bruges search bot: sequential halving over the heuristic's best options, each played forward
on many deals of the hidden cards with the heuristic playing every seat (:mod:`bots.bruges.planner`).

python -m bots.bruges.search --port 50051
"""

from __future__ import annotations

from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.search.bot import decision_seed, search_seconds
from sdk.serve import run

from .bot import asked
from .planner import Planner, PlannerConfig


class BrugesSearchBot(Bot):
    """Answers from the observation alone (deals of what it cannot see); stateless between decisions."""

    name = "bruges-search"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = ("bruges",)

    def __init__(self, config: PlannerConfig | None = None) -> None:
        self.planner = Planner(config)

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        observation = asked(kind, observation)
        return self.planner.choose(observation, decision_seed(context), search_seconds(context)).action


def main() -> None:
    run(BrugesSearchBot())


if __name__ == "__main__":
    main()
