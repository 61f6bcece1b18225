"""The search policy on bare engine states, and the bot that serves it over gRPC."""

from __future__ import annotations

import json
from collections import OrderedDict

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.bot import DecisionPolicy, PolicyBot
from sdk.serve import run

from .evaluation import Weights
from .planner import TurnPlanner, best_bonus_person, turn_start

PLANNERS_KEPT = 8  # a turn's decisions arrive in a row; a few spare entries cover interleaved matches


class SearchPolicy(DecisionPolicy):
    """Expectimax decisions on a bare engine state (usable in-process as a policy).

    Deterministic: the result depends only on the state and the weights.
    """

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()
        self._planners: OrderedDict[str, TurnPlanner] = OrderedDict()

    def planner(self, state: sm.State) -> TurnPlanner:
        """The planner of the turn ``state`` belongs to, built on its first decision."""
        start = turn_start(state)
        key = json.dumps(start, sort_keys=True)
        planner = self._planners.get(key)
        if planner is None:
            planner = TurnPlanner(start, self.weights)
            self._planners[key] = planner
            while len(self._planners) > PLANNERS_KEPT:
                self._planners.popitem(last=False)
        else:
            self._planners.move_to_end(key)
        return planner

    def keep(self, state: sm.State) -> sm.Keep:
        return sm.Keep(self.planner(state).keep(state.dice, state.rolls))

    def choose(self, state: sm.State) -> sm.Choose:
        symbol, _ = self.planner(state).choice(state.dice)
        available = state.available_symbols()
        return sm.Choose(sm.Symbol(symbol) if symbol in available else available[0])

    def rotate(self, state: sm.State) -> sm.Rotate:
        planner = self.planner(state)
        rotations = planner.rotations(state.chosen, state.dice)
        mask = 0
        rest = state.rotatable_dice()
        for _ in range(rotations):
            low = rest & -rest
            mask |= low
            rest ^= low
        return sm.Rotate(mask)

    def place(self, state: sm.State) -> sm.Place:
        symbol = state.chosen
        return self.planner(state).placement(
            symbol, state.count(sm.Symbol(symbol)), state.rotated.bit_count(), state.count(sm.Symbol.SWORDS)
        )

    def bonus_person(self, state: sm.State) -> sm.PlacePerson:
        return best_bonus_person(state, self.weights)


class SearchBot(PolicyBot):
    name = "search"
    version = "1.0"
    author = "smtourney"

    def __init__(self, weights: Weights | None = None) -> None:
        super().__init__(SearchPolicy(weights))


def main() -> None:
    run(SearchBot())
