"""Geometry of a Saint Malo city: a 7x7 grid addressed by ``row * 7 + col``.

Every set of squares is an int bit mask, so the rules engine answers "is it
empty", "which neighbours", "is the side complete" with a few integer
operations instead of loops. All tables are built once, at import.
"""

from __future__ import annotations

from collections.abc import Iterator

SIZE = 7
NUM_SQUARES = SIZE * SIZE

SIDE_NAMES: tuple[str, ...] = ("top", "right", "bottom", "left")
TOP, RIGHT, BOTTOM, LEFT = range(4)


def square(row: int, col: int) -> int:
    """Index of the square at ``(row, col)``; (0, 0) is the top-left tower."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"({row}, {col}) is off the 7x7 board")
    return row * SIZE + col


def row_col(index: int) -> tuple[int, int]:
    """The ``(row, col)`` of a square index."""
    return divmod(index, SIZE)


def mask_of(*indices: int) -> int:
    """Bit mask holding the given square indices."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def squares_of(mask: int) -> Iterator[int]:
    """Square indices in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _mask_where(predicate: object) -> int:
    assert callable(predicate)
    return mask_of(*(i for i in range(NUM_SQUARES) if predicate(*row_col(i))))


TOWERS = mask_of(square(0, 0), square(0, 6), square(6, 0), square(6, 6))
#: The 45 buildable spaces: every square but the four corner towers.
SPACES = ((1 << NUM_SQUARES) - 1) & ~TOWERS
#: The 25 inner spaces, where walls may never stand.
INNER = _mask_where(lambda r, c: 1 <= r <= 5 and 1 <= c <= 5)
#: The 20 outer spaces of the ring.
OUTER = SPACES & ~INNER
SIDE_MASKS: tuple[int, ...] = (
    _mask_where(lambda r, c: r == 0 and 1 <= c <= 5),
    _mask_where(lambda r, c: c == 6 and 1 <= r <= 5),
    _mask_where(lambda r, c: r == 6 and 1 <= c <= 5),
    _mask_where(lambda r, c: c == 0 and 1 <= r <= 5),
)


def _neighbours(index: int, steps: tuple[tuple[int, int], ...]) -> int:
    row, col = row_col(index)
    mask = 0
    for d_row, d_col in steps:
        r, c = row + d_row, col + d_col
        if 0 <= r < SIZE and 0 <= c < SIZE:
            mask |= 1 << square(r, c)
    return mask & SPACES


_ORTHOGONAL_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_ALL_STEPS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)

#: Spaces sharing an edge with each square: what "connected" means for crates and houses.
ORTHOGONAL: tuple[int, ...] = tuple(_neighbours(i, _ORTHOGONAL_STEPS) for i in range(NUM_SQUARES))
#: The 8 surrounding spaces of each square: what "adjacent" means for people.
ADJACENT: tuple[int, ...] = tuple(_neighbours(i, _ALL_STEPS) for i in range(NUM_SQUARES))
