"""How the Cities bot values a position, in points of final score.

A seat's value is its score (completed empires, +5 for the wonders) plus what its
holdings promise: progress toward each empire still open (by how many of its six
cities the seat holds), progress toward the seven wonder cities while the bonus is
still to be had by it, capitals (they enable Attack, Trade and Influence on wonders
and feed festivals), every city held (the tie-break, and a buffer against losses),
the events in hand, and the restrictions set on its coming turns. The bot compares
seats: its own value minus the best other seat's.

Only the bot's own hand is known; another seat's hand counts as its size times an
average card. Events in hand are worth less as the event deck runs out: fewer turns
remain to play them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sdk.games import cities as ci
from sdk.games.cities.state import WONDERS_BONUS

E = ci.EventType
EMPIRE_MASKS = ci.EMPIRE_MASKS
CAPITAL_MASK = ci.CAPITAL_MASK
WONDER_MASK = ci.WONDER_MASK
CITY_EMPIRE = ci.CITY_EMPIRE


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's constants (points of final score)."""

    #: Value of holding k = 0..5 cities of an open empire (6 completes it: 1 point).
    progress: tuple[float, ...] = (0.0, 0.05, 0.12, 0.22, 0.38, 0.6)
    #: Share of the wonders bonus promised by holding w = 0..6 of the 7 wonder cities.
    wonders: tuple[float, ...] = (0.0, 0.02, 0.05, 0.1, 0.18, 0.3, 0.5)
    capital: float = 0.08  # per capital held
    city: float = 0.03  # per city held (tie-break, buffer)
    other_event: float = 0.1  # per event in another seat's (unknown) hand
    silence: float = 0.08  # per silenced turn ahead
    curse: float = 0.1  # a cursed next turn
    no_city: float = 0.08  # a next turn without a city
    play_left: float = 0.1  # per event the active seat may still play this turn
    win: float = 2.0  # a finished game won outright (a shared first counts half)
    late: float = 24.0  # event deck size below which events in hand start to lose value


#: Base value of an event kind in the bot's own hand, before the context adjustments of
#: :func:`event_values`.
BASE_EVENT_VALUE: tuple[float, ...] = tuple(
    {
        E.UNIFICATION: 0.3,
        E.CHARISMA: 0.08,
        E.BIG_FESTIVAL: 0.12,
        E.MEDIUM_FESTIVAL: 0.08,
        E.SMALL_FESTIVAL: 0.06,
        E.PLAGUE: 0.04,
        E.FRIENDLY_EXCHANGE: 0.05,
        E.UNREST: 0.1,
        E.GREAT_UNREST: 0.15,
        E.LOSS_OF_INFLUENCE: 0.06,
        E.BASIC_PROTECTION: 0.18,
        E.PROTECTION: 0.24,
        E.GREAT_PROTECTION: 0.3,
        E.ATTACK: 0.18,
        E.VICTORY: 0.15,
        E.INFLUENCE_ON_WONDERS: 0.15,
        E.REBELLION: 0.15,
        E.TRADE: 0.12,
        E.EDUCATION: 0.1,
        E.BARBARIANS: 0.04,
        E.SILENCE_BEFORE_THE_STORM: 0.08,
        E.UNCOVERING_EXCAVATIONS: 0.1,
        E.CURSE: 0.06,
        E.ESPIONAGE: 0.1,
        E.FLOOD: 0.04,
        **dict.fromkeys(ci.COMMANDERS, 0.05),
        **dict.fromkeys(ci.ANGERS, 0.08),
        **dict.fromkeys(ci.GAMES, 0.06),
        **dict.fromkeys(ci.ECONOMIC_CRISES, 0.05),
    }[ev]
    for ev in E
)
_COMMANDER_BY_EMPIRE = tuple(int(ev) for ev in ci.COMMANDERS)
_ANGER_BY_EMPIRE = tuple(int(ev) for ev in ci.ANGERS)
_NEEDS_CAPITAL = (int(E.ATTACK), int(E.TRADE), int(E.INFLUENCE_ON_WONDERS))


def open_empires(params: ci.Params, done: Sequence[int]) -> list[int]:
    """Empires in play that nobody has completed yet."""
    out = 0
    for cities in done:
        out |= cities
    return [int(e) for e in params.empires if not out & EMPIRE_MASKS[e]]


def wonders_open(wonders: int, done: Sequence[int], seat: int) -> bool:
    """Whether ``seat`` can still score the wonders bonus: nobody has it and no other seat
    completed an empire holding a wonder city."""
    if wonders >= 0:
        return False
    return not any(cities & WONDER_MASK for other, cities in enumerate(done) if other != seat)


def hand_scale(event_deck: int, weights: Weights) -> float:
    """Events in hand lose value as the deck (the game's clock) runs out."""
    return min(1.0, 0.35 + 0.65 * event_deck / weights.late)


