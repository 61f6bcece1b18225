"""Positions for the rules tests, built through the engine's own steps where the rules allow."""

from __future__ import annotations

from sdk.games.masons.actions import Roll, Shuffle, Wall
from sdk.games.masons.board import LINE_INDEX, point
from sdk.games.masons.cards import FULL_DECK
from sdk.games.masons.state import State, new_game


def line(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The wall line between points (r, i) and (r, i)."""
    pa, pb = point(*a), point(*b)
    return LINE_INDEX[(min(pa, pb), max(pa, pb))]


def dealt(players: int = 2, order: tuple[int, ...] = FULL_DECK) -> State:
    """A game after the deal (the cards in ``order``, top first), seat 0 to build a wall."""
    state = new_game(players)
    state.apply(Shuffle(tuple(order)))
    return state


def with_walls(state: State, lines: list[int]) -> State:
    """Walls put on the board without turns (setting up a position, not playing it)."""
    for n in lines:
        state.walls |= 1 << n
        state.walls_left -= 1
    return state


def build(state: State, wall: int, tower: int = 0, houses: tuple[int, int] = (0, 1)) -> State:
    """Build ``wall`` and roll the given dice; later decisions are left to the caller."""
    state.apply(Wall(wall))
    state.apply(Roll(tower, houses))
    return state
