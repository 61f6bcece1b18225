"""Sequential halving over the heuristic's best options, on deals of what the seat knows.

The heuristic bot is a good judge of which few options are worth a look, and a poor judge of which
of them is best. So the planner takes its ``candidates`` best options and plays each forward from
many deals of the hidden cards (``determinize``): the option first, then every seat playing the
heuristic (the opponents *are* that heuristic, so this models them closely) until the round ends,
where :mod:`bots.bruges.evaluation` values the position. Sequential halving spends the budget in
rounds, dropping the worse half of the options after each, and every option of a round is played
on the same deals with the same dice and cards to come (common random numbers), so options are
compared on equal luck and a few dozen simulations tell them apart.

Deterministic: a seed and a simulation budget give the same answer; a time limit only stops early.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sdk.games.bruges.actions import Action
from sdk.games.bruges.hidden import determinize
from sdk.games.bruges.observation import Observation
from sdk.games.bruges.state import State
from sdk.games.plugin import GameState
from sdk.search import CandidateBudget, SearchResult, compare_candidates, seated

from .evaluation import rewards
from .policy import BrugesPolicy
from .rollout import heuristic_action, heuristic_rollout

#: Each seat's reward in [0, 1] for a position where a simulation stops.
Evaluate = Callable[[State], list[float]]


@dataclass(frozen=True, slots=True)
class PlannerConfig:
    """The planner's knobs (docs/bots-bruges.md#search-bot gives the measured defaults)."""

    #: Simulations per decision at two players (all options together; a simulation runs to the end
    #: of the round, so with more seats each costs more and there are proportionally fewer), and a
    #: time limit that stops sooner.
    simulations: int = 48
    seconds: float | None = 0.25
    #: Options of the heuristic's ranking that are searched.
    candidates: int = 4
    #: Round boundaries a simulation crosses before it is valued (at least one: the current round ends).
    rounds: int = 1
    #: The heuristic's first choice is kept unless another option's mean reward beats it by more.
    margin: float = 0.0


class Planner:
    """Chooses among a seat's options from its observation alone; see the module docstring."""

    def __init__(self, config: PlannerConfig | None = None, evaluate: Evaluate = rewards) -> None:
        self.config = config or PlannerConfig()
        self.evaluate = evaluate
        self.policy = BrugesPolicy()

    def choose(self, observation: Observation, seed: int, seconds: float | None = None) -> SearchResult:
        """The best of the heuristic's candidate options for ``observation``'s seat; ``seconds``
        caps the configured time limit (a decision's time allowance)."""
        cfg = self.config
        limits = [t for t in (cfg.seconds, seconds) if t is not None]
        budget = CandidateBudget(
            max(1, cfg.simulations * 2 // observation.players),
            min(limits) if limits else None,
            halving=True,
            margin=cfg.margin,
        )
        seat = observation.seat
        # Seats asked together with this one but applied before it answer as the heuristic would.
        deal = seated(lambda rng: determinize(observation, rng), seat, heuristic_rollout)

        def playout(state: GameState, action: Any, rng: random.Random) -> float:
            return self._simulate(state, action, seat, rng)  # type: ignore[arg-type]

        candidates = self.policy.ranked(observation)[: cfg.candidates]
        return compare_candidates(candidates, deal, playout, budget, seed)

    def _simulate(self, state: State, action: Action, seat: int, rng: random.Random) -> float:
        """``action`` played on ``state`` (a copy of one deal), then the heuristic at every seat to
        the configured round boundary; ``seat``'s reward there."""
        state.apply_unchecked(action)
        boundaries = 0
        current = state.round
        while not state.is_terminal():
            if state.round != current:
                boundaries += 1
                current = state.round
                if boundaries >= self.config.rounds:
                    break
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
            else:
                state.apply_unchecked(heuristic_action(state))
        return self.evaluate(state)[seat]
