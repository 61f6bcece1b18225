"""The search toolkit over every installed game: reproducible, always legal, blind to secrets."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdk.games.decisions import DecisionContext
from sdk.games.plugin import GamePlugin, GameState
from sdk.games.registry import games
from sdk.search import (
    Budget,
    InformationSetSearch,
    SearchConfig,
    determinizer,
    random_rollout,
    rank_rewards,
    seated,
)
from sdk.search.bot import SearchBot

GAMES = sorted(games())
SHORT = SearchConfig(rollout_steps=30)


def _position(plugin: GamePlugin, players: int, seed: int, steps: int) -> GameState:
    """A position reached by random play, at a pending decision (or the game's start)."""
    rng = random.Random(seed)
    state = plugin.new_state(players, {})
    for _ in range(steps):
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        if state.is_terminal():
            break
        actions = state.legal_actions()
        previous: GameState = state.clone()
        state.apply(actions[rng.randrange(len(actions))])
        if state.is_terminal():
            return previous
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def test_rank_rewards_give_each_seat_its_share_of_seats_beaten() -> None:
    assert rank_rewards([10, 3]) == [1.0, 0.0]
    assert rank_rewards([5, 5]) == [0.5, 0.5]
    assert rank_rewards([1, 9, 5, 5]) == [0.0, 1.0, 0.5, 0.5]
    assert rank_rewards([1, 2, 3], higher_is_better=False) == [1.0, 0.5, 0.0]


def test_a_budget_needs_a_limit() -> None:
    with pytest.raises(ValueError, match="iterations, seconds"):
        Budget()
    with pytest.raises(ValueError, match="at least 1"):
        Budget(iterations=0)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_and_iterations_give_the_same_search(name: str) -> None:
    plugin = games()[name]
    state = _position(plugin, plugin.min_players, seed=7, steps=5)
    seat = state.current_player

    def run(seed: int) -> tuple[object, ...]:
        result = InformationSetSearch(Budget(iterations=25), config=SHORT).search(
            lambda rng: plugin.resample_hidden(state, seat, rng), seed
        )
        return (result.action, result.iterations, [(s.action, s.visits, s.mean) for s in result.root])

    assert run(11) == run(11)
    assert run(11)[1] == 25


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), extra=st.integers(0, 3))
def test_the_search_only_answers_legal_actions(name: str, seed: int, steps: int, extra: int) -> None:
    plugin = games()[name]
    players = min(plugin.max_players, plugin.min_players + extra)
    state = _position(plugin, players, seed, steps)
    if state.is_terminal():
        return
    seat = state.current_player
    search = InformationSetSearch(
        Budget(iterations=12), config=SearchConfig(rollout_steps=20, widening_base=1.0)
    )
    result = search.search(lambda rng: plugin.resample_hidden(state, seat, rng), seed)
    assert result.action in state.legal_actions()
    twin = state.clone()
    twin.apply(result.action)  # the engine's own check (raises on an illegal action)


OBSERVED = [name for name in GAMES if getattr(games()[name], "determinize", None) is not None]


@pytest.mark.parametrize("name", OBSERVED)
def test_the_search_never_reads_what_the_seat_may_not_see(name: str) -> None:
    """Two true states a seat cannot tell apart (its hidden part poisoned: redrawn) get the same search."""
    plugin = games()[name]
    for seed in range(3):
        state = _position(plugin, plugin.min_players, seed=seed, steps=20 + 15 * seed)
        seat = state.current_player
        poisoned = plugin.resample_hidden(state, seat, random.Random(seed + 1000))
        observation = plugin.observe(state, seat)
        assert plugin.observe(poisoned, seat) == observation
        assert poisoned.to_json() != state.to_json() or seed  # the poison changed something hidden
        results = [
            InformationSetSearch(Budget(iterations=20), config=SHORT).search(
                determinizer(plugin, plugin.observe(truth, seat), seat), seed
            )
            for truth in (state, poisoned)
        ]
        assert results[0].action == results[1].action
        assert [(s.action, s.visits, s.mean) for s in results[0].root] == [
            (s.action, s.visits, s.mean) for s in results[1].root
        ]


def test_a_seat_asked_with_others_searches_its_own_decision() -> None:
    """Where several seats are asked at once, each gets deals where it decides, and a legal answer."""
    asked_together = 0
    for name in OBSERVED:
        plugin = games()[name]
        bot = SearchBot(name, InformationSetSearch(Budget(iterations=8), config=SHORT))
        for seed in range(60):
            state = _position(plugin, plugin.max_players, seed, steps=15 + seed)
            seats = () if state.is_terminal() else plugin.deciding_seats(state)
            if len(seats) < 2:
                continue
            for seat in seats[1:]:
                observation = plugin.observe(state, seat)
                deal = seated(determinizer(plugin, observation, seat), seat, random_rollout)
                assert deal(random.Random(seed)).current_player == seat
                context = DecisionContext(f"m{seed}", 1, seat, 0, 0, name)
                assert bot.decide(plugin.decision_kind(state), observation, context) in observation.options
                asked_together += 1
    assert asked_together  # some installed game asks seats together (Bruges' reputation step)
