"""Which events a player may play, with which choices (C9, C10), without listing them all.

For every event kind in a hand this module can count the legal :class:`Play` actions,
list them, decode the ``k``-th one (so a uniform draw needs no list) and check a given
one. Playability is judged only on public facts and the player's own hand, as C9
requires, so a determinized state agrees with the real one. Event kinds are plain
ints here: enum lookups cost more than the rules themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache, reduce
from itertools import compress
from operator import or_
from typing import TYPE_CHECKING

from ..errors import IllegalActionError, shown
from .actions import EducationMode, Play
from .cards import (
    ALL_CITIES,
    ANGERS,
    CAPITAL_MASK,
    COMMANDERS,
    CRISIS_MASKS,
    ECONOMIC_CRISES,
    EMPIRE_MASKS,
    EVENT_TYPES,
    GAMES,
    NEUTRAL_MASK,
    NUM_CITIES,
    NUM_EVENT_TYPES,
    REGULAR_MASKS,
    SIDE_MASKS,
    STRONG_MASKS,
    WEAK_MASKS,
    WONDER_MASK,
    Empire,
    EventType,
    Side,
    cities_of,
)

if TYPE_CHECKING:
    from .state import State

E = EventType
PLAYABILITY = "C9 playability"
CHOICES = "C10 choices"
MAX_RETURNS = 5
_EDUCATION = int(E.EDUCATION)
_UNIFICATION = int(E.UNIFICATION)
_ESPIONAGE = int(E.ESPIONAGE)
_LOSS_OF_INFLUENCE = int(E.LOSS_OF_INFLUENCE)
_SIDES = (Side.WEST, Side.EAST)
_EMPIRES = tuple(Empire)
_EMPIRE_RANGE = tuple(enumerate(EMPIRE_MASKS))
#: Every event kind as an int, for ``compress(KINDS, hand)``: the kinds a hand holds.
KINDS = range(NUM_EVENT_TYPES)

# Shapes of choices.
NEVER, PLAIN, CITY, SWAP, TARGET, UNIFY, UNREST, EDUCATION = range(8)

#: A counter: (state, seat, own cities, opponents' cities, all held cities) -> number of legal plays.
Counter = Callable[["State", int, int, int, int], int]


def _never(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return 0


def _always(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return 1


def _someone_holds(mask: int) -> Counter:
    """Commanders, Plague, Flood: playable when anyone holds such a city."""

    def count(state: State, seat: int, own: int, opp: int, total: int) -> int:
        return 1 if total & mask else 0

    return count


def _deck_and_holds(mask: int) -> Counter:
    """Festivals and Games: someone would take a city from a non-empty deck."""

    def count(state: State, seat: int, own: int, opp: int, total: int) -> int:
        return 1 if total & mask and state.city_deck else 0

    return count


def _crisis(pair: int) -> Counter:
    """Economic crisis: someone short of the pair's cities would lose a city or an event."""

    def count(state: State, seat: int, own: int, opp: int, total: int) -> int:
        sizes = state.hand_sizes
        for s, cities in enumerate(state.held):
            if (cities & pair).bit_count() < 2 and (cities or sizes[s] > (s == seat)):
                return 1
        return 0

    return count