def event_values(
    held: Sequence[int], done: Sequence[int], seat: int, open_: Sequence[int], weights: Weights
) -> list[float]:
    """The value of one more card of each kind in ``seat``'s hand, in this position."""
    values = list(BASE_EVENT_VALUE)
    own = held[seat]
    others = 0
    for other, cities in enumerate(held):
        if other != seat:
            others |= cities
    has_capital = bool(own & CAPITAL_MASK)
    if not has_capital:
        for ev in _NEEDS_CAPITAL:
            values[ev] *= 0.4
    best_unify = 0.0
    for e in open_:
        mask = EMPIRE_MASKS[e]
        mine = (own & mask).bit_count()
        theirs = (others & mask).bit_count()
        # A Commander in hand is also one the others cannot use against this seat's cities.
        values[_COMMANDER_BY_EMPIRE[e]] += 0.03 * mine
        if theirs and mine:
            values[_ANGER_BY_EMPIRE[e]] += 0.02 * mine
        if theirs and mine >= 3:
            best_unify = max(best_unify, 0.1 * (mine - 2) + 0.05 * theirs)
    values[E.UNIFICATION] += best_unify
    return values


def city_delta(
    held: int,
    done: int,
    city: int,
    open_mask: int,
    may_wonders: bool,
    weights: Weights,
) -> float:
    """What ``city`` adds to a seat holding ``held`` (``city`` not among them)."""
    value = weights.city
    bit = 1 << city
    if bit & CAPITAL_MASK:
        value += weights.capital
    empire = CITY_EMPIRE[city]
    if empire >= 0 and bit & open_mask:
        have = (held & EMPIRE_MASKS[empire]).bit_count()
        value += (
            1.0 - weights.progress[have] if have == 5 else weights.progress[have + 1] - weights.progress[have]
        )
    if bit & WONDER_MASK and may_wonders:
        have = ((held | done) & WONDER_MASK).bit_count()
        after = 1.0 if have == 6 else weights.wonders[have + 1]
        value += WONDERS_BONUS * (after - weights.wonders[have])
    return value


class Table:
    """The public facts the marginal city values need, computed once per position."""

    __slots__ = ("done", "held", "may_wonders", "open_mask")

    def __init__(self, params: ci.Params, held: Sequence[int], done: Sequence[int], wonders: int) -> None:
        self.held = tuple(held)
        self.done = tuple(done)
        self.open_mask = 0
        for e in open_empires(params, done):
            self.open_mask |= EMPIRE_MASKS[e]
        self.may_wonders = tuple(wonders_open(wonders, done, seat) for seat in range(len(held)))

    def gain(self, seat: int, city: int, weights: Weights) -> float:
        """What ``seat`` gains by getting ``city``."""
        held = self.held[seat] & ~(1 << city)
        return city_delta(held, self.done[seat], city, self.open_mask, self.may_wonders[seat], weights)

    def loss(self, seat: int, city: int, weights: Weights) -> float:
        """What ``seat`` loses by giving up ``city`` (which it holds)."""
        return self.gain(seat, city, weights)


def seat_value(
    state: ci.State,
    seat: int,
    me: int,
    open_: Sequence[int],
    scale: float,
    weights: Weights,
) -> float:
    """``seat``'s value: score plus promise. Only ``me``'s hand is looked at card by card."""
    held = state.held[seat]
    done = state.done[seat]
    value = float(done.bit_count() // 6)
    if state.wonders == seat:
        value += WONDERS_BONUS
    progress = weights.progress
    for e in open_:
        value += progress[(held & EMPIRE_MASKS[e]).bit_count()]
    if wonders_open(state.wonders, state.done, seat):
        value += WONDERS_BONUS * weights.wonders[((held | done) & WONDER_MASK).bit_count()]
    # Cities of completed empires still count here, so that completing one never looks like a loss.
    value += weights.capital * (held & CAPITAL_MASK).bit_count() + weights.city * (held | done).bit_count()
    if seat == me:
        values = event_values(state.held, state.done, seat, open_, weights)
        hand = state.hands[seat]
        value += scale * sum(count * values[ev] for ev, count in enumerate(hand) if count)
    else:
        value += scale * weights.other_event * state.hand_sizes[seat]
    value -= weights.silence * state.silenced[seat]
    bit = 1 << seat
    if state.cursed & bit:
        value -= weights.curse
    if state.no_city & bit:
        value -= weights.no_city
    if state.active == seat and state.pending == ci.Decision.PLAY and state.decider == seat:
        value += scale * weights.play_left * state.plays_left
    return value


def final_value(state: ci.State, me: int, weights: Weights) -> float:
    """A finished game: score difference to the best other seat, and the outcome."""
    scores = state.scores()
    ranks = state.ranks()
    best_other = max(s for seat, s in enumerate(scores) if seat != me)
    value = float(scores[me] - best_other)
    held = state.held
    value += weights.city * (held[me].bit_count() - max(h.bit_count() for s, h in enumerate(held) if s != me))
    if ranks[me] == 1:
        value += weights.win if ranks.count(1) == 1 else weights.win / 2
    return value


def position_value(state: ci.State, me: int, weights: Weights) -> float:
    """``me``'s value minus the best other seat's value."""
    if state.is_terminal():
        return final_value(state, me, weights)
    open_ = open_empires(state.params, state.done)
    scale = hand_scale(len(state.event_deck), weights)
    mine = seat_value(state, me, me, open_, scale, weights)
    best = max(seat_value(state, seat, me, open_, scale, weights) for seat in range(state.n) if seat != me)
    return mine - best
