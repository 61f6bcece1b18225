"""What one seat may know (ruling M9): the whole table and history's results, its own hand.

Hidden are the other hands and the draw pile's order; hand sizes, the discard pile and the
draw pile's size are public.
"""

from __future__ import annotations

from dataclasses import dataclass

from .phases import DECISION_PHASES, FINAL, SCORE, SWAP
from .state import State

QUEUED_PHASES = (SCORE, SWAP, FINAL)


@dataclass(frozen=True, slots=True)
class CityView:
    spaces: int
    houses: tuple[int, ...]
    palaces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """Seat ``seat``'s view; every field but ``hand`` is the same for all seats."""

    seat: int
    players: int
    phase: int  # a phase number of :mod:`~sdk.games.masons.state`
    active: int
    turn: int
    queue: tuple[int, ...]
    walls: int
    closed: int
    towers: tuple[int, ...]
    houses: tuple[tuple[int, ...], ...]
    cities: tuple[CityView, ...]
    walls_left: int
    towers_left: tuple[int, ...]
    houses_left: tuple[int, ...]
    palaces_left: tuple[int, ...]
    points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    hand: tuple[int, ...]
    discards: tuple[int, ...]
    draw_size: int
    draws: tuple[tuple[int, int], ...]
    wall: int
    roll: tuple[int, ...]  # empty before the dice are rolled this turn
    new_city: int
    scored_city: int
    completed: bool
    ending: bool

    @property
    def kind(self) -> str | None:
        """The decision kind this seat is asked for, if it is the one deciding."""
        if self.phase not in DECISION_PHASES or self.draws:  # the end, or chance comes first
            return None
        deciding = self.queue[0] if self.queue and self.phase in QUEUED_PHASES else self.active
        return DECISION_PHASES[self.phase] if deciding == self.seat else None


def observe(state: State, seat: int) -> Observation:
    return Observation(
        seat=seat,
        players=state.n,
        phase=state.phase,
        active=state.active,
        turn=state.turn,
        queue=tuple(state.queue),
        walls=state.walls,
        closed=state.closed,
        towers=tuple(state.towers),
        houses=tuple(tuple(h) for h in state.houses),
        cities=tuple(CityView(c.spaces, tuple(c.houses), tuple(c.palaces)) for c in state.cities),
        walls_left=state.walls_left,
        towers_left=tuple(state.towers_left),
        houses_left=tuple(state.houses_left),
        palaces_left=tuple(state.palaces_left),
        points=tuple(state.points),
        hand_sizes=tuple(sum(hand) for hand in state.hands),
        hand=tuple(state.hands[seat]),
        discards=tuple(state.discards),
        draw_size=len(state.draw_pile),
        draws=tuple((s, c) for s, c in state.draws),
        wall=state.wall,
        roll=() if state.roll is None else state.roll,
        new_city=state.new_city,
        scored_city=state.scored_city,
        completed=state.completed,
        ending=state.ending,
    )
