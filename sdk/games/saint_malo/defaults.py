"""The safe default action of every decision: legal, deterministic and cheap.

The referee plays it when a bot's reply is late, malformed or illegal, and for
every decision of a forfeited seat. It never spends coins it need not spend and
never uses more than one die: stop rolling, the first available symbol, the
fewest rotations, the smallest placement on the lowest free square.
"""

from __future__ import annotations

from .actions import (
    Action,
    Choose,
    Keep,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Rotate,
)
from .board import OUTER, SPACES
from .pieces import Decision, Person, Symbol
from .state import State


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def default_action(state: State) -> Action:
    """The safe default for the pending decision (raises ``ValueError`` if none is pending)."""
    decision = state.decision
    if decision is Decision.KEEP:
        return Keep(0)
    if decision is Decision.CHOOSE:
        return Choose(state.available_symbols()[0])
    if decision is Decision.ROTATE:
        if state.count(Symbol(state.chosen)):
            return Rotate(0)
        rotatable = state.rotatable_dice()
        return Rotate(rotatable & -rotatable)
    city = state.cities[state.current]
    empty = SPACES & ~city.filled
    if decision is Decision.BONUS_PERSON:
        return PlacePerson(Person.CITIZEN, _lowest(empty))
    if decision is Decision.PLACE:
        symbol = state.chosen
        if symbol == Symbol.LOG:
            return PlaceLogs(1)
        if symbol == Symbol.CRATE:
            return PlaceCrates(empty & -empty)
        if symbol == Symbol.WALL:
            outer = empty & OUTER
            return PlaceWalls(outer & -outer)
        if symbol == Symbol.CROSS:
            return PlaceChurch(_lowest(empty), 1)
        return PlacePerson(Person.CITIZEN, _lowest(empty))
    raise ValueError("no decision is pending")
