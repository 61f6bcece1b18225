"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012), open loop.

Each iteration deals one full state from what the searching seat knows, then walks one tree
whose edges are (deciding seat, action): at each node only the actions legal in this deal are
candidates, and UCB counts a child's *availability* (how often it was legal) instead of its
parent's visits. Chance is sampled on the way (open loop: a node stands for an action sequence,
its statistics average over deals and chance outcomes), so chance nodes need no edges of their
own. Every node keeps one reward total per seat and the seat deciding there picks by its own,
so any number of players each maximise their own result (:mod:`sdk.search.rewards`).

Large action sets: progressive widening. A node visited ``v`` times may have at most
``ceil(widening_base * v ** widening_exponent)`` children; the rest stay unexpanded until then,
and the next one expanded is the rollout policy's choice when it is untried, else a random one.

Determinism: one ``random.Random(seed)`` drives deals, chance, expansion and rollouts, and
nodes keep insertion order, so a seed and an iteration budget give the same answer every time.

Tree reuse: none. A bot receives observations, not the actions the others took (some of them
hidden from it), so the subtree a new decision starts from cannot be found for sure; a fresh
tree per decision is always right and costs only the budget it is given.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from sdk.games.plugin import GameState

from .budget import Budget
from .determinize import Determinizer
from .rewards import terminal_rewards
from .rollout import Evaluator, RolloutPolicy, random_rollout


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's knobs; the defaults suit games whose scores are a few dozen points."""

    exploration: float = 0.7
    widening_base: float = 2.0
    widening_exponent: float = 0.5
    #: Rollout steps (decisions and chance) before the evaluator values the position instead.
    rollout_steps: int = 400
    #: A preferred root action (a heuristic's) is kept unless another root action's mean reward
    #: beats it by more than this: with tens of iterations the means are too noisy to overrule
    #: a good heuristic on less.
    prefer_margin: float = 0.05


@dataclass(frozen=True, slots=True)
class ActionStats:
    """One root action: how often it was chosen and its mean reward for the searching seat."""

    action: Any
    visits: int
    mean: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    action: Any
    iterations: int
    seconds: float
    root: tuple[ActionStats, ...] = field(default=())


def action_key(action: Any) -> Hashable:
    """A dictionary key for ``action``: itself when hashable, else its ``repr``."""
    try:
        hash(action)
    except TypeError:
        return repr(action)
    key: Hashable = action
    return key


class _Node:
    __slots__ = ("action", "available", "children", "totals", "visits")

    def __init__(self, players: int, action: Any = None) -> None:
        self.action = action
        self.visits = 0
        self.available = 1
        self.totals = [0.0] * players
        self.children: dict[tuple[int, Hashable], _Node] = {}

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


class InformationSetSearch:
    """Chooses the deciding seat's action from deals of what it knows; see the module docstring."""

    def __init__(
        self,
        budget: Budget,
        *,
        rollout: RolloutPolicy = random_rollout,
        evaluate: Evaluator = terminal_rewards,
        config: SearchConfig | None = None,
    ) -> None:
        self.budget = budget
        self.rollout = rollout
        self.evaluate = evaluate
        self.config = config or SearchConfig()

    def search(self, determinize: Determinizer, seed: int, prefer: Any = None) -> SearchResult:
        """The best action for the seat deciding in every deal ``determinize`` gives.

        ``prefer``: a root action (e.g. the game's heuristic's answer), expanded first and kept
        unless the search finds another clearly better (``SearchConfig.prefer_margin``).
        """
        rng = random.Random(seed)
        started = time.perf_counter()
        deadline = self.budget.deadline(started)
        first = determinize(rng)
        if first.is_terminal() or first.is_chance_node():
            raise ValueError("the search needs a position where a seat decides")
        seat = first.current_player
        root = _Node(len(first.scores()))
        if prefer is not None:
            root.children[(seat, action_key(prefer))] = _Node(len(root.totals), prefer)
        iterations = 0
        state: GameState | None = first
        while not self.budget.spent(iterations, deadline):
            self._iterate(root, state if state is not None else determinize(rng), rng)
            state = None
            iterations += 1
        mine = [child for (decider, _), child in root.children.items() if decider == seat]
        best = max(mine, key=lambda child: (child.visits, child.mean(seat)))
        if prefer is not None:
            kept = root.children[(seat, action_key(prefer))]
            if kept.visits and kept.mean(seat) + self.config.prefer_margin >= max(
                c.mean(seat) for c in mine if c.visits
            ):
                best = kept
        stats = tuple(ActionStats(c.action, c.visits, c.mean(seat)) for c in mine)
        return SearchResult(best.action, iterations, time.perf_counter() - started, stats)

    def _iterate(self, root: _Node, state: GameState, rng: random.Random) -> None:
        path = [root]
        node = root
        expanded = False
        while not expanded and not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            node, action, expanded = self._select(node, state, rng)
            state.apply(action)
            path.append(node)
        rewards = self._simulate(state, rng)
        for visited in path:
            visited.visits += 1
            for seat, reward in enumerate(rewards):
                visited.totals[seat] += reward

    def _select(self, node: _Node, state: GameState, rng: random.Random) -> tuple[_Node, Any, bool]:
        """The child to descend to in this deal, whether it was just expanded, and its action."""
        seat = state.current_player
        legal = state.legal_actions()
        known: list[_Node] = []
        untried: list[tuple[Hashable, Any]] = []
        for action in legal:
            key = action_key(action)
            child = node.children.get((seat, key))
            if child is None:
                untried.append((key, action))
            else:
                child.available += 1
                known.append(child)
        cfg = self.config
        allowed = math.ceil(cfg.widening_base * max(1, node.visits) ** cfg.widening_exponent)
        if untried and len(known) < allowed:
            key, action = self._expansion(state, untried, rng)
            child = _Node(len(node.totals), action)
            node.children[(seat, key)] = child
            return child, action, True
        best = max(known, key=lambda child: self._ucb(child, seat))
        return best, best.action, False

    def _expansion(
        self, state: GameState, untried: list[tuple[Hashable, Any]], rng: random.Random
    ) -> tuple[Hashable, Any]:
        """The rollout policy's choice when it is still untried, else a random untried action."""
        if self.rollout is not random_rollout:
            wanted = action_key(self.rollout(state, rng))
            for key, action in untried:
                if key == wanted:
                    return key, action
        return untried[rng.randrange(len(untried))]

    def _ucb(self, child: _Node, seat: int) -> float:
        if not child.visits:
            return math.inf
        explore = self.config.exploration * math.sqrt(math.log(child.available) / child.visits)
        return child.mean(seat) + explore

    def _simulate(self, state: GameState, rng: random.Random) -> list[float]:
        steps = 0
        while not state.is_terminal() and steps < self.config.rollout_steps:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(self.rollout(state, rng))
            steps += 1
        return list(self.evaluate(state))
