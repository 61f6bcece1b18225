"""Bruges on the wire: the ``smtourney.bruges.v1`` messages, derived from the engine's values.

Where the wire differs from the engine: the engine keeps a tuple per table item with one
entry per seat, the wire one ``Seat`` message per seat; the two sections' canal colours are two
fields; parameters from a request are checked as a bracket's would be.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sdk.games.bruges.protocol import bruges_pb2 as pb
from sdk.games.codec import Columns, MessageCodec, Spread

from .actions import Action
from .observation import Observation
from .params import MAX_PLAYERS, MIN_PLAYERS, Params
from .phases import KINDS

__all__ = ["ACTIONS", "OBSERVATION", "decode_observation", "encode_observation"]


def _checked_params(**values: Any) -> Params:
    return Params.from_json(Params(**values).to_json())


PARAMS = MessageCodec(
    pb.Params,
    Params,
    fields=[Spread(pb.Params, Params, "canal_colours", ("canal_colours_a", "canal_colours_b"))],
    build=_checked_params,
)
OBSERVATION = MessageCodec(
    pb.Observation,
    Observation,
    codecs={pb.Params: PARAMS},
    fields=[
        Columns(
            "seats",
            pb.Seat,
            Observation,
            count=("players", MIN_PLAYERS, MAX_PLAYERS),
            rename={"score": "scores", "public_hand": "public_hands"},
        )
    ],
)
#: Every reply carries one :data:`Action` (whichever the options listed).
ACTIONS: dict[str, Any] = dict.fromkeys(KINDS, Action)


encode_observation = OBSERVATION.encode
#: The observation a request carries; ValueError naming a malformed field (``observation.phase``).
decode_observation = partial(OBSERVATION.decode, path="observation")
