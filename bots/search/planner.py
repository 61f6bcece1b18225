"""Expectimax over one turn: keep decisions, then the best choose/rotate/place.

The value of a turn's final dice depends only on their multiset (252 of them),
and within it only on, per symbol, how many dice show it after rotating, how
many coins the rotation cost and how many swords remain. So each symbol and
dice count gets a short list of evaluated placements (*options*), built once
per turn by playing them on the engine, and every final multiset is scored by
looking those up. The keep decisions are then an exact expectimax over the
rerolled dice with multinomial probabilities, over tables of a few thousand
numbers. A turn's planner serves all of that turn's decisions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from sdk.games import saint_malo as sm

from .candidates import BONUS_LEVELS, Layout, persons, placements
from .evaluation import Evaluator, Weights, position_value

S = sm.Symbol
NUM_DICE = 5
FACES = 6
SWORDS = int(S.SWORDS)
SCORING = tuple(range(SWORDS))
ROTATION_COST = 2
DELIVERY_COST = 2

Multiset = tuple[int, ...]  # how many dice show each face, indexed by Symbol


def _multisets(size: int) -> list[Multiset]:
    return [counts for counts in itertools.product(range(size + 1), repeat=FACES) if sum(counts) == size]


def _probability(counts: Multiset) -> float:
    size = sum(counts)
    ways = math.factorial(size)
    for count in counts:
        ways //= math.factorial(count)
    return ways / float(FACES**size)


FINALS: list[Multiset] = _multisets(NUM_DICE)
FINAL_INDEX: dict[Multiset, int] = {m: i for i, m in enumerate(FINALS)}
#: Dice kept before a reroll: multisets of 0-4 dice.
PARTIALS: list[Multiset] = [m for size in range(NUM_DICE) for m in _multisets(size)]
PARTIAL_INDEX: dict[Multiset, int] = {m: i for i, m in enumerate(PARTIALS)}
#: For each kept multiset, the final multisets a reroll can give, with their probabilities.
REROLLS: list[list[tuple[int, float]]] = [
    [
        (FINAL_INDEX[tuple(k + r for k, r in zip(kept, roll, strict=True))], _probability(roll))
        for roll in _multisets(NUM_DICE - sum(kept))
    ]
    for kept in PARTIALS
]
#: For each final multiset, the indices of its proper sub-multisets (what may be kept).
KEEPABLE: list[list[int]] = [
    [PARTIAL_INDEX[sub] for sub in itertools.product(*(range(c + 1) for c in final)) if sum(sub) < NUM_DICE]
    for final in FINALS
]


def multiset(dice: Sequence[int]) -> Multiset:
    return tuple(dice.count(face) for face in range(FACES))


def reroll_mask(dice: Sequence[int], kept: Multiset) -> int:
    """The dice to roll again so that ``kept`` stays: the lowest-numbered dice of each face stay."""
    left = list(kept)
    mask = 0
    for index, face in enumerate(dice):
        if left[face]:
            left[face] -= 1
        else:
            mask |= 1 << index
    return mask


@dataclass(frozen=True, slots=True)
class Option:
    """A placement tried on the engine, with the parts of its value that do not depend on the dice."""

    place: sm.Place
    own: float  # the mover's static value after it
    coins: int  # the mover's coins after it, before paying for rotations
    defence: int
    lost: int
    turns: tuple[float, ...]  # turns left per seat after the turn


def turn_start(state: sm.State) -> dict[str, object]:
    """The JSON form of the turn's state as it was before any dice were turned.

    Every decision of a turn maps to the same form, which keys the planner cache.
    """
    data = state.to_json()
    city = data["cities"][state.current]
    city["coins"] += ROTATION_COST * state.rotated.bit_count()
    data.update(phase="keep", rolls=2, to_roll=0, rotated=0, chosen=None, bonus_persons=0, dice=[0] * 5)
    return data


class TurnPlanner:
    """All decisions of one turn, for the seat to move at ``start`` (a :func:`turn_start` form)."""

    def __init__(self, start: dict[str, object], weights: Weights) -> None:
        self.base = sm.State.from_json(start)
        self.seat = self.base.current
        self.weights = weights
        self.evaluator = Evaluator(self.base, self.seat, weights)
        self.city = self.base.cities[self.seat]
        self.layout = Layout(self.city)
        self._exact: dict[tuple[int, int], list[Option]] = {}
        self._rivals: dict[tuple[tuple[float, ...], int], float] = {}
        self._leaves: dict[tuple[int, int, int, int], tuple[float, Option | None]] = {}
        self._finals: list[tuple[float, int, int]] | None = None
        self._before_last: list[float] | None = None
        self._nothing_turns = self._turns_if_nothing()

    # --- options and their values ------------------------------------------------
    def _turns_if_nothing(self) -> tuple[float, ...]:
        base, ev = self.base, self.evaluator
        ending = base.ending or self.city.is_full
        last = self.seat == base.num_players - 1
        next_seat = (self.seat + 1) % base.num_players
        return tuple(ev.turns_left(base.cities, ending, next_seat, ending and last))

    def rivals(self, turns: tuple[float, ...], swords: int) -> float:
        key = (turns, swords)
        value = self._rivals.get(key)
        if value is None:
            value = self.evaluator.rivals(self.base.cities, list(turns), swords)
            self._rivals[key] = value
        return value

    def option_value(self, option: Option, rotations: int, swords: int) -> float:
        ev = self.evaluator
        turns = option.turns[self.seat]
        return (
            option.own
            + ev.coins(option.coins - ROTATION_COST * rotations, turns)
            + ev.pirates(option.defence, option.lost, swords, turns)
            - self.rivals(option.turns, swords)
        )

    def nothing_value(self, swords: int) -> float:
        """The value of a turn that builds nothing."""
        ev, city, turns = self.evaluator, self.city, self._nothing_turns
        own = ev.seat_value(city, turns[self.seat], swords)
        return own - self.rivals(turns, swords)

    def exact_options(self, symbol: int, count: int) -> list[Option]:
        """Options using exactly ``count`` dice of ``symbol`` (empty if the symbol cannot be used)."""
        key = (symbol, count)
        cached = self._exact.get(key)
        if cached is not None:
            return cached
        options: list[Option] = []
        state = self.base.clone()
        state.apply_unchecked(sm.Keep(0b11111))
        other = S((symbol + 1) % SWORDS)
        state.apply_unchecked(sm.Roll((S(symbol),) * count + (other,) * (NUM_DICE - count)))
        if state.decision is sm.Decision.CHOOSE and S(symbol) in state.available_symbols():
            state.apply_unchecked(sm.Choose(S(symbol)))
            state.apply_unchecked(sm.Rotate(0))
            for place in placements(self.layout, S(symbol), count):
                after = state.clone()
                after.apply_unchecked(place)
                while after.decision is sm.Decision.BONUS_PERSON:
                    after.apply_unchecked(best_bonus_person(after, self.weights))
                options.append(self._summarise(place, after))
        self._exact[key] = options
        return options

    def _summarise(self, place: sm.Place, after: sm.State) -> Option:
        city = after.cities[self.seat]
        turns = tuple(self.evaluator.turns_after(after))
        own = self.evaluator.static(city, turns[self.seat])
        return Option(place, own, city.coins, city.defence, city.cannons_lost, turns)

    def leaf(self, symbol: int, count: int, rotations: int, swords: int) -> tuple[float, Option | None]:
        """The best option using up to ``count`` dice of ``symbol`` after ``rotations`` turned dice."""
        key = (symbol, count, rotations, swords)
        cached = self._leaves.get(key)
        if cached is not None:
            return cached
        best: tuple[float, Option | None] = (-math.inf, None)
        for used in range(count, 0, -1):
            for option in self.exact_options(symbol, used):
                value = self.option_value(option, rotations, swords)
                if value > best[0]:
                    best = (value, option)
        self._leaves[key] = best
        return best

    def symbol_use(self, dice: Multiset, symbol: int) -> tuple[float, int]:
        """Best value and rotations when scoring ``symbol`` with final ``dice`` (-inf: unusable)."""
        coins = self.city.coins
        swords = dice[SWORDS]
        showing = dice[symbol]
        delivery = DELIVERY_COST if symbol == S.LOG else 0
        best = (-math.inf, 0)
        for rotations in range(NUM_DICE - showing - swords + 1):
            if showing + rotations == 0:
                continue
            if ROTATION_COST * rotations + delivery > coins:
                break
            value, option = self.leaf(symbol, showing + rotations, rotations, swords)
            if option is not None and value > best[0]:
                best = (value, rotations)
        return best

    def best_use(self, dice: Multiset) -> tuple[float, int, int]:
        """Value, symbol and rotations of the best use of final dice (symbol -1: nothing usable)."""
        best = (-math.inf, -1, 0)
        for symbol in SCORING:
            value, rotations = self.symbol_use(dice, symbol)
            if value > best[0]:
                best = (value, symbol, rotations)
        if best[1] < 0:
            return (self.nothing_value(dice[SWORDS]), -1, 0)
        return best

    def rotations(self, symbol: int, dice: Sequence[int]) -> int:
        """How many dice to turn to the chosen ``symbol``."""
        return self.symbol_use(multiset(dice), symbol)[1]

    # --- expectimax over rerolls -------------------------------------------------
    def finals(self) -> list[tuple[float, int, int]]:
        if self._finals is None:
            self._finals = [self.best_use(dice) for dice in FINALS]
        return self._finals

    def _after_reroll(self, values: list[float]) -> list[float]:
        """Expected value of each kept multiset when the rest is rolled once more."""
        return [sum(p * values[f] for f, p in outcomes) for outcomes in REROLLS]

    def before_last(self) -> list[float]:
        """Value of each final multiset when one more reroll may follow."""
        if self._before_last is None:
            stop = [value for value, _, _ in self.finals()]
            reroll = self._after_reroll(stop)
            self._before_last = [
                max([stop[f], *(reroll[k] for k in KEEPABLE[f])]) for f in range(len(FINALS))
            ]
        return self._before_last

    def keep(self, dice: Sequence[int], rolls: int) -> int:
        """The reroll mask for the dice in hand after roll ``rolls`` (1 or 2)."""
        final = FINAL_INDEX[multiset(dice)]
        stop = self.finals()[final][0]
        then = [value for value, _, _ in self.finals()] if rolls == 2 else self.before_last()
        best_value, best_kept = stop, -1
        for kept in KEEPABLE[final]:
            value = sum(p * then[f] for f, p in REROLLS[kept])
            if value > best_value:
                best_value, best_kept = value, kept
        return 0 if best_kept < 0 else reroll_mask(dice, PARTIALS[best_kept])

    def choice(self, dice: Sequence[int]) -> tuple[int, int]:
        """Symbol and number of rotations for the final dice (symbol -1: nothing usable)."""
        _, symbol, rotations = self.best_use(multiset(dice))
        return symbol, rotations

    def placement(self, symbol: int, count: int, rotations: int, swords: int) -> sm.Place:
        _, option = self.leaf(symbol, count, rotations, swords)
        assert option is not None, "a chosen symbol always has an option"
        return option.place


def best_bonus_person(state: sm.State, weights: Weights) -> sm.PlacePerson:
    """The bonus person whose placement leaves the best position (the turn ends with it)."""
    seat = state.current
    best: tuple[float, sm.PlacePerson] | None = None
    for person in persons(Layout(state.cities[seat]), BONUS_LEVELS):
        after = state.clone()
        after.apply_unchecked(person)
        while after.decision is sm.Decision.BONUS_PERSON:
            after.apply_unchecked(best_bonus_person(after, weights))
        value = position_value(after, seat, weights)
        if best is None or value > best[0]:
            best = (value, person)
    assert best is not None, "a bonus person is only asked for when a space is free"
    return best[1]
