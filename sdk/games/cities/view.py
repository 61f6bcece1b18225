"""Building one seat's :class:`Observation` from the full state."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import choices
from .actions import Deck
from .cards import EventType
from .phases import EVENT, OVER, PHASE_NAMES, REACT_STAGE, STAGE_NAMES, Decision
from .observation import Observation, Pending, Resolving

if TYPE_CHECKING:
    from .state import State


def _resolving(state: State) -> Resolving | None:
    play = state.ev_play
    if state.ev < 0 or play is None:
        return None
    return Resolving(
        seat=state.ev_player,
        play=replace(play, returns=()) if play.returns else play,
        returned=len(play.returns),
        affected=state.affected,
        revealed=tuple((seat, EventType(card)) for seat, card in state.reveals),
        stage=STAGE_NAMES[state.stage],
        step=state.step,
        cursor=state.cursor,
        give_seat=state.give_seat,
        give=(state.give_mask_a, state.give_left_a, state.give_mask_b, state.give_left_b),
        give_to=state.give_to,
        give_events=state.give_events,
        lost=state.lost,
        winners=state.winners,
        outcome=tuple(state.outcome),
    )


def _pending(state: State, seat: int) -> Pending | None:
    kind = state.pending
    if kind is None or state.current_player != seat:
        return None
    if kind == Decision.DRAW:
        return Pending(kind, draw=(Deck.CITY, Deck.EVENT))
    if kind == Decision.PLAY:
        return Pending(kind, playable=tuple(EventType(ev) for ev, _ in choices.play_counts(state, seat)))
    if kind == Decision.REACT:
        return Pending(kind, protections=tuple(state._covering(seat)))
    if kind == Decision.GIVE_CITY:
        return Pending(kind, cities=state._giveable(), count=state.give_left_a + state.give_left_b)
    if kind == Decision.GIVE_EVENT:
        return Pending(kind, count=state.give_events)
    return Pending(kind, offer=state.ev_play)


def _waiting(state: State) -> tuple[Decision | None, int]:
    """The decision due and its seat, when public: never while reactions are being asked."""
    if state.phase == OVER or state.chance >= 0 or state.pending is None:
        return None, -1
    if state.phase == EVENT and state.stage == REACT_STAGE:
        return None, -1
    return state.pending, state.decider


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know now (see :class:`Observation`)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat!r} in a {state.n}-player game")
    city_deck = 0
    for city in state.city_deck:
        city_deck |= 1 << city
    waiting, waiting_seat = _waiting(state)
    return Observation(
        seat=seat,
        players=state.n,
        params=state.params,
        phase=PHASE_NAMES[state.phase],
        chance=Deck(state.chance) if state.chance >= 0 and state.phase != OVER else None,
        round=state.round,
        turn=state.turn,
        active=state.active,
        plays_left=state.plays_left,
        curse_now=state.curse_now,
        silent_now=state.silent_now,
        no_city_now=state.no_city_now,
        silenced=tuple(state.silenced),
        cursed=state.cursed,
        no_city=state.no_city,
        quiet=state.quiet,
        played=state.played,
        held=tuple(state.held),
        done=tuple(state.done),
        wonders=state.wonders,
        scores=tuple(state.scores()),
        hand_sizes=tuple(state.hand_sizes),
        city_deck=city_deck,
        event_deck_size=len(state.event_deck),
        face_down=tuple(sum(pile) for pile in state.face_down),
        log=tuple(state.log),
        resolving=_resolving(state),
        waiting=waiting,
        waiting_seat=waiting_seat,
        hand=tuple(state.hands[seat]),
        own_face_down=tuple(state.face_down[seat]),
        pending=_pending(state, seat),
    )
