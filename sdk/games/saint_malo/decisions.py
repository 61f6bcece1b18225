"""Saint Malo's decision kinds, declared once (see :mod:`sdk.games.wire_table`).

Every request carries the whole position (Saint Malo hides nothing but future dice, so a
seat's observation is the state itself); Choose and Rotate also list their legal answers. A
bot receives the engine :class:`State` rebuilt from the request, a complete forward model.
"""

from __future__ import annotations

from typing import Any

from sdk.games.saint_malo.protocol import saint_malo_pb2 as pb
from sdk.games.wire_table import decision_table

from .actions import Rotate
from .pieces import Decision
from .state import State
from .wire import ACTIONS, OBSERVATION, decode_observation

__all__ = ["DECISIONS"]


_DECISIONS = {decision.value: decision for decision in Decision}
"""Each decision by its kind (a look-up costs less than calling the enum)."""


def _available(state: State) -> dict[str, Any]:
    return {"available": [s + 1 for s in state.available_symbols()]}


def _legal_rotations(state: State) -> dict[str, Any]:
    return {"legal": [a.dice for a in state.iter_legal_actions() if isinstance(a, Rotate)]}


DECISIONS = decision_table(
    "saint_malo",
    pb.DESCRIPTOR.services_by_name["SaintMalo"],
    OBSERVATION,
    ACTIONS,
    {
        "keep": "after roll 1 or 2: which dice to roll again",
        "choose": "the symbol to score",
        "rotate": "dice to turn to the chosen symbol",
        "place": "how many dice to use and where everything goes",
        "bonus_person": "where a bonus person goes",
    },
    kinds={"PlaceBonusPerson": Decision.BONUS_PERSON.value},
    extras={"choose": _available, "rotate": _legal_rotations},
    decode_request=lambda kind, request: decode_observation(request.observation, _DECISIONS[kind]),
)
