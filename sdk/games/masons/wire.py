"""Masons on the wire: the ``smtourney.masons.v1`` messages, derived from the engine's values.

Only where the wire differs is anything written here: towers are a mask per colour in the
engine and a colour per point (-1: none) on the wire, and a connection is the oneof of a city
and ``alone``. Decoding a request gives back exactly the :class:`Observation` it was built from.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from sdk.games.codec import Bound, Error, MessageCodec
from sdk.games.masons.protocol import masons_pb2 as pb

from .actions import Connect, FinalScore, Houses, Score, Swap, Towers, Wall
from .board import LINE_COUNT, POINTS, spaces_of
from .observation import Observation


class _Towers:
    """``towers``: one mask per colour in the engine, each point's colour on the wire."""

    wire = ("towers",)

    def put(self, message: Any, obj: Observation) -> None:
        colours = [-1] * POINTS
        for colour, mask in enumerate(obj.towers):
            for point in spaces_of(mask):
                colours[point] = colour
        message.towers.extend(colours)

    def get(self, message: Any, path: str, error: Error, out: dict[str, Any]) -> None:
        masks = [0, 0, 0]
        for point, colour in enumerate(message.towers):
            if colour >= 0:
                masks[colour] |= 1 << point
        out["towers"] = tuple(masks)


class _Connect:
    """A connection: ``city`` or ``alone`` (no city) of the reply's oneof."""

    message_type = pb.ConnectCityReply

    def fill(self, message: Any, value: Connect) -> None:
        if value.city is None:
            message.alone = True
        else:
            message.city = value.city

    def decode(self, message: Any, path: str, error: Error) -> Connect:
        choice = message.WhichOneof("choice")
        if choice == "city":
            return Connect(message.city)
        if choice == "alone" and message.alone:
            return Connect(None)
        raise error("the reply sets neither `city` nor `alone`")


OBSERVATION = MessageCodec(pb.Observation, Observation, absent={"roll": ()}, fields=[_Towers()])
_REPLY = ("decision_id",)
#: Each decision kind's action (its class, or the codec of its reply where that differs).
ACTIONS: dict[str, Any] = {
    "wall": MessageCodec(pb.WallReply, Wall, skip=_REPLY, bounds={"line": Bound(LINE_COUNT, "line")}),
    "towers": Towers,
    "houses": MessageCodec(pb.HousesReply, Houses, skip=_REPLY, lengths={"colours": (1, 2)}),
    "connect_city": _Connect(),
    "score_cards": MessageCodec(pb.ScoreCardsReply, Score, skip=_REPLY, lengths={"cards": (1, None)}),
    "swap": Swap,
    "final_score": FinalScore,
}


encode_observation = OBSERVATION.encode
#: The observation a request carries; ValueError naming a malformed field (``observation.phase``).
decode_observation = partial(OBSERVATION.decode, path="observation")
