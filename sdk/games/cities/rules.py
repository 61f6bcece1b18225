"""Cities' legality: the deciding seat's legal actions, the check of every step (raising
:class:`IllegalActionError` naming the rule before anything changes) and a uniform draw of a
legal action. Which events a hand may play, with which choices (C9, C10), is counted, listed and
checked in :mod:`.plays`."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError, shown
from .actions import Action, Deck, Draw, Exchange, GiveCity, GiveEvent, Pass, Play, React, Shuffle, Step
from .cards import EVENT_TYPES, NUM_CITIES, NUM_EVENT_TYPES, cities_of
from .phases import OVER, Decision
from .plays import KINDS, check_play, iter_plays, nth_play, play_counts

if TYPE_CHECKING:
    from .state import State

TURN_RULE = "C4 turn"
CHANCE_RULE = "C8 shuffle"
PROTECTION_RULE = "C12 protection"
GIVE_RULE = "C10 giving up cards"


# --- the deciding seat's actions ------------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """Every legal action of the deciding seat, in a fixed order (empty at chance or the end)."""
    pending = state.pending
    if pending is None or state.chance >= 0 or state.phase == OVER:
        return []
    seat = state.decider
    if pending == Decision.PLAY:
        actions: list[Action] = [Pass()]
        for ev, _ in play_counts(state, seat):
            actions.extend(iter_plays(state, seat, ev))
        return actions
    if pending == Decision.REACT:
        return [React(None), *(React(card) for card in state.covering(seat))]
    if pending == Decision.GIVE_CITY:
        return [GiveCity(city) for city in cities_of(state.giveable())]
    if pending == Decision.GIVE_EVENT:
        return [GiveEvent(EVENT_TYPES[ev]) for ev in compress(KINDS, state.hands[seat])]
    if pending == Decision.EXCHANGE:
        return [Exchange(True), Exchange(False)]
    return [Draw(Deck.CITY), Draw(Deck.EVENT)]


def sample_action(state: State, rng: random.Random) -> Action:
    """A legal action drawn uniformly from :func:`legal_actions`, without listing them."""
    pending = state.pending
    if pending is None or state.chance >= 0 or state.phase == OVER:
        raise IllegalActionError(TURN_RULE, "no decision is pending")
    seat = state.decider
    if pending == Decision.PLAY:
        counts = state.options if state.options is not None else play_counts(state, seat)
        pick = rng.randrange(1 + sum(count for _, count in counts))
        if pick == 0:
            return Pass()
        pick -= 1
        for ev, count in counts:
            if pick < count:
                return nth_play(state, seat, ev, pick)
            pick -= count
    if pending == Decision.GIVE_CITY:
        mask = state.giveable()
        return GiveCity(cities_of(mask)[rng.randrange(mask.bit_count())])
    return rng.choice(legal_actions(state))


# --- checking one step ----------------------------------------------------------------------------------


def check(state: State, step: Step) -> None:
    """Raise :class:`IllegalActionError` naming the rule unless ``step`` may be applied now."""
    checker = CHECKERS.get(type(step))
    if checker is None:
        raise IllegalActionError(TURN_RULE, f"{step!r} is not a Cities action")
    checker(state, step)


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


def _check_draw(state: State, step: Draw) -> None:
    _expect(state, Decision.DRAW, "C11 Curse")
    if step.take not in (Deck.CITY, Deck.EVENT):
        raise IllegalActionError("C11 Curse", f"take the top city or the top event, not {shown(step.take)}")


def _check_pass(state: State, step: Pass) -> None:
    _expect(state, Decision.PLAY, TURN_RULE)


def _check_play(state: State, step: Play) -> None:
    _expect(state, Decision.PLAY, TURN_RULE)
    check_play(state, state.active, step)


def _check_react(state: State, step: React) -> None:
    _expect(state, Decision.REACT, PROTECTION_RULE)
    card = step.card
    if card is not None and card not in state.covering(state.decider):
        raise IllegalActionError(
            PROTECTION_RULE,
            f"seat {state.decider} holds no {card!r} card that covers {EVENT_TYPES[state.ev].display_name}",
        )


def _check_exchange(state: State, step: Exchange) -> None:
    _expect(state, Decision.EXCHANGE, "C11 Friendly exchange")
    if not isinstance(step.accept, bool):
        raise IllegalActionError(
            "C11 Friendly exchange", f"accept must be True or False, not {step.accept!r}"
        )


def _check_give_city(state: State, step: GiveCity) -> None:
    _expect(state, Decision.GIVE_CITY, GIVE_RULE)
    city = step.city
    if isinstance(city, bool) or not isinstance(city, int) or not 0 <= city < NUM_CITIES:
        raise IllegalActionError(GIVE_RULE, f"not a city: {city!r}")
    if not state.giveable() >> city & 1:
        raise IllegalActionError(
            GIVE_RULE,
            f"city {city} is not one seat {state.decider} may give up now: {cities_of(state.giveable())}",
        )


def _check_give_event(state: State, step: GiveEvent) -> None:
    _expect(state, Decision.GIVE_EVENT, GIVE_RULE)
    ev = step.event
    if isinstance(ev, bool) or not isinstance(ev, int) or not 0 <= ev < NUM_EVENT_TYPES:
        raise IllegalActionError(GIVE_RULE, f"not an event: {ev!r}")
    if not state.hands[state.decider][ev]:
        raise IllegalActionError(
            GIVE_RULE, f"seat {state.decider} holds no {EVENT_TYPES[ev].display_name} card"
        )


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
