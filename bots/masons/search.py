"""The Masons search bot: flat Monte Carlo over the greedy policy's best options.

For a wall, towers, houses, join, card play or swap, the greedy policy's choice and its best
alternatives (for building: the greedy's ranking, plus a few others drawn at random; for cards:
the other plays by points now, then discards) are each played on the same deals of the unseen
cards, with the same dice (:func:`sdk.search.compare_candidates`), and the game is simulated on
to the searching seat's next turn (at least two turns on) with a fast model of the greedy policy
(:mod:`.rollout`): the opponents *are* that policy, so the model predicts them. The option whose
simulations leave the best margin (points, plus what the kept cards are worth) wins; on a tie,
the greedy's order. The final scoring is the greedy policy's own (exact) choice.

Playing every candidate on the same deals (common random numbers) compares them on equal
luck, so a few deals separate them. The budget is a number of deals, which makes the bot
reproducible; a time limit only guards the decision's deadline.

python -m bots.masons.search --port 50051
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from sdk.bot import Bot
from sdk.games import masons as ms
from sdk.games.decisions import DecisionContext
from sdk.games.masons.cards import KINDS
from sdk.games.plugin import GameState
from sdk.search import CandidateBudget, SearchResult, compare_candidates
from sdk.search.bot import decision_seed, search_seconds
from sdk.serve import run

from .policy import choose_final, choose_score, choose_swap, keep_value, ranked_builds
from .rollout import Closers, simulate

BUILDS = ("wall", "towers", "houses", "connect_city")
#: Swaps searched besides the greedy one: give up every card whose kept worth is below each of these.
SWAP_BELOW = (1, 3, 4)


@dataclass(frozen=True, slots=True)
class Plan:
    """The search's knobs: candidates, deals per candidate, how far a simulation looks."""

    #: The greedy policy's best options searched.
    candidates: int = 5
    #: Further options drawn at random from the rest, so a move the greedy undervalues can win.
    extra: int = 3
    #: Deals of the unseen cards (with their dice) every candidate is played on.
    deals: int = 6
    #: Turns a simulation plays, this one counted; None: up to the searching seat's next turn,
    #: and at least the next two turns (2 players: its next turn included).
    turns: int | None = None
    #: Safety net: no new deal starts after this many seconds.
    seconds: float = 0.4


def ranked_plays(state: ms.State, seat: int) -> list[ms.Action]:
    """The greedy policy's play first, then the other plays by points now, then discards, weakest first."""
    plays: list[ms.Action] = [choose_score(state, seat)]
    scored = [a for a in state.legal_actions() if isinstance(a, ms.Score) and not a.discard]
    scored.sort(key=lambda a: -state.cards_value(a.cards, state.scored_city))
    land = state.land()
    discards = [a for a in state.legal_actions() if isinstance(a, ms.Score) and a.discard]
    discards.sort(key=lambda a: keep_value(a.cards[0], land))
    for action in scored + discards:
        if action not in plays:
            plays.append(action)
    return plays


def ranked_swaps(state: ms.State, seat: int) -> list[ms.Action]:
    """The greedy policy's swap first, then keeping all, then giving up every card worth less than 1, 3, 4."""
    hand = state.hands[seat]
    land = state.land()
    swaps: list[ms.Action] = [choose_swap(state, seat)]
    for below in (0, *SWAP_BELOW):  # below 0: nothing is given up
        action = ms.Swap(
            tuple(k for k in range(KINDS) for _ in range(hand[k]) if keep_value(k, land) < below)
        )
        if action not in swaps:
            swaps.append(action)
    return swaps


def choose(
    observation: ms.Observation, seed: int, plan: Plan = Plan(), seconds: float | None = None
) -> SearchResult:
    """The bot's answer to the pending decision, from ``observation`` alone."""
    rng = random.Random(seed)
    state = ms.determinize(observation, rng)
    seat = observation.seat
    kind = state.decision
    if kind == "final_score":
        return SearchResult(choose_final(state, seat), 0, 0.0)
    if kind == "score_cards":
        ranked = ranked_plays(state, seat)
    elif kind == "swap":
        ranked = ranked_swaps(state, seat)
    else:
        ranked = ranked_builds(state, seat, rng)
    rest = ranked[plan.candidates :]
    candidates = ranked[: plan.candidates] + rng.sample(rest, min(plan.extra, len(rest)))
    turns = plan.turns or max(3, observation.players)
    closers = Closers()

    def playout(played: GameState, action: Any, chance: random.Random) -> float:
        game: ms.State = played  # type: ignore[assignment]
        game.apply_unchecked(action)
        return simulate(game, seat, turns, closers, chance)

    limit = plan.seconds if seconds is None else min(seconds, plan.seconds)
    budget = CandidateBudget(plan.deals * len(candidates), limit)
    return compare_candidates(
        candidates, partial(ms.determinize, observation), playout, budget, rng.getrandbits(64)
    )


class MasonsSearchBot(Bot):
    """Searches every building decision (:func:`choose`); stateless, so it serves matches concurrently."""

    name = "masons-search"
    version = "2.0"
    author = "smtourney"
    games: ClassVar[tuple[str, ...]] = ("masons",)

    def __init__(self, plan: Plan = Plan()) -> None:
        self.plan = plan

    def decide(self, kind: str, observation: Any, context: DecisionContext) -> Any:
        if not isinstance(observation, ms.Observation):
            raise TypeError(f"expected a Masons observation, not {type(observation).__name__}")
        return choose(observation, decision_seed(context), self.plan, search_seconds(context)).action


def main() -> None:
    run(MasonsSearchBot())


if __name__ == "__main__":
    main()
