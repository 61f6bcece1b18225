"""The Cities search bot: the best few plays, each played on past the rivals' replies.

At a play decision the lookahead policy (:class:`CitiesPolicy` valuing positions by the
learned win probability of :mod:`bots.cities.value`) lists its candidates and values them
one ply deep; the search keeps the ``keep`` best and plays each of them forward on the same
``deals`` deals of what the seat cannot see, ``deals_per_seat`` more for each seat beyond two
(more rivals make noisier playouts), so that the candidates differ only by what they do
(common random numbers). A playout resolves the event, then lets every seat play on to the
start of the searching seat's next turn, each rival choosing as the heuristic bot would but
on the full dealt state (its one-ply lookahead with itself as the only deal), and values the
position by the learned win probability; once the event deck is down to ``endgame`` cards
the playout runs to the end of the game instead, and counts the result. The candidate with
the best mean wins; the lookahead's own choice is kept unless another beats it by more than
``margin``. Every other decision (reactions, a cursed draw, an exchange) is the lookahead
policy's; giving cards up is the heuristic's rule (the cheapest).

The budget is a number of deals, so a seeded decision is reproducible; a time limit only
stops early on a machine too slow for it (never before ``min_deals``).

    python -m bots.cities.search --port 50051
"""

from __future__ import annotations

import math
import random
from functools import partial
from typing import Any, ClassVar

from sdk.games import cities as ci
from sdk.games.cities.plays import play_counts
from sdk.games.decisions import DecisionContext
from sdk.games.plugin import GameState
from sdk.games.registry import get_game
from sdk.search import (
    Budget,
    CandidateBudget,
    InformationSetSearch,
    SearchConfig,
    compare_candidates,
    terminal_rewards,
)
from sdk.search.bot import SearchBot, decision_seed
from sdk.serve import run

from .bot import CitiesHeuristicBot
from .evaluation import Weights, position_value
from .policy import CitiesPolicy, observation_seed
from .value import win_probability

#: Points of lead at which a seat's reward is about 0.73 (a logistic of its lead).
LEAD_SCALE = 4.0
#: The hand-made evaluation's weights, as the heuristic bot has them.
MCTS_WEIGHTS = Weights()
#: Steps a playout takes at most (an event and a turn of each rival take a few dozen).
MAX_PLAYOUT_STEPS = 400


def evaluate(state: GameState) -> list[float]:
    """Final ranks when the game is over, else each seat's lead over the best other, squashed to (0, 1)."""
    if state.is_terminal():
        return terminal_rewards(state)
    game: ci.State = state  # type: ignore[assignment]
    return [
        1 / (1 + math.exp(-position_value(game, seat, MCTS_WEIGHTS) / LEAD_SCALE)) for seat in range(game.n)
    ]


class CitiesMctsBot(SearchBot):
    """The toolkit's information-set MCTS on Cities, kept to compare with :class:`CitiesSearchBot`:
    about 60 ms of search, short random rollouts valued by :func:`evaluate`, the heuristic's
    answer kept unless clearly beaten (``benchmarks/search_strength.py --search mcts``)."""

    name = "cities-mcts"
    games: ClassVar[tuple[str, ...]] = ("cities",)

    def __init__(self) -> None:
        search = InformationSetSearch(
            Budget(seconds=0.06), evaluate=evaluate, config=SearchConfig(rollout_steps=12, prefer_margin=0.15)
        )
        super().__init__("cities", search, CitiesHeuristicBot().decide)


class CitiesSearchBot(CitiesHeuristicBot):
    """Plays the lookahead's best candidates forward over common deals; see the module docstring."""

    name = "cities-search"
    version = "3.0"
    game = "cities"

    def __init__(
        self,
        deals: int = 6,
        deals_per_seat: int = 3,
        keep: int = 3,
        margin: float = 0.0,
        seconds: float = 0.15,
        min_deals: int = 1,
        endgame: int = 8,
        weights: Weights | None = None,
    ) -> None:
        self.deals = deals
        self.deals_per_seat = deals_per_seat
        self.keep = keep
        self.margin = margin
        self.seconds = seconds
        self.min_deals = min_deals
        self.endgame = endgame
        super().__init__(weights, value=win_probability)
        self.weights = self.policy.weights
        self.rollout_policy = CitiesPolicy(self.weights, keep_takes=3, keep_swaps=3)
        self.plugin = get_game(self.game)

    def answer(self, observation: ci.Observation, context: DecisionContext) -> ci.Action:
        assert observation.pending is not None
        if observation.pending.kind != ci.Decision.PLAY:
            return self.policy.decide(observation)
        return self.choose(observation, decision_seed(context))

    def choose(self, obs: ci.Observation, seed: int) -> ci.Action:
        """The play to make at ``obs``'s play decision, the search drawing from ``seed``."""
        own_seed = observation_seed(obs)
        base = self.policy.deal(obs, random.Random(own_seed))
        candidates = self.policy.play_candidates(obs, base)
        if len(candidates) == 1:
            return candidates[0]
        prior = self.policy.values(obs, candidates, own_seed, base)
        ranked = sorted(range(len(candidates)), key=lambda i: (-prior[i], i))
        top = [candidates[i] for i in ranked[: self.keep]]
        me = obs.seat
        to_end = len(base.event_deck) <= self.endgame

        def value(state: GameState, action: Any, rng: random.Random) -> float:
            game: ci.State = state  # type: ignore[assignment]
            game.apply_unchecked(action)
            self.playout(game, me, rng, to_end)
            return win_probability(game, me)

        deals = self.deals + self.deals_per_seat * (obs.players - 2)
        budget = CandidateBudget(deals * len(top), self.seconds, self.min_deals, margin=self.margin)
        deal = partial(self.policy.deal, obs)
        action: ci.Action = compare_candidates(top, deal, value, budget, seed).action
        return action

    def playout(self, state: ci.State, me: int, rng: random.Random, to_end: bool = False) -> None:
        """Play on to the start of ``me``'s next turn (or the end): rivals and ``me`` alike greedy."""
        turn = state.turn
        for _ in range(MAX_PLAYOUT_STEPS * (10 if to_end else 1)):
            if state.is_terminal():
                return
            if state.is_chance_node():
                state.apply_unchecked(state.sample_chance(rng))
                continue
            if not to_end and state.turn > turn and state.active == me:
                return
            if state.pending == ci.Decision.PLAY and state.ev < 0:
                state.apply_unchecked(self.greedy_play(state, rng))
            else:
                state.apply_unchecked(self.rollout_policy.default(state, state.decider))

    def greedy_play(self, state: ci.State, rng: random.Random) -> ci.Action:
        """The deciding seat's play by the heuristic's one-ply lookahead, the dealt state its only deal."""
        seat = state.decider
        counts = state.options if state.options is not None else play_counts(state, seat)
        policy = self.rollout_policy
        candidates = policy.state_candidates(state, seat, [ev for ev, _ in counts])
        if len(candidates) == 1:
            return candidates[0]
        chance = rng.getrandbits(64)
        best, best_value = candidates[0], -math.inf
        for action in candidates:
            after = state.clone()
            after.apply_unchecked(action)
            policy.resolve(after, seat, random.Random(chance))
            value = position_value(after, seat, self.weights)
            if value > best_value:
                best, best_value = action, value
        return best


def main() -> None:
    run(CitiesSearchBot())


if __name__ == "__main__":
    main()
