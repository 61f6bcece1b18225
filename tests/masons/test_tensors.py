"""Masons' tensors: every numbered decision's options numbered, the options read from the deciding
seat's observation equal the engine's, and the tensor fixed-shape, finite and within [0, 1]."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import numpy as np
import pytest

from sdk.games.masons.actions import Swap
from sdk.games.masons.hidden import resample_hidden
from sdk.games.masons.observation import observe
from sdk.games.masons.phases import SWAP
from sdk.games.masons.tensors import ACTIONS, FEATURES, TENSORS
from sdk.tensor_arrays import tensor_array

from .walk import walk

SEEDS = range(4)
TIMES = "\N{MULTIPLICATION SIGN}"  # between the lengths of a block of blocks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_options_are_the_engines_and_numbered(players: int) -> None:
    decided = 0
    for seed in SEEDS:
        for state, _ in walk(seed * 10 + players, players):
            if state.is_chance_node():
                continue
            observation = observe(state, state.current_player)
            options = TENSORS.legal(observation)
            assert options == state.legal_actions()
            if state.phase != SWAP:
                ACTIONS.indices(options)
            decided += 1
    assert decided > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seats_tensor_is_fixed_shape_finite_and_in_unit_range(players: int) -> None:
    for state, _ in walk(players, players):
        for seat in range(players):
            tensor = tensor_array(TENSORS.encode(observe(state, seat)))
            assert tensor.shape == TENSORS.shape
            assert np.isfinite(tensor).all() and tensor.min() >= 0.0 and tensor.max() <= 1.0


def test_a_seats_tensor_and_options_hold_nothing_it_may_not_see() -> None:
    """The other hands and the draw pile's order redrawn: the same tensor and options (M9)."""
    rng = random.Random(9)
    for state, _ in walk(9, 4):
        for seat in range(4):
            observation = observe(state, seat)
            twin = observe(resample_hidden(state, seat, rng), seat)
            assert TENSORS.encode(twin).tobytes() == TENSORS.encode(observation).tobytes()
            assert TENSORS.legal(twin) == TENSORS.legal(observation)


def test_a_seats_own_cards_are_in_its_tensor() -> None:
    state = next(state for state, _ in walk(3, 2) if not state.is_chance_node())
    before = TENSORS.encode(observe(state, 0)).tobytes()
    held = next(kind for kind, n in enumerate(state.hands[0]) if n)
    state.hands[0][held] -= 1
    state.hands[0][(held + 1) % len(state.hands[0])] += 1
    assert TENSORS.encode(observe(state, 0)).tobytes() != before


def test_swaps_are_not_numbered() -> None:
    with pytest.raises(KeyError):
        ACTIONS.index(Swap(()))


def test_the_bot_pages_table_is_the_layout() -> None:
    page = (Path(__file__).parents[2] / "docs" / "bots-masons.md").read_text()
    section = page[page.index("## Tensors") :]
    rows = re.findall(rf"^\| `(\w+)` \| ([\d {TIMES}]+) \|", section, re.MULTILINE)
    listed = [(name, math.prod(int(n) for n in length.split(TIMES))) for name, length in rows]
    assert listed == list(FEATURES.blocks)
    assert f"**Actions** ({ACTIONS.size:,}" in section and f"{FEATURES.size:,} float32" in section
