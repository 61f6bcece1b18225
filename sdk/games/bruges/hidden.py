"""Redraw what a seat cannot see (B25), written from the rules of secrecy, not from ``observe``.

Hidden from a seat: the persons of the other seats' hand cards (save those back from play) and
house cards, of its own cards drawn blind in the current draw, of the piles' top cards and of every
card not yet placed. Colours are public, so the redraw permutes persons among hidden cards of the
same colour: every count a seat sees stays as it was.
"""

from __future__ import annotations

import random

from .cards import CARD_COLOUR
from .decisions import DRAW
from .state import State


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` that ``seat`` cannot tell from it, its hidden persons redrawn."""
    twin = state.clone()
    n = twin.n
    drawing = (twin.start + twin.seat_idx) % n if twin.phase == DRAW and twin.seat_idx < n else -1
    hidden: list[int] = list(twin.pool)
    hidden += [c for c in twin.pile_top if c >= 0]
    for other in range(n):
        if other == seat:
            if drawing == seat:
                hidden += twin.blind
            continue
        public = twin.public_hand[other]
        hidden += [c for c in twin.hands[other] if c not in public]
        hidden += [house[0] for house in twin.houses[other]]
    by_colour: list[list[int]] = [[] for _ in range(5)]
    for card in sorted(hidden):
        by_colour[CARD_COLOUR[card]].append(card)
    mapping: dict[int, int] = {}
    for cards in by_colour:
        shuffled = cards[:]
        rng.shuffle(shuffled)
        mapping.update(zip(cards, shuffled, strict=True))

    def swap(card: int) -> int:
        return mapping.get(card, card)

    twin.pool = sorted(swap(c) for c in twin.pool)
    twin.pile_top = [swap(c) if c >= 0 else c for c in twin.pile_top]
    for other in range(n):
        if other == seat and drawing != seat:
            continue
        keep = twin.public_hand[other] if other != seat else []
        blind = set(twin.blind) if other == seat else None
        twin.hands[other] = [
            c if c in keep or (blind is not None and c not in blind) else swap(c) for c in twin.hands[other]
        ]
        if other != seat:
            for house in twin.houses[other]:
                house[0] = swap(house[0])
    twin.blind = [swap(c) for c in twin.blind]  # always the drawer's own hand cards, hidden from all
    twin._options = None
    return twin
