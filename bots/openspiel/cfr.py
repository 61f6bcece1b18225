"""A counterfactual-regret-minimisation average policy (pyspiel's C++ ``CFRSolver``) as a bot for
small imperfect-information ``openspiel:`` games (Kuhn and Leduc poker, and OpenSpiel's match of
many Leduc hands, ``repeated_leduc_poker``).

The policy is solved at start-up for each game's default parameters (``--iterations``; Leduc's
takes a few seconds, within a bracket's start-up time) and on the first request of a game with
other parameters. It is looked up by the seat's information-state string, all a seat may know;
the action is drawn from it with a stream seeded from the bot's own ``--seed`` and the decision's
public facts (match, seat, decision id), never the referee's seed. In a repeated game each hand is
played with the policy of its stage game, looked up by the hand's own information-state string
(OpenSpiel's, after the line naming the hand); a decision outside a hand (the one-action
"continue" between hands) has no entry and takes its only legal action.

    python -m bots.openspiel.cfr [--iterations 300] [--seed 0] [--port N]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.openspiel.actions import Action
from sdk.games.openspiel.loader import pyspiel
from sdk.games.openspiel.observation import Observation
from sdk.games.openspiel.params import load
from sdk.games.registry import get_game
from sdk.serve import run

SOLVED = ("kuhn_poker", "leduc_poker")
"""Games small enough to solve with full-tree CFR in seconds."""

STAGE_GAMES = {"repeated_leduc_poker": "leduc_poker"}
"""Repeated games played hand by hand with the policy of their stage game."""

HAND_LINE = "Hand "
"""How a repeated game's information-state string begins: a line naming the hand."""

Policy = dict[str, list[tuple[int, float]]]
"""Each information-state string's actions with their probabilities."""


def solve(game: Any, iterations: int) -> Policy:
    """CFR's average policy after ``iterations``, for every information state of ``game``."""
    solver = pyspiel().CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    policy: Policy = {}
    stack = [game.new_initial_state()]
    while stack:  # every reachable decision: chance outcomes and actions alike
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            key = state.information_state_string()
            if key not in policy:
                policy[key] = [(int(a), float(p)) for a, p in average.get_state_policy(state)]
        for action in state.legal_actions():
            stack.append(state.child(action))
    return policy


def stage_game(name: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The game a hand of ``name`` is, with its parameters (``name`` itself if not repeated)."""
    if name in STAGE_GAMES:
        return STAGE_GAMES[name], {"players": params["players"]}
    return name, params


def hand_information_state(observation: Observation) -> str:
    """The seat's information-state string in the hand being played (the line naming the hand of
    a repeated game dropped)."""
    text = observation.information_state_string
    if observation.game in STAGE_GAMES and text.startswith(HAND_LINE):
        return text.partition("\n")[2]
    return text


class CfrBot(Bot):
    name = "openspiel-cfr"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = tuple(f"openspiel:{name}" for name in (*SOLVED, *STAGE_GAMES))

    def __init__(self, iterations: int = 300, seed: int = 0) -> None:
        self.iterations, self.seed = iterations, seed
        self._policies: dict[tuple[str, str], Policy] = {}
        for name in SOLVED:  # solved for the defaults before the bot reports healthy
            self._policy(name, get_game(f"openspiel:{name}").normalize_params({}))

    def _policy(self, name: str, params: dict[str, Any]) -> Policy:
        loaded = load(name, params)
        key = (name, repr(sorted(loaded.params.items())))
        if key not in self._policies:
            self._policies[key] = solve(loaded.game, self.iterations)
        return self._policies[key]

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        assert isinstance(observation, Observation)
        legal = {action for action, _ in observation.legal}
        chances = self._policy(*stage_game(observation.game, observation.params)).get(
            hand_information_state(observation), []
        )
        actions = [(action, p) for action, p in chances if action in legal and p > 0] or [
            (a, 1.0) for a in legal
        ]
        text = f"{self.seed}/{context.match_id}/{context.seat}/{context.decision_id}".encode()
        rng = random.Random(hashlib.sha256(text).digest())
        (action,) = rng.choices([a for a, _ in actions], weights=[p for _, p in actions])
        return Action(action)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="OpenSpiel's CFR as a bot", add_help=False)
    parser.add_argument("--iterations", type=int, default=300, help="CFR iterations at start-up")
    parser.add_argument("--seed", type=int, default=0, help="the bot's own seed (never the referee's)")
    options, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    run(CfrBot(options.iterations, options.seed), rest)


if __name__ == "__main__":
    main()
