"""The Cities search bot: information-set MCTS (:mod:`sdk.search`), its rollouts cut short and the
position then valued by the heuristic's evaluation, each seat by its own lead; the heuristic's
own answer is searched first and kept unless the search finds a clearly better one.

python -m bots.cities.search --port 50051
"""

from __future__ import annotations

import math
from typing import ClassVar

from sdk.games import cities as ci
from sdk.games.plugin import GameState
from sdk.search import Budget, InformationSetSearch, SearchConfig, terminal_rewards
from sdk.search.bot import SearchBot
from sdk.serve import run

from .bot import CitiesHeuristicBot
from .evaluation import Weights, position_value

#: Per decision: about 60 ms of search (the heuristic's own answer takes most of the rest of
#: 100 ms); and short random rollouts valued by the evaluation.
BUDGET = Budget(seconds=0.06)
CONFIG = SearchConfig(rollout_steps=12, prefer_margin=0.15)
#: Points of lead at which a seat's reward is about 0.73 (a logistic of its lead).
LEAD_SCALE = 4.0
WEIGHTS = Weights()


def evaluate(state: GameState) -> list[float]:
    """Final ranks when the game is over, else each seat's lead over the best other, squashed to (0, 1)."""
    if state.is_terminal():
        return terminal_rewards(state)
    game: ci.State = state  # type: ignore[assignment]
    return [1 / (1 + math.exp(-position_value(game, seat, WEIGHTS) / LEAD_SCALE)) for seat in range(game.n)]


def search() -> InformationSetSearch:
    return InformationSetSearch(BUDGET, evaluate=evaluate, config=CONFIG)


class CitiesSearchBot(SearchBot):
    name = "cities-search"
    games: ClassVar[tuple[str, ...]] = ("cities",)

    def __init__(self) -> None:
        super().__init__("cities", search(), CitiesHeuristicBot().decide)


def main() -> None:
    run(CitiesSearchBot())


if __name__ == "__main__":
    main()
