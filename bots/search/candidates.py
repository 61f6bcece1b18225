"""A short list of sensible placements for a symbol and an exact number of dice.

The search evaluates every candidate, so the lists only need to contain the
good moves, not rank them: a few squares per item, chosen by cheap local
scores (keep wall sides intact, cluster churches around a free square where a
priest can later count them, put merchants by crates and jugglers by people).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable

from sdk.games import saint_malo as sm
from sdk.games.saint_malo.board import ADJACENT, OUTER, SIDE_MASKS
from sdk.games.saint_malo.shapes import GROUPS, HOUSES_NEAR

S = sm.Symbol
P = sm.Person
SPOTS = 3  # squares tried per single-square item
GROUPS_TRIED = 3  # crate groups and house plans tried per size
BONUS_LEVELS = (1, 2, 3)  # a completed top side grants a person of level 1-3


def _side_of(space: int) -> int:
    return next((side for side, mask in enumerate(SIDE_MASKS) if mask >> space & 1), -1)


SIDE_OF: tuple[int, ...] = tuple(_side_of(space) for space in range(49))


class Layout:
    """Per-square scores of one city, computed once and shared by its candidate lists."""

    def __init__(self, city: sm.City) -> None:
        self.city = city
        self.empty = city.empty
        churches = 0
        for mask in city.churches:
            churches |= mask
        self.churches = churches
        blocked = city.filled & ~city.walls
        self.harm: dict[int, float] = {}
        for space in sm.squares_of(self.empty):
            side = SIDE_OF[space]
            harm = 0.0
            if side >= 0 and not blocked & SIDE_MASKS[side]:
                harm = 1.0 + (city.walls & SIDE_MASKS[side]).bit_count()  # destroys an intact side
            near = (ADJACENT[space] & churches).bit_count()
            harm += 0.5 * max(near - 1, 0)  # a square a priest would want
            self.harm[space] = harm

    def best(self, score: Callable[[int], float], count: int = SPOTS) -> list[int]:
        """The ``count`` empty squares with the highest score (lowest square first on ties)."""
        return [-negated for _, negated in heapq.nlargest(count, ((score(s), -s) for s in self.harm))]

    def fillers(self, count: int = SPOTS) -> list[int]:
        """Squares where an item harms nothing else."""
        return self.best(lambda s: -self.harm[s], count)

    def near(self, targets: int, count: int = SPOTS) -> list[int]:
        """Squares with most ``targets`` around them, least harm first."""
        return self.best(lambda s: (ADJACENT[s] & targets).bit_count() - 0.3 * self.harm[s], count)

    def church_sites(self) -> list[int]:
        """Squares that grow a church cluster around some free square, and harmless ones."""
        churches, empty = self.churches, self.empty

        def score(space: int) -> float:
            hub = max(
                ((ADJACENT[n] & churches).bit_count() for n in sm.squares_of(ADJACENT[space] & empty)),
                default=-1,
            )
            return hub - 0.5 * self.harm[space]

        return _unique(self.best(score, SPOTS + 1) + self.fillers(1))


def _unique(items: Iterable[int]) -> list[int]:
    return list(dict.fromkeys(items))


def walls(city: sm.City, count: int) -> list[sm.PlaceWalls]:
    """``count`` walls, finishing one intact side first, then the most advanced others."""
    free = OUTER & city.empty
    if free.bit_count() < count:
        return []
    blocked = city.filled & ~city.walls
    intact = [side for side, mask in enumerate(SIDE_MASKS) if not blocked & mask and free & mask]

    def order(first: int) -> list[int]:
        sides = sorted(intact, key=lambda side: (side != first, -(city.walls & SIDE_MASKS[side]).bit_count()))
        squares = [s for side in sides for s in sm.squares_of(SIDE_MASKS[side] & free)]
        rest = [s for s in sm.squares_of(free) if s not in squares]
        return squares + rest

    masks = _unique(sum(1 << s for s in order(first)[:count]) for first in intact or [-1])
    return [sm.PlaceWalls(m) for m in masks]


def crates(layout: Layout, count: int) -> list[sm.PlaceCrates]:
    """Connected groups of ``count`` crates off the intact sides, leaving room for merchants."""
    city, empty, harm = layout.city, layout.empty, layout.harm
    scored = []
    for group in GROUPS[count]:
        if group & ~empty:
            continue
        halo = 0
        cost = 0.0
        for space in sm.squares_of(group):
            halo |= ADJACENT[space]
            cost += harm[space]
        value = 0.3 * (halo & empty & ~group).bit_count() + 0.3 * (halo & city.crates).bit_count() - cost
        scored.append((value, -group))
    return [sm.PlaceCrates(-g) for _, g in heapq.nlargest(GROUPS_TRIED, scored)]


def architects(layout: Layout) -> list[sm.PlacePerson]:
    """Architect plans with as many houses as the logs allow, least harm first."""
    city = layout.city
    built = min(3, city.logs)
    if not built:
        return [sm.PlacePerson(P.ARCHITECT, s) for s in layout.fillers(1)]
    plans = []
    for space in layout.harm:
        blocked = city.filled | 1 << space
        best: tuple[float, int] | None = None
        for houses in HOUSES_NEAR[built][space]:
            if houses.bit_count() == built and not houses & blocked:
                cost = sum(layout.harm[s] for s in sm.squares_of(houses))
                if best is None or cost < best[0]:
                    best = (cost, houses)
        if best is not None:
            plans.append((-(best[0] + layout.harm[space]), -space, best[1]))
    chosen = [sm.PlacePerson(P.ARCHITECT, -s, h) for _, s, h in heapq.nlargest(GROUPS_TRIED, plans)]
    return chosen or architects_with_fewer(layout, built - 1)


def architects_with_fewer(layout: Layout, built: int) -> list[sm.PlacePerson]:
    """When no group of the full size fits, an architect with as many houses as do fit."""
    city = layout.city
    for size in range(built, 0, -1):
        for space in layout.fillers(len(layout.harm)):
            blocked = city.filled | 1 << space
            for houses in HOUSES_NEAR[size][space]:
                if houses.bit_count() == size and not houses & blocked:
                    return [sm.PlacePerson(P.ARCHITECT, space, houses)]
    return [sm.PlacePerson(P.ARCHITECT, s) for s in layout.fillers(1)]


def persons(layout: Layout, levels: tuple[int, ...]) -> list[sm.PlacePerson]:
    """Placements of the persons whose level is one of ``levels``."""
    city = layout.city
    plans: list[sm.PlacePerson] = []
    for person in P:
        if person.level not in levels:
            continue
        if person is P.PRIEST:
            spots = layout.near(layout.churches)
        elif person is P.MERCHANT:
            spots = layout.near(city.crates, 2)
        elif person is P.JUGGLER:
            spots = layout.best(lambda s: city.adjacent_person_types(s) - 0.3 * layout.harm[s])
        elif person is P.ARCHITECT:
            plans += architects(layout)
            continue
        else:
            spots = layout.fillers(2)
        plans += [sm.PlacePerson(person, s) for s in spots]
    return plans


def placements(layout: Layout, symbol: sm.Symbol, count: int) -> list[sm.Place]:
    """Candidate placements using exactly ``count`` dice of ``symbol``."""
    city = layout.city
    if symbol is S.LOG:
        return [sm.PlaceLogs(count)]
    if symbol is S.WALL:
        return list(walls(city, count))
    if city.empty.bit_count() < (count if symbol is S.CRATE else 1):
        return []
    if symbol is S.CRATE:
        return list(crates(layout, count))
    if symbol is S.CROSS:
        return [sm.PlaceChurch(s, count) for s in layout.church_sites()]
    return list(persons(layout, (count,)))
