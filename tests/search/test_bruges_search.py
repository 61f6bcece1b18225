"""The Bruges search bot: legal answers (seats asked together too), reproducible, blind to secrets."""

from __future__ import annotations

import random

from bots.bruges.planner import Planner, PlannerConfig
from bots.bruges.policy import BrugesPolicy
from bots.bruges.rollout import heuristic_action
from bots.bruges.search import BrugesSearchBot
from sdk.games.bruges.plugin import PLUGIN
from sdk.games.bruges.state import State
from sdk.games.decisions import DecisionContext

from .test_toolkit import _position

#: A small budget and no time limit: reproducible, and quick enough for a test.
SMALL = PlannerConfig(simulations=12, seconds=None)


def _positions(count: int, players: int | None = None) -> list[State]:
    """Positions of random play at a pending decision, over 2-4 players and every phase."""
    found = []
    for seed in range(count):
        state = _position(PLUGIN, players or 2 + seed % 3, seed, steps=7 * seed)
        if not state.is_terminal():
            found.append(PLUGIN.state_of(state))
    return found


def _asked_together(count: int) -> list[State]:
    """Positions where several seats are asked at once (the reputation step, B13), from random play."""
    found: list[State] = []
    rng = random.Random(3)
    while len(found) < count:
        state = PLUGIN.state_of(PLUGIN.new_state(2 + len(found) % 3, {}))
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if len(PLUGIN.deciding_seats(state)) > 1:
                found.append(state.clone())
            state.apply(state.sample_action(rng))
    return found


def test_the_rollout_policy_plays_exactly_as_the_heuristic_bot() -> None:
    """The opponents the search simulates answer as the real heuristic bot answers."""
    policy = BrugesPolicy()
    checked = 0
    for state in _positions(40):
        rng = random.Random(state.turns)
        for _ in range(30):
            while state.is_chance_node():
                state.apply(state.sample_chance(rng))
            if state.is_terminal():
                break
            assert heuristic_action(state) == policy.decide(PLUGIN.observe(state, state.decider))
            checked += 1
            state.apply(state.sample_action(rng))
    assert checked > 500


def test_every_seat_asked_gets_a_legal_answer_also_when_asked_together() -> None:
    bot = BrugesSearchBot(SMALL)
    for index, state in enumerate(_positions(40) + _asked_together(6)):
        seats = PLUGIN.deciding_seats(state)
        answers = []
        for seat in seats:
            observation = PLUGIN.observe(state, seat)
            context = DecisionContext(f"m{index}", 1, seat, 1000, 0, "bruges")
            answer = bot.decide(PLUGIN.decision_kind(state), observation, context)
            assert answer in observation.options
            answers.append(answer)
        for answer in answers:
            state.apply(answer)  # the engine's own check, in the order it applies them


def test_a_seed_and_a_simulation_budget_give_the_same_choice() -> None:
    planner = Planner(SMALL)
    compared = 0
    for state in _positions(20) + _asked_together(3):
        for seat in PLUGIN.deciding_seats(state):
            observation = PLUGIN.observe(state, seat)
            first, again = (planner.choose(observation, seed=5) for _ in range(2))
            assert (first.action, first.iterations, first.root) == (
                again.action,
                again.iterations,
                again.root,
            )
            assert first.iterations <= SMALL.simulations
            compared += first.iterations > 0
    assert compared >= 10


def test_the_search_never_reads_what_its_seat_may_not_see() -> None:
    """Two true states the seat cannot tell apart (its hidden part redrawn) get the very same search."""
    planner = Planner(SMALL)
    poisoned_differently = 0
    for index, state in enumerate(_positions(40)):
        seat = state.decider
        poisoned = PLUGIN.resample_hidden(state, seat, random.Random(index + 1000))
        observation = PLUGIN.observe(state, seat)
        assert PLUGIN.observe(poisoned, seat) == observation
        poisoned_differently += poisoned.to_json() != state.to_json()
        truth, lie = (planner.choose(PLUGIN.observe(s, seat), seed=index) for s in (state, poisoned))
        assert (truth.action, truth.root) == (lie.action, lie.root)
    assert poisoned_differently >= 20
