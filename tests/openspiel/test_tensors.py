"""OpenSpiel games as learning environments: OpenSpiel's own action ids and tensors, per table."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from sdk.env import aec_env
from sdk.games.openspiel import Action
from sdk.games.registry import get_game
from sdk.games.tensors import tensors_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "players", "params"),
    [
        ("kuhn_poker", 2, {}),
        ("kuhn_poker", 3, {}),
        ("goofspiel", 2, {"num_cards": 5}),
        ("connect_four", 2, {}),
    ],
)
def test_the_numbers_are_openspiels_own_for_the_table(
    name: str, players: int, params: dict[str, int]
) -> None:
    plugin = get_game(f"openspiel:{name}")
    tensors = tensors_of(plugin, players, params)
    game = env_game(plugin.name, players, params)
    kind = game.get_type()
    shape = (
        game.information_state_tensor_shape()
        if kind.provides_information_state_tensor
        else game.observation_tensor_shape()
    )
    assert tensors.shape == (int(np.prod(shape)),)
    assert tensors.actions.size == game.num_distinct_actions()
    assert [tensors.actions.index(Action(number)) for number in range(game.num_distinct_actions())] == list(
        range(game.num_distinct_actions())
    )


def env_game(name: str, players: int, params: dict[str, int]) -> pyspiel.Game:
    """The pyspiel game an environment of that table plays."""
    table = aec_env(name, players, params).table
    table.reset(random.Random(0))
    return table.state.loaded.game


def test_a_seats_tensor_is_its_information_state_tensor() -> None:
    env = aec_env("openspiel:leduc_poker", 2)
    env.reset(seed=4)
    state = env.table.state
    for seat, agent in enumerate(env.possible_agents):
        expected = np.asarray(state.spiel.information_state_tensor(seat), dtype=np.float32)
        assert env.observe(agent)["observation"].tobytes() == expected.tobytes()


def test_a_larger_table_is_an_environment_of_its_own_shape() -> None:
    env = aec_env("openspiel:kuhn_poker", 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=30)
    three, two = (
        env.observation_spaces["seat_0"],
        aec_env("openspiel:kuhn_poker", 2).observation_spaces["seat_0"],
    )
    assert three["observation"].shape != two["observation"].shape


def test_a_game_giving_no_tensor_declares_none() -> None:
    assert not pyspiel.load_game("cribbage").get_type().provides_observation_tensor
    with pytest.raises(ValueError, match="openspiel:cribbage declares no tensors"):
        tensors_of(get_game("openspiel:cribbage"), 2)


def test_the_policy_bot_is_served_for_the_table_it_names_and_refuses_bad_params_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sdk.policy_bot", "json:loads", "--game", "openspiel:kuhn_poker",
         "--params", json.dumps([1])],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "error: --params is a JSON object, not '[1]'\n"
