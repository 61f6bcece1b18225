"""Checking and applying each kind of step: a checker per step type raises
:class:`IllegalActionError` naming the rule before anything changes; an applier makes the move."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError
from . import choices, resolve
from .actions import Deck, Draw, Exchange, GiveCity, GiveEvent, Pass, Play, React, Shuffle
from .cards import EVENT_TYPES, NUM_CITIES, NUM_EVENT_TYPES, cities_of
from .phases import OVER, SETUP, Decision

if TYPE_CHECKING:
    from .state import State

TURN_RULE = "C4 turn"
CHANCE_RULE = "C8 shuffle"
PROTECTION_RULE = "C12 protection"
GIVE_RULE = "C10 giving up cards"


def _expect(state: State, decision: Decision, rule: str) -> None:
    if state.phase == OVER:
        raise IllegalActionError(rule, "the game is over")
    if state.chance >= 0:
        raise IllegalActionError(rule, "a deck must be shuffled first (a chance node)")
    if state.pending != decision:
        raise IllegalActionError(rule, f"expected a {state.pending} decision, not {decision}")


def _check_shuffle(state: State, step: Shuffle) -> None:
    if not state.is_chance_node():
        raise IllegalActionError(CHANCE_RULE, "no shuffle is due")
    if step.deck != state.chance:
        raise IllegalActionError(CHANCE_RULE, f"the {Deck(state.chance).name.lower()} deck is to be shuffled")
    deck = state.city_deck if state.chance == Deck.CITY else state.event_deck
    try:
        same = len(deck) == len(step.order) and sorted(deck) == sorted(step.order)
    except TypeError:
        same = False
    if not same:
        raise IllegalActionError(CHANCE_RULE, "the order must hold exactly the cards of the deck")


def _apply_shuffle(state: State, step: Shuffle) -> None:
    order = list(map(int, reversed(step.order)))
    state.chance = -1
    if step.deck == Deck.CITY:
        state.city_deck = order
    else:
        state.event_deck = order
    if state.phase == SETUP:
        if step.deck == Deck.CITY:
            state.chance = Deck.EVENT
        else:
            state._begin()
    else:
        resolve.run(state)


def _check_draw(state: State, step: Draw) -> None:
    _expect(state, Decision.DRAW, "C11 Curse")
    if step.take not in (Deck.CITY, Deck.EVENT):
        raise IllegalActionError("C11 Curse", f"take the top city or the top event, not {step.take!r}")


def _apply_draw(state: State, step: Draw) -> None:
    seat = state.active
    state.pending = None
    if step.take == Deck.CITY:
        if state._draw_cities(seat, 1):
            return
    else:
        state._draw_events(seat, 1)
    state._offer_play_or_end()


def _check_pass(state: State, step: Pass) -> None:
    _expect(state, Decision.PLAY, TURN_RULE)


def _apply_pass(state: State, step: Pass) -> None:
    state._end_turn()


def _check_play(state: State, step: Play) -> None:
    _expect(state, Decision.PLAY, TURN_RULE)
    choices.check_play(state, state.active, step)


def _apply_play(state: State, step: Play) -> None:
    state._announce(step)


def _check_react(state: State, step: React) -> None:
    _expect(state, Decision.REACT, PROTECTION_RULE)
    card = step.card
    if card is not None and card not in state._covering(state.decider):
        raise IllegalActionError(
            PROTECTION_RULE,
            f"seat {state.decider} holds no {card!r} card that covers {EVENT_TYPES[state.ev].display_name}",
        )


def _apply_react(state: State, step: React) -> None:
    seat = state.decider
    if step.card is not None:
        card = int(step.card)
        state.hands[seat][card] -= 1
        state.hand_sizes[seat] -= 1
        state.revealed |= 1 << seat
        state.reveals.append((seat, card))
        state._note("reveal", seat, -1, card)
    state.ask += 1
    state._ask_reactions()


def _check_exchange(state: State, step: Exchange) -> None:
    _expect(state, Decision.EXCHANGE, "C11 Friendly exchange")
    if not isinstance(step.accept, bool):
        raise IllegalActionError(
            "C11 Friendly exchange", f"accept must be True or False, not {step.accept!r}"
        )


def _apply_exchange(state: State, step: Exchange) -> None:
    state.pending = None
    resolve.answer_exchange(state, step.accept)


def _check_give_city(state: State, step: GiveCity) -> None:
    _expect(state, Decision.GIVE_CITY, GIVE_RULE)
    city = step.city
    if isinstance(city, bool) or not isinstance(city, int) or not 0 <= city < NUM_CITIES:
        raise IllegalActionError(GIVE_RULE, f"not a city: {city!r}")
    if not state._giveable() >> city & 1:
        raise IllegalActionError(
            GIVE_RULE,
            f"city {city} is not one seat {state.decider} may give up now: {cities_of(state._giveable())}",
        )


def _apply_give_city(state: State, step: GiveCity) -> None:
    city = step.city
    if state.give_left_a and state.give_mask_a >> city & 1:
        state.give_left_a -= 1
    else:
        state.give_left_b -= 1
    state.pending = None
    if state._hand_over(state.give_seat, city):
        return
    resolve.run(state)


def _check_give_event(state: State, step: GiveEvent) -> None:
    _expect(state, Decision.GIVE_EVENT, GIVE_RULE)
    ev = step.event
    if isinstance(ev, bool) or not isinstance(ev, int) or not 0 <= ev < NUM_EVENT_TYPES:
        raise IllegalActionError(GIVE_RULE, f"not an event: {ev!r}")
    if not state.hands[state.decider][ev]:
        raise IllegalActionError(
            GIVE_RULE, f"seat {state.decider} holds no {EVENT_TYPES[ev].display_name} card"
        )


def _apply_give_event(state: State, step: GiveEvent) -> None:
    seat = state.give_seat
    state._discard(seat, int(step.event))
    state._note("discard", seat, -1, 1)
    state.give_events -= 1
    state.pending = None
    resolve.run(state)


CHECKERS: dict[type, Callable[[State, Any], None]] = {
    Shuffle: _check_shuffle,
    Draw: _check_draw,
    Pass: _check_pass,
    Play: _check_play,
    React: _check_react,
    Exchange: _check_exchange,
    GiveCity: _check_give_city,
    GiveEvent: _check_give_event,
}
APPLIERS: dict[type, Callable[[State, Any], None]] = {
    Shuffle: _apply_shuffle,
    Draw: _apply_draw,
    Pass: _apply_pass,
    Play: _apply_play,
    React: _apply_react,
    Exchange: _apply_exchange,
    GiveCity: _apply_give_city,
    GiveEvent: _apply_give_event,
}
