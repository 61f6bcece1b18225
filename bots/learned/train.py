"""Trains the learned policy against the random bot with REINFORCE, numpy alone, through ``sdk.env.gym_env``.

    python -m bots.learned.train --game saint_malo --seconds 240 --out bots/learned/saint_malo.npz

Each episode is one game for one seat (the seats taken in turn) against ``bots.random``; the reward is
the environment's, at the end: 1 for a win, -1 for a loss. Every decision's log-probability is pushed
up by the game's reward less a running mean of the rewards (the baseline), and Adam applies the
summed steps of a batch of games. The same seed and number of episodes train the same weights; a
time budget (``--seconds``) stops after the batch it ends in, and the file records how many episodes
were played, so ``--episodes`` trains them again.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sdk.env import gym_env

from .model import Floats, Indices, Network

HIDDEN = 8
BATCH = 8  # episodes summed into one step of Adam
LEARNING_RATE = 0.01
BASELINE_DECAY = 0.95


@dataclass
class Episode:
    """What a game's gradient needs from each decision of the learning seat."""

    tensors: list[Floats] = field(default_factory=list)
    hiddens: list[Floats] = field(default_factory=list)
    legals: list[Indices] = field(default_factory=list)
    pushes: list[Floats] = field(default_factory=list)  # d log p(chosen) / d scores of the legal actions


class Adam:
    """Adam over a list of arrays, updated in place (ascent)."""

    def __init__(self, weights: Sequence[Floats], rate: float) -> None:
        self.weights, self.rate, self.steps = weights, rate, 0
        self.first = [np.zeros_like(w) for w in weights]
        self.second = [np.zeros_like(w) for w in weights]

    def ascend(self, gradients: Sequence[Floats]) -> None:
        self.steps += 1
        for k, gradient in enumerate(gradients):
            self.first[k] = 0.9 * self.first[k] + 0.1 * gradient
            self.second[k] = 0.999 * self.second[k] + 0.001 * gradient * gradient
            corrected = self.first[k] / (1 - 0.9**self.steps)
            spread = np.sqrt(self.second[k] / (1 - 0.999**self.steps)) + 1e-8
            self.weights[k] += (self.rate * corrected / spread).astype(np.float32)


def play(env: Any, network: Network, seed: int, rng: np.random.Generator) -> tuple[Episode, float]:
    """One game sampled from the policy, and the learning seat's reward."""
    episode = Episode()
    observation, _ = env.reset(seed=seed)
    reward, over = 0.0, False
    while not over:
        tensor = np.array(observation["observation"], dtype=np.float32)
        legal = np.flatnonzero(observation["action_mask"])
        hidden = network.hidden(tensor)
        probabilities = network.probabilities(hidden, legal)
        chosen = int(rng.choice(len(legal), p=probabilities))
        push = -probabilities
        push[chosen] += 1.0
        episode.tensors.append(tensor)
        episode.hiddens.append(hidden)
        episode.legals.append(legal)
        episode.pushes.append(push)
        observation, reward, over, _, _ = env.step(int(legal[chosen]))
    return episode, float(reward)


def accumulate(network: Network, episode: Episode, advantage: float, gradients: list[Floats]) -> None:
    """Adds ``advantage`` times the episode's gradient of its log-probability to ``gradients``."""
    inputs, offsets, embeddings, biases = gradients
    backs = []
    for hidden, legal, push in zip(episode.hiddens, episode.legals, episode.pushes, strict=True):
        scaled = advantage * push
        biases[legal] += scaled
        embeddings[legal] += np.outer(scaled, hidden)
        backs.append((network.embeddings[legal].T @ scaled) * (1.0 - hidden * hidden))
    back = np.array(backs, dtype=np.float32)
    inputs += back.T @ np.array(episode.tensors, dtype=np.float32)
    offsets += back.sum(axis=0)


def train(game: str, seed: int, episodes: int | None, seconds: float | None, players: int = 2) -> Network:
    """Trains until ``episodes`` games or ``seconds`` (after that batch), whichever comes first."""
    rng = np.random.default_rng(seed)
    envs = [gym_env(game, players=players, seat=seat) for seat in range(players)]
    tensors = envs[0].table.tensors
    network = Network.initial(game, tensors.shape[0], tensors.actions.size, HIDDEN, rng)
    weights = [network.inputs, network.offsets, network.embeddings, network.biases]
    adam = Adam(weights, LEARNING_RATE)
    baseline, started, played = 0.0, time.monotonic(), 0
    while (episodes is None or played < episodes) and (
        seconds is None or time.monotonic() - started < seconds
    ):
        gradients = [np.zeros_like(w) for w in weights]
        decisions = 0
        for _ in range(BATCH if episodes is None else min(BATCH, episodes - played)):
            episode, reward = play(envs[played % players], network, int(rng.integers(2**31)), rng)
            accumulate(network, episode, reward - baseline, gradients)
            baseline = BASELINE_DECAY * baseline + (1 - BASELINE_DECAY) * reward
            decisions += len(episode.legals)
            played += 1
        adam.ascend([(g / decisions).astype(np.float32) for g in gradients])
    network.episodes = played
    return network


def evaluate(network: Network, games: int, seed: int, players: int = 2) -> tuple[int, int]:
    """Wins and ties of the network's best actions against the random bot, the seats taken in turn."""
    envs = [gym_env(network.game, players=players, seat=seat) for seat in range(players)]
    wins = ties = 0
    for game in range(games):
        observation, _ = envs[game % players].reset(seed=seed + game)
        reward, over = 0.0, False
        while not over:
            action = network.best(observation["observation"], np.flatnonzero(observation["action_mask"]))
            observation, reward, over, _, _ = envs[game % players].step(action)
        wins += reward == 1.0
        ties += reward == 0.0
    return wins, ties


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Train a numpy policy against the random bot (REINFORCE).")
    parser.add_argument("--game", default="saint_malo", help="an installed game that declares tensors")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seconds", type=float, help="time budget (stops after the batch it ends in)")
    parser.add_argument("--episodes", type=int, help="number of games to train on (reproducible)")
    parser.add_argument("--evaluate", type=int, default=200, help="games against random afterwards (0: none)")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    if args.seconds is None and args.episodes is None:
        parser.error("give --seconds or --episodes")
    try:
        started = time.monotonic()
        network = train(args.game, args.seed, args.episodes, args.seconds)
    except (KeyError, ValueError) as problem:
        print(f"error: {problem.args[0]}", file=sys.stderr)
        raise SystemExit(2) from None
    trained = time.monotonic() - started
    network.save(args.out)
    print(f"trained {network.episodes} episodes in {trained:.0f} s (seed {args.seed}); wrote {args.out}")
    if args.evaluate:
        wins, ties = evaluate(network, args.evaluate, seed=args.seed + 1)
        losses = args.evaluate - wins - ties
        print(f"against random: {wins} wins, {ties} ties, {losses} losses in {args.evaluate} games")


if __name__ == "__main__":
    main()
