"""``Observation``: what one seat may know, as OpenSpiel itself gives it to that seat.

The observation string and tensor, the information-state string and tensor where the game
provides them, and the whole history only where the game is sequential with perfect
information (in any other game the history holds what some seat may not see). The legal
actions, as (id, name), only when the seat is deciding.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .loader import pyspiel

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class Tensor:
    shape: tuple[int, ...] = ()
    values: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Observation:
    game: str
    params_json: str
    seat: int
    players: int
    observation_string: str = ""
    information_state_string: str = ""
    observation_tensor: Tensor = Tensor()
    information_state_tensor: Tensor = Tensor()
    perfect_information: bool = False
    history: tuple[tuple[int, int], ...] = ()
    legal: tuple[tuple[int, str], ...] = ()

    @property
    def params(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.params_json)
        return loaded


def public_history(state: State) -> bool:
    """Whether every step of ``state`` is every seat's to know."""
    kind = state.loaded.game.get_type()
    spiel = pyspiel()
    return bool(
        kind.information == spiel.GameType.Information.PERFECT_INFORMATION
        and kind.dynamics == spiel.GameType.Dynamics.SEQUENTIAL
    )


def deciding(state: State) -> tuple[int, ...]:
    """The seats asked now: every seat yet to choose at a simultaneous-move node, else the one."""
    if state.is_terminal() or state.is_chance_node():
        return ()
    return state.choosing() if state.is_simultaneous() else (state.current_player,)


def _tensor(shape: Any, values: Any) -> Tensor:
    return Tensor(tuple(int(size) for size in shape), tuple(float(value) for value in values))


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state`` (never a pending simultaneous choice: see ``State``)."""
    game, spiel, kind = state.loaded.game, state.spiel, state.loaded.game.get_type()
    fields: dict[str, Any] = {}
    if kind.provides_observation_string:
        fields["observation_string"] = spiel.observation_string(seat)
    if kind.provides_information_state_string:
        fields["information_state_string"] = spiel.information_state_string(seat)
    if kind.provides_observation_tensor:
        fields["observation_tensor"] = _tensor(
            game.observation_tensor_shape(), spiel.observation_tensor(seat)
        )
    if kind.provides_information_state_tensor:
        fields["information_state_tensor"] = _tensor(
            game.information_state_tensor_shape(), spiel.information_state_tensor(seat)
        )
    perfect = public_history(state)
    if perfect:
        fields["history"] = tuple((int(step.player), int(step.action)) for step in spiel.full_history())
    if seat in deciding(state):
        fields["legal"] = tuple(
            (int(action), str(spiel.action_to_string(seat, action))) for action in spiel.legal_actions(seat)
        )
    return Observation(
        game=state.loaded.name,
        params_json=json.dumps(state.loaded.params, sort_keys=True),
        seat=seat,
        players=state.loaded.players,
        perfect_information=perfect,
        **fields,
    )
