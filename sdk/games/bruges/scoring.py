"""Final scoring (B21): what each part of a player's position adds to their score at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    BANKER,
    BISHOP,
    BUREAUCRATS,
    CARD_PERSON,
    CARD_PRICE,
    COUNT,
    MAYOR,
    PAINTER,
    PERSON_GROUP,
)

if TYPE_CHECKING:
    from .state import State


def final_points(state: State, seat: int) -> dict[str, int]:
    """The points final scoring adds for ``seat``, part by part (hand, markers and money give none)."""
    params = state.params
    persons = [CARD_PERSON[card] for card in state.persons_of(seat)]
    flipped = sum(state.majorities[seat])
    final = 0
    if COUNT in persons:
        final += 2 * flipped
    if MAYOR in persons:
        final += 2 * sum(1 for p in persons if p in BUREAUCRATS)
    if BISHOP in persons:
        final += sum(state.workers[seat]) // 2
    if BANKER in persons:
        final += state.guilders[seat] // 3
    if PAINTER in persons:
        final += len({PERSON_GROUP[p] for p in persons})
    return {
        "persons": sum(CARD_PRICE[card] // 3 for card in state.persons_of(seat)),
        "houses": len(state.houses[seat]),
        "final_persons": final,
        "majorities": params.majority_points * flipped,
        "space3": params.space3_points * sum(1 for k in state.canals[seat] if k >= 3),
        "statues": sum(state.statues[seat]),
        "reputation": params.reputation_points[state.rep[seat]],
    }
