"""What the Cities search bot would gain from what it cannot see: the same games played three ways.

    python benchmarks/cities_information.py [--games 200] [--seed 7] [--workers 1] [--json]

The search bot (``CitiesSearchBot``) plays two-player games against the heuristic bot, seats cycled,
the referee's shuffles drawn as in ``benchmarks/search_strength.py`` (so ``dealt`` is that benchmark's
game for game). Its lookahead and playouts start from full states made from its observation; here
that step is swapped:

- ``dealt``: the bot as it ships, the hidden cards dealt at random (the rival's hand, the order of
  both decks);
- ``hands``: the rival's true hand, both decks shuffled at random (what a perfect reading of the
  rival could give);
- ``all``: the true state, the order of both decks too (what no seat can know: the referee draws it).

Every way plays the same games, so the differences are what the information is worth to this search.
This is a measurement harness, not a bot: nothing outside this script hands a bot the truth.
"""

from __future__ import annotations

import argparse
import json
import random
from functools import partial
from typing import Any

from benchmarks.search_strength import Game, Result, figures, play, run
from bots.cities.search import CitiesSearchBot
from sdk.games import cities as ci
from sdk.games.plugin import GameState

#: What the bot's full states are made of, in the order reported.
MODES = ("dealt", "hands", "all")


class Truth:
    """Holds the true state the harness shows before each decision, and deals from it."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.state: ci.State | None = None

    def show(self, state: GameState) -> None:
        self.state = state  # type: ignore[assignment]

    def deal(self, obs: ci.Observation, rng: random.Random) -> ci.State:
        """A full state for ``obs``: dealt at random, or the truth (its decks reshuffled for ``hands``)."""
        if self.mode == "dealt" or self.state is None:
            return ci.determinize(obs, rng)
        state = self.state.clone()
        if self.mode == "hands":
            rng.shuffle(state.city_deck)
            rng.shuffle(state.event_deck)
        return state


def play_mode(mode: str, game: Game) -> Result:
    """One game with the search bot's full states made the ``mode`` way."""
    truth = Truth(mode)
    bot = CitiesSearchBot()
    bot.policy.deal = truth.deal
    return play(game, bot, truth.show)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core at most)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    schedule = [Game("cities", "search", 2, i % 2, args.seed * 1_000_003 + i, i) for i in range(args.games)]
    out: dict[str, Any] = {"games": args.games, "seed": args.seed}
    for mode in MODES:
        figured = figures(run(schedule, args.workers, partial(play_mode, mode)))
        out[mode] = {key: figured[key] for key in ("wins", "shared_firsts", "win_share", "ci_low", "ci_high")}
    if args.json:
        print(json.dumps(out))
        return
    print(f"Cities, 2 players: the search bot against the heuristic, the same {args.games} games each way")
    for mode in MODES:
        f = out[mode]
        print(
            f"  {mode:6} wins {f['win_share']:6.1%}  (95% CI {f['ci_low']:.1%} - {f['ci_high']:.1%}),"
            f" shared firsts {f['shared_firsts']}"
        )


if __name__ == "__main__":
    main()
