"""Cities' decision kinds, declared once (see :mod:`sdk.games.wire_table`).

Every request carries the deciding seat's :class:`~sdk.games.cities.observation.Observation`
(its ``pending`` holds the decision's options); a bot receives that observation decoded.
``cities.determinize(observation, rng)`` turns it into a full forward model.
"""

from __future__ import annotations

from sdk.games.cities.protocol import cities_pb2 as pb
from sdk.games.wire_table import decision_table

from .wire import ACTIONS, CODECS, OBSERVATION

__all__ = ["DECISIONS"]

DECISIONS = decision_table(
    "cities",
    pb.DESCRIPTOR.services_by_name["Cities"],
    OBSERVATION,
    ACTIONS,
    {
        "draw": "a cursed turn: the top city or the top event",
        "play": "play one event with all its choices, or pass",
        "react": "reveal a protection card against the announced event, or not",
        "exchange": "accept or decline a Friendly exchange",
        "give_city": "one of your cities to give up",
        "give_event": "one of your events to discard face down",
    },
    codecs=CODECS,
)
