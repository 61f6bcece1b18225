"""Engine throughput: complete random games per second in one process (one core).

    python benchmarks/engine_throughput.py [--game NAME] --games 500 [--players 4] [--unchecked] [--json]

Any installed game. Every decision is a random legal action, drawn by the engine's own sampler
where it has one (``sample_action``, uniform or documented otherwise by each game; else a
uniform pick of ``legal_actions``) and, unless ``--unchecked``, applied through the checked
``apply`` (``--unchecked``: ``apply_unchecked`` where the engine has it); chance outcomes come
from ``sample_chance``. A decision is any non-chance step. See :mod:`sdk.games.play`.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from sdk.games.play import RandomPolicy, play_to_end
from sdk.games.registry import get_game


def play_one(game: str, players: int, seed: int, checked: bool) -> int:
    """Play one random game to the end; return how many decisions it took."""
    chance, sample = random.Random(seed * 104729), RandomPolicy(random.Random(seed * 7919))
    decisions = 0

    def decide(state: Any) -> Any:
        nonlocal decisions
        decisions += 1
        return sample(state)

    play_to_end(get_game(game), [decide] * players, chance, check=checked)
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
