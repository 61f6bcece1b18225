"""How each event resolves once its reactions are over (C8, C11, C12).

Every event is a small program over the state's event fields: ``progress`` says how far
it got and ``cursor`` which seat (counted from the player of the event) it is resolving.
A runner returns early when a seat must decide (it is called again after the answer)
or a deck must be shuffled (called again after the shuffle); it ends with
``State.end_event``. Seats that revealed protection are skipped. The moves an event is
made of (taking, losing and giving up cards) are the State's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .actions import Deck, EducationMode, Play
from .cards import (
    ALL_CITIES,
    ANGERS,
    CAPITAL_MASK,
    COMMANDERS,
    CRISIS_MASKS,
    ECONOMIC_CRISES,
    EMPIRE_MASKS,
    GAMES,
    NEUTRAL_MASK,
    NUM_EVENT_TYPES,
    SIDE_MASKS,
    STRONG_MASKS,
    WEAK_MASKS,
    WONDER_MASK,
    EventType,
    cities_of,
)
from .phases import Decision

if TYPE_CHECKING:
    from .state import State

E = EventType
REGULAR = ALL_CITIES & ~CAPITAL_MASK
SILENCE_TURNS = 2
EDUCATION_DISCARDS = 5


def _order(state: State) -> list[int]:
    """Seats in order from the player of the event, without those who revealed protection."""
    n, player, revealed = state.n, state.ev_player, state.revealed
    return [seat for seat in ((player + k) % n for k in range(n)) if not revealed >> seat & 1]


def _seats_holding(state: State, mask: int, exclude: int = -1) -> int:
    found = 0
    for seat, held in enumerate(state.held):
        if held & mask and seat != exclude:
            found |= 1 << seat
    return found


def _holders_of(mask: int, others: bool) -> Callable[[State, Play], int]:
    """Seats holding a city of ``mask`` (``others``: the player of the event aside)."""

    def affects(state: State, play: Play) -> int:
        return _seats_holding(state, mask, state.ev_player if others else -1)

    return affects


def _target(state: State, play: Play) -> int:
    assert play.target is not None
    return 1 << play.target


def _crisis(pair: int) -> Callable[[State, Play], int]:
    def affects(state: State, play: Play) -> int:
        sizes = state.hand_sizes
        found = 0
        for seat, cities in enumerate(state.held):
            if (cities & pair).bit_count() < 2 and (cities or sizes[seat]):
                found |= 1 << seat
        return found

    return affects


def _unification_affects(state: State, play: Play) -> int:
    assert play.empire is not None
    return _seats_holding(state, EMPIRE_MASKS[play.empire], state.ev_player)


def _unrest_affects(state: State, play: Play) -> int:
    assert play.side is not None
    return _seats_holding(state, SIDE_MASKS[play.side], state.ev_player)


def _education_affects(state: State, play: Play) -> int:
    return _target(state, play) if play.education == EducationMode.DISCARD else 0


def _nobody(state: State, play: Play) -> int:
    return 0


def _everybody(state: State, play: Play) -> int:
    return (1 << state.n) - 1


def _affects_table() -> tuple[Callable[[State, Play], int], ...]:
    table: list[Callable[[State, Play], int]] = [_nobody] * NUM_EVENT_TYPES
    for e, ev in enumerate(COMMANDERS):
        table[ev] = _holders_of(EMPIRE_MASKS[e], False)
    for i, ev in enumerate(ECONOMIC_CRISES):
        table[ev] = _crisis(CRISIS_MASKS[i])
    for ev in (*ANGERS, E.ATTACK, E.REBELLION, E.LOSS_OF_INFLUENCE, E.TRADE):
        table[ev] = _target
    table[E.SILENCE_BEFORE_THE_STORM] = table[E.CURSE] = _target
    table[E.UNIFICATION] = _unification_affects
    table[E.PLAGUE] = _holders_of(ALL_CITIES, False)
    table[E.UNREST] = table[E.GREAT_UNREST] = _unrest_affects
    table[E.INFLUENCE_ON_WONDERS] = _holders_of(WONDER_MASK, True)
    table[E.BARBARIANS] = _everybody
    table[E.FLOOD] = _holders_of(REGULAR, False)
    table[E.EDUCATION] = _education_affects
    return tuple(table)


_AFFECTS = _affects_table()
#: Per event kind, the discipline a Games card names (-1 for other kinds).
_GAMES_DISCIPLINE: tuple[int, ...] = tuple(GAMES.index(ev) if ev in GAMES else -1 for ev in EventType)


def affected(state: State) -> int:
    """Seats the announced event would take a card from or restrict (C12), as a mask."""
    play = state.ev_play
    assert play is not None
    return _AFFECTS[state.ev](state, play)


def games_winners(state: State, ev: int) -> int:
    """Games: the seats with the highest positive total in the discipline (C11), as a mask."""
    d = _GAMES_DISCIPLINE[ev]
    if d < 0:
        return 0
    strong, weak = STRONG_MASKS[d], WEAK_MASKS[d]
    totals = [3 * (held & strong).bit_count() + (held & weak).bit_count() for held in state.held]
    best = max(totals)
    return 0 if best <= 0 else sum(1 << seat for seat, total in enumerate(totals) if total == best)


def run(state: State) -> None:
    """Carry on resolving the current event."""
    _RUNNERS[state.ev](state)


# --- per-seat giving ---------------------------------------------------------------------------------


def _set_give(state: State, seat: int, first: tuple[int, int], second: tuple[int, int] = (0, 0)) -> None:
    state.give_seat = seat
    state.give_mask_a, state.give_left_a = first
    state.give_mask_b, state.give_left_b = second


def _each_seat(state: State, setup: Callable[[State, int], bool]) -> bool:
    """Resolve seat after seat from the cursor; ``setup`` says what a seat gives (False: nothing).

    False when a seat must decide or the game ended.
    """
    n, player = state.n, state.ev_player
    while state.cursor < n:
        seat = (player + state.cursor) % n
        if state.progress == 0:
            if state.revealed >> seat & 1 or not setup(state, seat):
                state.cursor += 1
                continue
            state.progress = 1
        if not state.give_up_cities() or state.is_terminal():
            return False
        if state.give_events and not state.give_up_events():
            return False
        state.progress = 0
        state.cursor += 1
    return True


def _after_losses(state: State, progress: int) -> bool:
    """Move on to ``progress``; True if a shuffle is now due (the runner stops until it is done)."""
    state.progress = progress
    return state.request_shuffle()


# --- the events --------------------------------------------------------------------------------------


def _commander(state: State) -> None:
    if state.progress == 0:
        mask = EMPIRE_MASKS[state.ev - E.COMMANDER_ROME]
        for seat in _order(state):
            for city in cities_of(state.held[seat] & mask):
                state.lose(seat, city)
        if _after_losses(state, 1):
            return
    state.end_event()


def _festival(state: State) -> None:
    ev = state.ev
    for seat in _order(state):
        held = state.held[seat]
        capitals = (held & CAPITAL_MASK).bit_count()
        neutral = (held & NEUTRAL_MASK).bit_count()
        if ev == E.BIG_FESTIVAL:
            count = 2 * capitals + neutral
        elif ev == E.MEDIUM_FESTIVAL:
            count = capitals + (1 if neutral else 0)
        else:
            count = capitals
        if state.draw_cities(seat, count):
            return
    state.end_event()


def _take_all(state: State, mask: int) -> None:
    """Unification and Influence on wonders: every such city held by the other players."""
    player = state.ev_player
    for seat in _order(state):
        if seat != player:
            for city in cities_of(state.held[seat] & mask):
                if state.move_city(seat, player, city):
                    return
    state.end_event()


def _unification(state: State) -> None:
    assert state.ev_play is not None and state.ev_play.empire is not None
    _take_all(state, EMPIRE_MASKS[state.ev_play.empire])


def _influence_on_wonders(state: State) -> None:
    _take_all(state, WONDER_MASK)


def _charisma(state: State) -> None:
    player = state.ev_player
    if state.draw_cities(player, state.hands[player][E.UNIFICATION]):
        return
    state.end_event()


def _take_city(state: State) -> None:
    """Anger of the gods, Attack, Loss of influence and Rebellion: one chosen city from the target."""
    play = state.ev_play
    assert play is not None and play.target is not None and play.take_city is not None
    if state.progress == 0:
        state.progress = 1
        if not state.revealed >> play.target & 1:
            if state.move_city(play.target, state.ev_player, play.take_city):
                return
            if state.ev == E.REBELLION:
                _set_give(state, play.target, (ALL_CITIES, 1))
                state.give_to = -1
                state.progress = 2
        if state.ev == E.LOSS_OF_INFLUENCE:
            state.allow_extra_plays(1)
    if state.progress == 2:
        if not state.give_up_cities():
            return
        if _after_losses(state, 3):
            return
    state.end_event()


def _games(state: State) -> None:
    for seat in _order(state):
        if state.winners >> seat & 1 and state.draw_cities(seat, 2):
            return
    state.end_event()


def _plague_setup(state: State, seat: int) -> bool:
    held = state.held[seat]
    if not held:
        return False
    if held & CAPITAL_MASK:
        _set_give(state, seat, (CAPITAL_MASK, 1), (REGULAR, 2))
    else:
        _set_give(state, seat, (REGULAR, 4))
    state.give_to = -1
    return True


def _barbarians_setup(state: State, seat: int) -> bool:
    held = state.held[seat]
    if held.bit_count() < 3:
        for city in cities_of(held):
            state.lose(seat, city)
        state.no_city |= 1 << seat
        state.note("no_city", seat)
        return False
    _set_give(state, seat, (ALL_CITIES, 3))
    state.give_to = -1
    return True


def _crisis_setup(state: State, seat: int) -> bool:
    if not state.affected >> seat & 1:
        return False
    _set_give(state, seat, (ALL_CITIES, 2))
    state.give_to = -1
    state.give_events = 2
    return True


def _unrest_setup(state: State, seat: int) -> bool:
    play = state.ev_play
    assert play is not None and play.side is not None
    if seat == state.ev_player or not state.held[seat] & SIDE_MASKS[play.side]:
        return False
    _set_give(state, seat, (SIDE_MASKS[play.side], 2 if state.ev == E.GREAT_UNREST else 1))
    state.give_to = state.ev_player
    return True


def _losses_then_shuffle(setup: Callable[[State, int], bool]) -> Callable[[State], None]:
    def runner(state: State) -> None:
        if state.progress < 2:
            if not _each_seat(state, setup):
                return
            if _after_losses(state, 2):
                return
        state.end_event()

    return runner


def _unrest(state: State) -> None:
    if _each_seat(state, _unrest_setup):
        state.end_event()


def _friendly_exchange(state: State) -> None:
    assert state.ev_play is not None and state.ev_play.target is not None
    state.pending, state.decider = Decision.EXCHANGE, state.ev_play.target


def _swap(state: State) -> bool:
    """Trade and an accepted Friendly exchange: both cities change hands at once. True if it ended."""
    play = state.ev_play
    assert play is not None and play.target is not None
    assert play.give_city is not None and play.take_city is not None
    player, target = state.ev_player, play.target
    state.held[player] &= ~(1 << play.give_city)
    state.held[target] &= ~(1 << play.take_city)
    state.note("take", player, target, play.take_city)
    state.note("take", target, player, play.give_city)
    if state.gain(player, play.take_city):
        # Every empire is complete, so the city given is a neutral one: it still changes hands.
        state.held[target] |= 1 << play.give_city
        return True
    return state.gain(target, play.give_city)


def answer_exchange(state: State, accept: bool) -> None:
    """The partner of a Friendly exchange answered (C11)."""
    play = state.ev_play
    assert play is not None and play.target is not None
    if not accept:
        state.note("decline", play.target)
        state.end_event()
        return
    state.note("accept", play.target)
    if _swap(state) or state.draw_cities(state.ev_player, 1) or state.draw_cities(play.target, 1):
        return
    state.end_event()


def _trade(state: State) -> None:
    assert state.ev_play is not None and state.ev_play.target is not None
    if not state.revealed >> state.ev_play.target & 1 and _swap(state):
        return
    state.end_event()


def _victory(state: State) -> None:
    player = state.ev_player
    if state.progress == 0:
        _set_give(state, player, (ALL_CITIES, 1))
        state.give_to = -1
        state.progress = 1
    if state.progress == 1:
        if not state.give_up_cities():
            return
        if _after_losses(state, 2):
            return
    state.draw_events(player, 3)
    state.allow_extra_plays(2)
    state.end_event()


def _education(state: State) -> None:
    play = state.ev_play
    assert play is not None
    player = state.ev_player
    if play.education == EducationMode.EXCHANGE:
        if state.progress == 0:
            hand = state.hands[player]
            for ev in play.returns:
                hand[ev] -= 1
                state.event_deck.append(int(ev))
            state.hand_sizes[player] -= len(play.returns)
            state.note("return", player, -1, len(play.returns))
            state.progress = 1
            if len(state.event_deck) > 1:
                state.chance = Deck.EVENT
                state.pending = None
                return
        state.draw_events(player, len(play.returns))
        state.end_event()
        return
    assert play.target is not None
    if state.progress == 0:
        state.progress = 1
        if not state.revealed >> play.target & 1:
            state.give_seat = play.target
            state.give_events = EDUCATION_DISCARDS
    if state.give_events and not state.give_up_events():
        return
    state.end_event()


def _restrict(state: State) -> None:
    """Silence before the storm and Curse: the target's coming turns (C11)."""
    play = state.ev_play
    assert play is not None and play.target is not None
    target = play.target
    if not state.revealed >> target & 1:
        if state.ev == E.CURSE:
            state.cursed |= 1 << target
            state.note("curse", target)
        else:
            state.silenced[target] = SILENCE_TURNS
            state.note("silence", target)
    state.end_event()


