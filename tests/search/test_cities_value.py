"""The learned Cities evaluation: what it reads, what it returns, and how its weights are fitted."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np

from bots.cities import value
from bots.cities.train_value import GameJob, fit, main, play_and_record
from bots.cities.value_weights import TRAINED_BY, WEIGHTS
from sdk.games import cities as ci
from sdk.games.play import RandomPolicy, play_to_end


def _positions(players: int, seed: int) -> list[ci.State]:
    """Every position of a random game, the finished one included."""
    rng = random.Random(seed)
    policy = RandomPolicy(random.Random(seed + 1))
    seen = []

    def watched(state: ci.State) -> ci.Action:
        seen.append(state.clone())
        action: ci.Action = policy(state)
        return action

    final = play_to_end(ci.new_game(players), [watched] * players, rng)
    return [*seen, final]


def test_the_shipped_weights_fit_the_features_for_every_model() -> None:
    assert set(WEIGHTS) == set(value.MODEL_PLAYERS) == set(TRAINED_BY)
    for weights in WEIGHTS.values():
        assert len(weights) == value.FEATURES
        assert any(weights)
    assert [value.model_for(n) for n in range(ci.MIN_PLAYERS, ci.MAX_PLAYERS + 1)] == [2, 4, 4, 4, 4]


def test_a_win_probability_is_a_probability_and_a_finished_game_its_result() -> None:
    for players, seed in ((2, 3), (4, 4), (6, 5)):
        states = _positions(players, seed)
        for state in states[::7]:
            assert len(value.features(state, 0)) == value.FEATURES
            for seat in range(players):
                assert 0.0 < value.win_probability(state, seat) < 1.0
        last = states[-1]
        results = [value.win_probability(last, seat) for seat in range(players)]
        assert sum(results) == 1.0
        ranks = last.ranks()
        assert results == [1 / ranks.count(1) if rank == 1 else 0.0 for rank in ranks]


def test_the_features_read_nothing_the_seat_cannot_see() -> None:
    """Two true states the seat cannot tell apart (its hidden part dealt twice) give equal features."""
    for players, seed in ((2, 6), (4, 7)):
        for state in _positions(players, seed)[5:-1:11]:
            for seat in range(players):
                observation = state.observation(seat)
                first = ci.determinize(observation, random.Random(1))
                second = ci.determinize(observation, random.Random(2))
                assert (
                    value.features(first, seat) == value.features(second, seat) == value.features(state, seat)
                )


def test_the_fit_recovers_a_known_logistic_model() -> None:
    rng = np.random.default_rng(11)
    x = np.column_stack([rng.normal(3.0, 2.0, 40_000), rng.integers(0, 5, 40_000), np.ones(40_000)])
    truth = np.array([0.8, -0.5, -1.2])
    y = (rng.random(40_000) < 1 / (1 + np.exp(-(x @ truth)))).astype(float)
    assert np.allclose(fit(x, y), truth, atol=0.06)


def test_self_play_records_each_position_from_every_seat_with_its_outcome() -> None:
    xs, ys = play_and_record(GameJob(3, 42, None))
    assert xs and len(xs) == len(ys) and len(xs) % 3 == 0
    assert all(len(x) == value.FEATURES for x in xs)
    for group in range(0, len(ys), 3):
        assert sum(ys[group : group + 3]) == 1.0  # one game's result, seen from each seat
    assert play_and_record(GameJob(3, 42, None)) == (xs, ys)
    learned = play_and_record(GameJob(3, 42, WEIGHTS[4]))
    assert learned != (xs, ys)  # the fitted evaluation plays differently


def test_training_writes_an_importable_module_and_the_same_one_for_the_same_seed(tmp_path: Path) -> None:
    out = [tmp_path / "first.py", tmp_path / "second.py"]
    for path in out:
        main(["--players", "2", "--games", "6", "--rounds", "2", "--workers", "1", "--out", str(path)])
    assert out[0].read_text() == out[1].read_text()
    spec = importlib.util.spec_from_file_location("trained", out[0])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert len(module.WEIGHTS[2]) == value.FEATURES and module.WEIGHTS[2] != WEIGHTS[2]
    assert module.WEIGHTS[4] == WEIGHTS[4]  # a model not trained is kept as it was
    assert module.TRAINED_BY[2].endswith("--players 2 --games 6 --rounds 2 --seed 1")
