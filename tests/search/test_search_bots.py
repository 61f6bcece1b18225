"""The search bots answer from their observation, legally, and a heuristic prior is kept or vetoed."""

from __future__ import annotations

import random

import pytest

from bots.cities.search import CitiesSearchBot, evaluate
from sdk.games.bruges.plugin import BrugesPlugin
from sdk.games.decisions import DecisionContext
from sdk.games.plugin import GameState
from sdk.games.registry import get_game
from sdk.search import Budget, InformationSetSearch, SearchConfig, determinizer

from .test_toolkit import _position


@pytest.mark.parametrize("bot", [CitiesSearchBot])
def test_a_search_bot_answers_legally_from_its_observation(
    bot: type[CitiesSearchBot],
) -> None:
    player = bot()
    plugin = player.plugin
    for seed in range(4):
        state = _position(plugin, 2 + seed % 2, seed, steps=10 * seed)
        for seat in plugin.deciding_seats(state):
            context = DecisionContext(f"m{seed}", 1, seat, 1000, 0, player.game)
            action = player.decide(plugin.decision_kind(state), plugin.observe(state, seat), context)
            assert action in state.legal_actions()


def _decision(name: str, seed: int) -> tuple[GameState, int]:
    """A position of ``name`` where the deciding seat has a choice, and that seat."""
    plugin = get_game(name)
    for attempt in range(50):
        state = _position(plugin, 2, seed + attempt, steps=12)
        if len(state.legal_actions()) > 1:
            return state, state.current_player
    raise AssertionError("no position with a choice")


def test_a_preferred_action_is_kept_within_the_margin_and_vetoed_beyond_it() -> None:
    plugin = get_game("cities")
    config = SearchConfig(rollout_steps=20)
    for seed in range(40):  # a decision where the search tells its actions apart
        state = _position(plugin, 2, seed, steps=40)
        if state.is_terminal():
            continue
        seat = state.current_player
        deal = determinizer(plugin, plugin.observe(state, seat), seat)
        plain = InformationSetSearch(Budget(iterations=60), evaluate=evaluate, config=config).search(deal, 5)
        visited = [s for s in plain.root if s.visits]
        if max(s.mean for s in visited) - min(s.mean for s in visited) > 0.05:
            break
    else:
        raise AssertionError("no decision where the search tells actions apart")
    worst = min(visited, key=lambda s: s.mean).action

    def search(margin: float) -> InformationSetSearch:
        return InformationSetSearch(
            Budget(iterations=60),
            evaluate=evaluate,
            config=SearchConfig(rollout_steps=20, prefer_margin=margin),
        )

    assert search(1.0).search(deal, 5, prefer=worst).action == worst
    strict = search(0.0).search(deal, 5, prefer=worst)
    kept = next(s for s in strict.root if s.action == worst)
    assert kept.mean < max(s.mean for s in strict.root if s.visits)  # the search found better: vetoed
    assert strict.action != worst
    assert strict.action in state.legal_actions()


class _BrugesWithoutDeterminize(BrugesPlugin):
    """Bruges as a game would be that hides cards but offers no ``determinize`` (it is optional)."""

    determinize = None  # type: ignore[assignment]


def test_an_observation_that_is_not_a_state_needs_the_game_to_determinize() -> None:
    plugin = _BrugesWithoutDeterminize()
    state = _position(plugin, 2, 1, steps=5)
    seat = state.current_player
    with pytest.raises(TypeError, match="determinize"):
        determinizer(plugin, plugin.observe(state, seat), seat)


def test_the_search_is_not_fooled_by_a_random_number_generator_left_over() -> None:
    """Searches draw from their own seeded RNG only: the global one's state changes nothing."""
    plugin = get_game("masons")
    state, seat = _decision("masons", 9)
    deal = determinizer(plugin, plugin.observe(state, seat), seat)
    search = InformationSetSearch(Budget(iterations=30), config=SearchConfig(rollout_steps=15))
    random.seed(1)
    first = search.search(deal, 2)
    random.seed(2)
    second = search.search(deal, 2)
    assert first.action == second.action and first.root == second.root
