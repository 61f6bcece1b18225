"""An OpenSpiel game for learning: its own action ids and its own tensor of what a seat may know.

OpenSpiel numbers a game's actions ``0 .. num_distinct_actions()-1`` and gives each seat an
information-state tensor, or an observation tensor where it has none (as OpenSpiel's own
``rl_environment`` chooses); both are read from the seat's observation, never from the state. Both
depend on the game's parameters and table size (goofspiel's ``num_cards``, poker's players), so a
game's numbers are made per table, by :func:`tensors_for`; a game giving neither tensor declares none.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from math import prod
from typing import Any

from sdk.games.tensors import ActionSpace, Features, TensorSpec, Writer

from .actions import Action
from .observation import Observation
from .params import load
from .state import new_game

#: The one block of the tensor: the seat's OpenSpiel tensor, flattened.
BLOCK = "tensor"


def _encode_information_state(observation: Observation, tensor: Writer) -> None:
    tensor.put(BLOCK, observation.information_state_tensor.values)


def _encode_observation(observation: Observation, tensor: Writer) -> None:
    tensor.put(BLOCK, observation.observation_tensor.values)


def legal(observation: Observation) -> list[Action]:
    """The actions the observation lists for its deciding seat."""
    return [Action(number) for number, _ in observation.legal]


def tensors_for(spiel_name: str, players: int, params: Mapping[str, Any]) -> TensorSpec[Action] | None:
    """The numbers of ``spiel_name`` for ``players`` seats and ``params``; None for a game with no tensor."""
    return _tensors(spiel_name, players, json.dumps(dict(params), sort_keys=True))


@cache
def _tensors(spiel_name: str, players: int, params_json: str) -> TensorSpec[Action] | None:
    game = new_game(load(spiel_name, json.loads(params_json)), players).loaded.game
    kind = game.get_type()
    if kind.provides_information_state_tensor:
        shape, encoder = game.information_state_tensor_shape(), _encode_information_state
    elif kind.provides_observation_tensor:
        shape, encoder = game.observation_tensor_shape(), _encode_observation
    else:
        return None
    actions = ActionSpace(Action(number) for number in range(game.num_distinct_actions()))
    return TensorSpec(actions, Features(((BLOCK, prod(shape)),)), encoder, legal)
