"""What every game plugin does the same way, so a game's ``plugin.py`` holds only what is its own.

A plugin subclasses :class:`PluginBase`, sets the contract's attributes (name, title, players,
parameters, decisions, ...), points ``engine`` at its rules engine and ``words`` at its
renderers, and writes ``summary`` and whatever its engine does differently. The base supplies
the type guard (every call with a state checks it is this game's), parameters and new games,
JSON of states and steps, the pending decision's kind, the default observation and secrecy
calls, a safe default (the first legal action), and the spectator's view: what all the seats'
views have in common (:mod:`sdk.games.spectator`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from .decisions import DecisionTable
from .plugin import Parameter, PluginDefaults
from .spectator import common_part, common_text
from .tensors import Tensors

__all__ = ["Engine", "PluginBase", "Words"]


class _Params(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class _Game(Protocol):
    """The engine-state methods the base calls (see :class:`~sdk.games.plugin.GameState`)."""

    @property
    def decision(self) -> Any: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    @property
    def current_player(self) -> int: ...
    def scores(self) -> Sequence[float]: ...
    def legal_actions(self) -> list[Any]: ...
    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=_Game)


@dataclass(frozen=True, slots=True)
class Engine(Generic[S]):
    """A rules engine's entry points.

    ``new_game(players, params)`` takes the ``params`` class's value (``from_json``); without a
    ``params`` class the game takes no parameters and ``new_game(players)``.
    """

    state: type[S]
    new_game: Callable[..., S]
    step_to_json: Callable[[Any], dict[str, Any]]
    step_from_json: Callable[[dict[str, Any]], Any]
    params: Any = None


@dataclass(frozen=True, slots=True)
class Words(Generic[S]):
    """A game's renderers: ``render(state, seat)``, ``view(state, seat)``, ``describe(state, step, seat)``."""

    render: Callable[[S, int | None], str]
    view: Callable[[S, int | None], dict[str, Any]]
    describe: Callable[[S, Any, int | None], str | None]


class PluginBase(PluginDefaults, Generic[S]):
    """A game plugin's shared half (the contract's defaults included); see the module's docstring."""

    name: str
    title: str
    min_players: int
    max_players: int
    parameters: tuple[Parameter, ...] = ()
    decisions: DecisionTable
    chance_stream: str
    web_script: Path
    demo_seats: tuple[str, ...]
    engine: ClassVar[Engine[Any]]
    words: ClassVar[Words[Any]]
    #: The class of a seat's observation, when it is not the engine state itself.
    observation_type: ClassVar[type[Any] | None] = None
    #: The game's action numbering and observation tensor for learning (its ``tensors.py``), if any.
    tensors: ClassVar[Tensors | None] = None

    def state_of(self, state: Any) -> S:
        """``state`` if it is this game's engine state (the type guard of every call)."""
        if not isinstance(state, self.engine.state):
            raise TypeError(f"not a {self.title} state: {state!r}")
        game: S = state
        return game

    def observation_of(self, observation: Any) -> Any:
        """``observation`` if it is one of this game's (the type guard of ``random_action``)."""
        expected = self.observation_type or self.engine.state
        if not isinstance(observation, expected):
            raise TypeError(f"not a {self.title} observation: {observation!r}")
        return observation

    def engine_params(self, params: Mapping[str, Any]) -> Any:
        """The engine's parameters value; ValueError naming a bad key."""
        if self.engine.params is not None:
            return self.engine.params.from_json(dict(params))
        if params:
            raise ValueError(f"unknown parameter {sorted(params)[0]!r} ({self.title} takes no parameters)")
        return None

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        value: _Params | None = self.engine_params(params)
        return {} if value is None else value.to_json()

    def new_state(self, players: int, params: Mapping[str, Any]) -> S:
        value = self.engine_params(params)
        state: S = self.engine.new_game(players) if value is None else self.engine.new_game(players, value)
        return state

    def decision_kind(self, state: Any) -> str:
        game = self.state_of(state)
        decision = None if game.is_chance_node() or game.is_terminal() else game.decision
        if decision is None:
            raise ValueError("no decision is pending")
        return str(decision.value if isinstance(decision, Enum) else decision)

    def observe(self, state: Any, seat: int) -> Any:
        return self.state_of(state).observation(seat)  # type: ignore[attr-defined]

    def resample_hidden(self, state: Any, seat: int, rng: random.Random) -> S:
        return self.state_of(state).resample_hidden(seat, rng)  # type: ignore[attr-defined,no-any-return]

    def default_action(self, state: Any) -> Any:
        """The first legal action (a game overrides this where another one is safer)."""
        actions = self.state_of(state).legal_actions()
        if not actions:
            raise ValueError("no decision is pending")
        return actions[0]

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        state: S = self.engine.state.from_json(dict(data))
        return state

    def step_to_json(self, step: Any) -> dict[str, Any]:
        return self.engine.step_to_json(step)

    def step_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.engine.step_from_json(dict(data))

    def turn(self, state: Any) -> int:
        return max(1, int(self.state_of(state).turn))  # type: ignore[attr-defined]

    def render(self, state: Any, seat: int | None = None) -> str:
        return self.words.render(self.state_of(state), seat)

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        return self.words.view(self.state_of(state), seat)

    def describe(self, state: Any, step: Any, seat: int | None = None) -> str | None:
        return self.words.describe(self.state_of(state), step, seat)

    def spectator_view(self, state: Any) -> dict[str, Any]:
        """What every seat's view shows alike; a game overrides it to show public parts that the
        seats' views word differently (a hand's size beside the owner's cards)."""
        game = self.state_of(state)
        views = [self.words.view(game, seat) for seat in range(len(game.scores()))]
        shared: dict[str, Any] = common_part(views)
        return shared

    def spectator_describe(self, state: Any, step: Any) -> str | None:
        game = self.state_of(state)
        decider = None if game.is_chance_node() or game.is_terminal() else game.current_player
        texts = [self.words.describe(game, step, seat) for seat in range(len(game.scores()))]
        return common_text(texts, decider)
