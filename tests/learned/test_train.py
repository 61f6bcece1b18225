"""Training is reproducible: the same seed and number of episodes give the same weights."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from bots.learned.model import Network
from bots.learned.train import train

ROOT = Path(__file__).resolve().parents[2]


def weights(network: Network) -> list[np.ndarray]:
    return [network.inputs, network.offsets, network.embeddings, network.biases]


def test_the_same_seed_trains_the_same_weights() -> None:
    first, again = (train("saint_malo", seed=11, episodes=3, seconds=None) for _ in range(2))
    assert first.episodes == again.episodes == 3
    for a, b in zip(weights(first), weights(again), strict=True):
        assert a.tobytes() == b.tobytes()
    assert np.any(first.biases != 0), "three games moved the weights"
    other = train("saint_malo", seed=12, episodes=3, seconds=None)
    assert other.biases.tobytes() != first.biases.tobytes()


def test_the_script_saves_what_it_trained_and_the_file_loads_back(tmp_path: Path) -> None:
    out = tmp_path / "tiny.npz"
    command = [
        sys.executable,
        "-m",
        "bots.learned.train",
        "--episodes",
        "2",
        "--seed",
        "11",
        "--evaluate",
        "2",
    ]
    run = subprocess.run(
        [*command, "--out", str(out)], cwd=ROOT, check=True, capture_output=True, text=True, timeout=120
    )
    assert "trained 2 episodes" in run.stdout and "in 2 games" in run.stdout
    saved, again = Network.load(out), train("saint_malo", seed=11, episodes=2, seconds=None)
    assert saved.game == "saint_malo" and saved.episodes == 2
    for a, b in zip(weights(saved), weights(again), strict=True):
        assert a.tobytes() == b.tobytes()


def test_an_unknown_game_is_one_line_and_exit_2(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bots.learned.train", "--game", "no-such-game", "--episodes", "1",
         "--out", str(tmp_path / "x.npz")],
        cwd=ROOT, check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    assert not (tmp_path / "x.npz").exists()
