"""One OpenSpiel game measured three ways: through the referee, in pyspiel alone, and in our adapter.

    python benchmarks/openspiel.py --game NAME [--rounds 20] [--games 200] [--json]

* ``grpc`` and ``inprocess`` -- matches per minute of a round-robin of random bots
  (``bots.random``) at ``openspiel:NAME`` through the referee (``benchmarks/tournament_throughput.py``
  plays it, timing the whole run: workers, bot start-up, play, storage): every entrant a launched
  bot process (sandboxed, kept between matches) called over gRPC, then the same class called in the
  worker's process (``benchmarks/inprocess.py``'s two transports);
* ``pyspiel`` -- OpenSpiel's own random playouts, driven from Python (a uniform legal action at a
  decision, chance outcomes drawn from ``chance_outcomes()``, every seat's action applied together
  at a simultaneous node): decisions per second; and ``pyspiel.evaluate_bots`` with OpenSpiel's
  uniformly random bots, the whole game in C++: games per second;
* ``adapter`` -- the same random games through our adapter's checked ``apply``
  (``benchmarks/engine_throughput.py``): microseconds per decision.

The game is one ``smtourney games`` lists (the random bot plays those), with the parameters listed
for it, at its fewest players.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from benchmarks import engine_throughput
from benchmarks.tournament_throughput import Run, play
from sdk.games.openspiel.loader import pyspiel
from sdk.games.openspiel.params import load
from sdk.games.openspiel.state import NO_ACTION
from sdk.games.registry import get_game, listed_games

OVER_GRPC = "command: python -m bots.random"
IN_PROCESS = "transport: inprocess, bot: 'bots.random:RandomBot'"


def _spiel_game(name: str) -> Any:
    """pyspiel's game ``name`` with the parameters our plugin plays it with."""
    return load(name, get_game(f"openspiel:{name}").normalize_params({})).game


def _random_playout(game: Any, rng: random.Random) -> int:
    """One random game in pyspiel; the number of decisions (at a simultaneous node, one a seat with a
    choice, as the referee asks them)."""
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            (action,) = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])
            state.apply_action(action)
            continue
        if state.is_simultaneous_node():
            choices = [state.legal_actions(player) for player in range(game.num_players())]
            decisions += sum(1 for legal in choices if legal)
            state.apply_actions([rng.choice(legal) if legal else NO_ACTION for legal in choices])
        else:
            decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return decisions


def pyspiel_rates(name: str, games: int, seed: int) -> dict[str, float]:
    game, rng = _spiel_game(name), random.Random(seed)
    started = time.perf_counter()
    decisions = sum(_random_playout(game, rng) for _ in range(games))
    elapsed = time.perf_counter() - started
    bots = [pyspiel().make_uniform_random_bot(player, seed + player) for player in range(game.num_players())]
    started = time.perf_counter()
    for number in range(games):
        pyspiel().evaluate_bots(game.new_initial_state(), bots, seed + number)
    in_cpp = time.perf_counter() - started
    return {
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
        "cpp_games_per_s": games / in_cpp,
    }


def _referee(run: Run) -> dict[str, float]:
    return {"matches": run.matches, "matches_per_min": run.matches_per_min, "wall_s": run.wall_s}


def measure(name: str, rounds: int, games: int, seed: int = 1) -> dict[str, Any]:
    game = f"openspiel:{name}"
    players = get_game(game).min_players

    def referee(entrant: str) -> Run:
        return play(
            fresh=False,
            workers=1,
            entrants=players,
            players=players,
            rounds=rounds,
            entrant=entrant,
            game=game,
        )

    over_grpc, in_process = referee(OVER_GRPC), referee(IN_PROCESS)
    adapter = engine_throughput.run(game, games=games, players=players, seed=seed, checked=True)
    return {
        "game": game,
        "players": players,
        "grpc": _referee(over_grpc),
        "inprocess": _referee(in_process),
        "pyspiel": pyspiel_rates(name, games, seed),
        "adapter": {
            "us_per_decision": 1e6 / adapter["decisions_per_s"],
            "decisions_per_game": adapter["decisions_per_game"],
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True, help="an OpenSpiel game's name, e.g. kuhn_poker")
    parser.add_argument("--rounds", type=int, default=20, help="round-robin rounds through the referee")
    parser.add_argument("--games", type=int, default=200, help="random games in pyspiel and in the adapter")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if f"openspiel:{args.game}" not in listed_games():
        print(f"error: --game: openspiel:{args.game} is not a listed game (smtourney games)", file=sys.stderr)
        sys.exit(2)
    figures = measure(args.game, args.rounds, args.games)
    if args.json:
        print(json.dumps(figures))
        return
    grpc, inprocess, spiel, adapter = (figures[k] for k in ("grpc", "inprocess", "pyspiel", "adapter"))
    print(f"{figures['game']}, {figures['players']} random bots, {grpc['matches']} matches a run, 1 worker")
    print(f"referee, gRPC (sandboxed)  {grpc['matches_per_min']:10.1f} matches/min")
    print(f"referee, in-process        {inprocess['matches_per_min']:10.1f} matches/min")
    print(f"pyspiel random playouts    {spiel['decisions_per_s']:10.0f} decisions/s (from Python)")
    print(f"pyspiel evaluate_bots      {spiel['cpp_games_per_s']:10.0f} games/s (C++)")
    print(f"adapter, checked apply     {adapter['us_per_decision']:10.2f} us/decision")
    print(f"decisions a game           {spiel['decisions_per_game']:10.1f}")


if __name__ == "__main__":
    main()
