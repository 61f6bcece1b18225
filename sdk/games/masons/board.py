"""The board of ruling M1 as tables built once at import: points, spaces, wall lines and masks.

Everything the engine asks of the board (which spaces a line touches, which lines bound a
space, which points are on the edge) is a lookup or a bit mask here, so the turn never
recomputes geometry.
"""

from __future__ import annotations

from functools import lru_cache
from math import sqrt

ROWS, PER_ROW = 5, 7
POINTS = ROWS * PER_ROW  # 35
STRIPS, PER_STRIP = 4, 12
SPACES = STRIPS * PER_STRIP  # 48
REGION_NAMES = ("west", "middle", "east")


def point(r: int, i: int) -> int:
    return PER_ROW * r + i


def point_xy(p: int) -> tuple[float, float]:
    """Where point ``p`` sits (edges have length 1, line 0 at the bottom)."""
    r, i = divmod(p, PER_ROW)
    return i + (r % 2) / 2, r * sqrt(3) / 2


def _space_corners(s: int, t: int) -> tuple[int, int, int]:
    k = t // 2
    if s % 2 == 0:
        if t % 2 == 0:
            return point(s, k), point(s, k + 1), point(s + 1, k)
        return point(s + 1, k), point(s + 1, k + 1), point(s, k + 1)
    if t % 2 == 0:
        return point(s + 1, k), point(s + 1, k + 1), point(s, k)
    return point(s, k), point(s, k + 1), point(s + 1, k + 1)


#: The three corner points of each space, by space number 12*s + t.
SPACE_CORNERS: tuple[tuple[int, int, int], ...] = tuple(
    _space_corners(s, t) for s in range(STRIPS) for t in range(PER_STRIP)
)
#: Region of each space (0 west, 1 middle, 2 east).
SPACE_REGION: tuple[int, ...] = tuple((sp % PER_STRIP) // 4 for sp in range(SPACES))


def _sides(corners: tuple[int, int, int]) -> list[tuple[int, int]]:
    a, b, c = corners
    return [tuple(sorted(pair)) for pair in ((a, b), (b, c), (a, c))]  # type: ignore[misc]


#: Every wall line as its two point numbers (lower first), in the numbering of M1.
LINES: tuple[tuple[int, int], ...] = tuple(sorted({side for c in SPACE_CORNERS for side in _sides(c)}))
LINE_COUNT = len(LINES)  # 82
LINE_INDEX: dict[tuple[int, int], int] = {pair: n for n, pair in enumerate(LINES)}
#: The spaces each line touches, ascending (one for a line on the board's edge, else two).
LINE_SPACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sp for sp, c in enumerate(SPACE_CORNERS) if line in _sides(c)) for line in LINES
)
#: The three lines bounding each space.
SPACE_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(LINE_INDEX[side] for side in _sides(c))) for c in SPACE_CORNERS
)
ALL_LINES = (1 << LINE_COUNT) - 1
ALL_SPACES = (1 << SPACES) - 1
EDGE_LINES = sum(1 << n for n, spaces in enumerate(LINE_SPACES) if len(spaces) == 1)
#: Per space: the mask of its lines on the board's edge.
SPACE_EDGE_LINES: tuple[int, ...] = tuple(
    sum(1 << line for line in lines if EDGE_LINES >> line & 1) for lines in SPACE_LINES
)
#: Per space: its neighbour across each interior line, as (line, neighbour) pairs.
SPACE_NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (line, next(o for o in LINE_SPACES[line] if o != sp)) for line in lines if len(LINE_SPACES[line]) == 2
    )
    for sp, lines in enumerate(SPACE_LINES)
)
#: Per space: the mask of all its lines, and of its corner points.
SPACE_LINE_MASK: tuple[int, ...] = tuple(sum(1 << line for line in lines) for lines in SPACE_LINES)
SPACE_POINT_MASK: tuple[int, ...] = tuple(sum(1 << p for p in c) for c in SPACE_CORNERS)
#: Per point: the mask of the spaces it is a corner of.
POINT_SPACES: tuple[int, ...] = tuple(
    sum(1 << sp for sp, c in enumerate(SPACE_CORNERS) if p in c) for p in range(POINTS)
)
#: Points on a line of the board's edge (a tower there never returns when a city closes).
EDGE_POINTS = sum(1 << p for p in {q for n, line in enumerate(LINES) if EDGE_LINES >> n & 1 for q in line})
#: Shore points: the left and right ends of every horizontal line (M1).
SHORE_POINTS = sum(1 << point(r, i) for r in range(ROWS) for i in (0, PER_ROW - 1))
REGION_SPACES: tuple[int, ...] = tuple(
    sum(1 << sp for sp in range(SPACES) if SPACE_REGION[sp] == region) for region in range(3)
)


def spaces_of(mask: int) -> list[int]:
    """The space (or line, or point) numbers set in ``mask``, ascending."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def lines_within(spaces: int) -> int:
    """Lines with every space they touch in ``spaces`` and touching two (interior to the set)."""
    inside = 0
    for sp in spaces_of(spaces):
        for line, other in SPACE_NEIGHBOURS[sp]:
            if spaces >> other & 1:
                inside |= 1 << line
    return inside


@lru_cache(maxsize=4096)
def lines_touching(spaces: int) -> int:
    """Every line that bounds a space of ``spaces`` (cached: a game asks of a few city masks often)."""
    found = 0
    for sp in spaces_of(spaces):
        found |= SPACE_LINE_MASK[sp]
    return found


@lru_cache(maxsize=4096)
def points_of(spaces: int) -> int:
    """Every corner point of a space of ``spaces`` (cached: a game asks of a few city masks often)."""
    found = 0
    for sp in spaces_of(spaces):
        found |= SPACE_POINT_MASK[sp]
    return found


def _check() -> None:
    assert LINE_COUNT == 82 and EDGE_LINES.bit_count() == 20, "M1: 82 wall lines, 20 on the edge"
    assert sum(1 for a, b in LINES if a // PER_ROW == b // PER_ROW) == 30, "M1: 30 horizontal lines"
    for a, b in LINES:
        (xa, ya), (xb, yb) = point_xy(a), point_xy(b)
        assert abs((xa - xb) ** 2 + (ya - yb) ** 2 - 1) < 1e-9, "M1: every edge has length 1"


_check()
