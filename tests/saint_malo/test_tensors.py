"""Saint Malo's tensors: every legal action numbered, the tensor fixed-shape and finite."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sdk.games.saint_malo.state import new_game
from sdk.games.saint_malo.tensors import TENSORS
from sdk.tensor_arrays import tensor_array


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_legal_action_is_numbered_and_tensor_is_finite(players: int) -> None:
    rng = random.Random(players)
    state = new_game(players)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        for action in TENSORS.legal(state):
            TENSORS.actions.index(action)
        tensor = tensor_array(TENSORS.encode(state))
        assert tensor.shape == TENSORS.shape
        assert np.isfinite(tensor).all() and tensor.min() >= 0.0 and tensor.max() <= 1.0
        state.apply(state.sample_action(rng))
