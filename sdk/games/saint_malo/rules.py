"""Legality: every step's check, naming the broken rule (R3, R4, R7) before anything changes, the
pending decision's legal actions, and a legal action drawn at random.

Functions of a :class:`~sdk.games.saint_malo.state.State`, which asks them from ``apply``,
``legal_actions`` and ``sample_action``.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError
from .actions import (
    Action,
    Choose,
    Keep,
    Place,
    PlaceChurch,
    PlaceCrates,
    PlaceLogs,
    PlacePerson,
    PlaceWalls,
    Roll,
    Rotate,
    Step,
)
from .board import ADJACENT, OUTER, SPACES, squares_of
from .city import City
from .phases import ALL_DICE, BONUS, CHOOSE, KEEP, PHASE_NAMES, PLACE, ROLL, ROTATE
from .pieces import DELIVERY_COST, MAX_BONUS_LEVEL, PERSON_LEVEL, ROTATION_COST, Person, Symbol
from .shapes import GROUP_SETS, GROUPS_UP_TO, HOUSES_NEAR, MAX_HOUSES

if TYPE_CHECKING:
    from .state import State

_PERSONS = tuple(Person)
_REJECTION_TRIES = 24


def check(state: State, step: Step) -> None:
    """Raise :class:`IllegalActionError` naming the rule ``step`` breaks in ``state``, if any."""
    checker = _CHECKERS.get(type(step))
    if checker is None:
        raise IllegalActionError("R7 decisions", f"{step!r} is not a Saint Malo action")
    checker(state, step)


def expect(state: State, phase: int, what: str) -> None:
    if state.phase != phase:
        pending = PHASE_NAMES[state.phase]
        raise IllegalActionError("R7 decisions", f"expected {what}, but the state awaits {pending}")


def _check_roll(state: State, step: Roll) -> None:
    expect(state, ROLL, "a roll")
    if len(step.faces) != state.to_roll.bit_count():
        raise IllegalActionError(
            "R3 rolling",
            f"{state.to_roll.bit_count()} dice are being rolled, the outcome has {len(step.faces)} faces",
        )
    if any(not 0 <= face <= Symbol.SWORDS for face in step.faces):
        raise IllegalActionError("R3 rolling", f"faces must be die symbols 0-5: {step.faces}")


def _check_keep(state: State, step: Keep) -> None:
    expect(state, KEEP, "a keep decision")
    if not 0 <= step.reroll <= ALL_DICE:
        raise IllegalActionError("R3 keep", f"reroll must be a mask over the 5 dice, got {step.reroll}")


def _check_choose(state: State, step: Choose) -> None:
    expect(state, CHOOSE, "a choose decision")
    if step.symbol == Symbol.SWORDS:
        raise IllegalActionError("R4 choose", "swords can never be the chosen symbol")
    if step.symbol not in state.available_symbols():
        raise IllegalActionError(
            "R4 choose",
            f"{Symbol(step.symbol).name.lower()} is not available: no legal use of it exists "
            "even after rotations the player can pay for",
        )


def _check_rotate(state: State, step: Rotate) -> None:
    expect(state, ROTATE, "a rotate decision")
    if not 0 <= step.dice <= ALL_DICE:
        raise IllegalActionError("R4 rotate", f"dice must be a mask over the 5 dice, got {step.dice}")
    for index in squares_of(step.dice):
        face = state.dice[index]
        if face == Symbol.SWORDS:
            raise IllegalActionError("R4 rotate", f"die {index} shows swords, which may never be rotated")
        if face == state.chosen:
            raise IllegalActionError("R4 rotate", f"die {index} already shows the chosen symbol")
    rotations = step.dice.bit_count()
    coins = state.cities[state.current].coins
    if ROTATION_COST * rotations > coins:
        raise IllegalActionError(
            "R4 rotate",
            f"{rotations} rotations cost {ROTATION_COST * rotations} coins, the player has {coins}",
        )
    if state.chosen == Symbol.LOG and ROTATION_COST * rotations + DELIVERY_COST > coins:
        raise IllegalActionError("R4 logs", "after rotating, 2 coins must remain to pay for the log delivery")
    if state.dice.count(state.chosen) + rotations < 1:
        raise IllegalActionError("R4 rotate", "at least one die must show the chosen symbol")


def _check_dice_used(state: State, used: int, what: str) -> None:
    showing = state.dice.count(state.chosen)
    if not 1 <= used <= showing:
        raise IllegalActionError(
            "R4 place", f"{what} uses {used} dice, but 1-{showing} show the chosen symbol"
        )


def _check_empty(city: City, mask: int, rule: str) -> None:
    if mask & ~SPACES:
        raise IllegalActionError(
            rule, "only the 45 spaces may be built on (towers and off-board squares are not)"
        )
    if mask & city.filled:
        raise IllegalActionError(rule, f"space(s) {list(squares_of(mask & city.filled))} are already filled")


def _check_place(state: State, step: Place) -> None:
    if state.phase == BONUS:
        raise IllegalActionError(
            "R4 bonus person", f"a completed top side grants a person: expected PlacePerson, got {step!r}"
        )
    expect(state, PLACE, "a place decision")
    symbol = state.chosen
    city = state.cities[state.current]
    expected = _PLACE_TYPES[symbol]
    if not isinstance(step, expected):
        raise IllegalActionError(
            "R4 place", f"the chosen symbol is {Symbol(symbol).name.lower()}: expected {expected.__name__}"
        )
    if isinstance(step, PlaceLogs):
        _check_dice_used(state, step.count, "the delivery")
        if city.coins < DELIVERY_COST:
            raise IllegalActionError("R4 logs", "a delivery costs 2 coins")
    elif isinstance(step, PlaceCrates):
        used = step.spaces.bit_count()
        _check_dice_used(state, used, "the crates")
        _check_empty(city, step.spaces, "R4 crates")
        if step.spaces not in GROUP_SETS[used]:
            raise IllegalActionError(
                "R4 crates", "crates placed in one turn must form one orthogonally connected group"
            )
    elif isinstance(step, PlaceWalls):
        _check_dice_used(state, step.spaces.bit_count(), "the walls")
        _check_empty(city, step.spaces, "R4 walls")
        if step.spaces & ~OUTER:
            raise IllegalActionError("R4 walls", "walls may only stand on the 20 outer spaces")
    elif isinstance(step, PlaceChurch):
        _check_dice_used(state, step.size, "the church")
        _check_square(step.space, "R4 church")
        _check_empty(city, 1 << step.space, "R4 church")
    else:
        assert isinstance(step, PlacePerson)
        _check_person_type(step, "R4 person")
        _check_dice_used(state, PERSON_LEVEL[step.person], Person(step.person).name.lower())
        _check_person(city, step, "R4 person")


def _check_bonus(state: State, step: PlacePerson) -> None:
    expect(state, BONUS, "a bonus person placement")
    _check_person_type(step, "R4 bonus person")
    if PERSON_LEVEL[step.person] > MAX_BONUS_LEVEL:
        raise IllegalActionError("R4 bonus person", "a bonus person is of level 1-3 (no juggler, no noble)")
    _check_person(state.cities[state.current], step, "R4 bonus person")


def _check_square(space: int, rule: str) -> None:
    if not 0 <= space < 49 or not SPACES >> space & 1:
        raise IllegalActionError(rule, f"square {space} is not one of the 45 spaces")


def _check_person_type(step: PlacePerson, rule: str) -> None:
    if not isinstance(step.person, int) or not 0 <= step.person < len(Person):
        raise IllegalActionError(rule, f"unknown person {step.person!r}: one of the seven types is needed")


def _check_person(city: City, step: PlacePerson, rule: str) -> None:
    _check_square(step.space, rule)
    _check_empty(city, 1 << step.space, rule)
    if step.houses and step.person != Person.ARCHITECT:
        raise IllegalActionError("R4 architect", "only an architect builds houses")
    if step.person != Person.ARCHITECT or not step.houses:
        return
    built = step.houses.bit_count()
    if built > min(MAX_HOUSES, city.logs):
        raise IllegalActionError(
            "R4 architect", f"{built} houses need {built} logs (at most 3); the player has {city.logs}"
        )
    _check_empty(city, step.houses | 1 << step.space, "R4 architect")
    if step.houses & (1 << step.space):
        raise IllegalActionError("R4 architect", "a house cannot stand on the architect's own space")
    if step.houses not in GROUP_SETS[built]:
        raise IllegalActionError(
            "R4 architect", "houses built in one turn must form one orthogonally connected group"
        )
    if not step.houses & ADJACENT[step.space]:
        raise IllegalActionError("R4 architect", "at least one house must be adjacent to the new architect")


_PLACE_TYPES: dict[int, type] = {
    Symbol.LOG: PlaceLogs,
    Symbol.CRATE: PlaceCrates,
    Symbol.WALL: PlaceWalls,
    Symbol.CROSS: PlaceChurch,
    Symbol.HEAD: PlacePerson,
}


def _check_person_step(state: State, step: PlacePerson) -> None:
    if state.phase == BONUS:
        _check_bonus(state, step)
    else:
        _check_place(state, step)


_CHECKERS: dict[type, Callable[[State, Any], None]] = {
    Roll: _check_roll,
    Keep: _check_keep,
    Choose: _check_choose,
    Rotate: _check_rotate,
    PlaceLogs: _check_place,
    PlaceCrates: _check_place,
    PlaceWalls: _check_place,
    PlaceChurch: _check_place,
    PlacePerson: _check_person_step,
}


def iter_legal_actions(state: State) -> Iterator[Action]:
    """The pending decision's legal actions one at a time, without building a list."""
    phase = state.phase
    if phase == KEEP:
        return (Keep(mask) for mask in range(ALL_DICE + 1))
    if phase == CHOOSE:
        return (Choose(s) for s in state.available_symbols())
    if phase == ROTATE:
        return iter(_legal_rotations(state))
    if phase == PLACE:
        return _iter_placements(state)
    if phase == BONUS:
        return _iter_persons(state, MAX_BONUS_LEVEL)
    return iter(())


