"""Which pieces a tower or house placement may end with (M3.3-M3.4), given the supply.

Pieces go down one at a time in an order the player picks; a required colour out of supply,
or the house die's free face, becomes a free choice among the colours left, and with none
left the place stays empty. The options are the distinct end results over every order.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from .cards import ANY_COLOUR

FREE = -2  # no colour required: any colour left


def _choices(required: int, supply: list[int]) -> list[int]:
    if required >= 0 and supply[required] > 0:
        return [required]
    left = [c for c, n in enumerate(supply) if n > 0]
    return left or [-1]


def _place(
    pieces: list[tuple[int, int]], supply: list[int], result: list[int], found: set[tuple[int, ...]]
) -> None:
    """Place ``pieces`` ((slot, required colour)) in the order given, every way the rules allow."""
    if not pieces:
        found.add(tuple(result))
        return
    (slot, required), rest = pieces[0], pieces[1:]
    for colour in _choices(required, supply):
        result[slot] = colour
        if colour >= 0:
            supply[colour] -= 1
        _place(rest, supply, result, found)
        if colour >= 0:
            supply[colour] += 1
    result[slot] = -1


def _outcomes(
    assignments: list[list[tuple[int, int]]], slots: int, supply: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    found: set[tuple[int, ...]] = set()
    stock = list(supply)
    for pieces in assignments:
        for order in permutations(pieces):
            _place(list(order), stock, [-1] * slots, found)
    return tuple(sorted(found))


@lru_cache(maxsize=4096)
def tower_options(ends: tuple[int, int], rolled: int, supply: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Tower colours placed on the two ends (-1: none); ``ends`` holds the colour already there or -1.

    Cached: the answer depends only on the arguments, and random play asks the same few often.
    """
    empty = [slot for slot in (0, 1) if ends[slot] < 0]
    if not empty:
        return ((-1, -1),)
    if len(empty) == 1:
        return _outcomes([[(empty[0], rolled)]], 2, supply)
    return _outcomes([[(0, rolled), (1, FREE)], [(0, FREE), (1, rolled)]], 2, supply)


@lru_cache(maxsize=4096)
def house_options(sides: int, dice: tuple[int, int], supply: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """House colours placed on each side of the wall (one or two spaces), -1: none (cached)."""
    first, second = (FREE if die == ANY_COLOUR else die for die in dice)
    if sides == 1:
        return _outcomes([[(0, first)], [(0, second)]], 1, supply)
    return _outcomes([[(0, first), (1, second)], [(0, second), (1, first)]], 2, supply)