def _charisma(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return 1 if own.bit_count() >= 4 and state.hands[seat][_UNIFICATION] and state.city_deck else 0


def _victory(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return 1 if own or state.event_deck else 0


def _influence_on_wonders(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return 1 if own & CAPITAL_MASK and own & WONDER_MASK and opp & WONDER_MASK else 0


def _uncovering(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return 1 if state.city_deck or state.event_deck else 0


def _take(mask: int, needs_capital: bool) -> Counter:
    """Anger of the gods, Attack, Rebellion, Loss of influence: one choice per city they may take."""

    def count(state: State, seat: int, own: int, opp: int, total: int) -> int:
        if needs_capital and not own & CAPITAL_MASK:
            return 0
        return (opp & mask).bit_count()

    return count


def _swap(needs_capital: bool) -> Counter:
    """Trade and Friendly exchange: one of your cities for one of an opponent's."""

    def count(state: State, seat: int, own: int, opp: int, total: int) -> int:
        if needs_capital and not own & CAPITAL_MASK:
            return 0
        return own.bit_count() * opp.bit_count()

    return count


def _any_opponent(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return state.n - 1


def _espionage(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return state.n - 1 if state.event_deck else 0


def _unrest(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return (1 if opp & SIDE_MASKS[0] else 0) + (1 if opp & SIDE_MASKS[1] else 0)


def _unify_options(own: int, opp: int) -> list[int]:
    return [e for e, mask in _EMPIRE_RANGE if (own & mask).bit_count() >= 4 and opp & mask]


def _unification(state: State, seat: int, own: int, opp: int, total: int) -> int:
    return len(_unify_options(own, opp))


def _education(state: State, seat: int, own: int, opp: int, total: int) -> int:
    _, counts = _edu_kinds(state, seat)
    return _exchange_count(counts) + len(_discard_targets(state, seat))


def _tables() -> tuple[tuple[int, ...], tuple[Counter, ...]]:
    shape = [PLAIN] * NUM_EVENT_TYPES
    counters: list[Counter] = [_never] * NUM_EVENT_TYPES
    for e, ev in enumerate(COMMANDERS):
        counters[ev] = _someone_holds(EMPIRE_MASKS[e])
    for e, ev in enumerate(ANGERS):
        shape[ev], counters[ev] = CITY, _take(REGULAR_MASKS[e], False)
    for d, ev in enumerate(GAMES):
        counters[ev] = _deck_and_holds(STRONG_MASKS[d] | WEAK_MASKS[d])
    for i, ev in enumerate(ECONOMIC_CRISES):
        counters[ev] = _crisis(CRISIS_MASKS[i])
    counters[E.BIG_FESTIVAL] = counters[E.MEDIUM_FESTIVAL] = _deck_and_holds(CAPITAL_MASK | NEUTRAL_MASK)
    counters[E.SMALL_FESTIVAL] = _deck_and_holds(CAPITAL_MASK)
    counters[E.CHARISMA] = _charisma
    counters[E.PLAGUE] = _someone_holds(ALL_CITIES)
    counters[E.FLOOD] = _someone_holds(ALL_CITIES & ~CAPITAL_MASK)
    counters[E.VICTORY] = _victory
    counters[E.INFLUENCE_ON_WONDERS] = _influence_on_wonders
    counters[E.UNCOVERING_EXCAVATIONS] = _uncovering
    counters[E.BARBARIANS] = _always
    for ev in (E.BASIC_PROTECTION, E.PROTECTION, E.GREAT_PROTECTION):
        shape[ev] = NEVER
    shape[E.ATTACK], counters[E.ATTACK] = CITY, _take(ALL_CITIES, True)
    shape[E.REBELLION], counters[E.REBELLION] = CITY, _take(ALL_CITIES, False)
    shape[E.LOSS_OF_INFLUENCE], counters[E.LOSS_OF_INFLUENCE] = CITY, _take(NEUTRAL_MASK, False)
    shape[E.TRADE], counters[E.TRADE] = SWAP, _swap(True)
    shape[E.FRIENDLY_EXCHANGE], counters[E.FRIENDLY_EXCHANGE] = SWAP, _swap(False)
    shape[E.SILENCE_BEFORE_THE_STORM], counters[E.SILENCE_BEFORE_THE_STORM] = TARGET, _any_opponent
    shape[E.CURSE], counters[E.CURSE] = TARGET, _any_opponent
    shape[E.ESPIONAGE], counters[E.ESPIONAGE] = TARGET, _espionage
    shape[E.UNIFICATION], counters[E.UNIFICATION] = UNIFY, _unification
    shape[E.UNREST], counters[E.UNREST] = UNREST, _unrest
    shape[E.GREAT_UNREST], counters[E.GREAT_UNREST] = UNREST, _unrest
    shape[E.EDUCATION], counters[E.EDUCATION] = EDUCATION, _education
    return tuple(shape), tuple(counters)


SHAPE, COUNTERS = _tables()
#: The cities a CITY-shaped event may take.
_TAKEABLE: dict[int, int] = {
    **{int(ev): REGULAR_MASKS[e] for e, ev in enumerate(ANGERS)},
    int(E.ATTACK): ALL_CITIES,
    int(E.REBELLION): ALL_CITIES,
    _LOSS_OF_INFLUENCE: NEUTRAL_MASK,
}


# --- counting and listing ------------------------------------------------------------------------------


def _totals(state: State, seat: int) -> tuple[int, int, int]:
    """(own cities, opponents' cities, all held cities)."""
    total = reduce(or_, state.held)
    own = state.held[seat]
    return own, total & ~own, total


def has_play(state: State, seat: int) -> bool:
    """Whether the seat could play any event of its hand now (stops at the first one)."""
    own, opp, total = _totals(state, seat)
    counters = COUNTERS
    for ev in compress(KINDS, state.hands[seat]):
        if ev == _EDUCATION and state.hand_sizes[seat] > 1:
            return True
        if counters[ev](state, seat, own, opp, total):
            return True
    return False


def play_counts(state: State, seat: int) -> list[tuple[int, int]]:
    """``(event kind, number of legal plays)`` for every kind in hand that can be played."""
    own, opp, total = _totals(state, seat)
    counters = COUNTERS
    found = []
    for ev in compress(KINDS, state.hands[seat]):
        plays = counters[ev](state, seat, own, opp, total)
        if plays:
            found.append((ev, plays))
    return found


def count_plays(state: State, seat: int, ev: int) -> int:
    """How many legal plays of ``ev`` the seat would have (0: not playable now), hand aside."""
    own, opp, total = _totals(state, seat)
    return COUNTERS[ev](state, seat, own, opp, total)


def _nth_bit(mask: int, k: int) -> int:
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _holder(state: State, city: int) -> int:
    bit = 1 << city
    for seat, held in enumerate(state.held):
        if held & bit:
            return seat
    return -1


def _edu_kinds(state: State, seat: int) -> tuple[list[int], tuple[int, ...]]:
    """Event kinds (ascending) and copies an Education player could give back."""
    hand = state.hands[seat]
    kinds = [ev for ev in compress(KINDS, hand) if ev != _EDUCATION or hand[ev] > 1]
    return kinds, tuple(hand[ev] - (ev == _EDUCATION) for ev in kinds)


@lru_cache(maxsize=4096)
def _suffix_table(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``table[i][r]``: multisets of exactly ``r`` cards drawn from kinds ``i..``."""
    rows: list[tuple[int, ...]] = [(1, 0, 0, 0, 0, 0)]
    for count in reversed(counts):
        below = rows[-1]
        rows.append(
            tuple(sum(below[r - m] for m in range(min(count, r) + 1)) for r in range(MAX_RETURNS + 1))
        )
    return tuple(reversed(rows))


def _exchange_count(counts: tuple[int, ...]) -> int:
    return sum(_suffix_table(counts)[0][1:]) if counts else 0


def _nth_returns(kinds: list[int], counts: tuple[int, ...], k: int) -> tuple[EventType, ...]:
    table = _suffix_table(counts)
    size = 1
    while k >= table[0][size]:
        k -= table[0][size]
        size += 1
    chosen: list[EventType] = []
    for i, kind in enumerate(kinds):
        for m in range(min(counts[i], size) + 1):
            block = table[i + 1][size - m]
            if k < block:
                chosen.extend([EVENT_TYPES[kind]] * m)
                size -= m
                break
            k -= block
    return tuple(chosen)


def _returns_of(
    kinds: list[int], counts: tuple[int, ...], i: int, size: int
) -> Iterator[tuple[EventType, ...]]:
    if size == 0:
        yield ()
        return
    if i == len(kinds):
        return
    for m in range(min(counts[i], size) + 1):
        head = (EVENT_TYPES[kinds[i]],) * m
        for tail in _returns_of(kinds, counts, i + 1, size - m):
            yield head + tail


def _opponents(state: State, seat: int) -> list[int]:
    return [s for s in range(state.n) if s != seat]


def _discard_targets(state: State, seat: int) -> list[int]:
    sizes = state.hand_sizes
    return [s for s in range(state.n) if s != seat and sizes[s] > 0]


_SET_EVENT, _SET_TARGET, _SET_SIDE, _SET_EMPIRE, _SET_EDUCATION, _SET_TAKE, _SET_GIVE, _SET_RETURNS = (
    Play.__dict__[name].__set__
    for name in ("event", "target", "side", "empire", "education", "take_city", "give_city", "returns")
)


def new_play(
    event: EventType,
    target: int | None = None,
    side: Side | None = None,
    empire: Empire | None = None,
    education: EducationMode | None = None,
    take_city: int | None = None,
    give_city: int | None = None,
    returns: tuple[EventType, ...] = (),
) -> Play:
    """The same :class:`Play` the constructor builds from sorted ``returns``, several times faster."""
    play = object.__new__(Play)
    _SET_EVENT(play, event)
    _SET_TARGET(play, target)
    _SET_SIDE(play, side)
    _SET_EMPIRE(play, empire)
    _SET_EDUCATION(play, education)
    _SET_TAKE(play, take_city)
    _SET_GIVE(play, give_city)
    _SET_RETURNS(play, returns)
    return play


def nth_play(state: State, seat: int, ev: int, k: int) -> Play:
    """The ``k``-th legal play of ``ev`` in :func:`iter_plays` order."""
    shape = SHAPE[ev]
    event = EVENT_TYPES[ev]
    if shape == PLAIN:
        return new_play(event)
    own, opp, _ = _totals(state, seat)
    if shape == CITY:
        city = _nth_bit(opp & _TAKEABLE[ev], k)
        return new_play(event, target=_holder(state, city), take_city=city)
    if shape == SWAP:
        width = opp.bit_count()
        take = _nth_bit(opp, k % width)
        return new_play(
            event, target=_holder(state, take), take_city=take, give_city=_nth_bit(own, k // width)
        )
    if shape == TARGET:
        return new_play(event, target=_opponents(state, seat)[k])
    if shape == UNREST:
        sides = [side for side in _SIDES if opp & SIDE_MASKS[side]]
        return new_play(event, side=sides[k])
    if shape == UNIFY:
        return new_play(event, empire=_EMPIRES[_unify_options(own, opp)[k]])
    kinds, counts = _edu_kinds(state, seat)
    exchanges = _exchange_count(counts)
    if k < exchanges:
        return new_play(event, education=EducationMode.EXCHANGE, returns=_nth_returns(kinds, counts, k))
    return new_play(
        event, education=EducationMode.DISCARD, target=_discard_targets(state, seat)[k - exchanges]
    )


def iter_plays(state: State, seat: int, ev: int) -> Iterator[Play]:
    """Every legal play of ``ev`` for the seat, if it holds one (none if it is not playable)."""
    if not state.hands[seat][ev] or not count_plays(state, seat, ev):
        return
    own, opp, _ = _totals(state, seat)
    shape = SHAPE[ev]
    event = EVENT_TYPES[ev]
    if shape == PLAIN:
        yield new_play(event)
    elif shape == CITY:
        for city in cities_of(opp & _TAKEABLE[ev]):
            yield new_play(event, target=_holder(state, city), take_city=city)
    elif shape == SWAP:
        takes = [(city, _holder(state, city)) for city in cities_of(opp)]
        for give in cities_of(own):
            for take, holder in takes:
                yield new_play(event, target=holder, take_city=take, give_city=give)
    elif shape == TARGET:
        for target in _opponents(state, seat):
            yield new_play(event, target=target)
    elif shape == UNREST:
        for side in _SIDES:
            if opp & SIDE_MASKS[side]:
                yield new_play(event, side=side)
    elif shape == UNIFY:
        for empire in _unify_options(own, opp):
            yield new_play(event, empire=_EMPIRES[empire])
    else:
        kinds, counts = _edu_kinds(state, seat)
        for size in range(1, MAX_RETURNS + 1):
            for returns in _returns_of(kinds, counts, 0, size):
                yield new_play(event, education=EducationMode.EXCHANGE, returns=returns)
        for target in _discard_targets(state, seat):
            yield new_play(event, education=EducationMode.DISCARD, target=target)


# --- checking one play -------------------------------------------------------------------------------


def _name(ev: int) -> str:
    return EVENT_TYPES[ev].display_name


def _unused(play: Play, *allowed: str) -> None:
    """Refuse any choice the event does not take."""
    if (
        not allowed
        and play.target is None
        and play.take_city is None
        and play.give_city is None
        and play.side is None
        and play.empire is None
        and play.education is None
        and not play.returns
    ):
        return  # the common case of an event without choices, checked at once
    values = (
        ("target", play.target),
        ("side", play.side),
        ("empire", play.empire),
        ("education", play.education),
        ("take_city", play.take_city),
        ("give_city", play.give_city),
    )
    for key, value in values:
        if value is not None and key not in allowed:
            raise IllegalActionError(CHOICES, f"{_name(play.event)} takes no {key} (got {shown(value)})")
    if play.returns and "returns" not in allowed:
        raise IllegalActionError(CHOICES, f"{_name(play.event)} gives no events back")


def _is_index(value: object, limit: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < limit


def _opponent(state: State, seat: int, target: int | None, ev: int) -> int:
    if not _is_index(target, state.n) or target == seat:
        raise IllegalActionError(CHOICES, f"{_name(ev)} must name an opponent as target, not {shown(target)}")
    assert target is not None
    return target


def _held_by(state: State, seat: int, city: int | None, what: str) -> int:
    if not _is_index(city, NUM_CITIES):
        raise IllegalActionError(CHOICES, f"{what} must be a city id, not {city!r}")
    assert city is not None
    if not state.held[seat] >> city & 1:
        raise IllegalActionError(CHOICES, f"{what}: seat {seat} does not hold city {city}")
    return city


def check_play(state: State, seat: int, play: Play) -> None:
    """Raise :class:`IllegalActionError` unless ``play`` is one of the seat's legal plays."""
    ev = play.event
    if not _is_index(ev, NUM_EVENT_TYPES):
        raise IllegalActionError(PLAYABILITY, f"unknown event {ev!r}")
    if not state.hands[seat][ev]:
        raise IllegalActionError(PLAYABILITY, f"seat {seat} holds no {_name(ev)} card")
    shape = SHAPE[ev]
    own, opp, total = _totals(state, seat)
    if shape == NEVER:
        raise IllegalActionError(PLAYABILITY, f"{_name(ev)} is only ever revealed against an event (C12)")
    if shape == PLAIN:
        _unused(play)
        if not COUNTERS[ev](state, seat, own, opp, total):
            raise IllegalActionError(
                PLAYABILITY, f"{_name(ev)} would change nothing now, or its condition fails"
            )
    elif shape == CITY:
        _check_take(state, seat, play, own)
    elif shape == SWAP:
        _unused(play, "target", "take_city", "give_city")
        if ev == E.TRADE and not own & CAPITAL_MASK:
            raise IllegalActionError(PLAYABILITY, "Trade needs a capital city held by its player")
        target = _opponent(state, seat, play.target, ev)
        _held_by(state, target, play.take_city, "take_city")
        _held_by(state, seat, play.give_city, "give_city")
    elif shape == TARGET:
        _unused(play, "target")
        _opponent(state, seat, play.target, ev)
        if ev == _ESPIONAGE and not state.event_deck:
            raise IllegalActionError(PLAYABILITY, "Espionage would take nothing: the event deck is empty")
    elif shape == UNREST:
        _unused(play, "side")
        side = play.side
        if side not in _SIDES:
            raise IllegalActionError(CHOICES, f"{_name(ev)} must name west or east, not {shown(side)}")
        assert side is not None
        if not opp & SIDE_MASKS[side]:
            raise IllegalActionError(
                PLAYABILITY, f"no opponent holds a city of the {_SIDES[side].name.lower()}"
            )
    elif shape == UNIFY:
        _check_unification(play, own, opp)
    else:
        _check_education(state, seat, play)


def _check_take(state: State, seat: int, play: Play, own: int) -> None:
    ev = play.event
    _unused(play, "target", "take_city")
    if ev == E.ATTACK and not own & CAPITAL_MASK:
        raise IllegalActionError(PLAYABILITY, "Attack needs a capital city held by its player")
    target = _opponent(state, seat, play.target, ev)
    city = _held_by(state, target, play.take_city, "take_city")
    if not _TAKEABLE[ev] >> city & 1:
        kind = "neutral city" if ev == _LOSS_OF_INFLUENCE else "regular city of the named empire"
        raise IllegalActionError(CHOICES, f"{_name(ev)} takes a {kind}; city {city} is not one")


def _check_unification(play: Play, own: int, opp: int) -> None:
    _unused(play, "empire")
    empire = play.empire
    if not _is_index(empire, len(EMPIRE_MASKS)):
        raise IllegalActionError(CHOICES, f"Unification must name an empire, not {shown(empire)}")
    assert empire is not None
    mask = EMPIRE_MASKS[empire]
    if (own & mask).bit_count() < 4:
        raise IllegalActionError(PLAYABILITY, "Unification needs 4 held cities of the named empire")
    if not opp & mask:
        raise IllegalActionError(PLAYABILITY, "Unification would take nothing: no other player holds one")


def _check_education(state: State, seat: int, play: Play) -> None:
    if play.education == EducationMode.EXCHANGE:
        _unused(play, "education", "returns")
        if not 1 <= len(play.returns) <= MAX_RETURNS:
            raise IllegalActionError(CHOICES, "Education's exchange gives back 1 to 5 events")
        need = [0] * NUM_EVENT_TYPES
        need[_EDUCATION] = 1
        for ev in play.returns:
            if not _is_index(ev, NUM_EVENT_TYPES):
                raise IllegalActionError(CHOICES, f"unknown event {ev!r} in returns")
            need[ev] += 1
        if any(n > have for n, have in zip(need, state.hands[seat], strict=True)):
            raise IllegalActionError(CHOICES, "Education can only give back events from its player's hand")
    elif play.education == EducationMode.DISCARD:
        _unused(play, "education", "target")
        target = _opponent(state, seat, play.target, _EDUCATION)
        if not state.hand_sizes[target]:
            raise IllegalActionError(PLAYABILITY, f"seat {target} holds no events to discard")
    else:
        raise IllegalActionError(
            CHOICES, f"Education needs a mode, exchange or discard, not {shown(play.education)}"
        )
