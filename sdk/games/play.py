"""Whole games in one process: a policy per seat decides, one random stream draws chance.

The loop the referee runs, without bots, seats or clocks: what self-play, tuning, benchmarks and
tests need. :func:`play_to_end` takes a game plugin (a new game) or an engine state (played on from
where it stands); a :class:`GameRecord` (table size, parameters and every step) re-creates a game
exactly with :meth:`GameRecord.replay`.

Two engine methods are optional fast paths, used when a state has them:
``sample_action(rng)`` (a random legal action drawn without listing them all; otherwise one of
``legal_actions()``) and ``apply_unchecked(step)`` (a step known to be legal applied without its
checks; otherwise ``apply``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, overload

from .plugin import GamePlugin
from .plugin_base import Engine

__all__ = [
    "GameRecord",
    "Playable",
    "Policy",
    "RandomPolicy",
    "apply_unchecked",
    "play_to_end",
    "sample_action",
]


class Playable(Protocol):
    """The engine-state surface the loop uses (see :class:`~sdk.games.plugin.GameState`)."""

    @property
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def sample_chance(self, rng: random.Random) -> Any: ...
    def apply(self, step: Any) -> None: ...
    def legal_actions(self) -> list[Any]: ...


S = TypeVar("S", bound=Playable)
P = TypeVar("P")

#: A seat's player: given the state at that seat's decision, the action it takes.
Policy = Callable[[S], Any]


def sample_action(state: Playable, rng: random.Random) -> Any:
    """A random legal action: the engine's own ``sample_action`` if it has one, else a uniform pick."""
    sampler: Callable[[random.Random], Any] | None = getattr(state, "sample_action", None)
    return sampler(rng) if sampler is not None else rng.choice(state.legal_actions())


def apply_unchecked(state: Playable) -> Callable[[Any], None]:
    """How to apply a step known to be legal: ``apply_unchecked`` if the engine has it, else ``apply``."""
    unchecked: Callable[[Any], None] = getattr(state, "apply_unchecked", state.apply)
    return unchecked


class RandomPolicy:
    """A random legal action at every decision, from its own random stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, state: Playable) -> Any:
        return sample_action(state, self.rng)


@overload
def play_to_end(
    game: S,
    policies: Sequence[Policy[S]],
    chance: random.Random,
    *,
    check: bool = True,
    steps: list[Any] | None = None,
) -> S: ...
@overload
def play_to_end(
    game: GamePlugin,
    policies: Sequence[Policy[Any]],
    chance: random.Random,
    *,
    params: Mapping[str, Any] | None = None,
    check: bool = True,
    steps: list[Any] | None = None,
) -> Any: ...
def play_to_end(
    game: Any,
    policies: Sequence[Policy[Any]],
    chance: random.Random,
    *,
    params: Mapping[str, Any] | None = None,
    check: bool = True,
    steps: list[Any] | None = None,
) -> Any:
    """Play to the end and return the final state; seat ``i``'s decisions are ``policies[i]``'s.

    ``game`` is a plugin (a new game for ``len(policies)`` seats with ``params``) or a state to
    play on. Chance outcomes are drawn from ``chance`` as the referee draws them and applied
    unchecked; ``check=False`` applies the policies' actions unchecked too (trusted policies).
    Every step taken is appended to ``steps`` when given.
    """
    state = game.new_state(len(policies), params or {}) if hasattr(game, "new_state") else game
    apply_chance = apply_unchecked(state)
    apply = state.apply if check else apply_chance
    while not state.is_terminal():
        if state.is_chance_node():
            step = state.sample_chance(chance)
            apply_chance(step)
        else:
            step = policies[state.current_player](state)
            apply(step)
        if steps is not None:
            steps.append(step)
    return state


@dataclass
class GameRecord(Generic[S, P]):
    """A whole game: table size, parameters and every step, enough to re-create it exactly.

    A game binds it to its engine by subclassing it with ``engine`` set; the subclass's
    :meth:`play` and :meth:`replay` are that game's ``play_game`` and ``replay``.
    """

    engine: ClassVar[Engine[Any]]

    players: int
    params: P
    steps: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        params: Any = self.params
        return {
            "players": self.players,
            "params": {} if params is None else params.to_json(),
            "steps": [self.engine.step_to_json(step) for step in self.steps],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        engine = cls.engine
        params: Any = None if engine.params is None else engine.params.from_json(data["params"])
        return cls(int(data["players"]), params, [engine.step_from_json(step) for step in data["steps"]])

    @classmethod
    def new_state(cls, players: int, params: P) -> S:
        """A new game of this engine (``params`` ignored by a game that takes none)."""
        state: S = (
            cls.engine.new_game(players)
            if cls.engine.params is None
            else cls.engine.new_game(players, params)
        )
        return state

    @classmethod
    def play(
        cls,
        policies: Sequence[Policy[S]],
        chance: random.Random,
        params: P | None = None,
        *,
        check: bool = True,
    ) -> tuple[S, Self]:
        """Play one new game to the end (see :func:`play_to_end`); the final state and its record."""
        value: Any = params
        if value is None and cls.engine.params is not None:
            value = cls.engine.params()
        record = cls(len(policies), value)
        state: S = play_to_end(
            cls.new_state(record.players, value), policies, chance, check=check, steps=record.steps
        )
        return state, record

    def replay(self, *, upto: int | None = None) -> S:
        """Re-simulate the record with every step checked (``upto``: only the first steps)."""
        state = self.new_state(self.players, self.params)
        for step in self.steps[:upto]:
            state.apply(step)
        return state
