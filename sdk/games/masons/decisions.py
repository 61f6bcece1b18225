"""Masons' decision kinds, declared once (see :mod:`sdk.games.wire_table`).

Every request carries the deciding seat's :class:`~sdk.games.masons.observation.Observation`;
a bot receives it decoded, and ``masons.determinize(observation, rng)`` turns it into a full
forward model whose ``legal_actions()`` are the seat's options. The request lists those options
too (``legal``), for bots written from the ``.proto`` alone.
"""

from __future__ import annotations

import random

from sdk.games.masons.protocol import masons_pb2 as pb
from sdk.games.wire_table import decision_table

from .actions import Action
from .hidden import determinize
from .observation import Observation
from .wire import ACTIONS, OBSERVATION


def legal_actions(observation: Observation) -> list[Action]:
    """The deciding seat's legal actions. They rest on the board and its own hand only, so any
    deal of the cards it cannot see gives them: a fixed seed keeps the request reproducible."""
    return determinize(observation, random.Random(0)).legal_actions()


__all__ = ["DECISIONS"]

DECISIONS = decision_table(
    "masons",
    pb.DESCRIPTOR.services_by_name["Masons"],
    OBSERVATION,
    ACTIONS,
    {
        "wall": "the line for this turn's wall",
        "towers": "tower colours for the wall's two ends",
        "houses": "house colours for the spaces beside the wall",
        "connect_city": "join the completed city to one bordering city, or none",
        "score_cards": "play 1 or 2 cards for the completed city, or discard 1 and draw 2",
        "swap": "lowest score: the cards to replace, possibly none",
        "final_score": "the final scoring: 1 or 2 cards naming a completed city, or pass",
    },
    legal=legal_actions,
)
