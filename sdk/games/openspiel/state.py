"""``State``: an OpenSpiel state held to the game contract.

The steps are kept as applied (chance outcomes included), so the JSON is the game, its
parameters and that history, and a state is rebuilt by re-applying it. At a simultaneous-move
node each deciding seat's action is held back until every one has chosen, then all go to
``apply_actions`` at once: no seat's choice reaches the OpenSpiel state, and so any view, before
the others have chosen.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..scores import plain_score
from . import rules
from .actions import Action, Outcome, Step
from .params import PLAYERS, Loaded, load

#: ``current_player`` at a chance node and at the end (OpenSpiel's own markers).
CHANCE = -1
TERMINAL = -4
#: The action of a seat with nothing to choose at a simultaneous-move node.
NO_ACTION = -1


class State:
    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.spiel: Any = loaded.game.new_initial_state()
        self.history: list[Step] = []
        self.pending: dict[int, int] = {}

    # -- whose turn -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return bool(self.spiel.is_terminal())

    def is_chance_node(self) -> bool:
        return bool(self.spiel.is_chance_node())

    def is_simultaneous(self) -> bool:
        return bool(self.spiel.is_simultaneous_node())

    def choosing(self) -> tuple[int, ...]:
        """At a simultaneous-move node: the seats with a choice that have not chosen yet."""
        return tuple(
            seat
            for seat in range(self.loaded.players)
            if seat not in self.pending and self.spiel.legal_actions(seat)
        )

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        if self.is_simultaneous():
            return self.choosing()[0]
        return int(self.spiel.current_player())

    # -- steps ------------------------------------------------------------------------------

    def legal_actions(self) -> list[Step]:
        kind = Outcome if self.is_chance_node() else Action
        return [kind(action) for action in rules.legal_ids(self)]

    def step_of(self, action: int) -> Step:
        """Action id ``action`` as the step due now (a chance outcome at a chance node)."""
        return Outcome(action) if self.is_chance_node() else Action(action)

    def sample_chance(self, rng: random.Random) -> Outcome:
        return rules.draw_chance(self, rng)

    def apply(self, step: Step) -> None:
        rules.check(self, step)
        self.history.append(step)
        if not self.is_simultaneous():
            self.spiel.apply_action(step.id)
            return
        self.pending[self.current_player] = step.id
        if not self.choosing():
            joint = [self.pending.get(seat, NO_ACTION) for seat in range(self.loaded.players)]
            self.pending = {}
            self.spiel.apply_actions(joint)

    def clone(self) -> State:
        copy = State.__new__(State)
        copy.loaded = self.loaded
        copy.spiel = self.spiel.clone()
        copy.history = list(self.history)
        copy.pending = dict(self.pending)
        return copy

    # -- results ----------------------------------------------------------------------------

    def scores(self) -> list[float]:
        """OpenSpiel's returns exactly: whole ones as ints, fractions (a split pot) as they are."""
        return [plain_score(value) for value in self.spiel.returns()]

    def ranks(self) -> list[int]:
        """Competition ranks by return: equal returns rank equal."""
        scores = self.scores()
        return [1 + sum(other > score for other in scores) for score in scores]

    @property
    def turn(self) -> int:
        return int(self.spiel.move_number()) + 1

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.loaded.name,
            "params": dict(self.loaded.params),
            "history": [step.id for step in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        state = cls(load(str(data["game"]), dict(data["params"])))
        for action in data["history"]:
            state.apply(state.step_of(int(action)))
        return state


def new_game(loaded: Loaded, players: int) -> State:
    """A new game of ``players`` seats: the game's own count, or its ``players`` parameter set."""
    if players != loaded.players:
        if PLAYERS not in loaded.params:
            raise ValueError(f"openspiel:{loaded.name} is for {loaded.players} players, not {players}")
        loaded = load(loaded.name, {**loaded.params, PLAYERS: players})
    return State(loaded)