def sample_action(state: State, rng: random.Random) -> Action:
    """A legal action drawn uniformly from all legal actions, without listing placements."""
    phase = state.phase
    if phase == KEEP:
        return Keep(rng.randrange(ALL_DICE + 1))
    if phase == CHOOSE:
        return Choose(rng.choice(state.available_symbols()))
    if phase == ROTATE:
        return rng.choice(_legal_rotations(state))
    if phase == PLACE:
        return _sample_placement(state, rng)
    if phase == BONUS:
        return _sample_person(state, rng, MAX_BONUS_LEVEL)
    raise IllegalActionError("R7 decisions", f"no decision is pending ({PHASE_NAMES[phase]})")


def _rotation_budget(state: State) -> int:
    coins = state.cities[state.current].coins
    return coins - DELIVERY_COST if state.chosen == Symbol.LOG else coins


def _legal_rotations(state: State) -> list[Rotate]:
    rotatable = state.rotatable_dice()
    budget = _rotation_budget(state)
    showing = state.dice.count(state.chosen)
    legal = []
    subset = rotatable
    while True:
        rotations = subset.bit_count()
        if ROTATION_COST * rotations <= budget and showing + rotations >= 1:
            legal.append(Rotate(subset))
        if not subset:
            return legal
        subset = (subset - 1) & rotatable


