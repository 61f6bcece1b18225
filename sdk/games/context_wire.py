"""The decision context on the wire (``smtourney.v1.DecisionContext``), both ways."""

from __future__ import annotations

from sdk.protocol.v1 import bot_pb2

from .decisions import DecisionContext


def fill_context(message: bot_pb2.DecisionContext, context: DecisionContext) -> None:
    """Write ``context`` into a request's own context field, in place (no message to copy in)."""
    message.match_id = context.match_id
    message.decision_id = context.decision_id
    message.seat = context.seat
    message.decision_ms = context.decision_ms
    message.time_bank_ms = context.time_bank_ms


def context_from_message(message: bot_pb2.DecisionContext, game: str = "") -> DecisionContext:
    return DecisionContext(
        match_id=message.match_id,
        decision_id=message.decision_id,
        seat=message.seat,
        decision_ms=message.decision_ms,
        time_bank_ms=message.time_bank_ms,
        game=game,
    )
