"""Strength of a game's search bot against its heuristic bot, in-process, with seeded chance.

    python benchmarks/search_strength.py --game NAME [--players 2] [--games 100] [--search NAME]
                                         [--workers 1] [--seed 1] [--json]

Plays ``--games`` games of one search bot against ``--players - 1`` copies of the game's
heuristic bot, the search bot's seat cycling through every seat. Game ``i`` draws its chance
from ``Random(seed * 1_000_003 + i)``. The bots are the served ones, called as the referee
calls them: each deciding seat gets its own observation (``plugin.observe``) and a
:class:`DecisionContext` (match id ``bench-<i>``), every answer goes through the engine's
checked ``apply``, and simultaneous decisions are asked from the same state, then applied in
order. ``--search`` picks the search entrant where a game has more than one (Saint Malo: its own
expectimax bot ``own``, or the generic toolkit ``toolkit``).

A *win* is a sole first place; a shared first is counted apart, never as a win. The win share
carries a 95 % Wilson interval (benchmarks/strength_stats.py). Decision times are the search
bot's wall-clock times in the process that plays: with other jobs on the machine they include
the time the processor was taken away, so the load average is printed with them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.strength_stats import decision_times, outcome, wilson
from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.plugin import GameState
from sdk.games.registry import get_game
from sdk.search import Budget, InformationSetSearch
from sdk.search.bot import SearchBot

#: The referee's default time per decision the bots are told of (ms).
DECISION_MS = 1000


#: Per game: its search entrants (the first is the default) and its heuristic bot, as ``module:Class``;
#: ``toolkit`` is :class:`SearchBot` with the toolkit's defaults. A game is here once the toolkit can
#: deal full states from its observations (``determinize``, docs/search.md).
ENTRANTS: dict[str, tuple[dict[str, str], str]] = {
    "bruges": (
        {"search": "bots.bruges.search:BrugesSearchBot", "toolkit": ""},
        "bots.bruges.bot:BrugesHeuristicBot",
    ),
    "cities": (
        {
            "search": "bots.cities.search:CitiesSearchBot",
            "mcts": "bots.cities.search:CitiesMctsBot",
            "toolkit": "",
        },
        "bots.cities:CitiesHeuristicBot",
    ),
    "masons": (
        {"search": "bots.masons.search:MasonsSearchBot", "toolkit": ""},
        "bots.masons.bot:MasonsGreedyBot",
    ),
    "saint_malo": ({"own": "bots.search:SearchBot", "toolkit": ""}, "bots.greedy:GreedyBot"),
}
#: The toolkit's own budget when it plays with its defaults (random rollouts to the end).
TOOLKIT_BUDGET = Budget(seconds=0.08)


def make_bot(game: str, spec: str) -> Bot:
    """A fresh bot from ``module:Class`` (no arguments), or the toolkit's default bot for ``game``."""
    if not spec:
        return SearchBot(game, InformationSetSearch(TOOLKIT_BUDGET))
    module, _, name = spec.partition(":")
    bot: Bot = getattr(importlib.import_module(module), name)()
    return bot


@dataclass(frozen=True, slots=True)
class Game:
    game: str
    search: str
    players: int
    seat: int
    seed: int
    index: int


@dataclass(frozen=True, slots=True)
class Result:
    seat: int
    ranks: list[int]
    scores: list[float]
    times_ms: list[float]


def play(
    game: Game, search_bot: Bot | None = None, watch: Callable[[GameState], None] | None = None
) -> Result:
    """One game: the search bot in ``game.seat`` (``search_bot`` if given, else the named entrant),
    the heuristic in every other seat; ``watch`` is shown the true state before each of the search
    bot's decisions (a hook for measurements that hand it what it could not see)."""
    plugin = get_game(game.game)
    searches, heuristic = ENTRANTS[game.game]
    bots = [make_bot(game.game, heuristic) for _ in range(game.players)]
    bots[game.seat] = make_bot(game.game, searches[game.search]) if search_bot is None else search_bot
    rng = random.Random(game.seed)
    state = plugin.new_state(game.players, {})
    asked = [0] * game.players
    times_ms: list[float] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        kind = plugin.decision_kind(state)
        seats = plugin.deciding_seats(state)
        replies = []
        for seat in seats:
            asked[seat] += 1
            context = DecisionContext(f"bench-{game.index}", asked[seat], seat, DECISION_MS, 0, game.game)
            observation = plugin.observe(state, seat)
            if seat == game.seat and watch is not None:
                watch(state)
            started = time.perf_counter()
            replies.append(bots[seat].decide(kind, observation, context))
            if seat == game.seat:
                times_ms.append((time.perf_counter() - started) * 1000)
        for reply in replies:
            state.apply(reply)
    return Result(game.seat, list(state.ranks()), list(state.scores()), times_ms)


def run(games: list[Game], workers: int, play_one: Callable[[Game], Result] = play) -> list[Result]:
    if workers <= 1:
        return [play_one(game) for game in games]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.map(play_one, games, chunksize=1)


def figures(results: list[Result]) -> dict[str, Any]:
    outcomes = [outcome(r.ranks, r.seat) for r in results]
    wins = outcomes.count("win")
    share, low, high = wilson(wins, len(results))
    times = decision_times(t for r in results for t in r.times_ms)
    return {
        "games": len(results),
        "wins": wins,
        "shared_firsts": outcomes.count("draw"),
        "win_share": share,
        "ci_low": low,
        "ci_high": high,
        **times,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True, choices=sorted(ENTRANTS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--search", help="search entrant (default: the game's first)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core at most)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    searches, _ = ENTRANTS[args.game]
    search = args.search or next(iter(searches))
    if search not in searches:
        parser.error(f"--search: {args.game} has {', '.join(searches)}, not {search!r}")
    plugin = get_game(args.game)
    if not plugin.min_players <= args.players <= plugin.max_players:
        parser.error(f"--players: {plugin.title} takes {plugin.min_players}-{plugin.max_players}")
    schedule = [
        Game(args.game, search, args.players, i % args.players, args.seed * 1_000_003 + i, i)
        for i in range(args.games)
    ]
    load_before = os.getloadavg()
    started = time.perf_counter()
    results = run(schedule, args.workers)
    out = {
        "game": args.game,
        "search": search,
        "players": args.players,
        "cpus": os.cpu_count(),
        "workers": args.workers,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "seconds": time.perf_counter() - started,
        **figures(results),
    }
    if args.json:
        print(json.dumps(out))
        return
    load = ", ".join(f"{x:.2f}" for x in load_before)
    print(
        f"{plugin.title}, {args.players} players: {search} vs {args.players - 1} heuristic, seats cycled; "
        f"{out['games']} games in {out['seconds']:.0f} s, {args.workers} worker(s) on {out['cpus']} CPUs, "
        f"load average before {load}"
    )
    print(
        f"  search wins {out['win_share']:6.1%}  (95% CI {out['ci_low']:.1%} - {out['ci_high']:.1%}),"
        f" shared firsts {out['shared_firsts']}"
    )
    if "decisions" in out:
        print(
            f"  decision time over {out['decisions']} decisions: median {out['median_ms']:.1f} ms, "
            f"p99 {out['p99_ms']:.1f} ms, max {out['max_ms']:.1f} ms"
        )
    print("  load average after " + ", ".join(f"{x:.2f}" for x in out["load_after"]))


if __name__ == "__main__":
    main()
