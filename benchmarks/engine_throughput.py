"""Engine throughput: complete random games per second in one process (one core).

    python benchmarks/engine_throughput.py [--game NAME] --games 500 [--players 4] [--unchecked] [--json]

Every decision is drawn from the legal actions by the engine's own sampler
(``State.sample_action``, uniform or documented otherwise by each game) and,
unless ``--unchecked``, applied through the checked ``apply``; chance outcomes
come from ``sample_chance``. A decision is any non-chance step.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from sdk.games.registry import get_game


def play_one(game: str, players: int, seed: int, checked: bool) -> int:
    """Play one random game to the end; return how many decisions it took."""
    plugin = get_game(game)
    state: Any = plugin.new_state(players, {})
    chance, policy = random.Random(seed * 104729), random.Random(seed * 7919)
    apply = state.apply if checked else state.apply_unchecked
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_unchecked(state.sample_chance(chance))
        else:
            apply(state.sample_action(policy))
            decisions += 1
    return decisions


def run(game: str, games: int, players: int, seed: int, checked: bool) -> dict[str, float]:
    """Play ``games`` games; return throughput figures."""
    decisions = 0
    start = time.perf_counter()
    for number in range(games):
        decisions += play_one(game, players, seed * 100_003 + number, checked)
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="saint_malo", help="an installed game (smtourney games)")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unchecked", action="store_true", help="apply actions without rule checks")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = run(args.game, args.games, args.players, args.seed, checked=not args.unchecked)
    if args.json:
        print(json.dumps({"game": args.game, "players": args.players, **figures}))
        return
    mode = "unchecked" if args.unchecked else "checked"
    print(f"{args.games} random {args.players}-player {args.game} games, {mode} apply, one process")
    print(f"games/s          {figures['games_per_s']:10.1f}")
    print(f"decisions/s      {figures['decisions_per_s']:10.0f}")
    print(f"decisions/game   {figures['decisions_per_game']:10.1f}")
    print(f"us per decision  {1e6 / figures['decisions_per_s']:10.2f}")


if __name__ == "__main__":
    main()
