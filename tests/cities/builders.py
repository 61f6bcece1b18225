"""Helpers that put a Cities game into a chosen position for a rule test."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from sdk.games import cities as ci
from sdk.games.cities.phases import TURN

E = ci.EventType
D = ci.Decision


def cid(name: str) -> int:
    """The id of the city called ``name``."""
    return ci.CITY_BY_NAME[name].id


def mask(*names: str) -> int:
    """The mask of the named cities."""
    return ci.mask_of(*(cid(name) for name in names))


def names(cities: int) -> set[str]:
    """The names of the cities in a mask."""
    return {ci.CITIES[c].name for c in ci.cities_of(cities)}


def empire(e: ci.Empire) -> list[str]:
    """The six city names of an empire, capital first."""
    return [ci.CITIES[c].name for c in ci.cities_of(ci.EMPIRE_MASKS[e])]


def _counts(events: Iterable[ci.EventType]) -> list[int]:
    counts = [0] * len(ci.EventType)
    for ev in events:
        counts[ev] += 1
    return counts


def position(
    players: int = 3,
    *,
    held: dict[int, list[str]] | None = None,
    hands: dict[int, list[ci.EventType]] | None = None,
    city_top: Iterable[str] = (),
    event_top: Iterable[ci.EventType] = (),
    city_rest: bool = True,
    event_rest: bool = True,
    active: int = 0,
    size: str = "full",
    plays: int = 1,
) -> ci.State:
    """The active seat's play decision in round 1, its cards for the turn already taken.

    Cities in ``held`` and events in ``hands`` are dealt; ``city_top`` and ``event_top`` lie on
    top of their decks (top first). Every other card of the game follows below them, unless
    ``city_rest`` / ``event_rest`` is false (then the deck is only its top and the other cards
    are out of the game). ``plays``: events the active seat may play this turn. The decision is
    set even when only Pass is legal.
    """
    state = ci.new_game(players, ci.Params(size=size))
    held = held or {}
    hands = hands or {}
    for seat, dealt in held.items():
        state.held[seat] = mask(*dealt)
    taken = 0
    for cities in state.held:
        taken |= cities
    top = [cid(name) for name in city_top]
    rest = [c for c in ci.cities_of(state.params.city_mask & ~taken) if c not in top] if city_rest else []
    state.city_deck = (top + rest)[::-1]
    remaining = list(state.params.event_counts)
    for seat, events in hands.items():
        state.hands[seat] = _counts(events)
        state.hand_sizes[seat] = len(events)
        for ev in events:
            remaining[ev] -= 1
    events_top = [int(ev) for ev in event_top]
    for kind in events_top:
        remaining[kind] -= 1
    assert min(remaining) >= 0, "more copies of an event than the game has"
    below = [ev for ev, count in enumerate(remaining) for _ in range(count)] if event_rest else []
    state.event_deck = (events_top + below)[::-1]
    state.chance = -1
    state.phase = TURN
    state.round = state.turn = 1
    state.active = active
    state.plays_left = plays
    state.pending, state.decider = D.PLAY, active
    return state


def event_position(
    players: int = 3,
    *,
    held: dict[int, list[str]] | None = None,
    hands: dict[int, list[ci.EventType]] | None = None,
    **options: object,
) -> ci.State:
    """Like :func:`position`, but seat 0 may play twice and holds a spare Curse, so that after the
    event under test the turn stays with seat 0 (nothing else moves)."""
    hands = dict(hands or {})
    hands[0] = [*hands.get(0, []), E.CURSE]
    return position(players, held=held, hands=hands, plays=2, **options)  # type: ignore[arg-type]


def back_to_seat_0(state: ci.State) -> None:
    """Assert the event is over and seat 0 is to play again."""
    assert state.ev < 0 and state.decision == D.PLAY and state.current_player == 0, state


def stacked_game(
    players: int = 3,
    *,
    city_top: Iterable[str] = (),
    event_top: Iterable[ci.EventType] = (),
    size: str = "full",
) -> ci.State:
    """A new game whose two setup shuffles put the given cards on top (the rest in table order)."""
    state = ci.new_game(players, ci.Params(size=size))
    top = [cid(name) for name in city_top]
    state.apply(
        ci.Shuffle(ci.Deck.CITY, (*top, *(c for c in ci.cities_of(state.params.city_mask) if c not in top)))
    )
    remaining = list(state.params.events)
    for ev in event_top:
        remaining.remove(ev)
    state.apply(ci.Shuffle(ci.Deck.EVENT, (*event_top, *remaining)))
    return state


def keep_order(state: ci.State) -> None:
    """Resolve pending shuffles by leaving each deck in its current order (top stays top)."""
    while state.is_chance_node():
        deck = state.city_deck if state.chance == ci.Deck.CITY else state.event_deck
        order = deck[::-1]
        if state.chance == ci.Deck.CITY:
            state.apply(ci.Shuffle(ci.Deck.CITY, tuple(order)))
        else:
            state.apply(ci.Shuffle(ci.Deck.EVENT, tuple(E(ev) for ev in order)))


def play(state: ci.State, event: ci.EventType, **choices: object) -> None:
    """The deciding seat plays ``event`` with ``choices`` (checked), then pending shuffles keep order."""
    state.apply(ci.Play(event, **choices))  # type: ignore[arg-type]
    keep_order(state)


def decline_all(state: ci.State) -> None:
    """Answer every pending protection question with 'no'."""
    while state.decision == D.REACT:
        state.apply(ci.React(None))
        keep_order(state)


def decision_of(state: ci.State) -> ci.Decision | None:
    """The pending decision (a call, so type checkers do not keep an earlier narrowing)."""
    return state.decision


def top_city(state: ci.State) -> str:
    return ci.CITIES[state.city_deck[-1]].name


def hand(state: ci.State, seat: int) -> dict[ci.EventType, int]:
    """A seat's hand as {kind: copies}."""
    return {E(ev): count for ev, count in enumerate(state.hands[seat]) if count}


def expect_illegal(state: ci.State, step: ci.Step, rule: str) -> ci.IllegalActionError:
    """Assert that ``step`` is refused naming ``rule`` and that the state is untouched."""
    before = state.to_json()
    with pytest.raises(ci.IllegalActionError) as info:
        state.apply(step)
    assert info.value.rule == rule, str(info.value)
    assert state.to_json() == before
    return info.value