def _iter_placements(state: State) -> Iterator[Place]:
    city = state.cities[state.current]
    symbol = state.chosen
    showing = state.dice.count(symbol)
    empty = SPACES & ~city.filled
    if symbol == Symbol.LOG:
        yield from (PlaceLogs(n) for n in range(1, showing + 1))
    elif symbol == Symbol.CRATE:
        yield from (PlaceCrates(g) for g in GROUPS_UP_TO[showing] if not g & city.filled)
    elif symbol == Symbol.WALL:
        outer = list(squares_of(empty & OUTER))
        for n in range(1, min(showing, len(outer)) + 1):
            for combo in itertools.combinations(outer, n):
                yield PlaceWalls(sum(1 << s for s in combo))
    elif symbol == Symbol.CROSS:
        spaces = list(squares_of(empty))
        yield from (PlaceChurch(s, n) for n in range(1, showing + 1) for s in spaces)
    else:
        yield from _iter_persons(state, showing)


def _iter_persons(state: State, max_level: int) -> Iterator[PlacePerson]:
    city = state.cities[state.current]
    spaces = list(squares_of(SPACES & ~city.filled))
    near = HOUSES_NEAR[min(MAX_HOUSES, city.logs)]
    for person in _PERSONS:
        if PERSON_LEVEL[person] > max_level:
            continue
        for space in spaces:
            yield PlacePerson(person, space)
            if person is Person.ARCHITECT:
                blocked = city.filled | 1 << space
                for houses in near[space]:
                    if not houses & blocked:
                        yield PlacePerson(person, space, houses)


