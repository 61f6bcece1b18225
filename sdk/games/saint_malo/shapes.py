"""Every orthogonally connected group of 1-5 spaces on a city, enumerated at import.

Crates and houses placed in one turn must form one connected group. Looking a
mask up in a frozenset is O(1), and listing the groups that fit a city is a
filter over a precomputed tuple, so no decision ever runs a graph search.
"""

from __future__ import annotations

from .board import ADJACENT, NUM_SQUARES, ORTHOGONAL, SPACES, squares_of

MAX_GROUP = 5
MAX_HOUSES = 3


def _enumerate_groups() -> tuple[tuple[int, ...], ...]:
    layers: list[set[int]] = [{0}, {1 << i for i in squares_of(SPACES)}]
    for _ in range(2, MAX_GROUP + 1):
        grown: set[int] = set()
        for group in layers[-1]:
            border = 0
            for index in squares_of(group):
                border |= ORTHOGONAL[index]
            for index in squares_of(border & ~group):
                grown.add(group | (1 << index))
        layers.append(grown)
    return tuple(tuple(sorted(layer)) for layer in layers)


#: ``GROUPS[n]``: every connected group of exactly ``n`` spaces (``GROUPS[0] == (0,)``).
GROUPS: tuple[tuple[int, ...], ...] = _enumerate_groups()
#: The same groups as sets, for O(1) validation of a placement.
GROUP_SETS: tuple[frozenset[int], ...] = tuple(frozenset(layer) for layer in GROUPS)
#: ``GROUPS_UP_TO[n]``: every connected group of 1..n spaces.
GROUPS_UP_TO: tuple[tuple[int, ...], ...] = tuple(
    tuple(g for size in range(1, n + 1) for g in GROUPS[size]) for n in range(MAX_GROUP + 1)
)


def _houses_near(index: int, max_size: int) -> tuple[int, ...]:
    return tuple(g for g in GROUPS_UP_TO[max_size] if g & ADJACENT[index] and not g & (1 << index))


#: ``HOUSES_NEAR[h][s]``: groups of 1..h houses that an architect on ``s`` may build
#: (at least one house adjacent to ``s``, none on ``s`` itself).
HOUSES_NEAR: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_houses_near(s, h) if SPACES >> s & 1 else () for s in range(NUM_SQUARES))
    for h in range(MAX_HOUSES + 1)
)
