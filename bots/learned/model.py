"""The learned policy's network: a softmax over the legal action numbers of a game's tensors.

One hidden layer of a few units reads the tensor, ``hidden = tanh(inputs @ tensor + offsets)``; an
action's score is its own bias plus its embedding times the hidden units, computed for the legal
actions only, so a game of tens of thousands of numbered actions costs a few thousand products a
decision. Training (:mod:`bots.learned.train`) and serving (:mod:`bots.learned.policy`) share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float32]
Indices = npt.NDArray[np.intp]


@dataclass
class Network:
    """The weights; ``game`` and ``episodes`` say what they were trained on and for how long."""

    inputs: Floats  # hidden x tensor size
    offsets: Floats  # hidden
    embeddings: Floats  # actions x hidden
    biases: Floats  # actions
    game: str
    episodes: int

    @classmethod
    def initial(
        cls, game: str, features: int, actions: int, hidden: int, rng: np.random.Generator
    ) -> Network:
        """Random inputs, every action scored alike: the uniform policy the random bot plays."""
        inputs = rng.normal(0.0, 1.0 / np.sqrt(features), (hidden, features)).astype(np.float32)
        zeros = np.zeros
        return cls(
            inputs,
            zeros(hidden, np.float32),
            zeros((actions, hidden), np.float32),
            zeros(actions, np.float32),
            game,
            0,
        )

    def hidden(self, tensor: Floats) -> Floats:
        result: Floats = np.tanh(self.inputs @ tensor + self.offsets)
        return result

    def probabilities(self, hidden: Floats, legal: Indices) -> Floats:
        """The softmax over the legal actions ``legal`` (in that order)."""
        scores = self.biases[legal] + self.embeddings[legal] @ hidden
        scores = np.exp(scores - scores.max())
        result: Floats = scores / scores.sum()
        return result

    def best(self, tensor: Floats, legal: Indices) -> int:
        """The legal action scored highest (the first of equals): what the served bot plays."""
        scores = self.biases[legal] + self.embeddings[legal] @ self.hidden(tensor)
        return int(legal[int(np.argmax(scores))])

    def act(self, tensor: Floats, mask: npt.NDArray[np.int8]) -> int:
        """:meth:`best` among the actions ``mask`` allows: a policy as ``sdk.policy_bot`` serves one."""
        return self.best(tensor, np.flatnonzero(mask))

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            inputs=self.inputs,
            offsets=self.offsets,
            embeddings=self.embeddings,
            biases=self.biases,
            game=np.array(self.game),
            episodes=np.array(self.episodes),
        )

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as saved:
            return cls(
                saved["inputs"],
                saved["offsets"],
                saved["embeddings"],
                saved["biases"],
                str(saved["game"]),
                int(saved["episodes"]),
            )
