"""What a game must provide to be played by the referee and served by the SDK.

The referee, seats, match records and tournaments only talk to games through
:class:`GamePlugin`, so adding a game means writing one plugin and declaring it
under the ``smtourney.games`` entry-point group; nothing else changes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import grpc
    from google.protobuf.message import Message


class GameState(Protocol):
    """The engine-state surface the referee relies on (OpenSpiel-style)."""

    @property
    def current_player(self) -> int: ...  # a seat, or a negative CHANCE/TERMINAL marker

    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def sample_chance(self, rng: random.Random) -> Any: ...
    def apply(self, step: Any) -> None: ...  # raises IllegalActionError (a ValueError)
    def clone(self) -> Any: ...
    def scores(self) -> list[int]: ...
    def ranks(self) -> list[int]: ...
    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class DecisionContext:
    """What the referee tells a bot about a decision besides the game state."""

    match_id: str
    decision_id: int
    seat: int
    decision_ms: int
    time_bank_ms: int


class GamePlugin(Protocol):
    """One game: engine entry points, wire codec, safe defaults, rendering."""

    name: str  # registry name, e.g. "saint_malo"
    title: str  # display name, e.g. "Saint Malo"
    service_name: str  # full gRPC service name of its decisions
    min_players: int
    max_players: int

    def normalize_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Validated parameters with defaults filled in; raises ValueError naming a bad key."""
        ...

    def new_state(self, players: int, params: Mapping[str, Any]) -> GameState: ...

    def decision_kind(self, state: GameState) -> str:
        """Name of the pending decision, e.g. "keep"."""
        ...

    def make_stub(self, channel: grpc.Channel) -> Any:
        """Client stub of the game's decision service."""
        ...

    def request(self, state: GameState, context: DecisionContext) -> tuple[str, Message]:
        """The RPC method name and request message for the pending decision."""
        ...

    def decode_reply(self, state: GameState, reply: Message) -> Any:
        """The action a reply carries; raises ValueError when it carries none."""
        ...

    def default_action(self, state: GameState) -> Any:
        """A legal, deterministic action: played on a strike and for forfeited seats."""
        ...

    def step_to_json(self, step: Any) -> dict[str, Any]: ...
    def step_from_json(self, data: Mapping[str, Any]) -> Any: ...
    def render(self, state: GameState) -> str: ...

    def view(self, state: GameState) -> dict[str, Any]:
        """The position as plain data for replay viewers; must hold ``turn`` (from 1)."""
        ...

    def describe(self, state: GameState, step: Any) -> str:
        """One line saying what ``step`` does in ``state``, before it is applied."""
        ...

    def summary(self, state: GameState) -> dict[str, Any]:
        """Game-specific facts worth keeping in a match record (e.g. pirate attacks)."""
        ...

    def add_servicer(self, server: grpc.Server, bot: Any) -> None:
        """Serve ``bot``'s decisions for this game on ``server`` (SDK side)."""
        ...
