"""Redrawing what a seat cannot see: other hands, deck orders, others' face-down events.

:func:`resample_hidden` works from the full state and the definition of what is secret;
:func:`deal_unseen` completes the public part of a state built from an observation alone
(``cities.determinize``). Both deal the unseen event cards uniformly at random over the
unseen places, keeping every public count (hand sizes, deck sizes, face-down counts per
seat), and shuffle the city deck (whose contents are public, its order secret to all).

One constraint keeps the result a reachable position: when another seat is deciding
something its own hand makes possible (playing an event, revealing protection,
choosing among different events to discard), its redrawn hand must still allow that
decision. Hands are redrawn until it does; after :data:`TRIES` failures the decider
keeps its real hand (resample) or is dealt one card that allows it (determinize).
Inferences from history (e.g. how many Commanders a hand held when Flood resolved)
are not used to condition the deal.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import COVERED_BY, NUM_EVENT_TYPES
from .observation import Observation
from .phases import (
    EVENT,
    OVER,
    PHASE_NAMES,
    REACT_STAGE,
    Decision,
)
from .plays import has_play

if TYPE_CHECKING:
    from .state import State

TRIES = 64
_HAND_DECISIONS = (Decision.PLAY, Decision.REACT, Decision.GIVE_EVENT)


def _cards(counts: list[int]) -> list[int]:
    return [ev for ev, count in enumerate(counts) for _ in range(count)]


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * NUM_EVENT_TYPES
    for ev in cards:
        counts[ev] += 1
    return counts


def _hidden_decider(state: State, seat: int) -> int:
    """The seat other than ``seat`` whose pending decision depends on its hand, or -1."""
    if state.phase == OVER or state.chance >= 0 or state.pending not in _HAND_DECISIONS:
        return -1
    return -1 if state.decider == seat else state.decider


def _decision_holds(state: State, decider: int) -> bool:
    """Whether ``decider``'s hand allows the decision it is being asked (two choices or more)."""
    kind = state.pending
    if kind == Decision.PLAY:
        return has_play(state, decider)
    if kind == Decision.REACT:
        return bool(state.covering(decider))
    return sum(1 for count in state.hands[decider] if count) > 1


def _deal(
    state: State, pool: list[int], piles: list[int], seat: int, decider: int, rng: random.Random
) -> None:
    """Shuffle ``pool`` into the hands of the seats other than ``seat`` and ``decider``, the
    face-down piles (``piles``: their sizes) of the seats other than ``seat``, then the deck."""
    rng.shuffle(pool)
    start = 0
    for other in range(state.n):
        if other not in (seat, decider):
            size = state.hand_sizes[other]
            state.hands[other] = _counts(pool[start : start + size])
            start += size
    for other in range(state.n):
        if other != seat:
            state.face_down[other] = _counts(pool[start : start + piles[other]])
            start += piles[other]
    state.event_deck = pool[start:]


