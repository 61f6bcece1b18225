"""OpenSpiel's C++ Monte Carlo tree search (``pyspiel.MCTSBot`` with random rollouts) as a bot for
every sequential perfect-information ``openspiel:`` game.

The position is rebuilt from the request alone: the game loaded with the request's name and
parameters, then the public history applied (in such a game every seat may know it). Each
decision's search is seeded from the bot's own ``--seed`` and public facts of the decision (match,
seat, decision id), so a match replays identically and the bot never learns the referee's seed.

    python -m bots.openspiel.mcts [--simulations 200] [--uct-c 2.0] [--rollouts 1] [--seed 0] [--port N]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games.decisions import DecisionContext
from sdk.games.openspiel.actions import Action
from sdk.games.openspiel.loader import pyspiel
from sdk.games.openspiel.observation import Observation
from sdk.games.openspiel.params import load
from sdk.games.registry import listed_games
from sdk.serve import run

PREFIX = "openspiel:"
MAX_MEMORY_MB = 64
"""The search tree's memory cap per decision (pyspiel's MCTSBot prunes beyond it)."""


def _sequential_perfect(game: str) -> bool:
    """Whether ``game`` is an adapted game whose whole history every seat may know."""
    spiel = pyspiel()
    if not game.startswith(PREFIX) or game.removeprefix(PREFIX) not in spiel.registered_names():
        return False
    kind = spiel.load_game(game.removeprefix(PREFIX)).get_type()
    return bool(
        kind.information == spiel.GameType.Information.PERFECT_INFORMATION
        and kind.dynamics == spiel.GameType.Dynamics.SEQUENTIAL
    )


class MctsBot(Bot):
    name = "openspiel-mcts"
    version = "1.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = tuple(sorted(g for g in listed_games() if _sequential_perfect(g)))

    def __init__(self, simulations: int = 200, uct_c: float = 2.0, rollouts: int = 1, seed: int = 0) -> None:
        self.simulations, self.uct_c, self.rollouts, self.seed = simulations, uct_c, rollouts, seed

    @classmethod
    def plays(cls, game: str) -> bool:
        """Every sequential perfect-information OpenSpiel game, listed or named in a bracket."""
        try:
            return _sequential_perfect(game)
        except KeyError:  # OpenSpiel is not installed
            return False

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        assert isinstance(observation, Observation)
        game = load(observation.game, observation.params).game
        state = game.new_initial_state()
        for _, action in observation.history:
            state.apply_action(action)
        spiel = pyspiel()
        seed = self._decision_seed(context)
        evaluator = spiel.RandomRolloutEvaluator(self.rollouts, seed)
        search = spiel.MCTSBot(
            game, evaluator, self.uct_c, self.simulations, MAX_MEMORY_MB, True, seed, False
        )
        return Action(int(search.step(state)))

    def _decision_seed(self, context: DecisionContext) -> int:
        text = f"{self.seed}/{context.match_id}/{context.seat}/{context.decision_id}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:4], "little") & 0x7FFFFFFF  # a C++ int


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="OpenSpiel's MCTS as a bot", add_help=False)
    parser.add_argument("--simulations", type=int, default=200, help="searches per decision")
    parser.add_argument("--uct-c", type=float, default=2.0, help="UCT's exploration constant")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument("--seed", type=int, default=0, help="the bot's own seed (never the referee's)")
    options, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    run(MctsBot(options.simulations, options.uct_c, options.rollouts, options.seed), rest)


if __name__ == "__main__":
    main()
