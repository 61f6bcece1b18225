"""The committed Saint Malo policy: it loads, answers legal action numbers, always the same, and beats
the random bot through the referee (seeded in-process matches; the sandboxed bracket is the slow test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bots.learned import policy
from sdk.env import gym_env
from sdk.games.registry import get_game
from sdk.games.tensors import tensors_of
from server.intervals import wilson
from server.referee import run_match
from server.seats import SeatSpec

ROOT = Path(__file__).resolve().parents[2]


def test_the_weights_are_a_small_file_trained_for_saint_malo() -> None:
    assert policy.WEIGHTS.stat().st_size < 1_000_000
    network = policy.network()
    assert network.game == "saint_malo" and network.episodes > 0
    assert network.biases.shape == (tensors_of(get_game("saint_malo")).actions.size,)


def test_the_policy_answers_a_legal_action_and_the_same_one_again() -> None:
    env = gym_env("saint_malo", players=2, seat=1)
    observation, _ = env.reset(seed=3)
    for _ in range(40):
        tensor, mask = observation["observation"], observation["action_mask"]
        index = policy.act(tensor, mask)
        assert mask[index] == 1
        assert policy.act(tensor.copy(), mask.copy()) == index
        observation, _, over, _, info = env.step(index)
        assert "strike" not in info
        if over:
            break


def test_the_policy_beats_random_through_the_referee(tmp_path: Path) -> None:
    plugin = get_game("saint_malo")
    learned = SeatSpec(name="learned", bot_class="bots.learned.policy:LearnedBot")
    random = SeatSpec(name="random", bot_class="bots.random:RandomBot")
    games, wins = 8, 0
    for match in range(games):
        seat = match % 2
        seats = [learned, random] if seat == 0 else [random, learned]
        record = run_match(plugin, seats, match_id=f"learned-{match}", seed=match, log_dir=tmp_path)
        assert record.end_reason == "completed"
        assert all(step.source == "bot" for step in record.steps if step.seat is not None)
        wins += record.ranks[seat] < record.ranks[1 - seat]  # ahead of random, not tied
    assert wilson(wins / games, games)[0] > 0.5, f"{wins} wins in {games}"


@pytest.mark.slow
def test_the_sandboxed_bracket_is_won_clearly(tmp_path: Path) -> None:
    database = tmp_path / "learned.db"
    smtourney = [sys.executable, "-m", "server"]
    bracket = ROOT / "tournaments" / "learned-saint-malo.yaml"
    run = subprocess.run(
        [*smtourney, "run", str(bracket), "--db", str(database)],
        cwd=ROOT, check=False, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    listing = subprocess.run(
        [*smtourney, "standings", "--db", str(database), "--json"],
        cwd=ROOT, check=True, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    row = next(row for row in json.loads(listing.stdout) if row["name"] == "learned")
    assert row["strikes"] == 0 and row["forfeits"] == 0
    assert wilson(row["wins"] / row["matches"], row["matches"])[0] > 0.5, row
