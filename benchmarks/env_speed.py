"""Environment speed: PettingZoo steps per second with random masked actions, beside the engine's own.

    python benchmarks/env_speed.py --game NAME [--games 200] [--players N] [--json]

Any installed game that declares tensors (``sdk.games.tensors``). The environment side plays
``--games`` seeded games through :func:`sdk.env.aec_env` the way a learner does: ``agent_iter``,
``last()`` (the tensor and the mask of the deciding seat), a uniform pick among the masked
actions, ``step``. The pick reads the int8 mask as booleans, as a learner should: numpy finds the
nonzero entries of a boolean array about ten times faster than those of an int8 one. The engine
side is :mod:`benchmarks.engine_throughput` on the same game: random legal actions applied with
their checks. ``ratio`` is environment steps/s over engine decisions/s (1: the environment costs
nothing; 0.5: as much again as the engine's own play).

The same loop over an environment that does nothing (:class:`IdleEnv`: a fixed observation, two
legal actions) gives ``loop_steps_per_s``, what PettingZoo's stepping protocol and the pick cost
by themselves. No environment can beat ``engine + loop`` time per step, so ``ratio_ceiling`` (the
engine's time over that sum) bounds ``ratio`` from above before any observation is made.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from benchmarks import engine_throughput
from sdk.env import aec_env
from sdk.games.registry import get_game
from sdk.games.tensors import tensors_of

#: Steps of one game of :class:`IdleEnv`.
IDLE_STEPS = 100


class IdleEnv(AECEnv):  # type: ignore[misc]  # PettingZoo has no type hints
    """Two agents taking turns for :data:`IDLE_STEPS` steps, observing the same constant arrays."""

    def __init__(self) -> None:
        super().__init__()
        self.metadata = {"name": "idle", "is_parallelizable": False}
        self.possible_agents = ["first", "second"]
        self._seen = {"observation": np.zeros(1, np.float32), "action_mask": np.ones(2, np.int8)}
        self._steps = 0

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self._steps = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        return self._seen

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._steps += 1
        if self._steps == IDLE_STEPS:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agents[self._steps % 2]
        self._accumulate_rewards()


def learner_steps_per_s(env: AECEnv, games: int, seed: int) -> dict[str, float]:
    """Play ``games`` games of random masked actions in ``env``, as a learner's loop does."""
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    for number in range(games):
        env.reset(seed=seed * 100_003 + number)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "steps_per_game": steps / games}


def run(game: str, games: int, players: int, seed: int) -> dict[str, float]:
    """The environment's, the idle loop's and the engine's figures, and the ratios."""
    env = learner_steps_per_s(aec_env(game, players), games, seed)
    loop = learner_steps_per_s(IdleEnv(), max(games, 100), seed)
    engine = engine_throughput.run(game, games, players, seed, checked=True)["decisions_per_s"]
    engine_s, loop_s = 1 / engine, 1 / loop["steps_per_s"]
    return {
        "env_steps_per_s": env["steps_per_s"],
        "env_steps_per_game": env["steps_per_game"],
        "engine_decisions_per_s": engine,
        "loop_steps_per_s": loop["steps_per_s"],
        "ratio": env["steps_per_s"] / engine,
        "ratio_ceiling": engine_s / (engine_s + loop_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True, help="an installed game that declares tensors")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, help="table size (default: the game's largest)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    try:
        plugin = get_game(args.game)
        tensors_of(plugin)
    except (KeyError, ValueError) as error:
        print(f"env_speed: {error.args[0]}", file=sys.stderr)
        raise SystemExit(2) from None
    players = args.players or plugin.max_players
    figures = run(args.game, args.games, players, args.seed)
    if args.json:
        print(json.dumps({"game": args.game, "players": players, **figures}))
        return
    print(f"{args.games} random {players}-player {args.game} games, one process")
    print(f"env steps/s          {figures['env_steps_per_s']:10.0f}")
    print(f"engine decisions/s   {figures['engine_decisions_per_s']:10.0f}")
    print(f"idle loop steps/s    {figures['loop_steps_per_s']:10.0f}")
    print(f"ratio                {figures['ratio']:10.2f}")
    print(f"ratio ceiling        {figures['ratio_ceiling']:10.2f}  (engine + idle loop per step)")


if __name__ == "__main__":
    main()
