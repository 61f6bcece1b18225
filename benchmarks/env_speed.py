"""Environment speed: PettingZoo steps per second with random masked actions, beside the engine's own.

    python benchmarks/env_speed.py --game NAME [--games 200] [--players N] [--json]

Any installed game that declares tensors (``sdk.games.tensors``). The environment side plays
``--games`` seeded games through :func:`sdk.env.aec_env` the way a learner does: ``agent_iter``,
``last()`` (the tensor and the mask of the deciding seat), a uniform pick among the masked
actions, ``step``. The engine side is :mod:`benchmarks.engine_throughput` on the same game: random
legal actions applied with their checks. ``ratio`` is environment steps/s over engine decisions/s
(1: the environment costs nothing; 0.5: as much again as the engine's own play).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from benchmarks import engine_throughput
from sdk.env import aec_env
from sdk.games.registry import get_game
from sdk.games.tensors import tensors_of


def env_steps_per_s(game: str, games: int, players: int, seed: int) -> dict[str, float]:
    """Play ``games`` games of random masked actions in the AEC environment."""
    env = aec_env(game, players)
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
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    elapsed = time.perf_counter() - start
    return {"env_steps_per_s": steps / elapsed, "env_steps_per_game": steps / games}


def run(game: str, games: int, players: int, seed: int) -> dict[str, float]:
    """Both sides' figures and their ratio."""
    env = env_steps_per_s(game, games, players, seed)
    engine = engine_throughput.run(game, games, players, seed, checked=True)
    return {**env, "engine_decisions_per_s": engine["decisions_per_s"],
            "ratio": env["env_steps_per_s"] / engine["decisions_per_s"]}  # fmt: skip


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
    print(f"ratio                {figures['ratio']:10.2f}")


if __name__ == "__main__":
    main()
