"""Helpers that put a game into a chosen position for a rule test."""

from __future__ import annotations

import pytest

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import mask_of, square

S = sm.Symbol


# --- squares -----------------------------------------------------------------


def sq(*cells: tuple[int, int]) -> int:
    """Mask of ``(row, col)`` cells."""
    return mask_of(*(square(r, c) for r, c in cells))


# --- turns -------------------------------------------------------------------


def roll_and_stop(state: sm.State, *faces: sm.Symbol) -> None:
    """Roll the five dice to ``faces`` and stop rolling at once."""
    state.apply(sm.Roll(tuple(faces)))
    state.apply(sm.Keep(0))


def to_place(state: sm.State, faces: tuple[sm.Symbol, ...], symbol: sm.Symbol, rotate: int = 0) -> None:
    """Roll ``faces`` once, stop, choose ``symbol`` and rotate: the place decision is next."""
    roll_and_stop(state, *faces)
    state.apply(sm.Choose(symbol))
    state.apply(sm.Rotate(rotate))


def take_turn(
    state: sm.State,
    faces: tuple[sm.Symbol, ...],
    symbol: sm.Symbol,
    place: sm.Place,
    rotate: int = 0,
) -> None:
    """One whole turn for the player to move: roll ``faces`` once, choose, rotate, place."""
    to_place(state, faces, symbol, rotate)
    state.apply(place)


def pass_turn(state: sm.State) -> None:
    """A harmless turn: one log delivered (no swords rolled, no space used)."""
    take_turn(state, (S.LOG, S.CRATE, S.CRATE, S.CRATE, S.CRATE), S.LOG, sm.PlaceLogs(1))


def quiet_turn(state: sm.State) -> None:
    """Like :func:`pass_turn` but coin-neutral: the 2 coins for the delivery are handed over first."""
    state.cities[state.current].coins += 2
    pass_turn(state)


# --- positions ---------------------------------------------------------------


def fill(city: sm.City, *, walls: int = 0, crates: int = 0, houses: int = 0) -> None:
    """Put items straight onto a city (setting up a position, not playing it)."""
    city.walls |= walls
    city.crates |= crates
    city.houses |= houses
    city.filled |= walls | crates | houses


def add_persons(city: sm.City, person: sm.Person, mask: int) -> None:
    """Put ``person`` on every space of ``mask`` (no immediate effect is applied)."""
    persons = list(city.persons)
    persons[person] |= mask
    city.persons = tuple(persons)
    city.filled |= mask


def add_churches(city: sm.City, size: int, mask: int) -> None:
    """Put a church of ``size`` on every space of ``mask``."""
    churches = list(city.churches)
    churches[size - 1] |= mask
    city.churches = tuple(churches)
    city.filled |= mask


def fill_except(city: sm.City, keep: int = 0) -> None:
    """Fill every empty space but those in ``keep`` with houses."""
    fill(city, houses=city.empty & ~keep)


def give_defence(city: sm.City, *, soldiers: int = 0, sides: tuple[int, ...] = ()) -> None:
    """Soldiers on the first free inner spaces, then complete walls on the given sides (0=top..3=left)."""
    free = list(sm.squares_of(city.empty & sm.INNER))
    add_persons(city, sm.Person.SOLDIER, mask_of(*free[:soldiers]))
    for side in sides:
        fill(city, walls=sm.SIDE_MASKS[side])


def set_stock(city: sm.City, *, coins: int | None = None, logs: int | None = None) -> None:
    """Set a city's coins and/or logs directly."""
    if coins is not None:
        city.coins = coins
    if logs is not None:
        city.logs = logs


def add_vp(city: sm.City, points: int) -> None:
    """Put points on the VP track (booked as citizens, the part does not matter here)."""
    city.score(sm.ScorePart.CITIZENS, points)


def set_pirate_boxes(state: sm.State, boxes: int) -> None:
    """Mark ``boxes`` pirate boxes as already crossed off (no attack is triggered)."""
    state.pirate_boxes = boxes


# --- checks ------------------------------------------------------------------


def decision_of(state: sm.State) -> sm.Decision | None:
    """The pending decision (a call, so type checkers do not keep an earlier narrowing)."""
    return state.decision


def expect_illegal(state: sm.State, step: sm.Step, rule: str) -> sm.IllegalActionError:
    """Assert that ``step`` is rejected naming ``rule`` and that the state is untouched."""
    before = state.to_json()
    with pytest.raises(sm.IllegalActionError) as info:
        state.apply(step)
    assert info.value.rule == rule, str(info.value)
    assert state.to_json() == before
    return info.value
