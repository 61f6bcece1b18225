"""The random reference bot: uniform over the legal actions of every decision.

Its RNG is seeded from the match id and decision id (public facts), so a match
replays identically while the bot never learns the referee's seed.

    python -m bots.random --port 50051
"""

from __future__ import annotations

import random as _random

from sdk.games import saint_malo as sm
from sdk.games.plugin import DecisionContext
from sdk.games.saint_malo.bot import SaintMaloBot
from sdk.serve import run


def _rng(context: DecisionContext) -> _random.Random:
    return _random.Random(f"{context.match_id}/{context.decision_id}")


class RandomBot(SaintMaloBot):
    name = "random"
    version = "1.0"
    author = "smtourney"

    def keep(self, state: sm.State, context: DecisionContext) -> sm.Keep:
        return sm.Keep(_rng(context).randrange(32))

    def choose(self, state: sm.State, context: DecisionContext) -> sm.Choose:
        return sm.Choose(_rng(context).choice(state.available_symbols()))

    def rotate(self, state: sm.State, context: DecisionContext) -> sm.Rotate:
        action = state.sample_action(_rng(context))
        assert isinstance(action, sm.Rotate)
        return action

    def place(self, state: sm.State, context: DecisionContext) -> sm.Place:
        action = state.sample_action(_rng(context))
        assert not isinstance(action, sm.Keep | sm.Choose | sm.Rotate)
        return action

    def bonus_person(self, state: sm.State, context: DecisionContext) -> sm.PlacePerson:
        action = state.sample_action(_rng(context))
        assert isinstance(action, sm.PlacePerson)
        return action


def main() -> None:
    run(RandomBot())


if __name__ == "__main__":
    main()
