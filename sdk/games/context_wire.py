"""The decision context on the wire (``smtourney.v1.DecisionContext``), both ways."""

from __future__ import annotations

from sdk.protocol.v1 import bot_pb2

from .decisions import DecisionContext


def context_message(context: DecisionContext) -> bot_pb2.DecisionContext:
    return bot_pb2.DecisionContext(
        match_id=context.match_id,
        decision_id=context.decision_id,
        seat=context.seat,
        decision_ms=context.decision_ms,
        time_bank_ms=context.time_bank_ms,
    )


def context_from_message(message: bot_pb2.DecisionContext, game: str = "") -> DecisionContext:
    return DecisionContext(
        match_id=message.match_id,
        decision_id=message.decision_id,
        seat=message.seat,
        decision_ms=message.decision_ms,
        time_bank_ms=message.time_bank_ms,
        game=game,
    )
