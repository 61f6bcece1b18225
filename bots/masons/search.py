"""The Masons search bot: information-set MCTS (:mod:`sdk.search`) with short random rollouts valued
by the scores; the greedy policy's answer is searched first and kept unless the search finds a
clearly better one. (The greedy policy deals hidden cards for each of its own decisions, so it
is too slow to play the rollouts themselves: two of them fill a decision's budget.)

python -m bots.masons.search --port 50051
"""

from __future__ import annotations

from typing import ClassVar

from sdk.search import Budget, InformationSetSearch, SearchConfig
from sdk.search.bot import SearchBot
from sdk.serve import run

from .bot import MasonsGreedyBot

#: Per decision: about 60 ms of search (the heuristic's own answer takes most of the rest of
#: 100 ms); rollouts of a few random steps.
BUDGET = Budget(seconds=0.06)
CONFIG = SearchConfig(rollout_steps=10, prefer_margin=0.15)


def search() -> InformationSetSearch:
    return InformationSetSearch(BUDGET, config=CONFIG)


class MasonsSearchBot(SearchBot):
    name = "masons-search"
    games: ClassVar[tuple[str, ...]] = ("masons",)

    def __init__(self) -> None:
        super().__init__("masons", search(), MasonsGreedyBot().decide)


def main() -> None:
    run(MasonsSearchBot())


if __name__ == "__main__":
    main()
