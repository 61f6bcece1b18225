"""Masons' decision kinds, declared once (see :mod:`sdk.games.decisions`).

Every request carries the deciding seat's :class:`~sdk.games.masons.observation.Observation`;
a bot receives it decoded, and ``masons.determinize(observation, rng)`` turns it into a full
forward model whose ``legal_actions()`` are the seat's options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from sdk.games.context_wire import context_message
from sdk.games.decisions import DecisionContext, DecisionSpec, DecisionTable
from sdk.games.masons.protocol import masons_pb2 as pb

from .observation import Observation
from .wire import (
    decode_connect,
    decode_final,
    decode_houses,
    decode_observation,
    decode_score,
    decode_swap,
    decode_towers,
    decode_wall,
    encode_connect,
    encode_final,
    encode_houses,
    encode_observation,
    encode_score,
    encode_swap,
    encode_towers,
    encode_wall,
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
    kind: str, rpc: str, codec: tuple[Callable[..., Message], Callable[..., Any]], summary: str
) -> DecisionSpec:
    request_type = getattr(pb, f"{rpc}Request")
    encode_reply, decode_reply = codec
    return DecisionSpec(
        kind=kind,
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
    "masons",
    pb.DESCRIPTOR.services_by_name["Masons"],
    [
        _spec("wall", "Wall", (encode_wall, decode_wall), "the line for this turn's wall"),
        _spec("towers", "Towers", (encode_towers, decode_towers), "tower colours for the wall's two ends"),
        _spec(
            "houses", "Houses", (encode_houses, decode_houses), "house colours for the spaces beside the wall"
        ),
        _spec(
            "connect_city",
            "ConnectCity",
            (encode_connect, decode_connect),
            "join the completed city to one bordering city, or none",
        ),
        _spec(
            "score_cards",
            "ScoreCards",
            (encode_score, decode_score),
            "play 1 or 2 cards for the completed city, or discard 1 and draw 2",
        ),
        _spec(
            "swap", "Swap", (encode_swap, decode_swap), "lowest score: the cards to replace, possibly none"
        ),
        _spec(
            "final_score",
            "FinalScore",
            (encode_final, decode_final),
            "the final scoring: 1 or 2 cards naming a completed city, or pass",
        ),
    ],
)
