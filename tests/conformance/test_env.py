"""Every game that declares tensors is a learning environment that the ecosystem's own checks accept.

PettingZoo's ``api_test`` and ``seed_test`` on :func:`sdk.env.aec_env`, Gymnasium's ``check_env`` on
:func:`sdk.env.gym_env`, and the secrecy property of tensors: what a seat's tensor and action mask
say does not change when what it may not see is redrawn.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from benchmarks import env_speed
from sdk.env import aec_env, gym_env
from sdk.games.plugin import GamePlugin
from sdk.games.registry import get_game
from sdk.games.tensors import Tensors, action_mask, tensors_of

from .example_install import installed_games_with_example

GAMES = installed_games_with_example()
ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(3)


@pytest.fixture(params=GAMES)
def plugin(request: pytest.FixtureRequest) -> GamePlugin:
    plugin = get_game(request.param)
    if not _declares_tensors(plugin):
        pytest.skip(f"{plugin.name} declares no tensors")
    return plugin


def _declares_tensors(plugin: GamePlugin) -> bool:
    try:
        tensors_of(plugin)
    except ValueError:
        return False
    return True


def _random_game(plugin: GamePlugin, players: int, seed: int) -> list[tuple[int, dict[str, np.ndarray]]]:
    """A seeded game of random masked actions: the acting seat and what it observed, at each step."""
    env = aec_env(plugin, players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seen.append((env.agents.index(agent), observation))
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return seen


def test_pettingzoo_api_and_seed_tests_pass(plugin: GamePlugin) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its hints that a Dict with a mask is not a Box
        api_test(aec_env(plugin, plugin.max_players), num_cycles=300)
        seed_test(lambda: aec_env(plugin, plugin.max_players), num_cycles=300)


def test_gymnasium_check_env_passes(plugin: GamePlugin) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(plugin, players=max(2, plugin.min_players)), skip_render_check=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_and_actions_give_the_same_game(plugin: GamePlugin, seed: int) -> None:
    first, second = (_random_game(plugin, plugin.min_players, seed) for _ in range(2))
    assert len(first) == len(second) > 0
    for (seat, seen), (again_seat, again) in zip(first, second, strict=True):
        assert seat == again_seat
        assert seen["observation"].tobytes() == again["observation"].tobytes()
        assert seen["action_mask"].tobytes() == again["action_mask"].tobytes()


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seats_tensor_and_mask_do_not_change_when_its_hidden_part_is_redrawn(
    plugin: GamePlugin, seed: int
) -> None:
    tensors = tensors_of(plugin)
    env = aec_env(plugin, plugin.max_players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    decisions = 0
    while not env.table.over:
        state, deciding = env.table.state, env.table.seat
        for seat in range(plugin.max_players):
            observation = plugin.observe(state, seat)
            redrawn = plugin.observe(plugin.resample_hidden(state, seat, rng), seat)
            assert tensors.encode(redrawn).tobytes() == tensors.encode(observation).tobytes()
            if seat == deciding:
                assert action_mask(tensors, redrawn) == action_mask(tensors, observation)
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask.any(), "the deciding seat has a legal action"
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        decisions += 1
    assert decisions > 0


def test_every_legal_action_is_numbered_and_tensors_have_the_declared_shape(plugin: GamePlugin) -> None:
    tensors = tensors_of(plugin)
    rng = random.Random(7)
    state = plugin.new_state(plugin.max_players, {})
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player
        observation = plugin.observe(state, seat)
        vector = tensors.encode(observation)
        assert vector.typecode == "f" and (len(vector),) == tensors.shape
        legal = state.legal_actions()
        assert set(tensors.legal(observation)) == set(legal)
        if tensors.in_parts(observation):
            made = _wholes(tensors, observation, ())
            assert len(made) == len(set(made)), "each action is made by one sequence of parts only"
            assert set(made) == set(legal)
        else:
            assert len({tensors.actions.index(action) for action in legal}) == len(set(legal))
        state.apply(rng.choice(legal))


def _wholes(tensors: Tensors, observation: Any, chosen: tuple[Any, ...]) -> list[Any]:
    """Every action the parts open after ``chosen`` can make, once per sequence that makes it."""
    made = []
    for part in tensors.options(observation, chosen):
        tensors.actions.index(part)  # every part is numbered
        whole = tensors.whole((*chosen, part))
        if whole is None:
            vector = tensors.encode(observation, (*chosen, part))
            assert (len(vector),) == tensors.shape
            made += _wholes(tensors, observation, (*chosen, part))
        else:
            made.append(whole)
    return made


def test_env_speed_measures_both_sides(plugin: GamePlugin) -> None:
    figures = env_speed.run(plugin.name, games=2, players=plugin.max_players, seed=1)
    assert figures["env_steps_per_s"] > 0 and figures["engine_decisions_per_s"] > 0
    assert figures["ratio"] == figures["env_steps_per_s"] / figures["engine_decisions_per_s"]
    engine_s, loop_s = 1 / figures["engine_decisions_per_s"], 1 / figures["loop_steps_per_s"]
    assert figures["ratio_ceiling"] == pytest.approx(engine_s / (engine_s + loop_s))


def test_env_speed_refuses_a_game_without_tensors_in_one_line() -> None:
    undeclared = [name for name in GAMES if not _declares_tensors(get_game(name))]
    if not undeclared:
        pytest.skip("every installed game declares tensors")
    done = subprocess.run(
        [sys.executable, "benchmarks/env_speed.py", "--game", undeclared[0]],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert (
        done.stderr
        == f"env_speed: {undeclared[0]} declares no tensors (a tensors.py in its folder; docs/learning.md)\n"
    )


def test_an_action_outside_the_mask_is_a_strike_the_safe_default_played(plugin: GamePlugin) -> None:
    players = max(2, plugin.min_players)
    env, again = gym_env(plugin, players=players), gym_env(plugin, players=players)
    observation, _ = env.reset(seed=3)
    again.reset(seed=3)
    illegal = np.flatnonzero(observation["action_mask"] == 0)
    if not illegal.size:
        pytest.skip("every action is legal at the first decision")
    default = tensors_of(plugin).actions.index(plugin.default_action(env.table.state))
    _, _, _, _, info = env.step(int(illegal[0]))
    _, _, _, _, played = again.step(default)
    assert "strike" in info and "strike" not in played
    assert env.table.state.to_json() == again.table.state.to_json()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_gymnasium_env_with_the_same_seed_and_actions_plays_the_same_game(
    plugin: GamePlugin, seed: int
) -> None:
    finals = []
    for _ in range(2):
        env = gym_env(plugin, players=max(2, plugin.min_players))
        observation, _ = env.reset(seed=seed)
        rng, over = np.random.default_rng(seed), False
        while not over:
            observation, _, over, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        finals.append(env.table.state.to_json())
    assert finals[0] == finals[1]
