"""Flat Monte Carlo over a few candidate actions, every candidate played on the same deals.

A good heuristic is a fine judge of which few actions are worth a look and a poorer judge of which
of them is best. So a bot hands this search the heuristic's best few candidates (its first choice
first), a way to deal full states from its observation (:mod:`sdk.search.determinize`) and a
playout: the candidate applied to a copy of a deal, the game played on (typically by a model of the
heuristic at every seat, since the opponents often *are* that heuristic) and the position valued for
the searching seat.

Common random numbers: every candidate is played on the same deals with the same chance seed, so
candidates are compared on equal luck and a few dozen playouts tell them apart where independent
ones would need hundreds. With ``halving`` (sequential halving, Karnin, Koren and Somekh, 2013) the
budget is spent in ``ceil(log2 K)`` rounds, the worse half of the candidates dropped after each, so
the best ones get the most deals.

Deterministic: one ``random.Random(seed)`` draws each deal's seed and its chance seed, in order, so
a seed and a playout budget give the same answer; a time limit only stops early (never before
``min_deals`` deals).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sdk.games.plugin import GameState

from .determinize import Determinizer
from .mcts import ActionStats, SearchResult

#: The searching seat's value after ``action`` is applied to ``state`` (a copy of one deal, the
#: searcher's to change) and the game played on with chance drawn from the given RNG.
Playout = Callable[[GameState, Any, random.Random], float]


@dataclass(frozen=True, slots=True)
class CandidateBudget:
    """How much a comparison of candidates may spend.

    ``playouts`` in all (shared among the candidates: with fewer of them each gets more deals);
    ``seconds``: no new deal starts after this long, once ``min_deals`` deals are played.
    """

    playouts: int
    seconds: float | None = None
    min_deals: int = 1
    #: Sequential halving instead of every candidate on every deal.
    halving: bool = False
    #: The first candidate (the heuristic's choice) is kept unless another's mean beats it by more.
    margin: float = 0.0

    def __post_init__(self) -> None:
        if self.playouts < 1 or self.min_deals < 1:
            raise ValueError("a candidate budget needs at least one playout and one deal")


class _Deals:
    """Deals drawn on demand, the same ones for every candidate: (state, chance seed) by index."""

    def __init__(self, deal: Determinizer, seed: int) -> None:
        self._deal = deal
        self._seeds = random.Random(seed)
        self._dealt: list[tuple[GameState, int]] = []

    def __getitem__(self, index: int) -> tuple[GameState, int]:
        while len(self._dealt) <= index:
            state = self._deal(random.Random(self._seeds.getrandbits(64)))
            self._dealt.append((state, self._seeds.getrandbits(64)))
        return self._dealt[index]


def compare_candidates(
    candidates: Sequence[Any],
    deal: Determinizer,
    playout: Playout,
    budget: CandidateBudget,
    seed: int,
) -> SearchResult:
    """The candidate with the best mean playout value; see the module docstring."""
    started = time.perf_counter()
    if not candidates:
        raise ValueError("there is no candidate to compare")
    if len(candidates) == 1:
        return SearchResult(candidates[0], 0, 0.0, (ActionStats(candidates[0], 0, 0.0),))
    deadline = math.inf if budget.seconds is None else started + budget.seconds
    deals = _Deals(deal, seed)
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    stages = max(1, math.ceil(math.log2(len(candidates)))) if budget.halving else 1
    spent = 0
    for stage in range(stages):
        per = max(1, (budget.playouts - spent) // (len(alive) * (stages - stage)))
        first = counts[alive[0]]
        for index in range(first, first + per):
            if index >= budget.min_deals and time.perf_counter() >= deadline:
                break
            state, chance = deals[index]
            for n in alive:
                totals[n] += playout(state.clone(), candidates[n], random.Random(chance))
                counts[n] += 1
                spent += 1
        if stage < stages - 1:
            alive.sort(key=lambda n: (-totals[n] / counts[n], n))
            alive = sorted(alive[: max(2, math.ceil(len(alive) / 2))])

    def mean(n: int) -> float:
        return totals[n] / counts[n] if counts[n] else -math.inf

    best = 0 if 0 in alive else alive[0]
    challenger = max(alive, key=lambda n: (mean(n), -n))
    if mean(challenger) > mean(best) + budget.margin:
        best = challenger
    stats = tuple(
        ActionStats(c, counts[n], totals[n] / counts[n] if counts[n] else 0.0)
        for n, c in enumerate(candidates)
    )
    return SearchResult(candidates[best], spent, time.perf_counter() - started, stats)
