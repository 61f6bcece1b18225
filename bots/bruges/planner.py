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

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from sdk.games.bruges.actions import Action
from sdk.games.bruges.hidden import determinize
from sdk.games.bruges.observation import Observation
from sdk.games.bruges.state import State
from sdk.search import ActionStats, SearchResult, seated

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
        ranked = self.policy.ranked(observation)
        alive = ranked[: cfg.candidates]
        started = time.perf_counter()
        if len(alive) == 1:
            return SearchResult(alive[0], 0, 0.0)
        limits = [t for t in (cfg.seconds, seconds) if t is not None]
        deadline = started + min(limits) if limits else math.inf
        seat = observation.seat
        seeds = random.Random(seed)
        deals: list[tuple[State, int]] = []
        totals = dict.fromkeys(alive, 0.0)
        counts = dict.fromkeys(alive, 0)
        stages = max(1, math.ceil(math.log2(len(alive))))
        budget = cfg.simulations * 2 // observation.players
        spent = 0
        for stage in range(stages):
            per = max(1, (budget - spent) // (len(alive) * (stages - stage)))
            for index in range(counts[alive[0]], counts[alive[0]] + per):
                if time.perf_counter() >= deadline:
                    break
                if index == len(deals):  # a new deal, and the seed of the chance its simulations meet
                    deals.append((self._deal(observation, seeds.getrandbits(64)), seeds.getrandbits(64)))
                state, chance = deals[index]
                for action in alive:
                    totals[action] += self._simulate(state, action, seat, chance)
                    counts[action] += 1
                    spent += 1
            if time.perf_counter() >= deadline:
                break
            if stage < stages - 1:
                alive.sort(key=lambda a: -totals[a] / max(1, counts[a]))
                alive = alive[: max(2, math.ceil(len(alive) / 2))]
        best = ranked[0] if ranked[0] in alive else alive[0]
        best_mean = totals[best] / max(1, counts[best])
        for action in alive:
            mean = totals[action] / max(1, counts[action])
            if counts[action] and mean > best_mean + cfg.margin:
                best, best_mean = action, mean
        root = tuple(
            ActionStats(a, counts[a], totals[a] / max(1, counts[a])) for a in ranked[: cfg.candidates]
        )
        return SearchResult(best, spent, time.perf_counter() - started, root)

    def _deal(self, observation: Observation, seed: int) -> State:
        """A deal of the hidden cards where ``observation``'s seat is the one to decide (seats asked
        together with it but applied before it answer as the heuristic would, :func:`seated`)."""
        deal = seated(lambda rng: determinize(observation, rng), observation.seat, heuristic_rollout)
        state: State = deal(random.Random(seed))  # type: ignore[assignment]
        return state

    def _simulate(self, deal: State, action: Action, seat: int, chance_seed: int) -> float:
        state = deal.clone()
        rng = random.Random(chance_seed)
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
