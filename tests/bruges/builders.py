"""Positions for the Bruges rules tests, built through the engine's own fields.

``table`` gives a fresh game with both pile tops turned; ``at_turn`` sets up phase 3 with the
hands, houses and resources a test names and lets the engine pose the first decision. Every
card a builder places is taken out of the unplaced pool, so cards stay conserved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sdk.games.bruges.actions import Expose
from sdk.games.bruges.cards import COLOURS, PERSON_INDEX, card_of
from sdk.games.bruges.params import Params
from sdk.games.bruges.phases import THREATS, TURNS
from sdk.games.bruges.state import State, new_game


def c(person: str, colour: str) -> int:
    """The card of ``person`` in ``colour``."""
    return card_of(PERSON_INDEX[person], COLOURS.index(colour))


def table(players: int = 2, params: Params | None = None) -> State:
    """A new game with both draw piles' tops turned (the lowest unplaced cards)."""
    state = new_game(players, params)
    state.apply(Expose(0, state.pool[0]))
    state.apply(Expose(1, state.pool[0]))
    return state


def take(state: State, card: int) -> int:
    state.pool.remove(card)
    return card


def _place(state: State, seat: int, hand: Sequence[int], houses: Sequence[tuple[int, int]]) -> None:
    for card in hand:
        state.hands[seat].append(take(state, card))
    for house_card, person in houses:
        state.houses[seat].append([take(state, house_card), take(state, person) if person >= 0 else -1])
        if person >= 0:
            state.pmask[seat] |= 1 << (person // 5)


def at_turn(
    players: int = 2,
    dice: Sequence[int] = (3, 3, 3, 3, 3),
    hands: dict[int, Sequence[int]] | None = None,
    houses: dict[int, Sequence[tuple[int, int]]] | None = None,
    **fields: Any,
) -> State:
    """Phase 3, lap 1, seat 0 to play; ``fields`` override state fields (e.g. ``guilders=[9, 9]``)."""
    state = table(players)
    state.phase, state.seat_idx, state.lap, state.turns = TURNS, 0, 0, 1
    state.decision, state._options = None, None
    state.dice = list(dice)
    for seat, cards in (hands or {}).items():
        _place(state, seat, cards, [])
    for seat, built in (houses or {}).items():
        _place(state, seat, [], built)
    for name, value in fields.items():
        setattr(state, name, value)
    state._advance()
    return state


def at_threats(
    players: int = 2,
    houses: dict[int, Sequence[tuple[int, int]]] | None = None,
    **fields: Any,
) -> State:
    """The start of phase 2, the dice still to roll; ``fields`` as in :func:`at_turn`."""
    state = table(players)
    state.phase, state.seat_idx, state.rolling, state.decision = THREATS, 0, True, None
    state._options = None
    for seat, built in (houses or {}).items():
        _place(state, seat, [], built)
    for name, value in fields.items():
        setattr(state, name, value)
    return state


def count_cards(state: State) -> int:
    """Every card somewhere: pool, pile tops, hands, houses (both cards), discard pile."""
    placed = sum(len(hand) for hand in state.hands) + len(state.discard) + len(state.pool)
    placed += sum(1 for top in state.pile_top if top >= 0)
    placed += sum(1 + (house[1] >= 0) for seat in state.houses for house in seat)
    return placed


def unplaced_total(state: State) -> int:
    """Cards the piles hold below their tops plus the extra pile: the pool must hold exactly these."""
    below = sum(size - (top >= 0) for size, top in zip(state.pile_size, state.pile_top, strict=True))
    return below + state.extra_size
