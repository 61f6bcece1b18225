"""How the search bot values a position, in points of final score.

A seat's value is what it has scored (as the end-of-game rules would count it)
plus what its city promises: free spots for priests, merchants and jugglers,
churches waiting for a series, walls on sides that can still close, and the
cannons the coming pirate attacks will take at its present defence. Promises
fade as the estimated end of the game approaches. The search compares seats:
its own value minus ``rival`` times the mean value of the others, so swords
that hurt the table and an early end that cuts the others short both count.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import ADJACENT, SIDE_MASKS

PIRATE_STRENGTHS = (1, 3, 6, 8, 10, 12)
CANNON_PENALTY = 5
FULL_CITY = 5
SERIES_POINTS = (0, 1, 4, 8, 13, 20)
# Pseudo-turns of prior belief in ``Weights.sword_rate`` before the game's own record takes over.
SWORD_PRIOR_TURNS = 8.0


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's constants, tuned by self-play (``benchmarks/tune_search.py``)."""

    coin: float = 1.2  # a coin while the game goes on (0.5 at the end)
    log: float = 1.65  # a log while the game goes on (1 at the end; an architect makes it 3)
    space: float = 0.0  # an empty space, room for later points (tuning found no use for it)
    orphan: float = 1.25  # per size step of a church no series uses yet
    priest_spot: float = 0.9  # per church beyond the first around the best free square
    merchant_spot: float = 0.2  # per crate beyond the second around the best free square
    juggler_spot: float = 0.8  # per person type beyond the second around the best free square
    wall: float = 0.65  # per wall on a side that can still be completed
    threat: float = 0.8  # share of the expected future cannon losses counted now
    fill_rate: float = 1.15  # spaces a city fills per turn, for the horizon (measured)
    horizon: float = 8.0  # turns over which promises fade out near the end
    sword_rate: float = 0.35  # swords marked per turn, before the game shows its own rate (measured)
    rival: float = 1.0  # weight of the other seats' mean value

    def to_json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Weights:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown weight(s): {sorted(unknown)}")
        return cls(**{k: float(v) for k, v in data.items()})


def series_and_orphans(counts: list[int]) -> tuple[int, int]:
    """Church series points (ruling R6) and the total size of churches left out of every series."""
    remaining = list(counts)
    points = 0
    while remaining[0] > 0:
        length = 0
        while length < 5 and remaining[length] > 0:
            remaining[length] -= 1
            length += 1
        points += SERIES_POINTS[length]
    return points, sum((size + 1) * n for size, n in enumerate(remaining))


