"""Saint Malo's decision kinds, declared once (see :mod:`sdk.games.decisions`).

Every request carries the whole position (Saint Malo hides nothing but future
dice, so a seat's observation is the state itself); Choose and Rotate also list
their legal answers. A bot receives the engine :class:`State` rebuilt from the
request, a complete forward model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from sdk.games.context_wire import context_message
from sdk.games.decisions import DecisionContext, DecisionSpec, DecisionTable
from sdk.games.saint_malo.protocol import saint_malo_pb2 as pb

from .actions import Choose, Keep, Place, PlacePerson, Rotate
from .pieces import Decision
from .state import State
from .wire import (
    decode_bonus_person,
    decode_choose,
    decode_keep,
    decode_observation,
    decode_place,
    decode_rotate,
    encode_person,
    encode_placement,
    fill_observation,
)

_Extras = Callable[[State], dict[str, Any]]


def _no_extras(state: State) -> dict[str, Any]:
    return {}


def _available(state: State) -> dict[str, Any]:
    return {"available": [s + 1 for s in state.available_symbols()]}


def _legal_rotations(state: State) -> dict[str, Any]:
    return {"legal": [a.dice for a in state.iter_legal_actions() if isinstance(a, Rotate)]}


def _encoder(request_type: type[Any], extras: _Extras) -> Callable[[State, DecisionContext], Message]:
    def encode(state: State, context: DecisionContext) -> Message:
        request = request_type(context=context_message(context), **extras(state))
        # Written in place: building the observation apart and copying it in costs more.
        fill_observation(request.observation, state)
        message: Message = request
        return message

    return encode


def _decoder(decision: Decision) -> Callable[[Any], State]:
    def decode(request: Any) -> State:
        return decode_observation(request.observation, decision)

    return decode


def _keep_reply(action: Keep, decision_id: int) -> pb.KeepReply:
    return pb.KeepReply(decision_id=decision_id, reroll=action.reroll)


def _choose_reply(action: Choose, decision_id: int) -> pb.ChooseReply:
    return pb.ChooseReply(decision_id=decision_id, symbol=pb.Symbol.ValueType(action.symbol + 1))


def _rotate_reply(action: Rotate, decision_id: int) -> pb.RotateReply:
    return pb.RotateReply(decision_id=decision_id, dice=action.dice)


def _place_reply(action: Place, decision_id: int) -> pb.PlaceReply:
    return pb.PlaceReply(decision_id=decision_id, **encode_placement(action))


def _bonus_reply(action: PlacePerson, decision_id: int) -> pb.PlaceBonusPersonReply:
    return pb.PlaceBonusPersonReply(decision_id=decision_id, person=encode_person(action))


def _spec(
    decision: Decision,
    rpc: str,
    messages: tuple[type[Any], type[Any]],
    codec: tuple[Callable[[Any, int], Message], Callable[[Any], Any]],
    summary: str,
    extras: _Extras = _no_extras,
) -> DecisionSpec:
    request_type, reply_type = messages
    encode_reply, decode_reply = codec
    return DecisionSpec(
        kind=decision.value,
        rpc=rpc,
        request_type=request_type,
        reply_type=reply_type,
        encode_request=_encoder(request_type, extras),
        decode_request=_decoder(decision),
        encode_reply=encode_reply,
        decode_reply=decode_reply,
        summary=summary,
    )


DECISIONS = DecisionTable(
    "saint_malo",
    pb.DESCRIPTOR.services_by_name["SaintMalo"],
    [
        _spec(
            Decision.KEEP,
            "Keep",
            (pb.KeepRequest, pb.KeepReply),
            (_keep_reply, decode_keep),
            "after roll 1 or 2: which dice to roll again",
        ),
        _spec(
            Decision.CHOOSE,
            "Choose",
            (pb.ChooseRequest, pb.ChooseReply),
            (_choose_reply, decode_choose),
            "the symbol to score",
            _available,
        ),
        _spec(
            Decision.ROTATE,
            "Rotate",
            (pb.RotateRequest, pb.RotateReply),
            (_rotate_reply, decode_rotate),
            "dice to turn to the chosen symbol",
            _legal_rotations,
        ),
        _spec(
            Decision.PLACE,
            "Place",
            (pb.PlaceRequest, pb.PlaceReply),
            (_place_reply, decode_place),
            "how many dice to use and where everything goes",
        ),
        _spec(
            Decision.BONUS_PERSON,
            "PlaceBonusPerson",
            (pb.PlaceBonusPersonRequest, pb.PlaceBonusPersonReply),
            (_bonus_reply, decode_bonus_person),
            "where a bonus person goes",
        ),
    ],
)
