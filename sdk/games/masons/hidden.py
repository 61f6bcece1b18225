"""Redrawing what a seat cannot see: for the secrecy check and for bots that search.

``resample_hidden`` works from the full state and the rules' definition of the secret (other
hands, the draw pile's order), not from :func:`observe`, so equal observations are a real test.
``determinize`` builds a full state from an observation alone: the forward model a bot gets.
"""

from __future__ import annotations

import random

from .board import SPACES, spaces_of
from .cards import KINDS
from .observation import Observation
from .state import City, State, unseen_cards


def _deal(state: State, seat: int, sizes: list[int], cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` and give each seat but ``seat`` its hand size; the rest is the draw pile."""
    rng.shuffle(cards)
    for other in range(state.n):
        if other == seat:
            continue
        hand = [0] * KINDS
        for _ in range(sizes[other]):
            hand[cards.pop()] += 1
        state.hands[other] = hand
    state.draw_pile = cards


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with the other hands and the draw pile redealt at random."""
    twin = state.clone()
    secret = list(state.draw_pile)
    for other in range(state.n):
        if other != seat:
            secret += [k for k in range(KINDS) for _ in range(state.hands[other][k])]
    _deal(twin, seat, [sum(hand) for hand in state.hands], secret, rng)
    return twin


def determinize(observation: Observation, rng: random.Random) -> State:
    """A full state consistent with ``observation``: unseen cards dealt at random."""
    o = observation
    state = State(o.players)
    state.phase, state.active, state.turn, state.queue = o.phase, o.active, o.turn, list(o.queue)
    state.walls, state.closed, state.towers = o.walls, o.closed, list(o.towers)
    state.houses = [list(h) for h in o.houses]
    state.cities = [City(c.spaces, list(c.houses), list(c.palaces)) for c in o.cities]
    state.city_of = [-1] * SPACES
    for index, city in enumerate(state.cities):
        for sp in spaces_of(city.spaces):
            state.city_of[sp] = index
        state.city_spaces |= city.spaces
    state.walls_left = o.walls_left
    state.towers_left, state.houses_left = list(o.towers_left), list(o.houses_left)
    state.palaces_left, state.points = list(o.palaces_left), list(o.points)
    state.hands[o.seat] = list(o.hand)
    state.discards = list(o.discards)
    state.draws = [[s, c] for s, c in o.draws]
    state.wall = o.wall
    state.roll = (o.roll[0], o.roll[1], o.roll[2]) if o.roll else None
    state.new_city, state.scored_city = o.new_city, o.scored_city
    state.completed, state.ending = o.completed, o.ending
    _deal(state, o.seat, list(o.hand_sizes), unseen_cards(state.hands[o.seat], state.discards), rng)
    return state
