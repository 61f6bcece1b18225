"""City detection (ruling M5): areas of spaces joined by unwalled lines, and when one is closed.

An area is a maximal set of spaces linked across lines without a wall. Its inner borders
are walled by definition, so it is a city exactly when its lines on the board's edge are
walled too. A wall can split one area in two, but both halves cannot be closed (the area
was open before), so one wall completes at most one city (M3.5).
"""

from __future__ import annotations

from .board import LINE_SPACES, SPACE_EDGE_LINES, SPACE_NEIGHBOURS


def area(start: int, walls: int, *, closed_only: bool = False) -> int:
    """The mask of spaces reachable from ``start`` across lines without a wall.

    ``closed_only``: the area only when every board-edge line of it holds a wall, else 0; the
    fill then stops at the first space with an empty edge line (most areas reach one soon).
    """
    if closed_only and SPACE_EDGE_LINES[start] & ~walls:
        return 0
    found = 1 << start
    frontier = [start]
    while frontier:
        sp = frontier.pop()
        for line, other in SPACE_NEIGHBOURS[sp]:
            if not (walls >> line & 1) and not (found >> other & 1):
                if closed_only and SPACE_EDGE_LINES[other] & ~walls:
                    return 0
                found |= 1 << other
                frontier.append(other)
    return found


def closed(spaces: int, walls: int) -> bool:
    """Whether every board-edge line of the area ``spaces`` holds a wall."""
    edge = 0
    mask = spaces
    while mask:
        low = mask & -mask
        edge |= SPACE_EDGE_LINES[low.bit_length() - 1]
        mask ^= low
    return edge & ~walls == 0


def completed_by(line: int, walls: int) -> int:
    """The spaces of the city that a wall just placed on ``line`` completes (0: none).

    ``walls`` already includes the new wall; the line lies outside every completed city. If
    both sides lie in one area, both calls see the same area, so the second adds nothing.
    """
    sides = LINE_SPACES[line]
    first = area(sides[0], walls, closed_only=True)
    if first or len(sides) == 1:
        return first
    return area(sides[1], walls, closed_only=True)