def _uncovering(state: State) -> None:
    player = state.ev_player
    if state.draw_cities(player, 1, bottom=True):
        return
    state.draw_events(player, 1, bottom=True)
    state.end_event()


def _espionage(state: State) -> None:
    assert state.ev_play is not None and state.ev_play.target is not None
    capitals = (state.held[state.ev_play.target] & CAPITAL_MASK).bit_count()
    state.draw_events(state.ev_player, max(1, capitals))
    state.end_event()


def _flood(state: State) -> None:
    if state.progress == 0:
        for seat in _order(state):
            for city in cities_of(state.held[seat] & REGULAR):
                state.lose(seat, city)
        if _after_losses(state, 1):
            return
    for seat in _order(state):
        hand = state.hands[seat]
        commanders = sum(hand[c] for c in COMMANDERS)
        if state.draw_cities(seat, 2 * commanders):
            return
    state.end_event()


def _never(state: State) -> None:
    raise AssertionError(f"{EventType(state.ev).display_name} is never played")


def _runners() -> tuple[Callable[[State], None], ...]:
    table: list[Callable[[State], None]] = [_never] * NUM_EVENT_TYPES
    for ev in COMMANDERS:
        table[ev] = _commander
    for ev in ANGERS:
        table[ev] = _take_city
    for ev in GAMES:
        table[ev] = _games
    crisis = _losses_then_shuffle(_crisis_setup)
    for ev in ECONOMIC_CRISES:
        table[ev] = crisis
    table[E.BIG_FESTIVAL] = table[E.MEDIUM_FESTIVAL] = table[E.SMALL_FESTIVAL] = _festival
    table[E.UNIFICATION] = _unification
    table[E.CHARISMA] = _charisma
    table[E.PLAGUE] = _losses_then_shuffle(_plague_setup)
    table[E.FRIENDLY_EXCHANGE] = _friendly_exchange
    table[E.UNREST] = table[E.GREAT_UNREST] = _unrest
    table[E.LOSS_OF_INFLUENCE] = table[E.ATTACK] = table[E.REBELLION] = _take_city
    table[E.VICTORY] = _victory
    table[E.INFLUENCE_ON_WONDERS] = _influence_on_wonders
    table[E.TRADE] = _trade
    table[E.EDUCATION] = _education
    table[E.BARBARIANS] = _losses_then_shuffle(_barbarians_setup)
    table[E.SILENCE_BEFORE_THE_STORM] = table[E.CURSE] = _restrict
    table[E.UNCOVERING_EXCAVATIONS] = _uncovering
    table[E.ESPIONAGE] = _espionage
    table[E.FLOOD] = _flood
    return tuple(table)


_RUNNERS = _runners()
