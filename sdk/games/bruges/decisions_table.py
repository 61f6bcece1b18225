"""Bruges' decision kinds, declared once (see :mod:`sdk.games.decisions`).

Every request carries the deciding seat's :class:`~sdk.games.bruges.observation.Observation`, whose
``options`` list the decision's legal actions; every reply carries one :class:`Action`.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import Message

from sdk.games.bruges.protocol import bruges_pb2 as pb
from sdk.games.context_wire import context_message
from sdk.games.decisions import DecisionContext, DecisionSpec, DecisionTable

from .actions import Action
from .decisions import (
    ADVANCE_REPUTATION,
    CANCEL_PENALTY,
    DRAW_PILE,
    EXTRA_PLAY,
    FIRE_CHOICE,
    PENALTY_ORDER,
    PLAGUE_DISCARD,
    TAKE_TURN,
)
from .observation import Observation
from .wire import decode_action, decode_observation, encode_action, encode_observation

__all__ = ["DECISIONS"]


def _spec(kind: str, rpc: str, summary: str) -> DecisionSpec:
    request_type = getattr(pb, f"{rpc}Request")
    reply_type = getattr(pb, f"{rpc}Reply")

    def encode_request(observation: Observation, context: DecisionContext) -> Message:
        message: Message = request_type(
            context=context_message(context), observation=encode_observation(observation)
        )
        return message

    def encode_reply(action: Action, decision_id: int) -> Message:
        message: Message = reply_type(decision_id=decision_id, action=encode_action(action))
        return message

    def decode_reply(reply: Any) -> Action:
        return decode_action(reply.action if reply.HasField("action") else None)

    def decode_request(request: Any) -> Observation:
        return decode_observation(request.observation)

    return DecisionSpec(
        kind=kind,
        rpc=rpc,
        request_type=request_type,
        reply_type=reply_type,
        encode_request=encode_request,
        decode_request=decode_request,
        encode_reply=encode_reply,
        decode_reply=decode_reply,
        summary=summary,
    )


DECISIONS = DecisionTable(
    "bruges",
    pb.DESCRIPTOR.services_by_name["Bruges"],
    [
        _spec(DRAW_PILE, "DrawPile", "phase 1: the pile the next card comes from"),
        _spec(PENALTY_ORDER, "PenaltyOrder", "the completed circle whose penalty resolves next"),
        _spec(CANCEL_PENALTY, "CancelPenalty", "Knight: cancel the penalty with a worker, or not"),
        _spec(PLAGUE_DISCARD, "PlagueDiscard", "Plague: the person of your play area to discard"),
        _spec(FIRE_CHOICE, "FireChoice", "Fire: the house or canal token to lose"),
        _spec(ADVANCE_REPUTATION, "AdvanceReputation", "phase 2: buy one reputation step, or not"),
        _spec(TAKE_TURN, "TakeTurn", "your turn: activate a person, play the turn card, or end"),
        _spec(EXTRA_PLAY, "ExtraPlay", "one more card to play (Coachman, Servant)"),
    ],
)