class Evaluator:
    """Values cities at one table, seen from ``seat``, for the turn that starts at ``state``.

    Pirate values take the swords of the turn being planned as an argument, so one
    evaluator serves every dice outcome of the turn.
    """

    def __init__(self, state: sm.State, seat: int, weights: Weights) -> None:
        self.w = weights
        self.seat = seat
        self.players = state.num_players
        self.cannons = state.params.cannons
        self.per_row = 2 * self.players
        self.boxes = state.pirate_boxes
        self.sword_rate = (state.pirate_boxes + SWORD_PRIOR_TURNS * weights.sword_rate) / (
            state.turn + SWORD_PRIOR_TURNS
        )
        self._pirates: dict[tuple[int, int, int, float], float] = {}

    # --- horizon -----------------------------------------------------------------
    def turns_left(self, cities: list[sm.City], ending: bool, next_seat: int, terminal: bool) -> list[float]:
        """Turns each seat may still play after the turn just finished (an estimate unless ending)."""
        if terminal:
            return [0.0] * self.players
        if ending:
            return [1.0 if seat >= next_seat else 0.0 for seat in range(self.players)]
        rounds = min(city.empty_count for city in cities) / self.w.fill_rate
        return [rounds] * self.players

    def turns_after(self, state: sm.State) -> list[float]:
        """:meth:`turns_left` of a state whose turn has just ended."""
        return self.turns_left(state.cities, state.ending, state.current, state.is_terminal())

    def fade(self, turns: float) -> float:
        """Share of a promise still worth counting with ``turns`` turns to go."""
        return 1.0 - math.exp(-turns / self.w.horizon) if turns > 0 else 0.0

    # --- parts of a seat's value -------------------------------------------------
    def static(self, city: sm.City, turns: float) -> float:
        """Everything but coins and pirates: points, logs, a full city and what the city promises."""
        w = self.w
        series, orphans = series_and_orphans([m.bit_count() for m in city.churches])
        value = float(city.vp + series)
        fade = self.fade(turns)
        value += city.logs * (1.0 + (w.log - 1.0) * fade)
        empty = city.empty
        if not empty:
            return value + FULL_CITY
        if not fade:
            return value
        churches = 0
        for mask in city.churches:
            churches |= mask
        persons = [mask for mask in city.persons if mask]
        crates = city.crates
        priest = priest2 = merchant = juggler = 0
        rest = empty
        while rest:
            low = rest & -rest
            around = ADJACENT[low.bit_length() - 1]
            rest ^= low
            near = (around & churches).bit_count()
            if near > priest2:
                priest, priest2 = (near, priest) if near > priest else (priest, near)
            merchant = max(merchant, (around & crates).bit_count())
            juggler = max(juggler, sum(1 for mask in persons if mask & around))
        walls = city.walls
        blocked = city.filled & ~walls
        progress = 0
        for mask in SIDE_MASKS:
            if not blocked & mask and walls & mask != mask:
                progress += (walls & mask).bit_count()
        promise = (
            w.space * empty.bit_count()
            + w.orphan * orphans
            + w.priest_spot * (max(priest - 1, 0) + 0.5 * max(priest2 - 1, 0))
            + w.merchant_spot * max(merchant - 2, 0)
            + w.juggler_spot * max(juggler - 2, 0)
            + w.wall * progress
        )
        return value + fade * promise

    def coins(self, coins: int, turns: float) -> float:
        """Coins are half a point at the end and worth more while they can still turn dice."""
        if turns <= 0:
            return float(coins // 2)
        return coins * (0.5 + (self.w.coin - 0.5) * self.fade(turns))

    def pirates(self, defence: int, lost: int, swords: int, turns: float) -> float:
        """Cannon penalties after this turn's ``swords`` plus the expected losses still to come."""
        key = (defence, lost, swords, turns)
        cached = self._pirates.get(key)
        if cached is not None:
            return cached
        per_row = self.per_row
        after = min(self.boxes + swords, per_row * len(PIRATE_STRENGTHS))
        for row in range(self.boxes // per_row, after // per_row):
            if defence < PIRATE_STRENGTHS[row] and lost < self.cannons:
                lost += 1
        expected = 0.0
        if turns > 0:
            mean = self.sword_rate * self.players * turns
            spread = 1.0 + math.sqrt(mean)
            for row in range(after // per_row, len(PIRATE_STRENGTHS)):
                if defence < PIRATE_STRENGTHS[row]:
                    need = (row + 1) * per_row - after
                    expected += 1.0 / (1.0 + math.exp((need - mean) / spread))
        value = -CANNON_PENALTY * (lost + self.w.threat * min(expected, self.cannons - lost))
        self._pirates[key] = value
        return value

    def seat_value(self, city: sm.City, turns: float, swords: int) -> float:
        """One seat's whole value after a turn that ends with ``swords`` showing."""
        return (
            self.static(city, turns)
            + self.coins(city.coins, turns)
            + self.pirates(city.defence, city.cannons_lost, swords, turns)
        )

    def rivals(self, cities: list[sm.City], turns: list[float], swords: int) -> float:
        """``rival`` times the mean value of the other seats."""
        total = sum(
            self.seat_value(city, turns[seat], swords)
            for seat, city in enumerate(cities)
            if seat != self.seat
        )
        return self.w.rival * total / (self.players - 1)


def position_value(state: sm.State, seat: int, weights: Weights) -> float:
    """The value for ``seat`` of a state whose turn has just ended (pirates already marked)."""
    evaluator = Evaluator(state, seat, weights)
    turns = evaluator.turns_after(state)
    own = evaluator.seat_value(state.cities[seat], turns[seat], 0)
    return own - evaluator.rivals(state.cities, turns, 0)
