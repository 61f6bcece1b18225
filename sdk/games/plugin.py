"""What a game must provide to be played by the referee and served by the SDK.

The referee, seats, match records, viewers and tournaments only talk to games
through :class:`GamePlugin`, so adding a game means writing one plugin and
declaring it under the ``smtourney.games`` entry-point group; nothing else
changes.

The contract, in the manner of OpenSpiel and PettingZoo's AEC model:

- ``current_player`` is the seat whose decision the engine applies next,
  whoever's turn it is (reactions, every player in turn); the engine applies
  decisions one at a time.
- ``deciding_seats(state)`` says who is asked now: usually that one seat;
  several when their decisions are simultaneous (sealed choices, every player
  at once). The referee asks them all at once, each from its own observation of
  this same state, and applies their replies in the order given, each seat on
  its own clock (docs/architecture.md, "Simultaneous decisions").
- ``observe(state, seat)`` is everything ``seat`` may know, public history
  included, and the only thing about the game that ever reaches that seat: the
  referee builds each request from it alone.
- ``spectator_view(state)`` is what every seat may know and nothing more: how a match in
  progress is shown to the public (no hand, deck order, hidden card or pending choice).
- each decision kind is declared once, in the plugin's :class:`DecisionTable`.
- chance is explicit: at a chance node the referee draws the outcome from its
  own stream (``chance_stream``) and records it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .decisions import DecisionContext, DecisionTable

__all__ = ["DecisionContext", "GamePlugin", "GameState", "Parameter", "PluginDefaults"]


class GameState(Protocol):
    """The engine-state surface the referee relies on (OpenSpiel-style).

    Two more methods are optional fast paths, used where an engine has them
    (:mod:`sdk.games.play`, the benchmarks): ``sample_action(rng)``, a random legal action drawn
    without listing them all, and ``apply_unchecked(step)``, a step known to be legal applied
    without its checks; otherwise ``legal_actions`` and ``apply`` serve.
    """

    @property
    def current_player(self) -> int: ...  # the deciding seat, or a negative CHANCE/TERMINAL marker

    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def sample_chance(self, rng: random.Random) -> Any: ...
    def apply(self, step: Any) -> None: ...  # raises IllegalActionError (a ValueError), state unchanged
    def legal_actions(self) -> list[Any]: ...
    def clone(self) -> Any: ...
    def scores(self) -> Sequence[float]: ...  # whole numbers as ints (see sdk.games.scores)
    def ranks(self) -> list[int]: ...
    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Parameter:
    """One game parameter, for ``smtourney games`` and the docs."""

    name: str
    default: Any
    summary: str


class GamePlugin(Protocol):
    """One game: engine entry points, declared decisions, secrecy, defaults, rendering."""

    name: str  # registry name, a Python identifier
    title: str  # display name
    min_players: int
    max_players: int
    parameters: tuple[Parameter, ...]
    decisions: DecisionTable
    #: Name of the referee's random stream for this game's chance nodes.
    chance_stream: str
    #: The web viewer's drawing module for this game (a JavaScript file, see docs/web-viewer.md).
    web_script: Path
    #: Bot commands for a demonstration match (``smtourney play`` without ``--bot``).
    demo_seats: tuple[str, ...]

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Validated parameters with defaults filled in; raises ValueError naming a bad key."""
        ...

    def new_state(self, players: int, params: Mapping[str, Any]) -> GameState: ...

    def decision_kind(self, state: GameState) -> str:
        """Kind of the pending decision, one of ``decisions.kinds``."""
        ...

    def deciding_seats(self, state: GameState) -> tuple[int, ...]:
        """The seats asked now, in the order their replies are applied; the first is ``current_player``.

        More than one seat means simultaneous decisions of ``decision_kind(state)``, every seat asked
        at once from ``observe(state, seat)``: each seat's options in ``state`` must be the ones it
        will have when the engine reaches it, whatever the seats before it choose, and none of
        their choices may be shown to it.
        """
        ...

    def check_positions(self) -> Sequence[tuple[str, GameState, int]]:
        """Edge-case positions as ``(label, state, players)``, each at a pending decision, that
        ``smtourney bot check`` plays besides those it finds by random play (often none)."""
        ...

    def observe(self, state: GameState, seat: int) -> Any:
        """Everything ``seat`` may know now; requests to that seat are built from it alone."""
        ...

    def resample_hidden(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        """A state ``seat`` cannot tell from ``state``: all it may not see redrawn at random.

        Written from the game's definition of what is secret, independently of
        ``observe``, so the secrecy property (equal observations) is a real check.
        """
        ...

    def random_action(self, observation: Any, rng: random.Random) -> Any:
        """A random legal action for the deciding seat, from what its request told it."""
        ...

    def default_action(self, state: GameState) -> Any:
        """A legal, deterministic action: played on a strike and for forfeited seats."""
        ...

    def state_from_json(self, data: Mapping[str, Any]) -> GameState:
        """The state ``GameState.to_json`` describes (exactly: a round trip changes nothing)."""
        ...

    def step_to_json(self, step: Any) -> dict[str, Any]: ...
    def step_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def turn(self, state: GameState) -> int:
        """The game's own turn count (from 1), by which viewers jump through a match."""
        ...

    def render(self, state: GameState, seat: int | None = None) -> str:
        """The position as text; ``seat``: as that seat sees it (None: everything)."""
        ...

    def view(self, state: GameState, seat: int | None = None) -> dict[str, Any]:
        """The position as plain data for the web viewer; ``seat`` as in :meth:`render`."""
        ...

    def describe(self, state: GameState, step: Any, seat: int | None = None) -> str | None:
        """One line saying what ``step`` does in ``state`` (before it is applied).

        With ``seat``: what that seat learns of the step, or None when it learns
        nothing at all (not even that the step happened).
        """
        ...

    def summary(self, state: GameState) -> dict[str, Any]:
        """Game-specific facts worth keeping in a match record (e.g. how the scores break down)."""
        ...

    def spectator_view(self, state: GameState) -> dict[str, Any]:
        """The position as a spectator sees it, in the form of :meth:`view` (so the game's drawing
        module draws it): what every seat may know and nothing more. It must not change when any
        seat's hidden information is redrawn (``resample_hidden``)."""
        ...

    def spectator_describe(self, state: GameState, step: Any) -> str | None:
        """``step`` in words as a spectator learns of it: None when some seat learns nothing of it."""
        ...


class PluginDefaults:
    """What a plugin has unless its game says otherwise: one seat asked at a time, and no
    hand-picked check positions beyond those ``bot check`` finds by random play."""

    def deciding_seats(self, state: GameState) -> tuple[int, ...]:
        return (state.current_player,)

    def check_positions(self) -> Sequence[tuple[str, GameState, int]]:
        return ()
