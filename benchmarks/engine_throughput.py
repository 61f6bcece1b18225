"""Engine throughput: complete random games per second in one process (one core).

    python benchmarks/engine_throughput.py --games 500 [--players 4] [--unchecked] [--json]

Every action is drawn uniformly from the legal actions (``State.sample_action``)
and, unless ``--unchecked``, applied through the checked ``apply``. A decision
is any non-chance step (keep, choose, rotate, place, bonus person).
"""

from __future__ import annotations

import argparse
import json
import random
import time

from sdk.games import saint_malo as sm


def run(games: int, players: int, seed: int, checked: bool) -> dict[str, float]:
    """Play ``games`` games; return throughput figures."""
    decisions = 0
    start = time.perf_counter()
    for game in range(games):
        policies = [sm.RandomPolicy(random.Random(seed * 7919 + game * 8 + seat)) for seat in range(players)]
        _, record = sm.play_game(policies, random.Random(seed * 104729 + game), check=checked)
        decisions += sum(1 for step in record.steps if not isinstance(step, sm.Roll))
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
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unchecked", action="store_true", help="apply actions without rule checks")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = run(args.games, args.players, args.seed, checked=not args.unchecked)
    if args.json:
        print(json.dumps(figures))
        return
    mode = "unchecked" if args.unchecked else "checked"
    print(f"{args.games} random {args.players}-player games, {mode} apply, one process")
    print(f"games/s          {figures['games_per_s']:10.1f}")
    print(f"decisions/s      {figures['decisions_per_s']:10.0f}")
    print(f"decisions/game   {figures['decisions_per_game']:10.1f}")
    print(f"us per decision  {1e6 / figures['decisions_per_s']:10.2f}")


if __name__ == "__main__":
    main()
