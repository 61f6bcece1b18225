"""A game as a PettingZoo AEC environment: one agent per seat, agents stepped in the engine's order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from sdk.games.plugin import GamePlugin

from .table import Table


def observation_space(table: Table) -> spaces.Dict:
    """The tensor and the action mask, as every agent observes them."""
    size = table.tensors.actions.size
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, table.tensors.shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
        }
    )


class GameAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo has no type hints
    """Agents ``seat_0`` .. ``seat_{n-1}``; rewards at the end only, by rank (see :meth:`Table.rewards`)."""

    def __init__(
        self,
        game: str | GamePlugin,
        players: int,
        params: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(game, players, params)
        name = f"smtourney_{self.table.plugin.name}"
        self.metadata = {"name": name, "render_modes": ["ansi"], "is_parallelizable": False}
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        shared = observation_space(self.table)
        self.observation_spaces = dict.fromkeys(self.possible_agents, shared)
        actions = spaces.Discrete(self.table.tensors.actions.size)
        self.action_spaces = dict.fromkeys(self.possible_agents, actions)
        self._chance: random.Random | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` restarts the chance stream (without one it runs on)."""
        if seed is not None or self._chance is None:
            self._chance = random.Random(seed)
        self.table.reset(self._chance)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        return {"observation": self.table.tensor(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is deciding: an action number is due, not None")
        self._cumulative_rewards[agent] = 0.0
        self.table.apply(int(action))
        if self.table.over:
            self.rewards = dict(zip(self.agents, self.table.rewards(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.table.seat]
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.table.plugin.render(self.table.state) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def aec_env(game: str | GamePlugin, players: int, params: Mapping[str, Any] | None = None) -> GameAECEnv:
    """``game`` (a name or a plugin) for ``players`` seats as a PettingZoo AEC environment."""
    return GameAECEnv(game, players, params)
