"""Flat Monte Carlo over candidates (``sdk.search.compare_candidates``) on every installed game's
real states: common deals, reproducible, the better candidate found, the first kept within the margin."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sdk.games.plugin import GameState
from sdk.games.registry import games, get_game
from sdk.search import CandidateBudget, compare_candidates, determinizer

GAMES = sorted(games())


def _dealer(name: str) -> Any:
    """Deals of a fresh 2-player game's first decision, as seat 0 knows it."""
    plugin = get_game(name)
    state = plugin.new_state(2, {})
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    seat = state.current_player
    return determinizer(plugin, plugin.observe(state, seat), seat)


def _noisy(worth: dict[str, float]) -> Any:
    """A playout worth ``worth[candidate]`` plus noise from the deal's chance (the same for all)."""

    def playout(state: GameState, action: str, rng: random.Random) -> float:
        return worth[action] + rng.gauss(0, 1)

    return playout


@pytest.mark.parametrize("name", GAMES)
def test_every_candidate_is_played_on_the_same_deals(name: str) -> None:
    seen: dict[str, list[tuple[str, float]]] = {"a": [], "b": [], "c": []}

    def playout(state: GameState, action: str, rng: random.Random) -> float:
        seen[action].append((repr(state.scores()), rng.random()))
        state.apply(state.legal_actions()[0])  # the copy is the playout's own
        return 0.0

    result = compare_candidates(["a", "b", "c"], _dealer(name), playout, CandidateBudget(playouts=12), 3)
    assert result.iterations == 12
    assert seen["a"] == seen["b"] == seen["c"] and len(seen["a"]) == 4
    assert len({chance for _, chance in seen["a"]}) == 4, "each deal has its own chance"


@pytest.mark.parametrize("halving", [False, True])
def test_the_better_candidate_wins_despite_the_noise(halving: bool) -> None:
    worth = {"first": 0.0, "weak": -0.5, "better": 0.6, "worse": -1.0}
    budget = CandidateBudget(playouts=64, halving=halving)
    for seed in range(5):
        result = compare_candidates(list(worth), _dealer("saint_malo"), _noisy(worth), budget, seed)
        assert result.action == "better"
        assert result.iterations <= 64


def test_halving_gives_the_best_candidates_the_most_deals() -> None:
    worth = {"a": 0.0, "b": -3.0, "c": 3.0, "d": -3.0}
    result = compare_candidates(
        list(worth), _dealer("saint_malo"), _noisy(worth), CandidateBudget(48, halving=True), 1
    )
    visits = {stats.action: stats.visits for stats in result.root}
    assert visits["a"] == visits["c"] > visits["b"] == visits["d"] > 0


def _exact(worth: dict[str, float]) -> Any:
    """A playout worth exactly ``worth[candidate]``, whatever the deal."""

    def exact(state: GameState, action: str, rng: random.Random) -> float:
        return worth[action]

    return exact


def test_the_first_candidate_is_kept_within_the_margin_and_overruled_beyond_it() -> None:
    worth = {"heuristic": 0.0, "other": 0.4}
    deal = _dealer("saint_malo")
    kept = compare_candidates(list(worth), deal, _exact(worth), CandidateBudget(8, margin=0.5), 1)
    overruled = compare_candidates(list(worth), deal, _exact(worth), CandidateBudget(8, margin=0.3), 1)
    assert (kept.action, overruled.action) == ("heuristic", "other")
    tied = {"heuristic": 0.0, "other": 0.0}
    assert compare_candidates(list(tied), deal, _exact(tied), CandidateBudget(8), 1).action == "heuristic"


def test_same_seed_and_budget_give_the_same_comparison() -> None:
    worth = {"a": 0.0, "b": 0.1, "c": 0.05}
    deal = _dealer("saint_malo")
    runs = [
        compare_candidates(list(worth), deal, _noisy(worth), CandidateBudget(30, halving=True), 11).root
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    other = compare_candidates(list(worth), deal, _noisy(worth), CandidateBudget(30, halving=True), 12).root
    assert other != runs[0]


def test_an_expired_time_limit_still_plays_the_minimum_deals() -> None:
    worth = {"a": 0.0, "b": 1.0}
    budget = CandidateBudget(1000, seconds=1e-9, min_deals=2)
    result = compare_candidates(list(worth), _dealer("saint_malo"), _exact(worth), budget, 1)
    assert result.iterations == 4 and result.action == "b"


def test_a_single_candidate_is_answered_without_playouts_and_none_is_refused() -> None:
    def never(state: GameState, action: str, rng: random.Random) -> float:
        raise AssertionError("a lone candidate needs no playout")

    assert compare_candidates(["only"], _dealer("saint_malo"), never, CandidateBudget(10), 1).action == "only"
    with pytest.raises(ValueError, match="no candidate"):
        compare_candidates([], _dealer("saint_malo"), never, CandidateBudget(10), 1)
    with pytest.raises(ValueError, match="at least one playout"):
        CandidateBudget(0)