def _without(pool: list[int], cards: list[int]) -> list[int]:
    rest = pool[:]
    for card in cards:
        rest.remove(card)
    return rest


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with everything ``seat`` cannot know redrawn at random."""
    if not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat} in a {state.n}-player game")
    new = state.clone()
    new.options = None  # recomputed from the redrawn hands when needed
    pool = list(state.event_deck)
    for other in range(state.n):
        if other != seat:
            pool += _cards(state.hands[other]) + _cards(state.face_down[other])
    rng.shuffle(new.city_deck)
    piles = [sum(pile) for pile in state.face_down]
    decider = _hidden_decider(state, seat)
    for _ in range(TRIES):
        _deal(new, pool[:], piles, seat, -1, rng)
        if decider < 0 or _decision_holds(new, decider):
            return new
    kept = _cards(state.hands[decider])
    new.hands[decider] = state.hands[decider][:]
    _deal(new, _without(pool, kept), piles, seat, decider, rng)
    return new


# --- from an observation ------------------------------------------------------------------------------


def _face_up(obs: Observation) -> list[int]:
    """Every event card lying face up: played events and revealed protection cards."""
    cards = []
    for record in obs.log:
        cards.append(int(record.play.event))
        cards.extend(int(card) for _, card in record.revealed)
    if obs.resolving is not None:
        cards.append(int(obs.resolving.play.event))
        cards.extend(int(card) for _, card in obs.resolving.revealed)
    return cards


def _unseen_pool(obs: Observation) -> list[int]:
    remaining = list(obs.params.event_counts)
    for ev in _face_up(obs):
        remaining[ev] -= 1
    for ev in range(NUM_EVENT_TYPES):
        remaining[ev] -= obs.hand[ev] + obs.own_face_down[ev]
    if any(count < 0 for count in remaining):
        raise ValueError("the observation shows more copies of an event than the game has")
    pool = _cards(remaining)
    hidden = obs.event_deck_size + sum(
        obs.hand_sizes[s] + obs.face_down[s] for s in range(obs.players) if s != obs.seat
    )
    if hidden != len(pool):
        raise ValueError(f"the observation hides {hidden} event cards but {len(pool)} are unaccounted for")
    return pool


def _reactor_candidates(state: State, seat: int) -> list[int]:
    """Seats that may be the one asked to react now, as far as ``seat`` can tell."""
    n, player = state.n, state.ev_player
    offsets = [(s - player) % n for s, _ in state.reveals]
    first = max(offsets) + 1 if offsets else 0
    seats = [(player + k) % n for k in range(first, n)]
    return [
        s
        for s in seats
        if s != seat and state.affected >> s & 1 and not state.revealed >> s & 1 and state.hand_sizes[s]
    ]


def _set_control(state: State, obs: Observation, rng: random.Random) -> None:
    """Who decides what, from the observation (choosing a reacting seat when that is secret)."""
    if obs.phase == PHASE_NAMES[OVER] or obs.chance is not None:
        return
    if obs.pending is not None:
        state.pending, state.decider = obs.pending.kind, obs.seat
        if obs.pending.kind == Decision.REACT:
            state.ask = (obs.seat - state.ev_player) % state.n
        return
    if obs.waiting is not None:
        state.pending, state.decider = obs.waiting, obs.waiting_seat
        return
    if state.phase == EVENT and state.stage == REACT_STAGE:
        candidates = _reactor_candidates(state, obs.seat)
        if not candidates:
            raise ValueError("the observation shows reactions under way but nobody left to ask")
        asked = rng.choice(candidates)
        state.pending, state.decider = Decision.REACT, asked
        state.ask = (asked - state.ev_player) % state.n


def _forced_deals(
    state: State, pool: list[int], piles: list[int], seat: int, decider: int, rng: random.Random
) -> None:
    """Give the decider one card of each useful kind in turn until its decision holds."""
    kinds = sorted(set(pool))
    rng.shuffle(kinds)
    if state.pending == Decision.REACT:
        kinds = [k for k in kinds if k in COVERED_BY[state.ev]]
    size = state.hand_sizes[decider]
    for kind in kinds:
        rest = _without(pool, [kind])
        for _ in range(4):
            rng.shuffle(rest)
            state.hands[decider] = _counts([kind, *rest[: size - 1]])
            _deal(state, rest[size - 1 :], piles, seat, decider, rng)
            if _decision_holds(state, decider):
                return


def deal_unseen(state: State, obs: Observation, rng: random.Random) -> None:
    """Complete the public part of a state built from ``obs`` (``State.from_observation``): who
    decides, then the hidden cards dealt at random (for :func:`~.state.determinize`)."""
    _set_control(state, obs, rng)
    pool = _unseen_pool(obs)
    piles = list(obs.face_down)
    decider = _hidden_decider(state, obs.seat)
    for _ in range(TRIES):
        _deal(state, pool[:], piles, obs.seat, -1, rng)
        if decider < 0 or _decision_holds(state, decider):
            return
    _forced_deals(state, pool, piles, obs.seat, decider, rng)
