"""Run whole games: the caller's RNG shuffles the decks, a policy per seat decides.

A :class:`GameRecord` (table size, parameters and every step) is all it takes to
re-create a game exactly with :func:`replay`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, Step, step_from_json, step_to_json
from .params import Params
from .state import State, new_game

Policy = Callable[[State], Action]


@dataclass
class GameRecord:
    """Everything needed to re-simulate a game: table size, variant and steps in order."""

    players: int
    params: Params = field(default_factory=Params)
    steps: list[Step] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "params": self.params.to_json(),
            "steps": [step_to_json(s) for s in self.steps],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(
            int(data["players"]),
            Params.from_json(data["params"]),
            [step_from_json(s) for s in data["steps"]],
        )


class RandomPolicy:
    """Uniform over the legal actions of each decision, from its own RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, state: State) -> Action:
        return state.sample_action(self.rng)


def play_game(
    policies: Sequence[Policy],
    chance_rng: random.Random,
    params: Params | None = None,
    *,
    check: bool = True,
) -> tuple[State, GameRecord]:
    """Play one game to the end; the deciding seat ``i`` is asked ``policies[i]``.

    ``check=False`` applies policy actions unchecked, for trusted policies.
    """
    state = new_game(len(policies), params)
    record = GameRecord(len(policies), state.params)
    steps = record.steps
    apply = state.apply if check else state.apply_unchecked
    while not state.is_terminal():
        step: Step
        if state.is_chance_node():
            step = state.sample_chance(chance_rng)
            state.apply_unchecked(step)
        else:
            step = policies[state.current_player](state)
            apply(step)
        steps.append(step)
    return state, record


def replay(record: GameRecord, *, upto: int | None = None) -> State:
    """Re-simulate a record with every step checked (``upto``: only the first steps)."""
    state = new_game(record.players, record.params)
    for step in record.steps[:upto]:
        state.apply(step)
    return state
