"""The heuristic policy played straight on full states, for simulations: no observation is built.

A search plays thousands of simulated decisions per real one. Building each seat's
``Observation`` (every field copied into tuples) would cost more than the policy's own choice, so
:class:`SeatView` shows the policy the few fields it reads (:class:`bots.bruges.policy.Seen`)
directly from the state, as the deciding seat sees them. In a simulation the state is a deal of
what the searching seat knows, so nothing hidden from it is read here either.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sdk.games.bruges.actions import Action
from sdk.games.bruges.cards import CARD_COLOUR
from sdk.games.bruges.state import State
from sdk.games.plugin import GameState

from .policy import BrugesPolicy


class _Occupant:
    __slots__ = ("person",)

    def __init__(self, person: int) -> None:
        self.person = person


class SeatView:
    """``state`` as the policy reads it for ``seat`` (the policy's :class:`~bots.bruges.policy.Seen`):
    the state's own lists under the observation's names, nothing copied."""

    __slots__ = (
        "_houses", "_state", "canals", "dice", "final_round", "guilders", "options", "params", "penalty",
        "pile_sizes", "players", "reputation", "scores", "seat", "statue_stack", "threats", "workers",
    )  # fmt: skip

    def __init__(self, state: State, seat: int, options: Sequence[Action]) -> None:
        self._state, self.seat, self.options = state, seat, options
        self.players, self.params, self.final_round = state.n, state.params, state.final_round
        self.pile_sizes, self.dice, self.statue_stack = state.pile_size, state.dice, state.statue_stack
        self.scores, self.guilders, self.reputation = state.score, state.guilders, state.rep
        self.workers, self.threats, self.canals = state.workers, state.threats, state.canals
        self.penalty = state.cur_pen
        self._houses: list[list[_Occupant]] | None = None

    @property
    def pile_colours(self) -> Sequence[int]:
        return [CARD_COLOUR[c] if c >= 0 else -1 for c in self._state.pile_top]

    @property
    def hand(self) -> Sequence[int]:
        state = self._state
        blind = state.blind
        own = state.hands[self.seat]
        return [c for c in own if c not in blind] if blind else own

    @property
    def houses(self) -> Sequence[Sequence[_Occupant]]:
        if self._houses is None:  # read once per house option: built once per decision
            self._houses = [[_Occupant(house[1]) for house in seat] for seat in self._state.houses]
        return self._houses


POLICY = BrugesPolicy()


def heuristic_action(state: State) -> Action:
    """The heuristic bot's answer for the seat the engine applies next."""
    return POLICY.decide(SeatView(state, state.decider, state.legal_actions()))


def heuristic_rollout(state: GameState, rng: random.Random) -> Action:
    """The toolkit's rollout-policy signature (:data:`sdk.search.RolloutPolicy`); deterministic."""
    game: State = state  # type: ignore[assignment]
    return heuristic_action(game)
