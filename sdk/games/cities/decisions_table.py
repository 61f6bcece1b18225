"""Cities' decision kinds, declared once (see :mod:`sdk.games.decisions`).

Every request carries the deciding seat's :class:`~sdk.games.cities.observation.Observation`
(its ``pending`` holds the decision's options); a bot receives that observation decoded.
``cities.determinize(observation, rng)`` turns it into a full forward model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from sdk.games.cities.protocol import cities_pb2 as pb
from sdk.games.context_wire import context_message
from sdk.games.decisions import DecisionContext, DecisionSpec, DecisionTable

from .decisions import Decision
from .observation import Observation
from .wire import (
    decode_draw,
    decode_exchange,
    decode_give_city,
    decode_give_event,
    decode_observation,
    decode_play_reply,
    decode_react,
    encode_draw,
    encode_exchange,
    encode_give_city,
    encode_give_event,
    encode_observation,
    encode_play_reply,
    encode_react,
)

__all__ = ["DECISIONS"]


def _encoder(request_type: type[Any]) -> Callable[[Observation, DecisionContext], Message]:
    def encode(observation: Observation, context: DecisionContext) -> Message:
        message: Message = request_type(
            context=context_message(context), observation=encode_observation(observation)
        )
        return message

    return encode


def _decode_request(request: Any) -> Observation:
    return decode_observation(request.observation)


def _spec(
    decision: Decision,
    rpc: str,
    codec: tuple[Callable[[Any, int], Message], Callable[[Any], Any]],
    summary: str,
) -> DecisionSpec:
    request_type = getattr(pb, f"{rpc}Request")
    encode_reply, decode_reply = codec
    return DecisionSpec(
        kind=decision.value,
        rpc=rpc,
        request_type=request_type,
        reply_type=getattr(pb, f"{rpc}Reply"),
        encode_request=_encoder(request_type),
        decode_request=_decode_request,
        encode_reply=encode_reply,
        decode_reply=decode_reply,
        summary=summary,
    )


DECISIONS = DecisionTable(
    "cities",
    pb.DESCRIPTOR.services_by_name["Cities"],
    [
        _spec(
            Decision.DRAW, "Draw", (encode_draw, decode_draw), "a cursed turn: the top city or the top event"
        ),
        _spec(
            Decision.PLAY,
            "Play",
            (encode_play_reply, decode_play_reply),
            "play one event with all its choices, or pass",
        ),
        _spec(
            Decision.REACT,
            "React",
            (encode_react, decode_react),
            "reveal a protection card against the announced event, or not",
        ),
        _spec(
            Decision.EXCHANGE,
            "Exchange",
            (encode_exchange, decode_exchange),
            "accept or decline a Friendly exchange",
        ),
        _spec(
            Decision.GIVE_CITY,
            "GiveCity",
            (encode_give_city, decode_give_city),
            "one of your cities to give up",
        ),
        _spec(
            Decision.GIVE_EVENT,
            "GiveEvent",
            (encode_give_event, decode_give_event),
            "one of your events to discard face down",
        ),
    ],
)