def _sample_placement(state: State, rng: random.Random) -> Place:
    city = state.cities[state.current]
    symbol = state.chosen
    showing = state.dice.count(symbol)
    if symbol == Symbol.LOG:
        return PlaceLogs(rng.randint(1, showing))
    if symbol == Symbol.CRATE:
        groups = GROUPS_UP_TO[showing]
        filled = city.filled
        for _ in range(_REJECTION_TRIES):
            group = groups[rng.randrange(len(groups))]
            if not group & filled:
                return PlaceCrates(group)
        return PlaceCrates(rng.choice([g for g in groups if not g & filled]))
    if symbol == Symbol.WALL:
        outer = list(squares_of(OUTER & ~city.filled))
        sizes = range(1, min(showing, len(outer)) + 1)
        n = rng.choices(sizes, weights=[math.comb(len(outer), k) for k in sizes])[0]
        return PlaceWalls(sum(1 << s for s in rng.sample(outer, n)))
    if symbol == Symbol.CROSS:
        spaces = list(squares_of(SPACES & ~city.filled))
        index = rng.randrange(len(spaces) * showing)
        return PlaceChurch(spaces[index % len(spaces)], index // len(spaces) + 1)
    return _sample_person(state, rng, showing)


def _sample_person(state: State, rng: random.Random, max_level: int) -> PlacePerson:
    """Uniform over (person, space, houses): rejection from a superset of candidate houses."""
    city = state.cities[state.current]
    spaces = list(squares_of(SPACES & ~city.filled))
    persons = [p for p in _PERSONS if PERSON_LEVEL[p] <= max_level]
    if Person.ARCHITECT not in persons:
        index = rng.randrange(len(persons) * len(spaces))
        return PlacePerson(persons[index // len(spaces)], spaces[index % len(spaces)])
    near = HOUSES_NEAR[min(MAX_HOUSES, city.logs)]
    others = (len(persons) - 1) * len(spaces)
    weights = [1 + len(near[s]) for s in spaces]
    total = others + sum(weights)
    ends = list(itertools.accumulate(weights))
    for _ in range(_REJECTION_TRIES):
        index = rng.randrange(total)
        if index < others:
            return PlacePerson(
                [p for p in persons if p is not Person.ARCHITECT][index // len(spaces)],
                spaces[index % len(spaces)],
            )
        index -= others
        slot = bisect.bisect_right(ends, index)
        space, option = spaces[slot], index - (ends[slot] - weights[slot])
        if option == 0:
            return PlacePerson(Person.ARCHITECT, space)
        houses = near[space][option - 1]
        if not houses & (city.filled | 1 << space):
            return PlacePerson(Person.ARCHITECT, space, houses)
    return rng.choice(list(_iter_persons(state, max_level)))
