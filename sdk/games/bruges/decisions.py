"""Bruges' decision kinds, declared once (see :mod:`sdk.games.wire_table`).

Every request carries the deciding seat's :class:`~sdk.games.bruges.observation.Observation`, whose
``options`` list the decision's legal actions; every reply carries one :class:`Action`.
"""

from __future__ import annotations

from sdk.games.bruges.protocol import bruges_pb2 as pb
from sdk.games.wire_table import decision_table

from .wire import ACTIONS, OBSERVATION

__all__ = ["DECISIONS"]

DECISIONS = decision_table(
    "bruges",
    pb.DESCRIPTOR.services_by_name["Bruges"],
    OBSERVATION,
    ACTIONS,
    {
        "draw_pile": "phase 1: the pile the next card comes from",
        "penalty_order": "the completed circle whose penalty resolves next",
        "cancel_penalty": "Knight: cancel the penalty with a worker, or not",
        "plague_discard": "Plague: the person of your play area to discard",
        "fire_choice": "Fire: the house or canal token to lose",
        "advance_reputation": "phase 2: buy one reputation step, or not",
        "take_turn": "your turn: activate a person, play the turn card, or end",
        "extra_play": "one more card to play (Coachman, Servant)",
    },
)
