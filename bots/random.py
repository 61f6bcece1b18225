"""The random reference bot: a uniformly random legal action, for every installed game.

It asks the game's plugin for a random legal action drawn from what the request
told it. Its RNG is seeded from the match id, its seat and its own decision id
(public facts), so a match replays identically while the bot never learns the
referee's seed.

    python -m bots.random --port 50051
"""

from __future__ import annotations

import random as _random
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.registry import get_game, listed_games
from sdk.serve import run


class RandomBot(Bot):
    name = "random"
    version = "2.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = tuple(sorted(listed_games()))

    @classmethod
    def plays(cls, game: str) -> bool:
        """Every game installed now, also one installed after this module was imported."""
        return game in listed_games()

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        rng = _random.Random(f"{context.match_id}/{context.seat}/{context.decision_id}")
        return get_game(context.game).random_action(observation, rng)


def main() -> None:
    run(RandomBot())


if __name__ == "__main__":
    main()
