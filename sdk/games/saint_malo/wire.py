"""Saint Malo on the wire: the ``smtourney.saint_malo.v1`` messages, derived from the engine's values.

Used on both ends of the wire: the referee encodes observations and decodes replies; a bot
decodes observations into a :class:`State` (its forward model) and encodes its action. Only
where the wire differs is anything written here: an observation is the engine state itself,
with a few fields named otherwise, the phase given by the decision asked for, a city's
in-play score parts only and the squares it has filled worked out again.
"""

from __future__ import annotations

from typing import Any

from sdk.games.codec import Error, MessageCodec
from sdk.games.saint_malo.protocol import saint_malo_pb2 as pb

from .actions import Choose, Keep, Place, PlacePerson, Rotate
from .city import City
from .phases import PHASE_NAMES
from .pieces import Decision, ScorePart
from .state import State

__all__ = ["ACTIONS", "OBSERVATION", "decode_observation", "encode_observation"]

_IN_PLAY_PARTS = ScorePart.FULL_CITY
_PARTS_NOT_IN_PLAY = (0,) * (len(ScorePart) - _IN_PLAY_PARTS)
"""The score parts only final scoring fills, which no observation carries."""


class _InPlayParts:
    """``vp_parts``: the city's score parts scored during play (the rest are 0 until the end)."""

    wire = ("vp_parts",)

    def put(self, message: Any, city: City) -> None:
        message.vp_parts.extend(city.parts[:_IN_PLAY_PARTS])

    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None:
        parts = message.vp_parts[:]  # a slice: cheaper than iterating the field
        parts.extend(_PARTS_NOT_IN_PLAY)
        out["parts"] = parts


def _city(
    *,
    walls: int,
    crates: int,
    houses: int,
    churches: tuple[int, ...],
    persons: tuple[int, ...],
    coins: int,
    logs: int,
    vp: int,
    cannons_lost: int,
    parts: list[int],
) -> City:
    """The city a message describes (decoded for every city of every request: kept lean)."""
    city = City.__new__(City)
    filled = walls | crates | houses
    for mask in churches:
        filled |= mask
    for mask in persons:
        filled |= mask
    city.filled, city.walls, city.crates, city.houses = filled, walls, crates, houses
    city.churches, city.persons, city.coins, city.logs = churches, persons, coins, logs
    city.vp, city.cannons_lost, city.parts = vp, cannons_lost, parts
    return city


def _state(**attributes: Any) -> State:
    state = State.__new__(State)
    for name, value in attributes.items():
        setattr(state, name, value)
    return state


OBSERVATION = MessageCodec(
    pb.Observation,
    State,
    rename={"players": "num_players", "rerolled": "to_roll"},
    absent={"chosen": -1},
    codecs={pb.City: MessageCodec(pb.City, City, fields=[_InPlayParts()], build=_city)},
    build=_state,
)
ACTIONS: dict[str, Any] = {
    "keep": Keep,
    "choose": Choose,
    "rotate": Rotate,
    "place": Place,
    "bonus_person": PlacePerson,
}


def encode_observation(state: State) -> pb.Observation:
    """The whole public state (what every seat may see)."""
    message: pb.Observation = OBSERVATION.encode(state)
    return message


def decode_observation(message: pb.Observation, decision: Decision) -> State:
    """The engine state a ``decision`` request describes (a bot's forward model)."""
    state: State = OBSERVATION.decode(message, "observation", phase=PHASE_NAMES.index(decision.value))
    return state
