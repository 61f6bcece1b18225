"""The one in-process play loop (:mod:`sdk.games.play`) plays every installed game to the end, the
same way for the same random streams, and falls back to ``legal_actions`` and ``apply`` where an
engine has no ``sample_action`` or ``apply_unchecked`` (the example game has neither)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sdk.games.play import RandomPolicy, apply_unchecked, play_to_end, sample_action
from sdk.games.registry import get_game

from .example_install import installed_games_with_example

GAMES = installed_games_with_example()


def _game(name: str, seed: int, *, check: bool = True) -> tuple[Any, list[Any]]:
    plugin = get_game(name)
    steps: list[Any] = []
    policies = [RandomPolicy(random.Random(seed + seat)) for seat in range(plugin.min_players)]
    final = play_to_end(plugin, policies, random.Random(seed), check=check, steps=steps)
    return final, steps


@pytest.mark.parametrize("name", GAMES)
def test_a_game_is_played_to_the_end_and_its_steps_replay_it(name: str) -> None:
    plugin = get_game(name)
    final, steps = _game(name, 3)
    assert final.is_terminal() and steps
    again = plugin.new_state(plugin.min_players, {})
    for step in steps:
        again.apply(step)
    assert again.to_json() == final.to_json()
    assert _game(name, 3, check=False)[1] == steps, "unchecked play took another course"


@pytest.mark.parametrize("name", GAMES)
def test_play_goes_on_from_a_state_where_it_stands(name: str) -> None:
    plugin = get_game(name)
    _, steps = _game(name, 5)
    state = plugin.new_state(plugin.min_players, {})
    for step in steps[:3]:
        state.apply(step)
    rest: list[Any] = []
    policies = [RandomPolicy(random.Random(seat)) for seat in range(plugin.min_players)]
    final = play_to_end(state, policies, random.Random(9), steps=rest)
    assert final is state and final.is_terminal()
    replayed = plugin.new_state(plugin.min_players, {})
    for step in [*steps[:3], *rest]:
        replayed.apply(step)
    assert replayed.to_json() == final.to_json()


class _Bare:
    """An engine with only the contract's methods: no sampler, no unchecked apply."""

    def __init__(self) -> None:
        self.applied: list[int] = []

    def legal_actions(self) -> list[int]:
        return [4, 5, 6]

    def apply(self, step: int) -> None:
        self.applied.append(step)


def test_an_engine_without_the_fast_paths_gets_the_contract_s_methods() -> None:
    bare = _Bare()
    assert sample_action(bare, random.Random(1)) in (4, 5, 6)  # type: ignore[arg-type]
    apply_unchecked(bare)(5)  # type: ignore[arg-type]
    assert bare.applied == [5]
