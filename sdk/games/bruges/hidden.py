"""Redraw what a seat cannot see (B25), written from the rules of secrecy, not from ``observe``.

Hidden from a seat: the persons of the other seats' hand cards (save those back from play) and
house cards, of its own cards drawn blind in the current draw, of the piles' top cards and of every
card not yet placed. Colours are public, so the redraw permutes persons among hidden cards of the
same colour: every count a seat sees stays as it was.

``resample_hidden`` works from the full state; ``determinize`` builds a full state from an
observation alone (the forward model a searching bot gets), dealing the cards it cannot see.
"""

from __future__ import annotations

import random

from .cards import CARD_COLOUR, CARD_PERSON, NUM_CARDS, NUM_COLOURS
from .observation import Observation
from .phases import DRAW, FIRE_CHOICE, PLAGUE_DISCARD, REPUTATION, THREATS, TURNS
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


def _seat_index(o: Observation) -> int:
    """Where the phase's walk over the seats stands (the engine's ``seat_idx``), from the start player."""
    if o.phase == TURNS:
        return (o.active - o.start) % o.players
    if o.phase == THREATS:  # the threats of the victim are placed: the walk has passed it
        return (o.victim - o.start) % o.players + 1 if o.victim >= 0 else o.players
    if o.phase in (DRAW, REPUTATION) and o.decider >= 0:
        return (o.decider - o.start) % o.players
    return 0


def _penalty_stage(o: Observation) -> int:
    """The engine's progress in the penalty resolving now: 0 asks the Knight, 2 asks the victim."""
    return 2 if o.decision in (PLAGUE_DISCARD, FIRE_CHOICE) else 0


def determinize(observation: Observation, rng: random.Random) -> State:
    """A full state ``observation``'s seat cannot tell from the real one, at the moment it decides.

    Every card the seat cannot name (other hands and houses, its blind draws, the piles' tops)
    becomes a random card of its known colour from those it has not seen; the rest are the
    unplaced cards. ``observe(determinize(o, rng), o.seat) == o`` whenever ``o.seat`` decides.
    """
    o, n = observation, observation.players
    unseen = set(range(NUM_CARDS)) - set(o.hand) - set(o.discard)
    for s in range(n):
        unseen -= set(o.public_hands[s])
        unseen -= {h.person for h in o.houses[s] if h.person >= 0}
        unseen -= {h.card for h in o.houses[s] if h.card >= 0}
    by_colour: list[list[int]] = [[] for _ in range(NUM_COLOURS)]
    for card in sorted(unseen):
        by_colour[CARD_COLOUR[card]].append(card)
    for cards in by_colour:
        rng.shuffle(cards)

    def deal(colour: int) -> int:
        return by_colour[colour].pop()

    def deal_colours(counts: tuple[int, ...]) -> list[int]:
        return [deal(colour) for colour, count in enumerate(counts) for _ in range(count)]

    state = State.__new__(State)
    state.params, state.n, state.round, state.start = o.params, n, o.round, o.start
    state.final_round, state.phase, state.seat_idx, state.lap = o.final_round, o.phase, _seat_index(o), o.lap
    state.turn_played, state.extra, state.turns = o.turn_played, o.extra, o.turns
    state.decision, state.decider = o.decision or None, o.decider
    state.pile_size, state.extra_size, state.extra_used = list(o.pile_sizes), o.extra_size, o.extra_used
    state.pile_top = [deal(colour) if colour >= 0 else -1 for colour in o.pile_colours]
    state.exposing, state.rolling, state.dice = [], False, list(o.dice)
    state.blind = deal_colours(o.blind_colours)
    state.hands, state.houses, state.pmask = [], [], []
    for s in range(n):
        if s == o.seat:
            state.hands.append([*o.hand, *state.blind])
        else:
            known = list(o.public_hands[s])
            hidden = [c - k for c, k in zip(o.hand_colours[s], _colour_counts(known), strict=True)]
            state.hands.append([*known, *deal_colours(tuple(hidden))])
        state.houses.append([[h.card if h.card >= 0 else deal(h.colour), h.person] for h in o.houses[s]])
        state.pmask.append(sum({1 << CARD_PERSON[h.person] for h in o.houses[s] if h.person >= 0}))
    state.public_hand = [list(cards) for cards in o.public_hands]
    state.rotated = [h.person for seat in o.houses for h in seat if h.rotated]
    state.pool = sorted(card for cards in by_colour for card in cards)
    state.workers = [list(w) for w in o.workers]
    state.guilders, state.score = list(o.guilders), list(o.scores)
    state.rep, state.advanced = list(o.reputation), list(o.advanced)
    state.threats, state.supply = [list(t) for t in o.threats], list(o.supply)
    state.canals, state.statues = [list(c) for c in o.canals], [list(s) for s in o.statues]
    state.statue_given, state.statue_stack = [list(g) for g in o.statue_given], list(o.statue_stack)
    state.majorities, state.discard = [list(m) for m in o.majorities], list(o.discard)
    state.victim, state.circles, state.cur_pen = o.victim, list(o.circles), o.penalty
    state.pen_stage, state.jester_queue = _penalty_stage(o), list(o.jester_queue)
    state._options = None
    return state


def _colour_counts(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * NUM_COLOURS
    for card in cards:
        counts[CARD_COLOUR[card]] += 1
    return tuple(counts)
